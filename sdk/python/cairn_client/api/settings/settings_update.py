from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.settings_patch import SettingsPatch
from ...models.tenant_settings import TenantSettings
from ...types import Response


def _get_kwargs(
    *,
    body: SettingsPatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/settings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | TenantSettings | None:
    if response.status_code == 200:
        response_200 = TenantSettings.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | TenantSettings]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SettingsPatch,
) -> Response[ErrorBody | TenantSettings]:
    """Change the tenant's lifecycle settings (admin scope).

     Active forgetting archives (never deletes) memories whose health reached 0; retention deletes
    archived
    memories for good after the given number of days. Both are off by default.

    Args:
        body (SettingsPatch): Changes to the lifecycle settings; absent fields keep their value,
            `archive_retention_days: null`
            turns retention off. Example: {'forgetting_enabled': True, 'forgetting_grace_days': 120}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TenantSettings]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: SettingsPatch,
) -> ErrorBody | TenantSettings | None:
    """Change the tenant's lifecycle settings (admin scope).

     Active forgetting archives (never deletes) memories whose health reached 0; retention deletes
    archived
    memories for good after the given number of days. Both are off by default.

    Args:
        body (SettingsPatch): Changes to the lifecycle settings; absent fields keep their value,
            `archive_retention_days: null`
            turns retention off. Example: {'forgetting_enabled': True, 'forgetting_grace_days': 120}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TenantSettings
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SettingsPatch,
) -> Response[ErrorBody | TenantSettings]:
    """Change the tenant's lifecycle settings (admin scope).

     Active forgetting archives (never deletes) memories whose health reached 0; retention deletes
    archived
    memories for good after the given number of days. Both are off by default.

    Args:
        body (SettingsPatch): Changes to the lifecycle settings; absent fields keep their value,
            `archive_retention_days: null`
            turns retention off. Example: {'forgetting_enabled': True, 'forgetting_grace_days': 120}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TenantSettings]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SettingsPatch,
) -> ErrorBody | TenantSettings | None:
    """Change the tenant's lifecycle settings (admin scope).

     Active forgetting archives (never deletes) memories whose health reached 0; retention deletes
    archived
    memories for good after the given number of days. Both are off by default.

    Args:
        body (SettingsPatch): Changes to the lifecycle settings; absent fields keep their value,
            `archive_retention_days: null`
            turns retention off. Example: {'forgetting_enabled': True, 'forgetting_grace_days': 120}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TenantSettings
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.rotate_key import RotateKey
from ...models.rotated_key import RotatedKey
from ...types import Response


def _get_kwargs(
    id: UUID,
    key_id: UUID,
    *,
    body: RotateKey,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{id}/keys/{key_id}/rotate".format(
            id=quote(str(id), safe=""),
            key_id=quote(str(key_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | RotatedKey | None:
    if response.status_code == 201:
        response_201 = RotatedKey.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

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
) -> Response[ErrorBody | RotatedKey]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    key_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RotateKey,
) -> Response[ErrorBody | RotatedKey]:
    """Rotate one of a tenant's keys: a new secret; the old one works for the grace period chosen (default
    0).

    Args:
        id (UUID):
        key_id (UUID):
        body (RotateKey):  Example: {'grace_period_secs': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RotatedKey]
    """

    kwargs = _get_kwargs(
        id=id,
        key_id=key_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    key_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RotateKey,
) -> ErrorBody | RotatedKey | None:
    """Rotate one of a tenant's keys: a new secret; the old one works for the grace period chosen (default
    0).

    Args:
        id (UUID):
        key_id (UUID):
        body (RotateKey):  Example: {'grace_period_secs': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RotatedKey
    """

    return sync_detailed(
        id=id,
        key_id=key_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    key_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RotateKey,
) -> Response[ErrorBody | RotatedKey]:
    """Rotate one of a tenant's keys: a new secret; the old one works for the grace period chosen (default
    0).

    Args:
        id (UUID):
        key_id (UUID):
        body (RotateKey):  Example: {'grace_period_secs': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RotatedKey]
    """

    kwargs = _get_kwargs(
        id=id,
        key_id=key_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    key_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RotateKey,
) -> ErrorBody | RotatedKey | None:
    """Rotate one of a tenant's keys: a new secret; the old one works for the grace period chosen (default
    0).

    Args:
        id (UUID):
        key_id (UUID):
        body (RotateKey):  Example: {'grace_period_secs': 3600}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RotatedKey
    """

    return (
        await asyncio_detailed(
            id=id,
            key_id=key_id,
            client=client,
            body=body,
        )
    ).parsed

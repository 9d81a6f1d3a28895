from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.consolidate_params import ConsolidateParams
from ...models.consolidate_response import ConsolidateResponse
from ...models.consolidation_queued import ConsolidationQueued
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: ConsolidateParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/consolidate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConsolidateResponse | ConsolidationQueued | ErrorBody | None:
    if response.status_code == 200:
        response_200 = ConsolidateResponse.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = ConsolidationQueued.from_dict(response.json())

        return response_202

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
) -> Response[ConsolidateResponse | ConsolidationQueued | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConsolidateParams,
) -> Response[ConsolidateResponse | ConsolidationQueued | ErrorBody]:
    """Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports
    only.
    Waits for the run up to 25 s; past that, 202 with its id.

    Args:
        body (ConsolidateParams): A consolidation as callers ask for it (native
            `/api/v1/consolidate` and AutoMem's `/consolidate`). Example: {'dry_run': True, 'mode':
            'cluster', 'time_horizon': 'weekly'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsolidateResponse | ConsolidationQueued | ErrorBody]
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
    body: ConsolidateParams,
) -> ConsolidateResponse | ConsolidationQueued | ErrorBody | None:
    """Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports
    only.
    Waits for the run up to 25 s; past that, 202 with its id.

    Args:
        body (ConsolidateParams): A consolidation as callers ask for it (native
            `/api/v1/consolidate` and AutoMem's `/consolidate`). Example: {'dry_run': True, 'mode':
            'cluster', 'time_horizon': 'weekly'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsolidateResponse | ConsolidationQueued | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConsolidateParams,
) -> Response[ConsolidateResponse | ConsolidationQueued | ErrorBody]:
    """Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports
    only.
    Waits for the run up to 25 s; past that, 202 with its id.

    Args:
        body (ConsolidateParams): A consolidation as callers ask for it (native
            `/api/v1/consolidate` and AutoMem's `/consolidate`). Example: {'dry_run': True, 'mode':
            'cluster', 'time_horizon': 'weekly'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsolidateResponse | ConsolidationQueued | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ConsolidateParams,
) -> ConsolidateResponse | ConsolidationQueued | ErrorBody | None:
    """Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports
    only.
    Waits for the run up to 25 s; past that, 202 with its id.

    Args:
        body (ConsolidateParams): A consolidation as callers ask for it (native
            `/api/v1/consolidate` and AutoMem's `/consolidate`). Example: {'dry_run': True, 'mode':
            'cluster', 'time_horizon': 'weekly'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsolidateResponse | ConsolidationQueued | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

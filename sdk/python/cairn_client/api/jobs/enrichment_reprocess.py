from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.reprocess_request import ReprocessRequest
from ...models.reprocessed import Reprocessed
from ...types import Response


def _get_kwargs(
    *,
    body: ReprocessRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/enrichment/reprocess",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | Reprocessed | None:
    if response.status_code == 202:
        response_202 = Reprocessed.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

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
) -> Response[ErrorBody | Reprocessed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReprocessRequest,
) -> Response[ErrorBody | Reprocessed]:
    """Enrich memories again (after a model or rule change, or a failure).

    Args:
        body (ReprocessRequest): Memories to enrich again. Example: {'ids':
            ['5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Reprocessed]
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
    body: ReprocessRequest,
) -> ErrorBody | Reprocessed | None:
    """Enrich memories again (after a model or rule change, or a failure).

    Args:
        body (ReprocessRequest): Memories to enrich again. Example: {'ids':
            ['5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Reprocessed
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReprocessRequest,
) -> Response[ErrorBody | Reprocessed]:
    """Enrich memories again (after a model or rule change, or a failure).

    Args:
        body (ReprocessRequest): Memories to enrich again. Example: {'ids':
            ['5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Reprocessed]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReprocessRequest,
) -> ErrorBody | Reprocessed | None:
    """Enrich memories again (after a model or rule change, or a failure).

    Args:
        body (ReprocessRequest): Memories to enrich again. Example: {'ids':
            ['5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Reprocessed
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

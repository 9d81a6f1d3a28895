from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.reembed_request import ReembedRequest
from ...models.reembedded import Reembedded
from ...types import Response


def _get_kwargs(
    *,
    body: ReembedRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/reembed",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Reembedded | None:
    if response.status_code == 200:
        response_200 = Reembedded.from_dict(response.json())

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
) -> Response[ErrorBody | Reembedded]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReembedRequest,
) -> Response[ErrorBody | Reembedded]:
    """Re-embed the tenant's memories (AutoMem's admin route; admin-scoped key, also as `X-Admin-Token`).

     Queues the embeddings of up to `limit` memories again, `batch_size` per job; 503 when no embedder is
    configured.

    Args:
        body (ReembedRequest): AutoMem's re-embedding request. Example: {'batch_size': 32,
            'limit': 1000}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Reembedded]
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
    body: ReembedRequest,
) -> ErrorBody | Reembedded | None:
    """Re-embed the tenant's memories (AutoMem's admin route; admin-scoped key, also as `X-Admin-Token`).

     Queues the embeddings of up to `limit` memories again, `batch_size` per job; 503 when no embedder is
    configured.

    Args:
        body (ReembedRequest): AutoMem's re-embedding request. Example: {'batch_size': 32,
            'limit': 1000}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Reembedded
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReembedRequest,
) -> Response[ErrorBody | Reembedded]:
    """Re-embed the tenant's memories (AutoMem's admin route; admin-scoped key, also as `X-Admin-Token`).

     Queues the embeddings of up to `limit` memories again, `batch_size` per job; 503 when no embedder is
    configured.

    Args:
        body (ReembedRequest): AutoMem's re-embedding request. Example: {'batch_size': 32,
            'limit': 1000}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Reembedded]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReembedRequest,
) -> ErrorBody | Reembedded | None:
    """Re-embed the tenant's memories (AutoMem's admin route; admin-scoped key, also as `X-Admin-Token`).

     Queues the embeddings of up to `limit` memories again, `batch_size` per job; 503 when no embedder is
    configured.

    Args:
        body (ReembedRequest): AutoMem's re-embedding request. Example: {'batch_size': 32,
            'limit': 1000}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Reembedded
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

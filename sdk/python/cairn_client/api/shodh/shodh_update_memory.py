from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.memory import Memory
from ...models.shodh_error import ShodhError
from ...models.shodh_patch import ShodhPatch
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: ShodhPatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/memories/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Memory | ShodhError | None:
    if response.status_code == 200:
        response_200 = Memory.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ShodhError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ShodhError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ShodhError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ShodhError.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ShodhError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ShodhError.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = ShodhError.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ShodhError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Memory | ShodhError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ShodhPatch,
) -> Response[Memory | ShodhError]:
    """Update memory metadata without changing content or re-embedding (SHODH).

    Args:
        id (UUID):
        body (ShodhPatch): SHODH's update: tags, classification, metadata, quality score; never
            content. Example: {'memory_type': 'Learning', 'metadata': {'reviewed_by': 'ana'}, 'tags':
            ['auth', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Memory | ShodhError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ShodhPatch,
) -> Memory | ShodhError | None:
    """Update memory metadata without changing content or re-embedding (SHODH).

    Args:
        id (UUID):
        body (ShodhPatch): SHODH's update: tags, classification, metadata, quality score; never
            content. Example: {'memory_type': 'Learning', 'metadata': {'reviewed_by': 'ana'}, 'tags':
            ['auth', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Memory | ShodhError
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ShodhPatch,
) -> Response[Memory | ShodhError]:
    """Update memory metadata without changing content or re-embedding (SHODH).

    Args:
        id (UUID):
        body (ShodhPatch): SHODH's update: tags, classification, metadata, quality score; never
            content. Example: {'memory_type': 'Learning', 'metadata': {'reviewed_by': 'ana'}, 'tags':
            ['auth', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Memory | ShodhError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ShodhPatch,
) -> Memory | ShodhError | None:
    """Update memory metadata without changing content or re-embedding (SHODH).

    Args:
        id (UUID):
        body (ShodhPatch): SHODH's update: tags, classification, metadata, quality score; never
            content. Example: {'memory_type': 'Learning', 'metadata': {'reviewed_by': 'ana'}, 'tags':
            ['auth', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Memory | ShodhError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed

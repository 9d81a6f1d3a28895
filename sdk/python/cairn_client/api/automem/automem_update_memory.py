from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_id_response import MemoryIdResponse
from ...models.memory_patch import MemoryPatch
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: MemoryPatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/memory/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MemoryIdResponse | None:
    if response.status_code == 200:
        response_200 = MemoryIdResponse.from_dict(response.json())

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
) -> Response[ErrorBody | MemoryIdResponse]:
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
    body: MemoryPatch,
) -> Response[ErrorBody | MemoryIdResponse]:
    """Update a memory (AutoMem).

     The native partial update: `metadata` replaces the stored object; new content is re-embedded; new
    tags
    recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are
    ignored:
    the service keeps those itself.

    Args:
        id (UUID):
        body (MemoryPatch): A partial update: absent fields stay as they are; `null` clears a
            nullable field. `metadata` replaces
            the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash
            and queues
            re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later
            does not make
            a memory a flashbulb memory.

            The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset)
            and MCP's
            `update_memory` all read it. Example: {'importance': 0.95, 'tags': ['project-alpha',
            'database', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryIdResponse]
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
    body: MemoryPatch,
) -> ErrorBody | MemoryIdResponse | None:
    """Update a memory (AutoMem).

     The native partial update: `metadata` replaces the stored object; new content is re-embedded; new
    tags
    recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are
    ignored:
    the service keeps those itself.

    Args:
        id (UUID):
        body (MemoryPatch): A partial update: absent fields stay as they are; `null` clears a
            nullable field. `metadata` replaces
            the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash
            and queues
            re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later
            does not make
            a memory a flashbulb memory.

            The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset)
            and MCP's
            `update_memory` all read it. Example: {'importance': 0.95, 'tags': ['project-alpha',
            'database', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryIdResponse
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
    body: MemoryPatch,
) -> Response[ErrorBody | MemoryIdResponse]:
    """Update a memory (AutoMem).

     The native partial update: `metadata` replaces the stored object; new content is re-embedded; new
    tags
    recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are
    ignored:
    the service keeps those itself.

    Args:
        id (UUID):
        body (MemoryPatch): A partial update: absent fields stay as they are; `null` clears a
            nullable field. `metadata` replaces
            the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash
            and queues
            re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later
            does not make
            a memory a flashbulb memory.

            The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset)
            and MCP's
            `update_memory` all read it. Example: {'importance': 0.95, 'tags': ['project-alpha',
            'database', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryIdResponse]
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
    body: MemoryPatch,
) -> ErrorBody | MemoryIdResponse | None:
    """Update a memory (AutoMem).

     The native partial update: `metadata` replaces the stored object; new content is re-embedded; new
    tags
    recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are
    ignored:
    the service keeps those itself.

    Args:
        id (UUID):
        body (MemoryPatch): A partial update: absent fields stay as they are; `null` clears a
            nullable field. `metadata` replaces
            the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash
            and queues
            re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later
            does not make
            a memory a flashbulb memory.

            The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset)
            and MCP's
            `update_memory` all read it. Example: {'importance': 0.95, 'tags': ['project-alpha',
            'database', 'reviewed']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryIdResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed

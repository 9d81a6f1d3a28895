from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_input import MemoryInput
from ...models.stored import Stored
from ...types import Response


def _get_kwargs(
    *,
    body: MemoryInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/memory",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Stored | None:
    if response.status_code == 200:
        response_200 = Stored.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Stored.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Stored]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: MemoryInput,
) -> Response[ErrorBody | Stored]:
    """Store a memory (AutoMem).

     The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
    hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content
    the
    tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.

    Args:
        body (MemoryInput): A memory to store. Field names of all four seeds are accepted:
            `arousal` for `emotional_arousal`,
            `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is
            ignored.

            The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores
            and MCP's
            `store_memory` all read this type, and their documented schemas are derived from it,
            limits included. Example: {'content': 'Chose PostgreSQL over MongoDB: we need ACID
            transactions.', 'importance': 0.9, 'metadata': {'alternatives': ['MongoDB']}, 'tags':
            ['project-alpha', 'database'], 'type': 'Decision', 'user_id': 'user-42'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stored]
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
    body: MemoryInput,
) -> ErrorBody | Stored | None:
    """Store a memory (AutoMem).

     The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
    hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content
    the
    tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.

    Args:
        body (MemoryInput): A memory to store. Field names of all four seeds are accepted:
            `arousal` for `emotional_arousal`,
            `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is
            ignored.

            The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores
            and MCP's
            `store_memory` all read this type, and their documented schemas are derived from it,
            limits included. Example: {'content': 'Chose PostgreSQL over MongoDB: we need ACID
            transactions.', 'importance': 0.9, 'metadata': {'alternatives': ['MongoDB']}, 'tags':
            ['project-alpha', 'database'], 'type': 'Decision', 'user_id': 'user-42'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stored
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: MemoryInput,
) -> Response[ErrorBody | Stored]:
    """Store a memory (AutoMem).

     The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
    hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content
    the
    tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.

    Args:
        body (MemoryInput): A memory to store. Field names of all four seeds are accepted:
            `arousal` for `emotional_arousal`,
            `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is
            ignored.

            The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores
            and MCP's
            `store_memory` all read this type, and their documented schemas are derived from it,
            limits included. Example: {'content': 'Chose PostgreSQL over MongoDB: we need ACID
            transactions.', 'importance': 0.9, 'metadata': {'alternatives': ['MongoDB']}, 'tags':
            ['project-alpha', 'database'], 'type': 'Decision', 'user_id': 'user-42'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stored]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: MemoryInput,
) -> ErrorBody | Stored | None:
    """Store a memory (AutoMem).

     The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
    hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content
    the
    tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.

    Args:
        body (MemoryInput): A memory to store. Field names of all four seeds are accepted:
            `arousal` for `emotional_arousal`,
            `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is
            ignored.

            The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores
            and MCP's
            `store_memory` all read this type, and their documented schemas are derived from it,
            limits included. Example: {'content': 'Chose PostgreSQL over MongoDB: we need ACID
            transactions.', 'importance': 0.9, 'metadata': {'alternatives': ['MongoDB']}, 'tags':
            ['project-alpha', 'database'], 'type': 'Decision', 'user_id': 'user-42'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stored
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

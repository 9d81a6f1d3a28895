from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.memory_input import MemoryInput
from ...models.remembered import Remembered
from ...models.shodh_error import ShodhError
from ...types import Response


def _get_kwargs(
    *,
    body: MemoryInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/remember",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Remembered | ShodhError | None:
    if response.status_code == 201:
        response_201 = Remembered.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ShodhError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ShodhError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ShodhError.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = ShodhError.from_dict(response.json())

        return response_409

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Remembered | ShodhError]:
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
) -> Response[Remembered | ShodhError]:
    """Store a new memory (SHODH).

     The native store with SHODH's fields (emotion, episode, source, credibility, `created_at` for
    back-dating, never in the future). `type` defaults to Observation. Same content again is a 409 with
    `existing_id`.

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
        Response[Remembered | ShodhError]
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
) -> Remembered | ShodhError | None:
    """Store a new memory (SHODH).

     The native store with SHODH's fields (emotion, episode, source, credibility, `created_at` for
    back-dating, never in the future). `type` defaults to Observation. Same content again is a 409 with
    `existing_id`.

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
        Remembered | ShodhError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: MemoryInput,
) -> Response[Remembered | ShodhError]:
    """Store a new memory (SHODH).

     The native store with SHODH's fields (emotion, episode, source, credibility, `created_at` for
    back-dating, never in the future). `type` defaults to Observation. Same content again is a 409 with
    `existing_id`.

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
        Response[Remembered | ShodhError]
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
) -> Remembered | ShodhError | None:
    """Store a new memory (SHODH).

     The native store with SHODH's fields (emotion, episode, source, credibility, `created_at` for
    back-dating, never in the future). `type` defaults to Observation. Same content again is a 409 with
    `existing_id`.

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
        Remembered | ShodhError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

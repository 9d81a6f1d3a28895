from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.compact_recall import CompactRecall
from ...models.error_body import ErrorBody
from ...models.grouped_params import GroupedParams
from ...models.verbose_recall import VerboseRecall
from ...types import Response


def _get_kwargs(
    *,
    body: GroupedParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/recall/entities",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CompactRecall | VerboseRecall | ErrorBody | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> CompactRecall | VerboseRecall:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_entity_recall_response_type_0 = CompactRecall.from_dict(data)

                return componentsschemas_entity_recall_response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_entity_recall_response_type_1 = VerboseRecall.from_dict(data)

            return componentsschemas_entity_recall_response_type_1

        response_200 = _parse_response_200(response.json())

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
) -> Response[CompactRecall | VerboseRecall | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GroupedParams,
) -> Response[CompactRecall | VerboseRecall | ErrorBody]:
    """Recall memories grouped by the entities they mention.

     Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an
    entity
    (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory
    that
    mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
    entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid
    limit,
    invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
    model loads).

    Args:
        body (GroupedParams): Entity-grouped recall (textrawl's `recall_memories`; native `POST
            /api/v1/recall/entities` and MCP's
            `recall_memories`). Example: {'entityTypes': ['person', 'preference'], 'limit': 10,
            'query': 'user preferences for development tools', 'searchMode': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompactRecall | VerboseRecall | ErrorBody]
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
    body: GroupedParams,
) -> CompactRecall | VerboseRecall | ErrorBody | None:
    """Recall memories grouped by the entities they mention.

     Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an
    entity
    (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory
    that
    mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
    entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid
    limit,
    invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
    model loads).

    Args:
        body (GroupedParams): Entity-grouped recall (textrawl's `recall_memories`; native `POST
            /api/v1/recall/entities` and MCP's
            `recall_memories`). Example: {'entityTypes': ['person', 'preference'], 'limit': 10,
            'query': 'user preferences for development tools', 'searchMode': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompactRecall | VerboseRecall | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GroupedParams,
) -> Response[CompactRecall | VerboseRecall | ErrorBody]:
    """Recall memories grouped by the entities they mention.

     Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an
    entity
    (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory
    that
    mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
    entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid
    limit,
    invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
    model loads).

    Args:
        body (GroupedParams): Entity-grouped recall (textrawl's `recall_memories`; native `POST
            /api/v1/recall/entities` and MCP's
            `recall_memories`). Example: {'entityTypes': ['person', 'preference'], 'limit': 10,
            'query': 'user preferences for development tools', 'searchMode': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompactRecall | VerboseRecall | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: GroupedParams,
) -> CompactRecall | VerboseRecall | ErrorBody | None:
    """Recall memories grouped by the entities they mention.

     Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an
    entity
    (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory
    that
    mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
    entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid
    limit,
    invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
    model loads).

    Args:
        body (GroupedParams): Entity-grouped recall (textrawl's `recall_memories`; native `POST
            /api/v1/recall/entities` and MCP's
            `recall_memories`). Example: {'entityTypes': ['person', 'preference'], 'limit': 10,
            'query': 'user preferences for development tools', 'searchMode': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompactRecall | VerboseRecall | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.automem_recall_mode import AutomemRecallMode
from ...models.automem_recall_sort import AutomemRecallSort
from ...models.automem_recall_tag_match import AutomemRecallTagMatch
from ...models.automem_recall_tag_mode import AutomemRecallTagMode
from ...models.error_body import ErrorBody
from ...models.recall_answer import RecallAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    context_tags: list[str] | Unset = UNSET,
    end: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_score: float | None | Unset = UNSET,
    mode: AutomemRecallMode | Unset = UNSET,
    queries: list[str] | Unset = UNSET,
    query: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    sort: AutomemRecallSort | Unset = UNSET,
    start: None | str | Unset = UNSET,
    tag_match: AutomemRecallTagMatch | Unset = UNSET,
    tag_mode: AutomemRecallTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    time_query: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_context_tags: list[str] | Unset = UNSET
    if not isinstance(context_tags, Unset):
        json_context_tags = context_tags

    params["context_tags"] = json_context_tags

    json_end: None | str | Unset
    if isinstance(end, Unset):
        json_end = UNSET
    else:
        json_end = end
    params["end"] = json_end

    json_exclude_tags: list[str] | Unset = UNSET
    if not isinstance(exclude_tags, Unset):
        json_exclude_tags = exclude_tags

    params["exclude_tags"] = json_exclude_tags

    json_expand_entities: bool | None | Unset
    if isinstance(expand_entities, Unset):
        json_expand_entities = UNSET
    else:
        json_expand_entities = expand_entities
    params["expand_entities"] = json_expand_entities

    json_expand_relations: bool | None | Unset
    if isinstance(expand_relations, Unset):
        json_expand_relations = UNSET
    else:
        json_expand_relations = expand_relations
    params["expand_relations"] = json_expand_relations

    json_expansion_limit: int | None | Unset
    if isinstance(expansion_limit, Unset):
        json_expansion_limit = UNSET
    else:
        json_expansion_limit = expansion_limit
    params["expansion_limit"] = json_expansion_limit

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_min_score: float | None | Unset
    if isinstance(min_score, Unset):
        json_min_score = UNSET
    else:
        json_min_score = min_score
    params["min_score"] = json_min_score

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    json_queries: list[str] | Unset = UNSET
    if not isinstance(queries, Unset):
        json_queries = queries

    params["queries"] = json_queries

    json_query: None | str | Unset
    if isinstance(query, Unset):
        json_query = UNSET
    else:
        json_query = query
    params["query"] = json_query

    json_relation_limit: int | None | Unset
    if isinstance(relation_limit, Unset):
        json_relation_limit = UNSET
    else:
        json_relation_limit = relation_limit
    params["relation_limit"] = json_relation_limit

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_start: None | str | Unset
    if isinstance(start, Unset):
        json_start = UNSET
    else:
        json_start = start
    params["start"] = json_start

    json_tag_match: str | Unset = UNSET
    if not isinstance(tag_match, Unset):
        json_tag_match = tag_match.value

    params["tag_match"] = json_tag_match

    json_tag_mode: str | Unset = UNSET
    if not isinstance(tag_mode, Unset):
        json_tag_mode = tag_mode.value

    params["tag_mode"] = json_tag_mode

    json_tags: list[str] | Unset = UNSET
    if not isinstance(tags, Unset):
        json_tags = tags

    params["tags"] = json_tags

    json_time_query: None | str | Unset
    if isinstance(time_query, Unset):
        json_time_query = UNSET
    else:
        json_time_query = time_query
    params["time_query"] = json_time_query

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/recall",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RecallAnswer | None:
    if response.status_code == 200:
        response_200 = RecallAnswer.from_dict(response.json())

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
) -> Response[ErrorBody | RecallAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    context_tags: list[str] | Unset = UNSET,
    end: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_score: float | None | Unset = UNSET,
    mode: AutomemRecallMode | Unset = UNSET,
    queries: list[str] | Unset = UNSET,
    query: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    sort: AutomemRecallSort | Unset = UNSET,
    start: None | str | Unset = UNSET,
    tag_match: AutomemRecallTagMatch | Unset = UNSET,
    tag_mode: AutomemRecallTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    time_query: None | str | Unset = UNSET,
) -> Response[ErrorBody | RecallAnswer]:
    """Recall memories (AutoMem).

     The native recall per query, on one snapshot; several queries merge (each memory once, best score).
    `time_query` is a period in words, `start`/`end` explicit bounds. `min_score` drops weak results;
    `context_tags` lifts results carrying those tags by 0.1.

    Args:
        context_tags (list[str] | Unset):
        end (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        limit (int | None | Unset):
        min_score (float | None | Unset):
        mode (AutomemRecallMode | Unset):
        queries (list[str] | Unset):
        query (None | str | Unset):
        relation_limit (int | None | Unset):
        sort (AutomemRecallSort | Unset):
        start (None | str | Unset):
        tag_match (AutomemRecallTagMatch | Unset):
        tag_mode (AutomemRecallTagMode | Unset):
        tags (list[str] | Unset):
        time_query (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallAnswer]
    """

    kwargs = _get_kwargs(
        context_tags=context_tags,
        end=end,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        limit=limit,
        min_score=min_score,
        mode=mode,
        queries=queries,
        query=query,
        relation_limit=relation_limit,
        sort=sort,
        start=start,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        time_query=time_query,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    context_tags: list[str] | Unset = UNSET,
    end: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_score: float | None | Unset = UNSET,
    mode: AutomemRecallMode | Unset = UNSET,
    queries: list[str] | Unset = UNSET,
    query: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    sort: AutomemRecallSort | Unset = UNSET,
    start: None | str | Unset = UNSET,
    tag_match: AutomemRecallTagMatch | Unset = UNSET,
    tag_mode: AutomemRecallTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    time_query: None | str | Unset = UNSET,
) -> ErrorBody | RecallAnswer | None:
    """Recall memories (AutoMem).

     The native recall per query, on one snapshot; several queries merge (each memory once, best score).
    `time_query` is a period in words, `start`/`end` explicit bounds. `min_score` drops weak results;
    `context_tags` lifts results carrying those tags by 0.1.

    Args:
        context_tags (list[str] | Unset):
        end (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        limit (int | None | Unset):
        min_score (float | None | Unset):
        mode (AutomemRecallMode | Unset):
        queries (list[str] | Unset):
        query (None | str | Unset):
        relation_limit (int | None | Unset):
        sort (AutomemRecallSort | Unset):
        start (None | str | Unset):
        tag_match (AutomemRecallTagMatch | Unset):
        tag_mode (AutomemRecallTagMode | Unset):
        tags (list[str] | Unset):
        time_query (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallAnswer
    """

    return sync_detailed(
        client=client,
        context_tags=context_tags,
        end=end,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        limit=limit,
        min_score=min_score,
        mode=mode,
        queries=queries,
        query=query,
        relation_limit=relation_limit,
        sort=sort,
        start=start,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        time_query=time_query,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    context_tags: list[str] | Unset = UNSET,
    end: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_score: float | None | Unset = UNSET,
    mode: AutomemRecallMode | Unset = UNSET,
    queries: list[str] | Unset = UNSET,
    query: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    sort: AutomemRecallSort | Unset = UNSET,
    start: None | str | Unset = UNSET,
    tag_match: AutomemRecallTagMatch | Unset = UNSET,
    tag_mode: AutomemRecallTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    time_query: None | str | Unset = UNSET,
) -> Response[ErrorBody | RecallAnswer]:
    """Recall memories (AutoMem).

     The native recall per query, on one snapshot; several queries merge (each memory once, best score).
    `time_query` is a period in words, `start`/`end` explicit bounds. `min_score` drops weak results;
    `context_tags` lifts results carrying those tags by 0.1.

    Args:
        context_tags (list[str] | Unset):
        end (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        limit (int | None | Unset):
        min_score (float | None | Unset):
        mode (AutomemRecallMode | Unset):
        queries (list[str] | Unset):
        query (None | str | Unset):
        relation_limit (int | None | Unset):
        sort (AutomemRecallSort | Unset):
        start (None | str | Unset):
        tag_match (AutomemRecallTagMatch | Unset):
        tag_mode (AutomemRecallTagMode | Unset):
        tags (list[str] | Unset):
        time_query (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallAnswer]
    """

    kwargs = _get_kwargs(
        context_tags=context_tags,
        end=end,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        limit=limit,
        min_score=min_score,
        mode=mode,
        queries=queries,
        query=query,
        relation_limit=relation_limit,
        sort=sort,
        start=start,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        time_query=time_query,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    context_tags: list[str] | Unset = UNSET,
    end: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_score: float | None | Unset = UNSET,
    mode: AutomemRecallMode | Unset = UNSET,
    queries: list[str] | Unset = UNSET,
    query: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    sort: AutomemRecallSort | Unset = UNSET,
    start: None | str | Unset = UNSET,
    tag_match: AutomemRecallTagMatch | Unset = UNSET,
    tag_mode: AutomemRecallTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    time_query: None | str | Unset = UNSET,
) -> ErrorBody | RecallAnswer | None:
    """Recall memories (AutoMem).

     The native recall per query, on one snapshot; several queries merge (each memory once, best score).
    `time_query` is a period in words, `start`/`end` explicit bounds. `min_score` drops weak results;
    `context_tags` lifts results carrying those tags by 0.1.

    Args:
        context_tags (list[str] | Unset):
        end (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        limit (int | None | Unset):
        min_score (float | None | Unset):
        mode (AutomemRecallMode | Unset):
        queries (list[str] | Unset):
        query (None | str | Unset):
        relation_limit (int | None | Unset):
        sort (AutomemRecallSort | Unset):
        start (None | str | Unset):
        tag_match (AutomemRecallTagMatch | Unset):
        tag_mode (AutomemRecallTagMode | Unset):
        tags (list[str] | Unset):
        time_query (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            context_tags=context_tags,
            end=end,
            exclude_tags=exclude_tags,
            expand_entities=expand_entities,
            expand_relations=expand_relations,
            expansion_limit=expansion_limit,
            limit=limit,
            min_score=min_score,
            mode=mode,
            queries=queries,
            query=query,
            relation_limit=relation_limit,
            sort=sort,
            start=start,
            tag_match=tag_match,
            tag_mode=tag_mode,
            tags=tags,
            time_query=time_query,
        )
    ).parsed

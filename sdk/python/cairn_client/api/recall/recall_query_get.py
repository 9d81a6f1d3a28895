from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.recall_query_get_memory_type import RecallQueryGetMemoryType
from ...models.recall_query_get_mode import RecallQueryGetMode
from ...models.recall_query_get_sort import RecallQueryGetSort
from ...models.recall_query_get_state_mode import RecallQueryGetStateMode
from ...models.recall_query_get_tag_match import RecallQueryGetTagMatch
from ...models.recall_query_get_tag_mode import RecallQueryGetTagMode
from ...models.recall_response import RecallResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    agent_id: None | str | Unset = UNSET,
    created_by: None | str | Unset = UNSET,
    episode_id: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    include_archived: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    max_importance: float | None | Unset = UNSET,
    memory_type: RecallQueryGetMemoryType | Unset = UNSET,
    min_importance: float | None | Unset = UNSET,
    mode: RecallQueryGetMode | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    quality_boost: bool | None | Unset = UNSET,
    quality_weight: float | None | Unset = UNSET,
    query: None | str | Unset = UNSET,
    reference_time: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    run_id: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    sort: RecallQueryGetSort | Unset = UNSET,
    state_mode: RecallQueryGetStateMode | Unset = UNSET,
    tag_match: RecallQueryGetTagMatch | Unset = UNSET,
    tag_mode: RecallQueryGetTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    types: list[str] | Unset = UNSET,
    until: None | str | Unset = UNSET,
    user_id: None | str | Unset = UNSET,
    valid_at: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_agent_id: None | str | Unset
    if isinstance(agent_id, Unset):
        json_agent_id = UNSET
    else:
        json_agent_id = agent_id
    params["agent_id"] = json_agent_id

    json_created_by: None | str | Unset
    if isinstance(created_by, Unset):
        json_created_by = UNSET
    else:
        json_created_by = created_by
    params["created_by"] = json_created_by

    json_episode_id: None | str | Unset
    if isinstance(episode_id, Unset):
        json_episode_id = UNSET
    else:
        json_episode_id = episode_id
    params["episode_id"] = json_episode_id

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

    json_include_archived: bool | None | Unset
    if isinstance(include_archived, Unset):
        json_include_archived = UNSET
    else:
        json_include_archived = include_archived
    params["include_archived"] = json_include_archived

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_max_importance: float | None | Unset
    if isinstance(max_importance, Unset):
        json_max_importance = UNSET
    else:
        json_max_importance = max_importance
    params["max_importance"] = json_max_importance

    json_memory_type: str | Unset = UNSET
    if not isinstance(memory_type, Unset):
        json_memory_type = memory_type.value

    params["memory_type"] = json_memory_type

    json_min_importance: float | None | Unset
    if isinstance(min_importance, Unset):
        json_min_importance = UNSET
    else:
        json_min_importance = min_importance
    params["min_importance"] = json_min_importance

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    json_offset: int | None | Unset
    if isinstance(offset, Unset):
        json_offset = UNSET
    else:
        json_offset = offset
    params["offset"] = json_offset

    json_quality_boost: bool | None | Unset
    if isinstance(quality_boost, Unset):
        json_quality_boost = UNSET
    else:
        json_quality_boost = quality_boost
    params["quality_boost"] = json_quality_boost

    json_quality_weight: float | None | Unset
    if isinstance(quality_weight, Unset):
        json_quality_weight = UNSET
    else:
        json_quality_weight = quality_weight
    params["quality_weight"] = json_quality_weight

    json_query: None | str | Unset
    if isinstance(query, Unset):
        json_query = UNSET
    else:
        json_query = query
    params["query"] = json_query

    json_reference_time: None | str | Unset
    if isinstance(reference_time, Unset):
        json_reference_time = UNSET
    else:
        json_reference_time = reference_time
    params["reference_time"] = json_reference_time

    json_relation_limit: int | None | Unset
    if isinstance(relation_limit, Unset):
        json_relation_limit = UNSET
    else:
        json_relation_limit = relation_limit
    params["relation_limit"] = json_relation_limit

    json_run_id: None | str | Unset
    if isinstance(run_id, Unset):
        json_run_id = UNSET
    else:
        json_run_id = run_id
    params["run_id"] = json_run_id

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    else:
        json_since = since
    params["since"] = json_since

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_state_mode: str | Unset = UNSET
    if not isinstance(state_mode, Unset):
        json_state_mode = state_mode.value

    params["state_mode"] = json_state_mode

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

    json_types: list[str] | Unset = UNSET
    if not isinstance(types, Unset):
        json_types = types

    params["types"] = json_types

    json_until: None | str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    else:
        json_until = until
    params["until"] = json_until

    json_user_id: None | str | Unset
    if isinstance(user_id, Unset):
        json_user_id = UNSET
    else:
        json_user_id = user_id
    params["user_id"] = json_user_id

    json_valid_at: None | str | Unset
    if isinstance(valid_at, Unset):
        json_valid_at = UNSET
    else:
        json_valid_at = valid_at
    params["valid_at"] = json_valid_at

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/recall",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RecallResponse | None:
    if response.status_code == 200:
        response_200 = RecallResponse.from_dict(response.json())

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
) -> Response[ErrorBody | RecallResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    agent_id: None | str | Unset = UNSET,
    created_by: None | str | Unset = UNSET,
    episode_id: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    include_archived: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    max_importance: float | None | Unset = UNSET,
    memory_type: RecallQueryGetMemoryType | Unset = UNSET,
    min_importance: float | None | Unset = UNSET,
    mode: RecallQueryGetMode | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    quality_boost: bool | None | Unset = UNSET,
    quality_weight: float | None | Unset = UNSET,
    query: None | str | Unset = UNSET,
    reference_time: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    run_id: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    sort: RecallQueryGetSort | Unset = UNSET,
    state_mode: RecallQueryGetStateMode | Unset = UNSET,
    tag_match: RecallQueryGetTagMatch | Unset = UNSET,
    tag_mode: RecallQueryGetTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    types: list[str] | Unset = UNSET,
    until: None | str | Unset = UNSET,
    user_id: None | str | Unset = UNSET,
    valid_at: None | str | Unset = UNSET,
) -> Response[ErrorBody | RecallResponse]:
    """Recall memories (query-string form of POST; lists as repeated keys or comma-separated).

    Args:
        agent_id (None | str | Unset):
        created_by (None | str | Unset):
        episode_id (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        include_archived (bool | None | Unset):
        limit (int | None | Unset):
        max_importance (float | None | Unset):
        memory_type (RecallQueryGetMemoryType | Unset):
        min_importance (float | None | Unset):
        mode (RecallQueryGetMode | Unset):
        offset (int | None | Unset):
        quality_boost (bool | None | Unset):
        quality_weight (float | None | Unset):
        query (None | str | Unset):
        reference_time (None | str | Unset):
        relation_limit (int | None | Unset):
        run_id (None | str | Unset):
        since (None | str | Unset):
        sort (RecallQueryGetSort | Unset):
        state_mode (RecallQueryGetStateMode | Unset):
        tag_match (RecallQueryGetTagMatch | Unset):
        tag_mode (RecallQueryGetTagMode | Unset):
        tags (list[str] | Unset):
        types (list[str] | Unset):
        until (None | str | Unset):
        user_id (None | str | Unset):
        valid_at (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        created_by=created_by,
        episode_id=episode_id,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        include_archived=include_archived,
        limit=limit,
        max_importance=max_importance,
        memory_type=memory_type,
        min_importance=min_importance,
        mode=mode,
        offset=offset,
        quality_boost=quality_boost,
        quality_weight=quality_weight,
        query=query,
        reference_time=reference_time,
        relation_limit=relation_limit,
        run_id=run_id,
        since=since,
        sort=sort,
        state_mode=state_mode,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        types=types,
        until=until,
        user_id=user_id,
        valid_at=valid_at,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    agent_id: None | str | Unset = UNSET,
    created_by: None | str | Unset = UNSET,
    episode_id: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    include_archived: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    max_importance: float | None | Unset = UNSET,
    memory_type: RecallQueryGetMemoryType | Unset = UNSET,
    min_importance: float | None | Unset = UNSET,
    mode: RecallQueryGetMode | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    quality_boost: bool | None | Unset = UNSET,
    quality_weight: float | None | Unset = UNSET,
    query: None | str | Unset = UNSET,
    reference_time: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    run_id: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    sort: RecallQueryGetSort | Unset = UNSET,
    state_mode: RecallQueryGetStateMode | Unset = UNSET,
    tag_match: RecallQueryGetTagMatch | Unset = UNSET,
    tag_mode: RecallQueryGetTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    types: list[str] | Unset = UNSET,
    until: None | str | Unset = UNSET,
    user_id: None | str | Unset = UNSET,
    valid_at: None | str | Unset = UNSET,
) -> ErrorBody | RecallResponse | None:
    """Recall memories (query-string form of POST; lists as repeated keys or comma-separated).

    Args:
        agent_id (None | str | Unset):
        created_by (None | str | Unset):
        episode_id (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        include_archived (bool | None | Unset):
        limit (int | None | Unset):
        max_importance (float | None | Unset):
        memory_type (RecallQueryGetMemoryType | Unset):
        min_importance (float | None | Unset):
        mode (RecallQueryGetMode | Unset):
        offset (int | None | Unset):
        quality_boost (bool | None | Unset):
        quality_weight (float | None | Unset):
        query (None | str | Unset):
        reference_time (None | str | Unset):
        relation_limit (int | None | Unset):
        run_id (None | str | Unset):
        since (None | str | Unset):
        sort (RecallQueryGetSort | Unset):
        state_mode (RecallQueryGetStateMode | Unset):
        tag_match (RecallQueryGetTagMatch | Unset):
        tag_mode (RecallQueryGetTagMode | Unset):
        tags (list[str] | Unset):
        types (list[str] | Unset):
        until (None | str | Unset):
        user_id (None | str | Unset):
        valid_at (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse
    """

    return sync_detailed(
        client=client,
        agent_id=agent_id,
        created_by=created_by,
        episode_id=episode_id,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        include_archived=include_archived,
        limit=limit,
        max_importance=max_importance,
        memory_type=memory_type,
        min_importance=min_importance,
        mode=mode,
        offset=offset,
        quality_boost=quality_boost,
        quality_weight=quality_weight,
        query=query,
        reference_time=reference_time,
        relation_limit=relation_limit,
        run_id=run_id,
        since=since,
        sort=sort,
        state_mode=state_mode,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        types=types,
        until=until,
        user_id=user_id,
        valid_at=valid_at,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    agent_id: None | str | Unset = UNSET,
    created_by: None | str | Unset = UNSET,
    episode_id: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    include_archived: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    max_importance: float | None | Unset = UNSET,
    memory_type: RecallQueryGetMemoryType | Unset = UNSET,
    min_importance: float | None | Unset = UNSET,
    mode: RecallQueryGetMode | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    quality_boost: bool | None | Unset = UNSET,
    quality_weight: float | None | Unset = UNSET,
    query: None | str | Unset = UNSET,
    reference_time: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    run_id: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    sort: RecallQueryGetSort | Unset = UNSET,
    state_mode: RecallQueryGetStateMode | Unset = UNSET,
    tag_match: RecallQueryGetTagMatch | Unset = UNSET,
    tag_mode: RecallQueryGetTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    types: list[str] | Unset = UNSET,
    until: None | str | Unset = UNSET,
    user_id: None | str | Unset = UNSET,
    valid_at: None | str | Unset = UNSET,
) -> Response[ErrorBody | RecallResponse]:
    """Recall memories (query-string form of POST; lists as repeated keys or comma-separated).

    Args:
        agent_id (None | str | Unset):
        created_by (None | str | Unset):
        episode_id (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        include_archived (bool | None | Unset):
        limit (int | None | Unset):
        max_importance (float | None | Unset):
        memory_type (RecallQueryGetMemoryType | Unset):
        min_importance (float | None | Unset):
        mode (RecallQueryGetMode | Unset):
        offset (int | None | Unset):
        quality_boost (bool | None | Unset):
        quality_weight (float | None | Unset):
        query (None | str | Unset):
        reference_time (None | str | Unset):
        relation_limit (int | None | Unset):
        run_id (None | str | Unset):
        since (None | str | Unset):
        sort (RecallQueryGetSort | Unset):
        state_mode (RecallQueryGetStateMode | Unset):
        tag_match (RecallQueryGetTagMatch | Unset):
        tag_mode (RecallQueryGetTagMode | Unset):
        tags (list[str] | Unset):
        types (list[str] | Unset):
        until (None | str | Unset):
        user_id (None | str | Unset):
        valid_at (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse]
    """

    kwargs = _get_kwargs(
        agent_id=agent_id,
        created_by=created_by,
        episode_id=episode_id,
        exclude_tags=exclude_tags,
        expand_entities=expand_entities,
        expand_relations=expand_relations,
        expansion_limit=expansion_limit,
        include_archived=include_archived,
        limit=limit,
        max_importance=max_importance,
        memory_type=memory_type,
        min_importance=min_importance,
        mode=mode,
        offset=offset,
        quality_boost=quality_boost,
        quality_weight=quality_weight,
        query=query,
        reference_time=reference_time,
        relation_limit=relation_limit,
        run_id=run_id,
        since=since,
        sort=sort,
        state_mode=state_mode,
        tag_match=tag_match,
        tag_mode=tag_mode,
        tags=tags,
        types=types,
        until=until,
        user_id=user_id,
        valid_at=valid_at,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    agent_id: None | str | Unset = UNSET,
    created_by: None | str | Unset = UNSET,
    episode_id: None | str | Unset = UNSET,
    exclude_tags: list[str] | Unset = UNSET,
    expand_entities: bool | None | Unset = UNSET,
    expand_relations: bool | None | Unset = UNSET,
    expansion_limit: int | None | Unset = UNSET,
    include_archived: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    max_importance: float | None | Unset = UNSET,
    memory_type: RecallQueryGetMemoryType | Unset = UNSET,
    min_importance: float | None | Unset = UNSET,
    mode: RecallQueryGetMode | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    quality_boost: bool | None | Unset = UNSET,
    quality_weight: float | None | Unset = UNSET,
    query: None | str | Unset = UNSET,
    reference_time: None | str | Unset = UNSET,
    relation_limit: int | None | Unset = UNSET,
    run_id: None | str | Unset = UNSET,
    since: None | str | Unset = UNSET,
    sort: RecallQueryGetSort | Unset = UNSET,
    state_mode: RecallQueryGetStateMode | Unset = UNSET,
    tag_match: RecallQueryGetTagMatch | Unset = UNSET,
    tag_mode: RecallQueryGetTagMode | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    types: list[str] | Unset = UNSET,
    until: None | str | Unset = UNSET,
    user_id: None | str | Unset = UNSET,
    valid_at: None | str | Unset = UNSET,
) -> ErrorBody | RecallResponse | None:
    """Recall memories (query-string form of POST; lists as repeated keys or comma-separated).

    Args:
        agent_id (None | str | Unset):
        created_by (None | str | Unset):
        episode_id (None | str | Unset):
        exclude_tags (list[str] | Unset):
        expand_entities (bool | None | Unset):
        expand_relations (bool | None | Unset):
        expansion_limit (int | None | Unset):
        include_archived (bool | None | Unset):
        limit (int | None | Unset):
        max_importance (float | None | Unset):
        memory_type (RecallQueryGetMemoryType | Unset):
        min_importance (float | None | Unset):
        mode (RecallQueryGetMode | Unset):
        offset (int | None | Unset):
        quality_boost (bool | None | Unset):
        quality_weight (float | None | Unset):
        query (None | str | Unset):
        reference_time (None | str | Unset):
        relation_limit (int | None | Unset):
        run_id (None | str | Unset):
        since (None | str | Unset):
        sort (RecallQueryGetSort | Unset):
        state_mode (RecallQueryGetStateMode | Unset):
        tag_match (RecallQueryGetTagMatch | Unset):
        tag_mode (RecallQueryGetTagMode | Unset):
        tags (list[str] | Unset):
        types (list[str] | Unset):
        until (None | str | Unset):
        user_id (None | str | Unset):
        valid_at (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            agent_id=agent_id,
            created_by=created_by,
            episode_id=episode_id,
            exclude_tags=exclude_tags,
            expand_entities=expand_entities,
            expand_relations=expand_relations,
            expansion_limit=expansion_limit,
            include_archived=include_archived,
            limit=limit,
            max_importance=max_importance,
            memory_type=memory_type,
            min_importance=min_importance,
            mode=mode,
            offset=offset,
            quality_boost=quality_boost,
            quality_weight=quality_weight,
            query=query,
            reference_time=reference_time,
            relation_limit=relation_limit,
            run_id=run_id,
            since=since,
            sort=sort,
            state_mode=state_mode,
            tag_match=tag_match,
            tag_mode=tag_mode,
            tags=tags,
            types=types,
            until=until,
            user_id=user_id,
            valid_at=valid_at,
        )
    ).parsed

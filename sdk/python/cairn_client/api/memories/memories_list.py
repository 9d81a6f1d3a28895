from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_page import MemoryPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: list[str] | Unset = UNSET,
    memory_type: str | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    tag_mode: str | Unset = UNSET,
    tag_match: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    run_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    min_importance: float | Unset = UNSET,
    max_importance: float | Unset = UNSET,
    include_archived: bool | Unset = UNSET,
    created_by: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_type_: list[str] | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    params["memory_type"] = memory_type

    json_tags: list[str] | Unset = UNSET
    if not isinstance(tags, Unset):
        json_tags = tags

    params["tags"] = json_tags

    params["tag_mode"] = tag_mode

    params["tag_match"] = tag_match

    params["user_id"] = user_id

    params["agent_id"] = agent_id

    params["run_id"] = run_id

    params["created_after"] = created_after

    params["created_before"] = created_before

    params["min_importance"] = min_importance

    params["max_importance"] = max_importance

    params["include_archived"] = include_archived

    params["created_by"] = created_by

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/memories",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | MemoryPage | None:
    if response.status_code == 200:
        response_200 = MemoryPage.from_dict(response.json())

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
) -> Response[ErrorBody | MemoryPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: list[str] | Unset = UNSET,
    memory_type: str | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    tag_mode: str | Unset = UNSET,
    tag_match: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    run_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    min_importance: float | Unset = UNSET,
    max_importance: float | Unset = UNSET,
    include_archived: bool | Unset = UNSET,
    created_by: str | Unset = UNSET,
) -> Response[ErrorBody | MemoryPage]:
    """List memories, newest first.

     Ordered by `created_at` descending, then id, so paging is stable. Archived and expired memories are
    left out unless `include_archived=true`.

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (list[str] | Unset):
        memory_type (str | Unset):
        tags (list[str] | Unset):
        tag_mode (str | Unset):
        tag_match (str | Unset):
        user_id (str | Unset):
        agent_id (str | Unset):
        run_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        min_importance (float | Unset):
        max_importance (float | Unset):
        include_archived (bool | Unset):
        created_by (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryPage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        type_=type_,
        memory_type=memory_type,
        tags=tags,
        tag_mode=tag_mode,
        tag_match=tag_match,
        user_id=user_id,
        agent_id=agent_id,
        run_id=run_id,
        created_after=created_after,
        created_before=created_before,
        min_importance=min_importance,
        max_importance=max_importance,
        include_archived=include_archived,
        created_by=created_by,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: list[str] | Unset = UNSET,
    memory_type: str | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    tag_mode: str | Unset = UNSET,
    tag_match: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    run_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    min_importance: float | Unset = UNSET,
    max_importance: float | Unset = UNSET,
    include_archived: bool | Unset = UNSET,
    created_by: str | Unset = UNSET,
) -> ErrorBody | MemoryPage | None:
    """List memories, newest first.

     Ordered by `created_at` descending, then id, so paging is stable. Archived and expired memories are
    left out unless `include_archived=true`.

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (list[str] | Unset):
        memory_type (str | Unset):
        tags (list[str] | Unset):
        tag_mode (str | Unset):
        tag_match (str | Unset):
        user_id (str | Unset):
        agent_id (str | Unset):
        run_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        min_importance (float | Unset):
        max_importance (float | Unset):
        include_archived (bool | Unset):
        created_by (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryPage
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        type_=type_,
        memory_type=memory_type,
        tags=tags,
        tag_mode=tag_mode,
        tag_match=tag_match,
        user_id=user_id,
        agent_id=agent_id,
        run_id=run_id,
        created_after=created_after,
        created_before=created_before,
        min_importance=min_importance,
        max_importance=max_importance,
        include_archived=include_archived,
        created_by=created_by,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: list[str] | Unset = UNSET,
    memory_type: str | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    tag_mode: str | Unset = UNSET,
    tag_match: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    run_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    min_importance: float | Unset = UNSET,
    max_importance: float | Unset = UNSET,
    include_archived: bool | Unset = UNSET,
    created_by: str | Unset = UNSET,
) -> Response[ErrorBody | MemoryPage]:
    """List memories, newest first.

     Ordered by `created_at` descending, then id, so paging is stable. Archived and expired memories are
    left out unless `include_archived=true`.

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (list[str] | Unset):
        memory_type (str | Unset):
        tags (list[str] | Unset):
        tag_mode (str | Unset):
        tag_match (str | Unset):
        user_id (str | Unset):
        agent_id (str | Unset):
        run_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        min_importance (float | Unset):
        max_importance (float | Unset):
        include_archived (bool | Unset):
        created_by (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryPage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        type_=type_,
        memory_type=memory_type,
        tags=tags,
        tag_mode=tag_mode,
        tag_match=tag_match,
        user_id=user_id,
        agent_id=agent_id,
        run_id=run_id,
        created_after=created_after,
        created_before=created_before,
        min_importance=min_importance,
        max_importance=max_importance,
        include_archived=include_archived,
        created_by=created_by,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: list[str] | Unset = UNSET,
    memory_type: str | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
    tag_mode: str | Unset = UNSET,
    tag_match: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    run_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    min_importance: float | Unset = UNSET,
    max_importance: float | Unset = UNSET,
    include_archived: bool | Unset = UNSET,
    created_by: str | Unset = UNSET,
) -> ErrorBody | MemoryPage | None:
    """List memories, newest first.

     Ordered by `created_at` descending, then id, so paging is stable. Archived and expired memories are
    left out unless `include_archived=true`.

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (list[str] | Unset):
        memory_type (str | Unset):
        tags (list[str] | Unset):
        tag_mode (str | Unset):
        tag_match (str | Unset):
        user_id (str | Unset):
        agent_id (str | Unset):
        run_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        min_importance (float | Unset):
        max_importance (float | Unset):
        include_archived (bool | Unset):
        created_by (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryPage
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            type_=type_,
            memory_type=memory_type,
            tags=tags,
            tag_mode=tag_mode,
            tag_match=tag_match,
            user_id=user_id,
            agent_id=agent_id,
            run_id=run_id,
            created_after=created_after,
            created_before=created_before,
            min_importance=min_importance,
            max_importance=max_importance,
            include_archived=include_archived,
            created_by=created_by,
        )
    ).parsed

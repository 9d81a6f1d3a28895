from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.by_tag_response import ByTagResponse
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    confirm: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_confirm: bool | None | Unset
    if isinstance(confirm, Unset):
        json_confirm = UNSET
    else:
        json_confirm = confirm
    params["confirm"] = json_confirm

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_offset: int | None | Unset
    if isinstance(offset, Unset):
        json_offset = UNSET
    else:
        json_offset = offset
    params["offset"] = json_offset

    json_tags: list[str] | Unset = UNSET
    if not isinstance(tags, Unset):
        json_tags = tags

    params["tags"] = json_tags

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/memory/by-tag",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ByTagResponse | ErrorBody | None:
    if response.status_code == 200:
        response_200 = ByTagResponse.from_dict(response.json())

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
) -> Response[ByTagResponse | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    confirm: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
) -> Response[ByTagResponse | ErrorBody]:
    """Memories with any of the tags, importance then time descending (AutoMem).

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ByTagResponse | ErrorBody]
    """

    kwargs = _get_kwargs(
        confirm=confirm,
        limit=limit,
        offset=offset,
        tags=tags,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    confirm: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
) -> ByTagResponse | ErrorBody | None:
    """Memories with any of the tags, importance then time descending (AutoMem).

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ByTagResponse | ErrorBody
    """

    return sync_detailed(
        client=client,
        confirm=confirm,
        limit=limit,
        offset=offset,
        tags=tags,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    confirm: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
) -> Response[ByTagResponse | ErrorBody]:
    """Memories with any of the tags, importance then time descending (AutoMem).

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ByTagResponse | ErrorBody]
    """

    kwargs = _get_kwargs(
        confirm=confirm,
        limit=limit,
        offset=offset,
        tags=tags,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    confirm: bool | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    tags: list[str] | Unset = UNSET,
) -> ByTagResponse | ErrorBody | None:
    """Memories with any of the tags, importance then time descending (AutoMem).

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ByTagResponse | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            confirm=confirm,
            limit=limit,
            offset=offset,
            tags=tags,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.restored_by_tag import RestoredByTag
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
        "method": "post",
        "url": "/api/v1/memories/by-tag/restore",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RestoredByTag | None:
    if response.status_code == 200:
        response_200 = RestoredByTag.from_dict(response.json())

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
) -> Response[ErrorBody | RestoredByTag]:
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
) -> Response[ErrorBody | RestoredByTag]:
    """Restore the deleted memories with any of the tags.

     Those still in the undo window, with their relations (where the other end exists) and entity links:
    at
    most 1000 per call, the earliest deleted first; `remaining` says how many are left for the next
    call.

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RestoredByTag]
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
) -> ErrorBody | RestoredByTag | None:
    """Restore the deleted memories with any of the tags.

     Those still in the undo window, with their relations (where the other end exists) and entity links:
    at
    most 1000 per call, the earliest deleted first; `remaining` says how many are left for the next
    call.

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RestoredByTag
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
) -> Response[ErrorBody | RestoredByTag]:
    """Restore the deleted memories with any of the tags.

     Those still in the undo window, with their relations (where the other end exists) and entity links:
    at
    most 1000 per call, the earliest deleted first; `remaining` says how many are left for the next
    call.

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RestoredByTag]
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
) -> ErrorBody | RestoredByTag | None:
    """Restore the deleted memories with any of the tags.

     Those still in the undo window, with their relations (where the other end exists) and entity links:
    at
    most 1000 per call, the earliest deleted first; `remaining` says how many are left for the next
    call.

    Args:
        confirm (bool | None | Unset):
        limit (int | None | Unset):
        offset (int | None | Unset):
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RestoredByTag
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

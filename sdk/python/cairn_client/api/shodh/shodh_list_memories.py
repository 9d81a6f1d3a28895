from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.memory_page import MemoryPage
from ...models.shodh_error import ShodhError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params["type"] = type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/memories",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MemoryPage | ShodhError | None:
    if response.status_code == 200:
        response_200 = MemoryPage.from_dict(response.json())

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
) -> Response[MemoryPage | ShodhError]:
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
    type_: str | Unset = UNSET,
) -> Response[MemoryPage | ShodhError]:
    """List memories, newest first (SHODH).

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemoryPage | ShodhError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        type_=type_,
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
    type_: str | Unset = UNSET,
) -> MemoryPage | ShodhError | None:
    """List memories, newest first (SHODH).

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemoryPage | ShodhError
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: str | Unset = UNSET,
) -> Response[MemoryPage | ShodhError]:
    """List memories, newest first (SHODH).

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MemoryPage | ShodhError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    type_: str | Unset = UNSET,
) -> MemoryPage | ShodhError | None:
    """List memories, newest first (SHODH).

    Args:
        limit (int | Unset):
        offset (int | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MemoryPage | ShodhError
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            type_=type_,
        )
    ).parsed

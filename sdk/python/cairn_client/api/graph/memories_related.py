from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.related_response import RelatedResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    depth: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_strength: float | None | Unset = UNSET,
    types: list[str] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_depth: int | None | Unset
    if isinstance(depth, Unset):
        json_depth = UNSET
    else:
        json_depth = depth
    params["depth"] = json_depth

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_min_strength: float | None | Unset
    if isinstance(min_strength, Unset):
        json_min_strength = UNSET
    else:
        json_min_strength = min_strength
    params["min_strength"] = json_min_strength

    json_types: list[str] | Unset = UNSET
    if not isinstance(types, Unset):
        json_types = types

    params["types"] = json_types

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/memories/{id}/related".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RelatedResponse | None:
    if response.status_code == 200:
        response_200 = RelatedResponse.from_dict(response.json())

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
) -> Response[ErrorBody | RelatedResponse]:
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
    depth: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_strength: float | None | Unset = UNSET,
    types: list[str] | Unset = UNSET,
) -> Response[ErrorBody | RelatedResponse]:
    """Memories related to a memory.

     Follows associations in either direction up to `depth` hops (one recursive query; cycles end), each
    memory once with its strongest path, strongest first.

    Args:
        id (UUID):
        depth (int | None | Unset):
        limit (int | None | Unset):
        min_strength (float | None | Unset):
        types (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RelatedResponse]
    """

    kwargs = _get_kwargs(
        id=id,
        depth=depth,
        limit=limit,
        min_strength=min_strength,
        types=types,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    depth: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_strength: float | None | Unset = UNSET,
    types: list[str] | Unset = UNSET,
) -> ErrorBody | RelatedResponse | None:
    """Memories related to a memory.

     Follows associations in either direction up to `depth` hops (one recursive query; cycles end), each
    memory once with its strongest path, strongest first.

    Args:
        id (UUID):
        depth (int | None | Unset):
        limit (int | None | Unset):
        min_strength (float | None | Unset):
        types (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RelatedResponse
    """

    return sync_detailed(
        id=id,
        client=client,
        depth=depth,
        limit=limit,
        min_strength=min_strength,
        types=types,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    depth: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_strength: float | None | Unset = UNSET,
    types: list[str] | Unset = UNSET,
) -> Response[ErrorBody | RelatedResponse]:
    """Memories related to a memory.

     Follows associations in either direction up to `depth` hops (one recursive query; cycles end), each
    memory once with its strongest path, strongest first.

    Args:
        id (UUID):
        depth (int | None | Unset):
        limit (int | None | Unset):
        min_strength (float | None | Unset):
        types (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RelatedResponse]
    """

    kwargs = _get_kwargs(
        id=id,
        depth=depth,
        limit=limit,
        min_strength=min_strength,
        types=types,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    depth: int | None | Unset = UNSET,
    limit: int | None | Unset = UNSET,
    min_strength: float | None | Unset = UNSET,
    types: list[str] | Unset = UNSET,
) -> ErrorBody | RelatedResponse | None:
    """Memories related to a memory.

     Follows associations in either direction up to `depth` hops (one recursive query; cycles end), each
    memory once with its strongest path, strongest first.

    Args:
        id (UUID):
        depth (int | None | Unset):
        limit (int | None | Unset):
        min_strength (float | None | Unset):
        types (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RelatedResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            depth=depth,
            limit=limit,
            min_strength=min_strength,
            types=types,
        )
    ).parsed

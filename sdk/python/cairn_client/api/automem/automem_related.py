from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.related_answer import RelatedAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    relationship_types: list[str] | Unset = UNSET,
    max_depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_strength: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_relationship_types: list[str] | Unset = UNSET
    if not isinstance(relationship_types, Unset):
        json_relationship_types = relationship_types

    params["relationship_types"] = json_relationship_types

    params["max_depth"] = max_depth

    params["limit"] = limit

    params["min_strength"] = min_strength

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/memories/{id}/related".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RelatedAnswer | None:
    if response.status_code == 200:
        response_200 = RelatedAnswer.from_dict(response.json())

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
) -> Response[ErrorBody | RelatedAnswer]:
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
    relationship_types: list[str] | Unset = UNSET,
    max_depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_strength: float | Unset = UNSET,
) -> Response[ErrorBody | RelatedAnswer]:
    """Memories related to a memory (AutoMem).

    Args:
        id (UUID):
        relationship_types (list[str] | Unset):
        max_depth (int | Unset):
        limit (int | Unset):
        min_strength (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RelatedAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        relationship_types=relationship_types,
        max_depth=max_depth,
        limit=limit,
        min_strength=min_strength,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    relationship_types: list[str] | Unset = UNSET,
    max_depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_strength: float | Unset = UNSET,
) -> ErrorBody | RelatedAnswer | None:
    """Memories related to a memory (AutoMem).

    Args:
        id (UUID):
        relationship_types (list[str] | Unset):
        max_depth (int | Unset):
        limit (int | Unset):
        min_strength (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RelatedAnswer
    """

    return sync_detailed(
        id=id,
        client=client,
        relationship_types=relationship_types,
        max_depth=max_depth,
        limit=limit,
        min_strength=min_strength,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    relationship_types: list[str] | Unset = UNSET,
    max_depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_strength: float | Unset = UNSET,
) -> Response[ErrorBody | RelatedAnswer]:
    """Memories related to a memory (AutoMem).

    Args:
        id (UUID):
        relationship_types (list[str] | Unset):
        max_depth (int | Unset):
        limit (int | Unset):
        min_strength (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RelatedAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        relationship_types=relationship_types,
        max_depth=max_depth,
        limit=limit,
        min_strength=min_strength,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    relationship_types: list[str] | Unset = UNSET,
    max_depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_strength: float | Unset = UNSET,
) -> ErrorBody | RelatedAnswer | None:
    """Memories related to a memory (AutoMem).

    Args:
        id (UUID):
        relationship_types (list[str] | Unset):
        max_depth (int | Unset):
        limit (int | Unset):
        min_strength (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RelatedAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            relationship_types=relationship_types,
            max_depth=max_depth,
            limit=limit,
            min_strength=min_strength,
        )
    ).parsed

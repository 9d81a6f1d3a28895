from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connections_deleted import ConnectionsDeleted
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    src: UUID,
    dst: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/connections/{src}/{dst}".format(
            src=quote(str(src), safe=""),
            dst=quote(str(dst), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConnectionsDeleted | ErrorBody | None:
    if response.status_code == 200:
        response_200 = ConnectionsDeleted.from_dict(response.json())

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
) -> Response[ConnectionsDeleted | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    src: UUID,
    dst: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ConnectionsDeleted | ErrorBody]:
    """Disconnect two memories: every association from `src` to `dst`.

    Args:
        src (UUID):
        dst (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConnectionsDeleted | ErrorBody]
    """

    kwargs = _get_kwargs(
        src=src,
        dst=dst,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    src: UUID,
    dst: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> ConnectionsDeleted | ErrorBody | None:
    """Disconnect two memories: every association from `src` to `dst`.

    Args:
        src (UUID):
        dst (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConnectionsDeleted | ErrorBody
    """

    return sync_detailed(
        src=src,
        dst=dst,
        client=client,
    ).parsed


async def asyncio_detailed(
    src: UUID,
    dst: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ConnectionsDeleted | ErrorBody]:
    """Disconnect two memories: every association from `src` to `dst`.

    Args:
        src (UUID):
        dst (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConnectionsDeleted | ErrorBody]
    """

    kwargs = _get_kwargs(
        src=src,
        dst=dst,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    src: UUID,
    dst: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> ConnectionsDeleted | ErrorBody | None:
    """Disconnect two memories: every association from `src` to `dst`.

    Args:
        src (UUID):
        dst (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConnectionsDeleted | ErrorBody
    """

    return (
        await asyncio_detailed(
            src=src,
            dst=dst,
            client=client,
        )
    ).parsed

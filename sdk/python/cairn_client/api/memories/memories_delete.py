from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.deleted import Deleted
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    hard: bool | Unset = UNSET,
    purge: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["hard"] = hard

    params["purge"] = purge

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/memories/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Deleted | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Deleted.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Deleted | ErrorBody]:
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
    hard: bool | Unset = UNSET,
    purge: bool | Unset = UNSET,
) -> Response[Deleted | ErrorBody]:
    """Delete a memory: archive it (default), delete it (`hard=true`, restorable for the undo window) or
    erase it
    (`purge=true`).

     The audit trail stays, without content once erased. A soft delete of a memory that is already
    archived
    is a no-op.

    Args:
        id (UUID):
        hard (bool | Unset):
        purge (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deleted | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        hard=hard,
        purge=purge,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    hard: bool | Unset = UNSET,
    purge: bool | Unset = UNSET,
) -> Deleted | ErrorBody | None:
    """Delete a memory: archive it (default), delete it (`hard=true`, restorable for the undo window) or
    erase it
    (`purge=true`).

     The audit trail stays, without content once erased. A soft delete of a memory that is already
    archived
    is a no-op.

    Args:
        id (UUID):
        hard (bool | Unset):
        purge (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deleted | ErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        hard=hard,
        purge=purge,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    hard: bool | Unset = UNSET,
    purge: bool | Unset = UNSET,
) -> Response[Deleted | ErrorBody]:
    """Delete a memory: archive it (default), delete it (`hard=true`, restorable for the undo window) or
    erase it
    (`purge=true`).

     The audit trail stays, without content once erased. A soft delete of a memory that is already
    archived
    is a no-op.

    Args:
        id (UUID):
        hard (bool | Unset):
        purge (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deleted | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        hard=hard,
        purge=purge,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    hard: bool | Unset = UNSET,
    purge: bool | Unset = UNSET,
) -> Deleted | ErrorBody | None:
    """Delete a memory: archive it (default), delete it (`hard=true`, restorable for the undo window) or
    erase it
    (`purge=true`).

     The audit trail stays, without content once erased. A soft delete of a memory that is already
    archived
    is a no-op.

    Args:
        id (UUID):
        hard (bool | Unset):
        purge (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deleted | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            hard=hard,
            purge=purge,
        )
    ).parsed

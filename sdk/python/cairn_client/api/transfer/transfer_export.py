from http import HTTPStatus
from io import BytesIO
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    vectors: bool | Unset = UNSET,
    history: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["vectors"] = vectors

    params["history"] = history

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/export",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | File | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | File]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    vectors: bool | Unset = UNSET,
    history: bool | Unset = UNSET,
) -> Response[ErrorBody | File]:
    """Export the tenant's memories (with history, vectors optional), associations, entities, aliases and
    mentions as JSON Lines, from one snapshot. The first line is a header
    (`{"type":"cairn_export","version":1,...}`); each other line is `{"type":"<table>","data":{...}}`. A
    line
    `{"type":"error",...}` at the end means the export broke off (an import refuses it).

    Args:
        vectors (bool | Unset):
        history (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | File]
    """

    kwargs = _get_kwargs(
        vectors=vectors,
        history=history,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    vectors: bool | Unset = UNSET,
    history: bool | Unset = UNSET,
) -> ErrorBody | File | None:
    """Export the tenant's memories (with history, vectors optional), associations, entities, aliases and
    mentions as JSON Lines, from one snapshot. The first line is a header
    (`{"type":"cairn_export","version":1,...}`); each other line is `{"type":"<table>","data":{...}}`. A
    line
    `{"type":"error",...}` at the end means the export broke off (an import refuses it).

    Args:
        vectors (bool | Unset):
        history (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | File
    """

    return sync_detailed(
        client=client,
        vectors=vectors,
        history=history,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    vectors: bool | Unset = UNSET,
    history: bool | Unset = UNSET,
) -> Response[ErrorBody | File]:
    """Export the tenant's memories (with history, vectors optional), associations, entities, aliases and
    mentions as JSON Lines, from one snapshot. The first line is a header
    (`{"type":"cairn_export","version":1,...}`); each other line is `{"type":"<table>","data":{...}}`. A
    line
    `{"type":"error",...}` at the end means the export broke off (an import refuses it).

    Args:
        vectors (bool | Unset):
        history (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | File]
    """

    kwargs = _get_kwargs(
        vectors=vectors,
        history=history,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    vectors: bool | Unset = UNSET,
    history: bool | Unset = UNSET,
) -> ErrorBody | File | None:
    """Export the tenant's memories (with history, vectors optional), associations, entities, aliases and
    mentions as JSON Lines, from one snapshot. The first line is a header
    (`{"type":"cairn_export","version":1,...}`); each other line is `{"type":"<table>","data":{...}}`. A
    line
    `{"type":"error",...}` at the end means the export broke off (an import refuses it).

    Args:
        vectors (bool | Unset):
        history (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | File
    """

    return (
        await asyncio_detailed(
            client=client,
            vectors=vectors,
            history=history,
        )
    ).parsed

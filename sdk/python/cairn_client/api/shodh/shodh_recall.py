from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.shodh_error import ShodhError
from ...models.shodh_recall_request import ShodhRecallRequest
from ...models.shodh_recall_response import ShodhRecallResponse
from ...types import Response


def _get_kwargs(
    *,
    body: ShodhRecallRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/recall",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ShodhError | ShodhRecallResponse | None:
    if response.status_code == 200:
        response_200 = ShodhRecallResponse.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = ShodhError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ShodhError.from_dict(response.json())

        return response_415

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
) -> Response[ShodhError | ShodhRecallResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ShodhRecallRequest,
) -> Response[ShodhError | ShodhRecallResponse]:
    """Semantic search for memories (SHODH).

     The native recall: `hybrid` (default) fuses meaning and keywords, `semantic` uses meaning only,
    `associative` spreads activation from the best semantic hits along associations. Time bounds take
    ISO
    dates or English/German phrases; `from` wins over `since`, `to` over `until` over `before`.

    Args:
        body (ShodhRecallRequest): SHODH's recall body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ShodhError | ShodhRecallResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ShodhRecallRequest,
) -> ShodhError | ShodhRecallResponse | None:
    """Semantic search for memories (SHODH).

     The native recall: `hybrid` (default) fuses meaning and keywords, `semantic` uses meaning only,
    `associative` spreads activation from the best semantic hits along associations. Time bounds take
    ISO
    dates or English/German phrases; `from` wins over `since`, `to` over `until` over `before`.

    Args:
        body (ShodhRecallRequest): SHODH's recall body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ShodhError | ShodhRecallResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ShodhRecallRequest,
) -> Response[ShodhError | ShodhRecallResponse]:
    """Semantic search for memories (SHODH).

     The native recall: `hybrid` (default) fuses meaning and keywords, `semantic` uses meaning only,
    `associative` spreads activation from the best semantic hits along associations. Time bounds take
    ISO
    dates or English/German phrases; `from` wins over `since`, `to` over `until` over `before`.

    Args:
        body (ShodhRecallRequest): SHODH's recall body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ShodhError | ShodhRecallResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ShodhRecallRequest,
) -> ShodhError | ShodhRecallResponse | None:
    """Semantic search for memories (SHODH).

     The native recall: `hybrid` (default) fuses meaning and keywords, `semantic` uses meaning only,
    `associative` spreads activation from the best semantic hits along associations. Time bounds take
    ISO
    dates or English/German phrases; `from` wins over `since`, `to` over `until` over `before`.

    Args:
        body (ShodhRecallRequest): SHODH's recall body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ShodhError | ShodhRecallResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.recall_response import RecallResponse
from ...models.search_request import SearchRequest
from ...types import Response


def _get_kwargs(
    *,
    body: SearchRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/memories/search",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RecallResponse | None:
    if response.status_code == 200:
        response_200 = RecallResponse.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

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
) -> Response[ErrorBody | RecallResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SearchRequest,
) -> Response[ErrorBody | RecallResponse]:
    """Search memories (remem).

     The native recall with remem's names: `search_type` is the mode, `related_to` keeps the memories one
    association away from that memory (its 200 strongest neighbours; 404 if the tenant has no such
    memory),
    and importance bounds filter. `query` is required unless `related_to` is given.
    Answers in recall's shape.

    Args:
        body (SearchRequest): remem's search body. Example: {'limit': 5, 'min_importance': 0.5,
            'query': 'communication preferences', 'search_type': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse]
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
    body: SearchRequest,
) -> ErrorBody | RecallResponse | None:
    """Search memories (remem).

     The native recall with remem's names: `search_type` is the mode, `related_to` keeps the memories one
    association away from that memory (its 200 strongest neighbours; 404 if the tenant has no such
    memory),
    and importance bounds filter. `query` is required unless `related_to` is given.
    Answers in recall's shape.

    Args:
        body (SearchRequest): remem's search body. Example: {'limit': 5, 'min_importance': 0.5,
            'query': 'communication preferences', 'search_type': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SearchRequest,
) -> Response[ErrorBody | RecallResponse]:
    """Search memories (remem).

     The native recall with remem's names: `search_type` is the mode, `related_to` keeps the memories one
    association away from that memory (its 200 strongest neighbours; 404 if the tenant has no such
    memory),
    and importance bounds filter. `query` is required unless `related_to` is given.
    Answers in recall's shape.

    Args:
        body (SearchRequest): remem's search body. Example: {'limit': 5, 'min_importance': 0.5,
            'query': 'communication preferences', 'search_type': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SearchRequest,
) -> ErrorBody | RecallResponse | None:
    """Search memories (remem).

     The native recall with remem's names: `search_type` is the mode, `related_to` keeps the memories one
    association away from that memory (its 200 strongest neighbours; 404 if the tenant has no such
    memory),
    and importance bounds filter. `query` is required unless `related_to` is given.
    Answers in recall's shape.

    Args:
        body (SearchRequest): remem's search body. Example: {'limit': 5, 'min_importance': 0.5,
            'query': 'communication preferences', 'search_type': 'hybrid'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

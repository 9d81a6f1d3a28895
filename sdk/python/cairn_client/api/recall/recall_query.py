from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.recall_params import RecallParams
from ...models.recall_response import RecallResponse
from ...types import Response


def _get_kwargs(
    *,
    body: RecallParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/recall",
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
    body: RecallParams,
) -> Response[ErrorBody | RecallResponse]:
    """Recall memories.

     Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one
    signal.
    Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
    `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as
    it is
    stored, before its embedding exists; while the model loads, hybrid recall answers with keyword
    results
    and a `notice`. A recall reads one consistent snapshot, and counts an access of each returned
    memory.

    Args:
        body (RecallParams): A recall request: the same fields as a JSON body (POST) or a query
            string (GET, lists as repeated keys). Example: {'limit': 5, 'query': 'which database did
            we choose?', 'since': 'last month', 'tags': ['project-alpha']}.

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
    body: RecallParams,
) -> ErrorBody | RecallResponse | None:
    """Recall memories.

     Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one
    signal.
    Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
    `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as
    it is
    stored, before its embedding exists; while the model loads, hybrid recall answers with keyword
    results
    and a `notice`. A recall reads one consistent snapshot, and counts an access of each returned
    memory.

    Args:
        body (RecallParams): A recall request: the same fields as a JSON body (POST) or a query
            string (GET, lists as repeated keys). Example: {'limit': 5, 'query': 'which database did
            we choose?', 'since': 'last month', 'tags': ['project-alpha']}.

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
    body: RecallParams,
) -> Response[ErrorBody | RecallResponse]:
    """Recall memories.

     Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one
    signal.
    Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
    `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as
    it is
    stored, before its embedding exists; while the model loads, hybrid recall answers with keyword
    results
    and a `notice`. A recall reads one consistent snapshot, and counts an access of each returned
    memory.

    Args:
        body (RecallParams): A recall request: the same fields as a JSON body (POST) or a query
            string (GET, lists as repeated keys). Example: {'limit': 5, 'query': 'which database did
            we choose?', 'since': 'last month', 'tags': ['project-alpha']}.

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
    body: RecallParams,
) -> ErrorBody | RecallResponse | None:
    """Recall memories.

     Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one
    signal.
    Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
    `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as
    it is
    stored, before its embedding exists; while the model loads, hybrid recall answers with keyword
    results
    and a `notice`. A recall reads one consistent snapshot, and counts an access of each returned
    memory.

    Args:
        body (RecallParams): A recall request: the same fields as a JSON body (POST) or a query
            string (GET, lists as repeated keys). Example: {'limit': 5, 'query': 'which database did
            we choose?', 'since': 'last month', 'tags': ['project-alpha']}.

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

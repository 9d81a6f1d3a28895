from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.batch_input import BatchInput
from ...models.batch_stored import BatchStored
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: BatchInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/memories/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BatchStored | ErrorBody | None:
    if response.status_code == 201:
        response_201 = BatchStored.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

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
) -> Response[BatchStored | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: BatchInput,
) -> Response[BatchStored | ErrorBody]:
    """Store up to 500 memories, all or nothing.

     Any invalid item rejects the whole batch and nothing is stored; errors name the item
    (`memories[2].content: ...`). Content the tenant already holds, or an item repeating an earlier one,
    is
    treated as `on_duplicate` (beside `memories`) says: `existing` (default) answers with the memory
    that holds
    it (`created: false`), `error` rejects the batch with a 409 naming the item, `store` stores it again
    as its
    own memory (`repeated: true`), as a transcript repeats "ok".

    Args:
        body (BatchInput): `{"memories": [...]}`, 1..=500 items (documentation shape; parsing is
            item by item). Example: {'memories': [{'content': 'Prefer PostgreSQL for transactional
            workloads', 'importance': 0.9, 'type': 'Preference'}, {'content': 'Redis is the session
            cache', 'importance': 0.6, 'type': 'Context'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchStored | ErrorBody]
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
    body: BatchInput,
) -> BatchStored | ErrorBody | None:
    """Store up to 500 memories, all or nothing.

     Any invalid item rejects the whole batch and nothing is stored; errors name the item
    (`memories[2].content: ...`). Content the tenant already holds, or an item repeating an earlier one,
    is
    treated as `on_duplicate` (beside `memories`) says: `existing` (default) answers with the memory
    that holds
    it (`created: false`), `error` rejects the batch with a 409 naming the item, `store` stores it again
    as its
    own memory (`repeated: true`), as a transcript repeats "ok".

    Args:
        body (BatchInput): `{"memories": [...]}`, 1..=500 items (documentation shape; parsing is
            item by item). Example: {'memories': [{'content': 'Prefer PostgreSQL for transactional
            workloads', 'importance': 0.9, 'type': 'Preference'}, {'content': 'Redis is the session
            cache', 'importance': 0.6, 'type': 'Context'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchStored | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: BatchInput,
) -> Response[BatchStored | ErrorBody]:
    """Store up to 500 memories, all or nothing.

     Any invalid item rejects the whole batch and nothing is stored; errors name the item
    (`memories[2].content: ...`). Content the tenant already holds, or an item repeating an earlier one,
    is
    treated as `on_duplicate` (beside `memories`) says: `existing` (default) answers with the memory
    that holds
    it (`created: false`), `error` rejects the batch with a 409 naming the item, `store` stores it again
    as its
    own memory (`repeated: true`), as a transcript repeats "ok".

    Args:
        body (BatchInput): `{"memories": [...]}`, 1..=500 items (documentation shape; parsing is
            item by item). Example: {'memories': [{'content': 'Prefer PostgreSQL for transactional
            workloads', 'importance': 0.9, 'type': 'Preference'}, {'content': 'Redis is the session
            cache', 'importance': 0.6, 'type': 'Context'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchStored | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: BatchInput,
) -> BatchStored | ErrorBody | None:
    """Store up to 500 memories, all or nothing.

     Any invalid item rejects the whole batch and nothing is stored; errors name the item
    (`memories[2].content: ...`). Content the tenant already holds, or an item repeating an earlier one,
    is
    treated as `on_duplicate` (beside `memories`) says: `existing` (default) answers with the memory
    that holds
    it (`created: false`), `error` rejects the batch with a 409 naming the item, `store` stores it again
    as its
    own memory (`repeated: true`), as a transcript repeats "ok".

    Args:
        body (BatchInput): `{"memories": [...]}`, 1..=500 items (documentation shape; parsing is
            item by item). Example: {'memories': [{'content': 'Prefer PostgreSQL for transactional
            workloads', 'importance': 0.9, 'type': 'Preference'}, {'content': 'Redis is the session
            cache', 'importance': 0.6, 'type': 'Context'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchStored | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.import_result import ImportResult
from ...types import File, Response


def _get_kwargs(
    *,
    body: File,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/import",
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/x-ndjson"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ImportResult | None:
    if response.status_code == 200:
        response_200 = ImportResult.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

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
) -> Response[ErrorBody | ImportResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Response[ErrorBody | ImportResult]:
    """Import JSON Lines as `GET /api/v1/export` writes them (write scope), read as a stream in batches of
    500
    lines (or the plan's `max_batch`, or 8 MiB). Each batch is written all or nothing; rows already
    present (by id, or a memory by content) are
    skipped, so an import can be repeated. Memories without vectors are embedded again.

    Args:
        body (File): A JSON Lines stream: one JSON object per line (an export's `header`, then
            `memory`, `relation`...). Documented
            as binary so SDK generators hand it over as bytes/a file rather than parse it as one JSON
            value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ImportResult]
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
    body: File,
) -> ErrorBody | ImportResult | None:
    """Import JSON Lines as `GET /api/v1/export` writes them (write scope), read as a stream in batches of
    500
    lines (or the plan's `max_batch`, or 8 MiB). Each batch is written all or nothing; rows already
    present (by id, or a memory by content) are
    skipped, so an import can be repeated. Memories without vectors are embedded again.

    Args:
        body (File): A JSON Lines stream: one JSON object per line (an export's `header`, then
            `memory`, `relation`...). Documented
            as binary so SDK generators hand it over as bytes/a file rather than parse it as one JSON
            value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ImportResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Response[ErrorBody | ImportResult]:
    """Import JSON Lines as `GET /api/v1/export` writes them (write scope), read as a stream in batches of
    500
    lines (or the plan's `max_batch`, or 8 MiB). Each batch is written all or nothing; rows already
    present (by id, or a memory by content) are
    skipped, so an import can be repeated. Memories without vectors are embedded again.

    Args:
        body (File): A JSON Lines stream: one JSON object per line (an export's `header`, then
            `memory`, `relation`...). Documented
            as binary so SDK generators hand it over as bytes/a file rather than parse it as one JSON
            value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ImportResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> ErrorBody | ImportResult | None:
    """Import JSON Lines as `GET /api/v1/export` writes them (write scope), read as a stream in batches of
    500
    lines (or the plan's `max_batch`, or 8 MiB). Each batch is written all or nothing; rows already
    present (by id, or a memory by content) are
    skipped, so an import can be repeated. Memories without vectors are embedded again.

    Args:
        body (File): A JSON Lines stream: one JSON object per line (an export's `header`, then
            `memory`, `relation`...). Documented
            as binary so SDK generators hand it over as bytes/a file rather than parse it as one JSON
            value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ImportResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.mcp_request import McpRequest
from ...models.mcp_response import McpResponse
from ...types import Response


def _get_kwargs(
    *,
    body: McpRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/mcp",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorBody | McpResponse | None:
    if response.status_code == 200:
        response_200 = McpResponse.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 406:
        response_406 = ErrorBody.from_dict(response.json())

        return response_406

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
) -> Response[Any | ErrorBody | McpResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: McpRequest,
) -> Response[Any | ErrorBody | McpResponse]:
    """The MCP endpoint (documentation only; rmcp serves it).

     Streamable HTTP, stateless: POST one JSON-RPC 2.0 message with `Accept: application/json,
    text/event-stream` and a tenant key; requests are answered with JSON, notifications with 202.
    Methods:
    `initialize`, `tools/list`, `tools/call` (tools: store_memory, recall_memory, update_memory,
    delete_memory, associate_memories, promote_to_longterm, recall_memories, proactive_context,
    memory_stats, check_database_health).

    Args:
        body (McpRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | McpResponse]
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
    body: McpRequest,
) -> Any | ErrorBody | McpResponse | None:
    """The MCP endpoint (documentation only; rmcp serves it).

     Streamable HTTP, stateless: POST one JSON-RPC 2.0 message with `Accept: application/json,
    text/event-stream` and a tenant key; requests are answered with JSON, notifications with 202.
    Methods:
    `initialize`, `tools/list`, `tools/call` (tools: store_memory, recall_memory, update_memory,
    delete_memory, associate_memories, promote_to_longterm, recall_memories, proactive_context,
    memory_stats, check_database_health).

    Args:
        body (McpRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | McpResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: McpRequest,
) -> Response[Any | ErrorBody | McpResponse]:
    """The MCP endpoint (documentation only; rmcp serves it).

     Streamable HTTP, stateless: POST one JSON-RPC 2.0 message with `Accept: application/json,
    text/event-stream` and a tenant key; requests are answered with JSON, notifications with 202.
    Methods:
    `initialize`, `tools/list`, `tools/call` (tools: store_memory, recall_memory, update_memory,
    delete_memory, associate_memories, promote_to_longterm, recall_memories, proactive_context,
    memory_stats, check_database_health).

    Args:
        body (McpRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | McpResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: McpRequest,
) -> Any | ErrorBody | McpResponse | None:
    """The MCP endpoint (documentation only; rmcp serves it).

     Streamable HTTP, stateless: POST one JSON-RPC 2.0 message with `Accept: application/json,
    text/event-stream` and a tenant key; requests are answered with JSON, notifications with 202.
    Methods:
    `initialize`, `tools/list`, `tools/call` (tools: store_memory, recall_memory, update_memory,
    delete_memory, associate_memories, promote_to_longterm, recall_memories, proactive_context,
    memory_stats, check_database_health).

    Args:
        body (McpRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | McpResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

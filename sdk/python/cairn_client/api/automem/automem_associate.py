from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.associated import Associated
from ...models.association_input import AssociationInput
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: AssociationInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/associate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Associated | ErrorBody | None:
    if response.status_code == 201:
        response_201 = Associated.from_dict(response.json())

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
) -> Response[Associated | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationInput,
) -> Response[Associated | ErrorBody]:
    """Associate two memories (AutoMem).

    Args:
        body (AssociationInput): One association: the one definition the native API, AutoMem's
            `/associate`, remem's connections and
            MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that
            every error
            names its field. Example: {'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11',
            'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties': {'reason':
            'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Associated | ErrorBody]
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
    body: AssociationInput,
) -> Associated | ErrorBody | None:
    """Associate two memories (AutoMem).

    Args:
        body (AssociationInput): One association: the one definition the native API, AutoMem's
            `/associate`, remem's connections and
            MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that
            every error
            names its field. Example: {'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11',
            'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties': {'reason':
            'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Associated | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationInput,
) -> Response[Associated | ErrorBody]:
    """Associate two memories (AutoMem).

    Args:
        body (AssociationInput): One association: the one definition the native API, AutoMem's
            `/associate`, remem's connections and
            MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that
            every error
            names its field. Example: {'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11',
            'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties': {'reason':
            'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Associated | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationInput,
) -> Associated | ErrorBody | None:
    """Associate two memories (AutoMem).

    Args:
        body (AssociationInput): One association: the one definition the native API, AutoMem's
            `/associate`, remem's connections and
            MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that
            every error
            names its field. Example: {'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11',
            'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties': {'reason':
            'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Associated | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

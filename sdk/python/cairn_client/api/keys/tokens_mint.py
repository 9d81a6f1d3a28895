from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.minted_token import MintedToken
from ...models.new_token import NewToken
from ...types import Response


def _get_kwargs(
    *,
    body: NewToken,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tokens",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MintedToken | None:
    if response.status_code == 201:
        response_201 = MintedToken.from_dict(response.json())

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
) -> Response[ErrorBody | MintedToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewToken,
) -> Response[ErrorBody | MintedToken]:
    """Mint a short-lived token from this admin key, for a browser or device that must not hold a key: read
    or
    write (never admin), limited to end users, agents and/or tag prefixes, living up to an hour. It acts
    as
    this key (its rate limit, its authorship) and stops working when this key is revoked or expires.

    Args:
        body (NewToken): A short-lived token to mint (`POST /api/v1/tokens`), for a browser or
            device that must not hold a key. Example: {'scopes': ['read', 'write'], 'ttl_seconds':
            900, 'user_ids': ['user-42']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MintedToken]
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
    body: NewToken,
) -> ErrorBody | MintedToken | None:
    """Mint a short-lived token from this admin key, for a browser or device that must not hold a key: read
    or
    write (never admin), limited to end users, agents and/or tag prefixes, living up to an hour. It acts
    as
    this key (its rate limit, its authorship) and stops working when this key is revoked or expires.

    Args:
        body (NewToken): A short-lived token to mint (`POST /api/v1/tokens`), for a browser or
            device that must not hold a key. Example: {'scopes': ['read', 'write'], 'ttl_seconds':
            900, 'user_ids': ['user-42']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MintedToken
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewToken,
) -> Response[ErrorBody | MintedToken]:
    """Mint a short-lived token from this admin key, for a browser or device that must not hold a key: read
    or
    write (never admin), limited to end users, agents and/or tag prefixes, living up to an hour. It acts
    as
    this key (its rate limit, its authorship) and stops working when this key is revoked or expires.

    Args:
        body (NewToken): A short-lived token to mint (`POST /api/v1/tokens`), for a browser or
            device that must not hold a key. Example: {'scopes': ['read', 'write'], 'ttl_seconds':
            900, 'user_ids': ['user-42']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MintedToken]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NewToken,
) -> ErrorBody | MintedToken | None:
    """Mint a short-lived token from this admin key, for a browser or device that must not hold a key: read
    or
    write (never admin), limited to end users, agents and/or tag prefixes, living up to an hour. It acts
    as
    this key (its rate limit, its authorship) and stops working when this key is revoked or expires.

    Args:
        body (NewToken): A short-lived token to mint (`POST /api/v1/tokens`), for a browser or
            device that must not hold a key. Example: {'scopes': ['read', 'write'], 'ttl_seconds':
            900, 'user_ids': ['user-42']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MintedToken
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_params import EndpointParams
from ...models.error_body import ErrorBody
from ...models.webhook import Webhook
from ...types import Response


def _get_kwargs(
    *,
    body: EndpointParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Webhook | None:
    if response.status_code == 201:
        response_201 = Webhook.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Webhook]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointParams,
) -> Response[ErrorBody | Webhook]:
    """Register a webhook endpoint.

     Events of the types it wants are posted to it as JSON (`{"id", "type", "timestamp", "data"}`),
    signed the
    Standard Webhooks way: headers `webhook-id` (the event id: the same on every retry, dedup by it),
    `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
    `id.timestamp.body`, keyed by the base64 after `whsec_` of the secret in this answer, shown only
    here and
    when rotated). Any 2xx answer within 10 s is a delivery; anything else is retried with exponential
    backoff
    for a day, each endpoint's oldest failed event first, one memory's events in order; then the
    endpoint is
    disabled (with the reason). Internal addresses (loopback, private, link-local, metadata) are refused
    and
    redirects are not followed. At most 10 endpoints per tenant.

    Args:
        body (EndpointParams): An endpoint to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Webhook]
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
    body: EndpointParams,
) -> ErrorBody | Webhook | None:
    """Register a webhook endpoint.

     Events of the types it wants are posted to it as JSON (`{"id", "type", "timestamp", "data"}`),
    signed the
    Standard Webhooks way: headers `webhook-id` (the event id: the same on every retry, dedup by it),
    `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
    `id.timestamp.body`, keyed by the base64 after `whsec_` of the secret in this answer, shown only
    here and
    when rotated). Any 2xx answer within 10 s is a delivery; anything else is retried with exponential
    backoff
    for a day, each endpoint's oldest failed event first, one memory's events in order; then the
    endpoint is
    disabled (with the reason). Internal addresses (loopback, private, link-local, metadata) are refused
    and
    redirects are not followed. At most 10 endpoints per tenant.

    Args:
        body (EndpointParams): An endpoint to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Webhook
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointParams,
) -> Response[ErrorBody | Webhook]:
    """Register a webhook endpoint.

     Events of the types it wants are posted to it as JSON (`{"id", "type", "timestamp", "data"}`),
    signed the
    Standard Webhooks way: headers `webhook-id` (the event id: the same on every retry, dedup by it),
    `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
    `id.timestamp.body`, keyed by the base64 after `whsec_` of the secret in this answer, shown only
    here and
    when rotated). Any 2xx answer within 10 s is a delivery; anything else is retried with exponential
    backoff
    for a day, each endpoint's oldest failed event first, one memory's events in order; then the
    endpoint is
    disabled (with the reason). Internal addresses (loopback, private, link-local, metadata) are refused
    and
    redirects are not followed. At most 10 endpoints per tenant.

    Args:
        body (EndpointParams): An endpoint to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Webhook]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EndpointParams,
) -> ErrorBody | Webhook | None:
    """Register a webhook endpoint.

     Events of the types it wants are posted to it as JSON (`{"id", "type", "timestamp", "data"}`),
    signed the
    Standard Webhooks way: headers `webhook-id` (the event id: the same on every retry, dedup by it),
    `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
    `id.timestamp.body`, keyed by the base64 after `whsec_` of the secret in this answer, shown only
    here and
    when rotated). Any 2xx answer within 10 s is a delivery; anything else is retried with exponential
    backoff
    for a day, each endpoint's oldest failed event first, one memory's events in order; then the
    endpoint is
    disabled (with the reason). Internal addresses (loopback, private, link-local, metadata) are refused
    and
    redirects are not followed. At most 10 endpoints per tenant.

    Args:
        body (EndpointParams): An endpoint to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Webhook
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.association_batch import AssociationBatch
from ...models.association_batch_input import AssociationBatchInput
from ...models.association_input import AssociationInput
from ...models.association_stored import AssociationStored
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: AssociationBatchInput | AssociationInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/associations",
    }

    if isinstance(body, AssociationInput):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AssociationBatch | AssociationStored | ErrorBody | None:
    if response.status_code == 201:
        response_201 = AssociationStored.from_dict(response.json())

        return response_201

    if response.status_code == 207:
        response_207 = AssociationBatch.from_dict(response.json())

        return response_207

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
) -> Response[AssociationBatch | AssociationStored | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationBatchInput | AssociationInput,
) -> Response[AssociationBatch | AssociationStored | ErrorBody]:
    """Associate memories.

     One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207
    with
    each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are
    stored).
    An association between the same two memories with the same type is updated, not duplicated. Both
    memories must belong to the key's tenant.

    Args:
        body (AssociationBatchInput | AssociationInput): One association, or `{"associations":
            [...]}` with up to 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssociationBatch | AssociationStored | ErrorBody]
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
    body: AssociationBatchInput | AssociationInput,
) -> AssociationBatch | AssociationStored | ErrorBody | None:
    """Associate memories.

     One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207
    with
    each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are
    stored).
    An association between the same two memories with the same type is updated, not duplicated. Both
    memories must belong to the key's tenant.

    Args:
        body (AssociationBatchInput | AssociationInput): One association, or `{"associations":
            [...]}` with up to 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssociationBatch | AssociationStored | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationBatchInput | AssociationInput,
) -> Response[AssociationBatch | AssociationStored | ErrorBody]:
    """Associate memories.

     One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207
    with
    each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are
    stored).
    An association between the same two memories with the same type is updated, not duplicated. Both
    memories must belong to the key's tenant.

    Args:
        body (AssociationBatchInput | AssociationInput): One association, or `{"associations":
            [...]}` with up to 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssociationBatch | AssociationStored | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: AssociationBatchInput | AssociationInput,
) -> AssociationBatch | AssociationStored | ErrorBody | None:
    """Associate memories.

     One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207
    with
    each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are
    stored).
    An association between the same two memories with the same type is updated, not duplicated. Both
    memories must belong to the key's tenant.

    Args:
        body (AssociationBatchInput | AssociationInput): One association, or `{"associations":
            [...]}` with up to 500.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssociationBatch | AssociationStored | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

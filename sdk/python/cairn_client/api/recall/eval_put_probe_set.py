from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.probe_set import ProbeSet
from ...models.probe_set_params import ProbeSetParams
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: ProbeSetParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/eval/probe-sets/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ProbeSet | None:
    if response.status_code == 200:
        response_200 = ProbeSet.from_dict(response.json())

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
) -> Response[ErrorBody | ProbeSet]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: ProbeSetParams,
) -> Response[ErrorBody | ProbeSet]:
    """Store (or replace) a probe set.

     `every_hours` re-runs it on a schedule (checked hourly), its figures kept in the history like a run
    asked for by hand. A tenant keeps at most 20 sets of at most 50 probes.

    Args:
        name (str):
        body (ProbeSetParams): A probe set to store. Example: {'every_hours': 24, 'k': 10,
            'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database
            did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ProbeSet]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: ProbeSetParams,
) -> ErrorBody | ProbeSet | None:
    """Store (or replace) a probe set.

     `every_hours` re-runs it on a schedule (checked hourly), its figures kept in the history like a run
    asked for by hand. A tenant keeps at most 20 sets of at most 50 probes.

    Args:
        name (str):
        body (ProbeSetParams): A probe set to store. Example: {'every_hours': 24, 'k': 10,
            'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database
            did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ProbeSet
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: ProbeSetParams,
) -> Response[ErrorBody | ProbeSet]:
    """Store (or replace) a probe set.

     `every_hours` re-runs it on a schedule (checked hourly), its figures kept in the history like a run
    asked for by hand. A tenant keeps at most 20 sets of at most 50 probes.

    Args:
        name (str):
        body (ProbeSetParams): A probe set to store. Example: {'every_hours': 24, 'k': 10,
            'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database
            did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ProbeSet]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: ProbeSetParams,
) -> ErrorBody | ProbeSet | None:
    """Store (or replace) a probe set.

     `every_hours` re-runs it on a schedule (checked hourly), its figures kept in the history like a run
    asked for by hand. A tenant keeps at most 20 sets of at most 50 probes.

    Args:
        name (str):
        body (ProbeSetParams): A probe set to store. Example: {'every_hours': 24, 'k': 10,
            'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database
            did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ProbeSet
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed

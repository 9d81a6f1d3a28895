from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.eval_params import EvalParams
from ...models.eval_run import EvalRun
from ...types import Response


def _get_kwargs(
    *,
    body: EvalParams,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/eval",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | EvalRun | None:
    if response.status_code == 200:
        response_200 = EvalRun.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | EvalRun]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EvalParams,
) -> Response[ErrorBody | EvalRun]:
    """Run a quality report on the tenant's own memories.

     Each probe is a question and the ids of the memories that should answer it. The probes are asked as
    recalls (ranked to 100 results, on one snapshot; no access is counted and nothing is strengthened),
    and
    the answer gives recall@k, hit@k and MRR over the probes and, per probe, the rank, score and score
    components of each expected memory. Send `probes` (1..=50), or name a stored `probe_set`. The run is
    kept in the history (`GET /api/v1/eval/runs`, the newest 500), so a regression after a model or
    setting change shows. Each probe counts as a recall in the usage.

    Args:
        body (EvalParams): A quality report asked for: probes sent with the request, or a stored
            probe set by name. Example: {'k': 10, 'probes': [{'expected':
            ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EvalRun]
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
    body: EvalParams,
) -> ErrorBody | EvalRun | None:
    """Run a quality report on the tenant's own memories.

     Each probe is a question and the ids of the memories that should answer it. The probes are asked as
    recalls (ranked to 100 results, on one snapshot; no access is counted and nothing is strengthened),
    and
    the answer gives recall@k, hit@k and MRR over the probes and, per probe, the rank, score and score
    components of each expected memory. Send `probes` (1..=50), or name a stored `probe_set`. The run is
    kept in the history (`GET /api/v1/eval/runs`, the newest 500), so a regression after a model or
    setting change shows. Each probe counts as a recall in the usage.

    Args:
        body (EvalParams): A quality report asked for: probes sent with the request, or a stored
            probe set by name. Example: {'k': 10, 'probes': [{'expected':
            ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EvalRun
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: EvalParams,
) -> Response[ErrorBody | EvalRun]:
    """Run a quality report on the tenant's own memories.

     Each probe is a question and the ids of the memories that should answer it. The probes are asked as
    recalls (ranked to 100 results, on one snapshot; no access is counted and nothing is strengthened),
    and
    the answer gives recall@k, hit@k and MRR over the probes and, per probe, the rank, score and score
    components of each expected memory. Send `probes` (1..=50), or name a stored `probe_set`. The run is
    kept in the history (`GET /api/v1/eval/runs`, the newest 500), so a regression after a model or
    setting change shows. Each probe counts as a recall in the usage.

    Args:
        body (EvalParams): A quality report asked for: probes sent with the request, or a stored
            probe set by name. Example: {'k': 10, 'probes': [{'expected':
            ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EvalRun]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: EvalParams,
) -> ErrorBody | EvalRun | None:
    """Run a quality report on the tenant's own memories.

     Each probe is a question and the ids of the memories that should answer it. The probes are asked as
    recalls (ranked to 100 results, on one snapshot; no access is counted and nothing is strengthened),
    and
    the answer gives recall@k, hit@k and MRR over the probes and, per probe, the rank, score and score
    components of each expected memory. Send `probes` (1..=50), or name a stored `probe_set`. The run is
    kept in the history (`GET /api/v1/eval/runs`, the newest 500), so a regression after a model or
    setting change shows. Each probe counts as a recall in the usage.

    Args:
        body (EvalParams): A quality report asked for: probes sent with the request, or a stored
            probe set by name. Example: {'k': 10, 'probes': [{'expected':
            ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database did we choose?'}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EvalRun
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

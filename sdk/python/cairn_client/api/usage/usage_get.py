import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.usage_report import UsageReport
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    group_by: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params["group_by"] = group_by

    params["sort"] = sort

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/usage",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | UsageReport | None:
    if response.status_code == 200:
        response_200 = UsageReport.from_dict(response.json())

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
) -> Response[ErrorBody | UsageReport]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    group_by: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | UsageReport]:
    """The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls,
    daily
    budgets spent), what it stores now, and the limits in force.

     With `group_by=user_id` (or `agent_id`; admin scope) it adds `end_users`: each end user's memories
    and
    bytes held now, memories stored and requests and recalls made for it in the window, most memories
    (or with
    `sort=requests`, most requests) first (a page, with the total and the memories that have no end
    user), for
    the tenant's own billing of its users.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        group_by (str | Unset):
        sort (str | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UsageReport]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
        sort=sort,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    group_by: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | UsageReport | None:
    """The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls,
    daily
    budgets spent), what it stores now, and the limits in force.

     With `group_by=user_id` (or `agent_id`; admin scope) it adds `end_users`: each end user's memories
    and
    bytes held now, memories stored and requests and recalls made for it in the window, most memories
    (or with
    `sort=requests`, most requests) first (a page, with the total and the memories that have no end
    user), for
    the tenant's own billing of its users.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        group_by (str | Unset):
        sort (str | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UsageReport
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        group_by=group_by,
        sort=sort,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    group_by: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[ErrorBody | UsageReport]:
    """The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls,
    daily
    budgets spent), what it stores now, and the limits in force.

     With `group_by=user_id` (or `agent_id`; admin scope) it adds `end_users`: each end user's memories
    and
    bytes held now, memories stored and requests and recalls made for it in the window, most memories
    (or with
    `sort=requests`, most requests) first (a page, with the total and the memories that have no end
    user), for
    the tenant's own billing of its users.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        group_by (str | Unset):
        sort (str | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UsageReport]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
        sort=sort,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    group_by: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> ErrorBody | UsageReport | None:
    """The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls,
    daily
    budgets spent), what it stores now, and the limits in force.

     With `group_by=user_id` (or `agent_id`; admin scope) it adds `end_users`: each end user's memories
    and
    bytes held now, memories stored and requests and recalls made for it in the window, most memories
    (or with
    `sort=requests`, most requests) first (a page, with the total and the memories that have no end
    user), for
    the tenant's own billing of its users.

    Args:
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        group_by (str | Unset):
        sort (str | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UsageReport
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            group_by=group_by,
            sort=sort,
            limit=limit,
            offset=offset,
        )
    ).parsed

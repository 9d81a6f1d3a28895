from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """One event's delivery to an endpoint.

    Example:
        {'attempts': 1, 'created_at': '2026-12-03T09:00:00Z', 'delivered_at': '2026-12-03T09:00:01Z', 'event_id':
            '0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10', 'event_type': 'memory.created', 'id':
            'b7e1d2c3-4f5a-4b6c-8d7e-9f0a1b2c3d4e', 'last_error': None, 'last_latency_ms': 38, 'last_status_code': 204,
            'memory_id': '5d2c1b0a-9e8f-4a7b-8c6d-1e2f3a4b5c6d', 'next_attempt_at': '2026-12-03T09:00:01Z', 'status':
            'delivered'}

    Attributes:
        id (UUID):
        event_id (UUID): The event's id, sent as `webhook-id` (the same on every attempt and redelivery: dedup by it).
        event_type (str):
        status (str): `pending` (to be sent or retried), `delivered`, or `failed` (given up after the retry window).
        attempts (int):
        next_attempt_at (datetime.datetime): When it is (or was last) due.
        created_at (datetime.datetime):
        memory_id (None | Unset | UUID):
        last_status_code (int | None | Unset): The endpoint's HTTP status at the last attempt (null: no answer).
        last_error (None | str | Unset):
        last_latency_ms (int | None | Unset):
        delivered_at (datetime.datetime | None | Unset):
        payload (Any | Unset): The body sent (with `include_payload=true`).
    """

    id: UUID
    event_id: UUID
    event_type: str
    status: str
    attempts: int
    next_attempt_at: datetime.datetime
    created_at: datetime.datetime
    memory_id: None | Unset | UUID = UNSET
    last_status_code: int | None | Unset = UNSET
    last_error: None | str | Unset = UNSET
    last_latency_ms: int | None | Unset = UNSET
    delivered_at: datetime.datetime | None | Unset = UNSET
    payload: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        event_id = str(self.event_id)

        event_type = self.event_type

        status = self.status

        attempts = self.attempts

        next_attempt_at = self.next_attempt_at.isoformat()

        created_at = self.created_at.isoformat()

        memory_id: None | str | Unset
        if isinstance(self.memory_id, Unset):
            memory_id = UNSET
        elif isinstance(self.memory_id, UUID):
            memory_id = str(self.memory_id)
        else:
            memory_id = self.memory_id

        last_status_code: int | None | Unset
        if isinstance(self.last_status_code, Unset):
            last_status_code = UNSET
        else:
            last_status_code = self.last_status_code

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        last_latency_ms: int | None | Unset
        if isinstance(self.last_latency_ms, Unset):
            last_latency_ms = UNSET
        else:
            last_latency_ms = self.last_latency_ms

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        payload = self.payload

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "event_type": event_type,
                "status": status,
                "attempts": attempts,
                "next_attempt_at": next_attempt_at,
                "created_at": created_at,
            }
        )
        if memory_id is not UNSET:
            field_dict["memory_id"] = memory_id
        if last_status_code is not UNSET:
            field_dict["last_status_code"] = last_status_code
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if last_latency_ms is not UNSET:
            field_dict["last_latency_ms"] = last_latency_ms
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if payload is not UNSET:
            field_dict["payload"] = payload

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        event_id = UUID(d.pop("event_id"))

        event_type = d.pop("event_type")

        status = d.pop("status")

        attempts = d.pop("attempts")

        next_attempt_at = datetime.datetime.fromisoformat(d.pop("next_attempt_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_memory_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                memory_id_type_0 = UUID(data)

                return memory_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        memory_id = _parse_memory_id(d.pop("memory_id", UNSET))

        def _parse_last_status_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code", UNSET))

        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))

        def _parse_last_latency_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_latency_ms = _parse_last_latency_ms(d.pop("last_latency_ms", UNSET))

        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))

        payload = d.pop("payload", UNSET)

        webhook_delivery = cls(
            id=id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
            memory_id=memory_id,
            last_status_code=last_status_code,
            last_error=last_error,
            last_latency_ms=last_latency_ms,
            delivered_at=delivered_at,
            payload=payload,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

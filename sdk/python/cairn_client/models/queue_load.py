from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="QueueLoad")


@_attrs_define
class QueueLoad:
    """A queue's jobs not done, overall or for one tenant.

    Attributes:
        queue (str):
        pending (int):
        running (int):
        failed (int): Failed for good (apalis' `Failed`) and given up (`Killed`), kept until pruned.
        killed (int):
        tenant_id (None | Unset | UUID): Absent in the per-queue totals; null for the service's own (periodic) jobs.
        tenant_name (None | str | Unset):
        oldest_pending_secs (float | None | Unset): Seconds since the oldest pending job was due (null without pending
            jobs).
    """

    queue: str
    pending: int
    running: int
    failed: int
    killed: int
    tenant_id: None | Unset | UUID = UNSET
    tenant_name: None | str | Unset = UNSET
    oldest_pending_secs: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        queue = self.queue

        pending = self.pending

        running = self.running

        failed = self.failed

        killed = self.killed

        tenant_id: None | str | Unset
        if isinstance(self.tenant_id, Unset):
            tenant_id = UNSET
        elif isinstance(self.tenant_id, UUID):
            tenant_id = str(self.tenant_id)
        else:
            tenant_id = self.tenant_id

        tenant_name: None | str | Unset
        if isinstance(self.tenant_name, Unset):
            tenant_name = UNSET
        else:
            tenant_name = self.tenant_name

        oldest_pending_secs: float | None | Unset
        if isinstance(self.oldest_pending_secs, Unset):
            oldest_pending_secs = UNSET
        else:
            oldest_pending_secs = self.oldest_pending_secs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queue": queue,
                "pending": pending,
                "running": running,
                "failed": failed,
                "killed": killed,
            }
        )
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id
        if tenant_name is not UNSET:
            field_dict["tenant_name"] = tenant_name
        if oldest_pending_secs is not UNSET:
            field_dict["oldest_pending_secs"] = oldest_pending_secs

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        queue = d.pop("queue")

        pending = d.pop("pending")

        running = d.pop("running")

        failed = d.pop("failed")

        killed = d.pop("killed")

        def _parse_tenant_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tenant_id_type_0 = UUID(data)

                return tenant_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        tenant_id = _parse_tenant_id(d.pop("tenant_id", UNSET))

        def _parse_tenant_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tenant_name = _parse_tenant_name(d.pop("tenant_name", UNSET))

        def _parse_oldest_pending_secs(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        oldest_pending_secs = _parse_oldest_pending_secs(d.pop("oldest_pending_secs", UNSET))

        queue_load = cls(
            queue=queue,
            pending=pending,
            running=running,
            failed=failed,
            killed=killed,
            tenant_id=tenant_id,
            tenant_name=tenant_name,
            oldest_pending_secs=oldest_pending_secs,
        )

        queue_load.additional_properties = d
        return queue_load

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

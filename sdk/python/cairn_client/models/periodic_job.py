from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PeriodicJob")


@_attrs_define
class PeriodicJob:
    """A periodic job of the service and its latest period.

    Attributes:
        queue (str): `cairn::expire`, `cairn::retention` or `cairn::schedule`.
        period_start (datetime.datetime): The latest period claimed (it runs once per period, across every worker
            process).
        status (None | str | Unset): Its job's state (Pending, Running, Done, Failed, Killed).
        done_at (datetime.datetime | None | Unset):
    """

    queue: str
    period_start: datetime.datetime
    status: None | str | Unset = UNSET
    done_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        queue = self.queue

        period_start = self.period_start.isoformat()

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        done_at: None | str | Unset
        if isinstance(self.done_at, Unset):
            done_at = UNSET
        elif isinstance(self.done_at, datetime.datetime):
            done_at = self.done_at.isoformat()
        else:
            done_at = self.done_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queue": queue,
                "period_start": period_start,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if done_at is not UNSET:
            field_dict["done_at"] = done_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        queue = d.pop("queue")

        period_start = datetime.datetime.fromisoformat(d.pop("period_start"))

        def _parse_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_done_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                done_at_type_0 = datetime.datetime.fromisoformat(data)

                return done_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        done_at = _parse_done_at(d.pop("done_at", UNSET))

        periodic_job = cls(
            queue=queue,
            period_start=period_start,
            status=status,
            done_at=done_at,
        )

        periodic_job.additional_properties = d
        return periodic_job

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

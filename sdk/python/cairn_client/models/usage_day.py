from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.usage_day_counters import UsageDayCounters


T = TypeVar("T", bound="UsageDay")


@_attrs_define
class UsageDay:
    """
    Attributes:
        day (datetime.date):
        counters (UsageDayCounters):
    """

    day: datetime.date
    counters: UsageDayCounters
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        day = self.day.isoformat()

        counters = self.counters.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "day": day,
                "counters": counters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_day_counters import UsageDayCounters  # noqa: PLC0415

        d = dict(src_dict)
        day = datetime.date.fromisoformat(d.pop("day"))

        counters = UsageDayCounters.from_dict(d.pop("counters"))

        usage_day = cls(
            day=day,
            counters=counters,
        )

        usage_day.additional_properties = d
        return usage_day

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

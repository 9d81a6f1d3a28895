from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.run_record import RunRecord
    from ..models.scheduled_mode import ScheduledMode


T = TypeVar("T", bound="ConsolidationStatus")


@_attrs_define
class ConsolidationStatus:
    """
    Attributes:
        schedule (list[ScheduledMode]):
        history (list[RunRecord]): The latest runs, manual and scheduled, newest first.
    """

    schedule: list[ScheduledMode]
    history: list[RunRecord]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        schedule = []
        for schedule_item_data in self.schedule:
            schedule_item = schedule_item_data.to_dict()
            schedule.append(schedule_item)

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "schedule": schedule,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_record import RunRecord  # noqa: PLC0415
        from ..models.scheduled_mode import ScheduledMode  # noqa: PLC0415

        d = dict(src_dict)
        schedule = []
        _schedule = d.pop("schedule")
        for schedule_item_data in _schedule:
            schedule_item = ScheduledMode.from_dict(schedule_item_data)

            schedule.append(schedule_item)

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = RunRecord.from_dict(history_item_data)

            history.append(history_item)

        consolidation_status = cls(
            schedule=schedule,
            history=history,
        )

        consolidation_status.additional_properties = d
        return consolidation_status

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

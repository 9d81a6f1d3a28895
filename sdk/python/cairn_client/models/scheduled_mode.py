from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.consolidation_mode import ConsolidationMode
from ..models.time_horizon import TimeHorizon
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduledMode")


@_attrs_define
class ScheduledMode:
    """
    Attributes:
        mode (ConsolidationMode): A consolidation mode: full, decay, creative, cluster or forget.
        time_horizon (TimeHorizon): A consolidation horizon: the memories clustering and discovery look at.
        every_hours (int):
        next_run (datetime.datetime): When the schedule runs it next (at its next hourly check after this time).
        last_run (datetime.datetime | None | Unset):
    """

    mode: ConsolidationMode
    time_horizon: TimeHorizon
    every_hours: int
    next_run: datetime.datetime
    last_run: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        time_horizon = self.time_horizon.value

        every_hours = self.every_hours

        next_run = self.next_run.isoformat()

        last_run: None | str | Unset
        if isinstance(self.last_run, Unset):
            last_run = UNSET
        elif isinstance(self.last_run, datetime.datetime):
            last_run = self.last_run.isoformat()
        else:
            last_run = self.last_run

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mode": mode,
                "time_horizon": time_horizon,
                "every_hours": every_hours,
                "next_run": next_run,
            }
        )
        if last_run is not UNSET:
            field_dict["last_run"] = last_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = ConsolidationMode(d.pop("mode"))

        time_horizon = TimeHorizon(d.pop("time_horizon"))

        every_hours = d.pop("every_hours")

        next_run = datetime.datetime.fromisoformat(d.pop("next_run"))

        def _parse_last_run(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_run_type_0 = datetime.datetime.fromisoformat(data)

                return last_run_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_run = _parse_last_run(d.pop("last_run", UNSET))

        scheduled_mode = cls(
            mode=mode,
            time_horizon=time_horizon,
            every_hours=every_hours,
            next_run=next_run,
            last_run=last_run,
        )

        scheduled_mode.additional_properties = d
        return scheduled_mode

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

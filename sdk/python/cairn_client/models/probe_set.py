from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.probe_set_probe import ProbeSetProbe


T = TypeVar("T", bound="ProbeSet")


@_attrs_define
class ProbeSet:
    """A stored probe set.

    Attributes:
        name (str):
        probes (list[ProbeSetProbe]):
        k (int):
        mode (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        every_hours (int | None | Unset): Re-run every this many hours by the `cairn::eval` job (null: only when asked).
        last_run_at (datetime.datetime | None | Unset): When the schedule last took it (runs asked for by hand do not
            move the schedule).
    """

    name: str
    probes: list[ProbeSetProbe]
    k: int
    mode: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    every_hours: int | None | Unset = UNSET
    last_run_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        probes = []
        for probes_item_data in self.probes:
            probes_item = probes_item_data.to_dict()
            probes.append(probes_item)

        k = self.k

        mode = self.mode

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        every_hours: int | None | Unset
        if isinstance(self.every_hours, Unset):
            every_hours = UNSET
        else:
            every_hours = self.every_hours

        last_run_at: None | str | Unset
        if isinstance(self.last_run_at, Unset):
            last_run_at = UNSET
        elif isinstance(self.last_run_at, datetime.datetime):
            last_run_at = self.last_run_at.isoformat()
        else:
            last_run_at = self.last_run_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "probes": probes,
                "k": k,
                "mode": mode,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if every_hours is not UNSET:
            field_dict["every_hours"] = every_hours
        if last_run_at is not UNSET:
            field_dict["last_run_at"] = last_run_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.probe_set_probe import ProbeSetProbe  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        probes = []
        _probes = d.pop("probes")
        for probes_item_data in _probes:
            probes_item = ProbeSetProbe.from_dict(probes_item_data)

            probes.append(probes_item)

        k = d.pop("k")

        mode = d.pop("mode")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_every_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        every_hours = _parse_every_hours(d.pop("every_hours", UNSET))

        def _parse_last_run_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_run_at = _parse_last_run_at(d.pop("last_run_at", UNSET))

        probe_set = cls(
            name=name,
            probes=probes,
            k=k,
            mode=mode,
            created_at=created_at,
            updated_at=updated_at,
            every_hours=every_hours,
            last_run_at=last_run_at,
        )

        probe_set.additional_properties = d
        return probe_set

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

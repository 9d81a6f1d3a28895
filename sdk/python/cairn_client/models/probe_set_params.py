from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.probe_set_params_mode import ProbeSetParamsMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.probe_set_params_probes_item import ProbeSetParamsProbesItem


T = TypeVar("T", bound="ProbeSetParams")


@_attrs_define
class ProbeSetParams:
    """A probe set to store.

    Example:
        {'every_hours': 24, 'k': 10, 'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which
            database did we choose?'}]}

    Attributes:
        probes (list[ProbeSetParamsProbesItem]): The probes (1..=50).
        every_hours (int | None | Unset): Re-run the set every this many hours (1..=8760) by the `cairn::eval` job;
            leave out to run it only
            when asked.
        k (int | None | Unset): The cut-off of recall@k, 1..=100 (default 10).
        mode (ProbeSetParamsMode | Unset): The recall mode probed (default hybrid).
    """

    probes: list[ProbeSetParamsProbesItem]
    every_hours: int | None | Unset = UNSET
    k: int | None | Unset = UNSET
    mode: ProbeSetParamsMode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        probes = []
        for probes_item_data in self.probes:
            probes_item = probes_item_data.to_dict()
            probes.append(probes_item)

        every_hours: int | None | Unset
        if isinstance(self.every_hours, Unset):
            every_hours = UNSET
        else:
            every_hours = self.every_hours

        k: int | None | Unset
        if isinstance(self.k, Unset):
            k = UNSET
        else:
            k = self.k

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "probes": probes,
            }
        )
        if every_hours is not UNSET:
            field_dict["every_hours"] = every_hours
        if k is not UNSET:
            field_dict["k"] = k
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.probe_set_params_probes_item import ProbeSetParamsProbesItem  # noqa: PLC0415

        d = dict(src_dict)
        probes = []
        _probes = d.pop("probes")
        for probes_item_data in _probes:
            probes_item = ProbeSetParamsProbesItem.from_dict(probes_item_data)

            probes.append(probes_item)

        def _parse_every_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        every_hours = _parse_every_hours(d.pop("every_hours", UNSET))

        def _parse_k(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        k = _parse_k(d.pop("k", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: ProbeSetParamsMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = ProbeSetParamsMode(_mode)

        probe_set_params = cls(
            probes=probes,
            every_hours=every_hours,
            k=k,
            mode=mode,
        )

        probe_set_params.additional_properties = d
        return probe_set_params

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

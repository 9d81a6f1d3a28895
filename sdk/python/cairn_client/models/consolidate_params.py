from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.consolidate_params_mode import ConsolidateParamsMode
from ..models.consolidate_params_time_horizon import ConsolidateParamsTimeHorizon
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConsolidateParams")


@_attrs_define
class ConsolidateParams:
    """A consolidation as callers ask for it (native `/api/v1/consolidate` and AutoMem's `/consolidate`).

    Example:
        {'dry_run': True, 'mode': 'cluster', 'time_horizon': 'weekly'}

    Attributes:
        dry_run (bool | None | Unset): Report what would happen without writing anything.
        mode (ConsolidateParamsMode | Unset): full (default), decay, creative, cluster or forget.
        time_horizon (ConsolidateParamsTimeHorizon | Unset): daily, weekly (default), monthly, quarterly or yearly: the
            memories clustering and discovery look at.
    """

    dry_run: bool | None | Unset = UNSET
    mode: ConsolidateParamsMode | Unset = UNSET
    time_horizon: ConsolidateParamsTimeHorizon | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dry_run: bool | None | Unset
        if isinstance(self.dry_run, Unset):
            dry_run = UNSET
        else:
            dry_run = self.dry_run

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        time_horizon: str | Unset = UNSET
        if not isinstance(self.time_horizon, Unset):
            time_horizon = self.time_horizon.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if mode is not UNSET:
            field_dict["mode"] = mode
        if time_horizon is not UNSET:
            field_dict["time_horizon"] = time_horizon

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_dry_run(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        dry_run = _parse_dry_run(d.pop("dry_run", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: ConsolidateParamsMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = ConsolidateParamsMode(_mode)

        _time_horizon = d.pop("time_horizon", UNSET)
        time_horizon: ConsolidateParamsTimeHorizon | Unset
        if isinstance(_time_horizon, Unset):
            time_horizon = UNSET
        else:
            time_horizon = ConsolidateParamsTimeHorizon(_time_horizon)

        consolidate_params = cls(
            dry_run=dry_run,
            mode=mode,
            time_horizon=time_horizon,
        )

        consolidate_params.additional_properties = d
        return consolidate_params

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

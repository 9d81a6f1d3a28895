from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ShodhConsolidateRequest")


@_attrs_define
class ShodhConsolidateRequest:
    """
    Example:
        {'time_horizon': 'weekly'}

    Attributes:
        time_horizon (None | str | Unset): daily, weekly, monthly, quarterly or yearly.
    """

    time_horizon: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        time_horizon: None | str | Unset
        if isinstance(self.time_horizon, Unset):
            time_horizon = UNSET
        else:
            time_horizon = self.time_horizon

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if time_horizon is not UNSET:
            field_dict["time_horizon"] = time_horizon

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_time_horizon(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        time_horizon = _parse_time_horizon(d.pop("time_horizon", UNSET))

        shodh_consolidate_request = cls(
            time_horizon=time_horizon,
        )

        shodh_consolidate_request.additional_properties = d
        return shodh_consolidate_request

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

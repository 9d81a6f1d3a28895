from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.probe_set import ProbeSet


T = TypeVar("T", bound="ProbeSets")


@_attrs_define
class ProbeSets:
    """
    Attributes:
        probe_sets (list[ProbeSet]):
    """

    probe_sets: list[ProbeSet]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        probe_sets = []
        for probe_sets_item_data in self.probe_sets:
            probe_sets_item = probe_sets_item_data.to_dict()
            probe_sets.append(probe_sets_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "probe_sets": probe_sets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.probe_set import ProbeSet  # noqa: PLC0415

        d = dict(src_dict)
        probe_sets = []
        _probe_sets = d.pop("probe_sets")
        for probe_sets_item_data in _probe_sets:
            probe_sets_item = ProbeSet.from_dict(probe_sets_item_data)

            probe_sets.append(probe_sets_item)

        probe_sets = cls(
            probe_sets=probe_sets,
        )

        probe_sets.additional_properties = d
        return probe_sets

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

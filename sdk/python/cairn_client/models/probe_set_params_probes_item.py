from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ProbeSetParamsProbesItem")


@_attrs_define
class ProbeSetParamsProbesItem:
    """One probe: a question and the memories that should answer it.

    Attributes:
        expected (list[UUID]): Ids of the memories that answer it (1..=20).
        query (str): The question, as a client would ask it (1..=1000 characters).
    """

    expected: list[UUID]
    query: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected = []
        for expected_item_data in self.expected:
            expected_item = str(expected_item_data)
            expected.append(expected_item)

        query = self.query

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected": expected,
                "query": query,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expected = []
        _expected = d.pop("expected")
        for expected_item_data in _expected:
            expected_item = UUID(expected_item_data)

            expected.append(expected_item)

        query = d.pop("query")

        probe_set_params_probes_item = cls(
            expected=expected,
            query=query,
        )

        probe_set_params_probes_item.additional_properties = d
        return probe_set_params_probes_item

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

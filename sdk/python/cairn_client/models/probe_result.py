from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.expected_rank import ExpectedRank


T = TypeVar("T", bound="ProbeResult")


@_attrs_define
class ProbeResult:
    """One probe's figures.

    Attributes:
        query (str):
        recall (float): Share of its expected memories in the top k.
        reciprocal_rank (float): 1 / the rank of the first expected memory (0 when none is among the first 100).
        expected (list[ExpectedRank]):
    """

    query: str
    recall: float
    reciprocal_rank: float
    expected: list[ExpectedRank]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        recall = self.recall

        reciprocal_rank = self.reciprocal_rank

        expected = []
        for expected_item_data in self.expected:
            expected_item = expected_item_data.to_dict()
            expected.append(expected_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "query": query,
                "recall": recall,
                "reciprocal_rank": reciprocal_rank,
                "expected": expected,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.expected_rank import ExpectedRank  # noqa: PLC0415

        d = dict(src_dict)
        query = d.pop("query")

        recall = d.pop("recall")

        reciprocal_rank = d.pop("reciprocal_rank")

        expected = []
        _expected = d.pop("expected")
        for expected_item_data in _expected:
            expected_item = ExpectedRank.from_dict(expected_item_data)

            expected.append(expected_item)

        probe_result = cls(
            query=query,
            recall=recall,
            reciprocal_rank=reciprocal_rank,
            expected=expected,
        )

        probe_result.additional_properties = d
        return probe_result

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

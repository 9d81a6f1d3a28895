from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.association_item import AssociationItem


T = TypeVar("T", bound="AssociationBatch")


@_attrs_define
class AssociationBatch:
    """
    Attributes:
        status (str): `success` (all stored) or `partial`.
        stored (int):
        failed (int):
        results (list[AssociationItem]):
    """

    status: str
    stored: int
    failed: int
    results: list[AssociationItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        stored = self.stored

        failed = self.failed

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "stored": stored,
                "failed": failed,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association_item import AssociationItem  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        stored = d.pop("stored")

        failed = d.pop("failed")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = AssociationItem.from_dict(results_item_data)

            results.append(results_item)

        association_batch = cls(
            status=status,
            stored=stored,
            failed=failed,
            results=results,
        )

        association_batch.additional_properties = d
        return association_batch

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

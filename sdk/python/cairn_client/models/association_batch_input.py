from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.association_input import AssociationInput


T = TypeVar("T", bound="AssociationBatchInput")


@_attrs_define
class AssociationBatchInput:
    """
    Example:
        {'associations': [{'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11', 'memory2_id':
            '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'type': 'RelatedTo'}]}

    Attributes:
        associations (list[AssociationInput]):
    """

    associations: list[AssociationInput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        associations = []
        for associations_item_data in self.associations:
            associations_item = associations_item_data.to_dict()
            associations.append(associations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "associations": associations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association_input import AssociationInput  # noqa: PLC0415

        d = dict(src_dict)
        associations = []
        _associations = d.pop("associations")
        for associations_item_data in _associations:
            associations_item = AssociationInput.from_dict(associations_item_data)

            associations.append(associations_item)

        association_batch_input = cls(
            associations=associations,
        )

        association_batch_input.additional_properties = d
        return association_batch_input

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

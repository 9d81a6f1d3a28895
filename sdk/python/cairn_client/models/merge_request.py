from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MergeRequest")


@_attrs_define
class MergeRequest:
    """The entities to merge into the one in the path.

    Example:
        {'entity_ids': ['7a1c9e3b-2d4f-4b6a-8c0e-1f2a3b4c5d6e']}

    Attributes:
        entity_ids (list[UUID]): 1..=100 entities of this tenant, none the target itself.
    """

    entity_ids: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity_ids = []
        for entity_ids_item_data in self.entity_ids:
            entity_ids_item = str(entity_ids_item_data)
            entity_ids.append(entity_ids_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entity_ids": entity_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entity_ids = []
        _entity_ids = d.pop("entity_ids")
        for entity_ids_item_data in _entity_ids:
            entity_ids_item = UUID(entity_ids_item_data)

            entity_ids.append(entity_ids_item)

        merge_request = cls(
            entity_ids=entity_ids,
        )

        merge_request.additional_properties = d
        return merge_request

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

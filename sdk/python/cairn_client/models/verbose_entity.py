from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.verbose_memory import VerboseMemory


T = TypeVar("T", bound="VerboseEntity")


@_attrs_define
class VerboseEntity:
    """
    Attributes:
        entity_id (UUID):
        entity_name (str):
        entity_type (str):
        memories (list[VerboseMemory]):
    """

    entity_id: UUID
    entity_name: str
    entity_type: str
    memories: list[VerboseMemory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity_id = str(self.entity_id)

        entity_name = self.entity_name

        entity_type = self.entity_type

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entityId": entity_id,
                "entityName": entity_name,
                "entityType": entity_type,
                "memories": memories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verbose_memory import VerboseMemory  # noqa: PLC0415

        d = dict(src_dict)
        entity_id = UUID(d.pop("entityId"))

        entity_name = d.pop("entityName")

        entity_type = d.pop("entityType")

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = VerboseMemory.from_dict(memories_item_data)

            memories.append(memories_item)

        verbose_entity = cls(
            entity_id=entity_id,
            entity_name=entity_name,
            entity_type=entity_type,
            memories=memories,
        )

        verbose_entity.additional_properties = d
        return verbose_entity

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

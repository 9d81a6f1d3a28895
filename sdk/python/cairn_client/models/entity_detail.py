from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.entity import Entity
    from ..models.memory import Memory


T = TypeVar("T", bound="EntityDetail")


@_attrs_define
class EntityDetail:
    """
    Attributes:
        entity (Entity): An entity and how many memories mention it. Example: {'aliases': ['tool:postgres'],
            'created_at': '2026-11-30T10:00:00Z', 'id': '3f6d2a9e-1c4b-4e8f-9a7d-5b2c1e0f4a6d', 'memory_count': 12, 'name':
            'PostgreSQL', 'normalized_name': 'postgresql', 'tag': 'entity:tool:postgresql', 'type': 'tool'}.
        memories (list[Memory]): The memories that mention it, newest first.
        limit (int):
        offset (int):
        has_more (bool):
    """

    entity: Entity
    memories: list[Memory]
    limit: int
    offset: int
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity = self.entity.to_dict()

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entity": entity,
                "memories": memories,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entity import Entity  # noqa: PLC0415
        from ..models.memory import Memory  # noqa: PLC0415

        d = dict(src_dict)
        entity = Entity.from_dict(d.pop("entity"))

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = Memory.from_dict(memories_item_data)

            memories.append(memories_item)

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        entity_detail = cls(
            entity=entity,
            memories=memories,
            limit=limit,
            offset=offset,
            has_more=has_more,
        )

        entity_detail.additional_properties = d
        return entity_detail

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.related_memory import RelatedMemory


T = TypeVar("T", bound="RelatedAnswer")


@_attrs_define
class RelatedAnswer:
    """
    Attributes:
        status (str):
        memory_id (UUID):
        count (int):
        related_memories (list[RelatedMemory]):
    """

    status: str
    memory_id: UUID
    count: int
    related_memories: list[RelatedMemory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        memory_id = str(self.memory_id)

        count = self.count

        related_memories = []
        for related_memories_item_data in self.related_memories:
            related_memories_item = related_memories_item_data.to_dict()
            related_memories.append(related_memories_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "memory_id": memory_id,
                "count": count,
                "related_memories": related_memories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.related_memory import RelatedMemory  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        memory_id = UUID(d.pop("memory_id"))

        count = d.pop("count")

        related_memories = []
        _related_memories = d.pop("related_memories")
        for related_memories_item_data in _related_memories:
            related_memories_item = RelatedMemory.from_dict(related_memories_item_data)

            related_memories.append(related_memories_item)

        related_answer = cls(
            status=status,
            memory_id=memory_id,
            count=count,
            related_memories=related_memories,
        )

        related_answer.additional_properties = d
        return related_answer

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

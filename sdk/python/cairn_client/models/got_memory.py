from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory_with_relations import MemoryWithRelations


T = TypeVar("T", bound="GotMemory")


@_attrs_define
class GotMemory:
    """
    Example:
        {'memory': {'confidence': 0.9, 'content': 'Chose PostgreSQL over MongoDB. Need ACID guarantees for
            transactions.', 'id': 'abc-123-def-456', 'importance': 0.9, 'last_accessed': '2025-01-16T08:00:00Z', 'metadata':
            {}, 'relations': [], 'tags': ['project-alpha', 'database'], 'timestamp': '2025-01-15T10:30:00Z', 'type':
            'Decision', 'updated_at': '2025-01-15T10:30:00Z'}, 'status': 'success'}

    Attributes:
        status (str):
        memory (MemoryWithRelations):
    """

    status: str
    memory: MemoryWithRelations
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        memory = self.memory.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "memory": memory,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_with_relations import MemoryWithRelations  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        memory = MemoryWithRelations.from_dict(d.pop("memory"))

        got_memory = cls(
            status=status,
            memory=memory,
        )

        got_memory.additional_properties = d
        return got_memory

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

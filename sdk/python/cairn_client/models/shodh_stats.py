from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.type_count import TypeCount


T = TypeVar("T", bound="ShodhStats")


@_attrs_define
class ShodhStats:
    """
    Example:
        {'by_type': [{'count': 12, 'memory_type': 'Decision'}], 'database': 'postgresql', 'memories_last_7_days': 5,
            'total_memories': 42, 'vector_store': 'pgvector'}

    Attributes:
        total_memories (int):
        memories_last_7_days (int):
        by_type (list[TypeCount]):
        database (str): `postgresql`.
        vector_store (str): `pgvector`.
    """

    total_memories: int
    memories_last_7_days: int
    by_type: list[TypeCount]
    database: str
    vector_store: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total_memories = self.total_memories

        memories_last_7_days = self.memories_last_7_days

        by_type = []
        for by_type_item_data in self.by_type:
            by_type_item = by_type_item_data.to_dict()
            by_type.append(by_type_item)

        database = self.database

        vector_store = self.vector_store

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total_memories": total_memories,
                "memories_last_7_days": memories_last_7_days,
                "by_type": by_type,
                "database": database,
                "vector_store": vector_store,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.type_count import TypeCount  # noqa: PLC0415

        d = dict(src_dict)
        total_memories = d.pop("total_memories")

        memories_last_7_days = d.pop("memories_last_7_days")

        by_type = []
        _by_type = d.pop("by_type")
        for by_type_item_data in _by_type:
            by_type_item = TypeCount.from_dict(by_type_item_data)

            by_type.append(by_type_item)

        database = d.pop("database")

        vector_store = d.pop("vector_store")

        shodh_stats = cls(
            total_memories=total_memories,
            memories_last_7_days=memories_last_7_days,
            by_type=by_type,
            database=database,
            vector_store=vector_store,
        )

        shodh_stats.additional_properties = d
        return shodh_stats

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

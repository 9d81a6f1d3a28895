from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.embedding_counts import EmbeddingCounts
    from ..models.type_count import TypeCount


T = TypeVar("T", bound="TenantStats")


@_attrs_define
class TenantStats:
    """A tenant's memories in numbers. "Active" memories are those recall and listings return: neither archived
    nor expired.

        Example:
            {'archived': 3, 'associations': 17, 'by_type': [{'count': 12, 'memory_type': 'Decision'}], 'embeddings':
                {'failed': 0, 'pending': 1, 'ready': 41}, 'entities': 9, 'long_term': 38, 'memories_last_7_days': 5,
                'short_term': 4, 'tags': 23, 'total_memories': 42}

        Attributes:
            total_memories (int): Active memories.
            memories_last_7_days (int): Active memories created in the last 7 days.
            archived (int): Archived or expired memories, kept until retention purges them.
            short_term (int): Active short-term memories.
            long_term (int): Active long-term memories.
            embeddings (EmbeddingCounts): Memories by embedding state.
            by_type (list[TypeCount]): Active memories by classification, most first.
            associations (int): Associations between memories.
            entities (int): Entities found in memories.
            tags (int): Distinct tags on active memories.
    """

    total_memories: int
    memories_last_7_days: int
    archived: int
    short_term: int
    long_term: int
    embeddings: EmbeddingCounts
    by_type: list[TypeCount]
    associations: int
    entities: int
    tags: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total_memories = self.total_memories

        memories_last_7_days = self.memories_last_7_days

        archived = self.archived

        short_term = self.short_term

        long_term = self.long_term

        embeddings = self.embeddings.to_dict()

        by_type = []
        for by_type_item_data in self.by_type:
            by_type_item = by_type_item_data.to_dict()
            by_type.append(by_type_item)

        associations = self.associations

        entities = self.entities

        tags = self.tags

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total_memories": total_memories,
                "memories_last_7_days": memories_last_7_days,
                "archived": archived,
                "short_term": short_term,
                "long_term": long_term,
                "embeddings": embeddings,
                "by_type": by_type,
                "associations": associations,
                "entities": entities,
                "tags": tags,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.embedding_counts import EmbeddingCounts  # noqa: PLC0415
        from ..models.type_count import TypeCount  # noqa: PLC0415

        d = dict(src_dict)
        total_memories = d.pop("total_memories")

        memories_last_7_days = d.pop("memories_last_7_days")

        archived = d.pop("archived")

        short_term = d.pop("short_term")

        long_term = d.pop("long_term")

        embeddings = EmbeddingCounts.from_dict(d.pop("embeddings"))

        by_type = []
        _by_type = d.pop("by_type")
        for by_type_item_data in _by_type:
            by_type_item = TypeCount.from_dict(by_type_item_data)

            by_type.append(by_type_item)

        associations = d.pop("associations")

        entities = d.pop("entities")

        tags = d.pop("tags")

        tenant_stats = cls(
            total_memories=total_memories,
            memories_last_7_days=memories_last_7_days,
            archived=archived,
            short_term=short_term,
            long_term=long_term,
            embeddings=embeddings,
            by_type=by_type,
            associations=associations,
            entities=entities,
            tags=tags,
        )

        tenant_stats.additional_properties = d
        return tenant_stats

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

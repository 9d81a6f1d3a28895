from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory import Memory
    from ..models.path_step import PathStep


T = TypeVar("T", bound="RelatedMemory")


@_attrs_define
class RelatedMemory:
    """A memory reached from the start of a traversal.

    Attributes:
        memory (Memory): A stored memory, as every route returns it. Example: {'access_count': 0, 'agent_id': None,
            'archived_at': None, 'confidence': 0.9, 'content': 'Chose PostgreSQL over MongoDB: we need ACID transactions.',
            'content_hash': '5d41402abc4b2a76b9719d911017c592ae1d8c5e0f0c6b5b1f3c7b6c0f3e2a1b', 'created_at':
            '2026-11-29T10:30:00Z', 'created_by': 'key:7f1d2c3b-9a8e-4f6d-b5c4-3e2a1f0d9c8b', 'created_by_scope':
            {'user_ids': ['user-42']}, 'credibility': 1.0, 'embedding_error': None, 'embedding_model': None,
            'embedding_status': 'pending', 'emotion': None, 'emotional_arousal': None, 'emotional_valence': None,
            'enrichment_status': 'pending', 'episode_id': None, 'expires_at': None, 'flashbulb_until': None, 'id':
            '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10', 'importance': 0.9, 'last_accessed_at': None, 'memory_type': 'long_term',
            'metadata': {'alternatives': ['MongoDB']}, 'original_length': None, 'quality_score': None, 'repeated': False,
            'run_id': None, 'sequence_number': None, 'source_type': 'user', 'summarized': False, 'summarized_length': None,
            'summary': None, 't_invalid': None, 't_valid': None, 'tag_prefixes': ['project-alpha', 'database'], 'tags':
            ['project-alpha', 'database'], 'ttl': None, 'type': 'Decision', 'updated_at': '2026-11-29T10:30:00Z', 'user_id':
            'user-42'}.
        depth (int): Hops from the start.
        path_strength (float): Product of the edge strengths along `path`.
        path (list[PathStep]): The strongest path from the start, edge by edge.
    """

    memory: Memory
    depth: int
    path_strength: float
    path: list[PathStep]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory = self.memory.to_dict()

        depth = self.depth

        path_strength = self.path_strength

        path = []
        for path_item_data in self.path:
            path_item = path_item_data.to_dict()
            path.append(path_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory": memory,
                "depth": depth,
                "path_strength": path_strength,
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory  # noqa: PLC0415
        from ..models.path_step import PathStep  # noqa: PLC0415

        d = dict(src_dict)
        memory = Memory.from_dict(d.pop("memory"))

        depth = d.pop("depth")

        path_strength = d.pop("path_strength")

        path = []
        _path = d.pop("path")
        for path_item_data in _path:
            path_item = PathStep.from_dict(path_item_data)

            path.append(path_item)

        related_memory = cls(
            memory=memory,
            depth=depth,
            path_strength=path_strength,
            path=path,
        )

        related_memory.additional_properties = d
        return related_memory

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

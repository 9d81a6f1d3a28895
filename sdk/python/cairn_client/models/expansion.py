from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory import Memory


T = TypeVar("T", bound="Expansion")


@_attrs_define
class Expansion:
    """A memory added by `expand_relations` or `expand_entities`.

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
        expanded_from (UUID): The result it is associated with.
        relation (str): The association's type (`SHARES_ENTITY` for an entity expansion) and strength.
        strength (float):
        score (float): The result's score times the strength.
        match_type (str): Always `expansion`.
        entity (None | str | Unset): For an entity expansion: the shared entity, as `type:name`.
    """

    memory: Memory
    expanded_from: UUID
    relation: str
    strength: float
    score: float
    match_type: str
    entity: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory = self.memory.to_dict()

        expanded_from = str(self.expanded_from)

        relation = self.relation

        strength = self.strength

        score = self.score

        match_type = self.match_type

        entity: None | str | Unset
        if isinstance(self.entity, Unset):
            entity = UNSET
        else:
            entity = self.entity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory": memory,
                "expanded_from": expanded_from,
                "relation": relation,
                "strength": strength,
                "score": score,
                "match_type": match_type,
            }
        )
        if entity is not UNSET:
            field_dict["entity"] = entity

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory  # noqa: PLC0415

        d = dict(src_dict)
        memory = Memory.from_dict(d.pop("memory"))

        expanded_from = UUID(d.pop("expanded_from"))

        relation = d.pop("relation")

        strength = d.pop("strength")

        score = d.pop("score")

        match_type = d.pop("match_type")

        def _parse_entity(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        entity = _parse_entity(d.pop("entity", UNSET))

        expansion = cls(
            memory=memory,
            expanded_from=expanded_from,
            relation=relation,
            strength=strength,
            score=score,
            match_type=match_type,
            entity=entity,
        )

        expansion.additional_properties = d
        return expansion

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

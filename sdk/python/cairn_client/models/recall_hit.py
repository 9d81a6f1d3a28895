from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory import Memory
    from ..models.score_components import ScoreComponents


T = TypeVar("T", bound="RecallHit")


@_attrs_define
class RecallHit:
    """One recalled memory.

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
        score (float): Overall score in [0, 1].
        match_type (str): `hybrid` (found by meaning and keywords), `semantic`, `keyword`, `associative`, or `filter`
            (no query).
        score_components (ScoreComponents): Why a recall result scored as it did.
        replaces (None | Unset | UUID): Set when this memory stands in for a superseded one that matched
            (`state_mode=current`): its id.
    """

    memory: Memory
    score: float
    match_type: str
    score_components: ScoreComponents
    replaces: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory = self.memory.to_dict()

        score = self.score

        match_type = self.match_type

        score_components = self.score_components.to_dict()

        replaces: None | str | Unset
        if isinstance(self.replaces, Unset):
            replaces = UNSET
        elif isinstance(self.replaces, UUID):
            replaces = str(self.replaces)
        else:
            replaces = self.replaces

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory": memory,
                "score": score,
                "match_type": match_type,
                "score_components": score_components,
            }
        )
        if replaces is not UNSET:
            field_dict["replaces"] = replaces

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory  # noqa: PLC0415
        from ..models.score_components import ScoreComponents  # noqa: PLC0415

        d = dict(src_dict)
        memory = Memory.from_dict(d.pop("memory"))

        score = d.pop("score")

        match_type = d.pop("match_type")

        score_components = ScoreComponents.from_dict(d.pop("score_components"))

        def _parse_replaces(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replaces_type_0 = UUID(data)

                return replaces_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        replaces = _parse_replaces(d.pop("replaces", UNSET))

        recall_hit = cls(
            memory=memory,
            score=score,
            match_type=match_type,
            score_components=score_components,
            replaces=replaces,
        )

        recall_hit.additional_properties = d
        return recall_hit

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.memory_input_memory_type import MemoryInputMemoryType
from ..models.memory_input_on_duplicate import MemoryInputOnDuplicate
from ..models.memory_input_source_type import MemoryInputSourceType
from ..models.memory_input_supersede_relation import MemoryInputSupersedeRelation
from ..models.memory_input_type import MemoryInputType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory_input_metadata import MemoryInputMetadata


T = TypeVar("T", bound="MemoryInput")


@_attrs_define
class MemoryInput:
    """A memory to store. Field names of all four seeds are accepted: `arousal` for `emotional_arousal`,
    `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is ignored.

    The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores and MCP's
    `store_memory` all read this type, and their documented schemas are derived from it, limits included.

        Example:
            {'content': 'Chose PostgreSQL over MongoDB: we need ACID transactions.', 'importance': 0.9, 'metadata':
                {'alternatives': ['MongoDB']}, 'tags': ['project-alpha', 'database'], 'type': 'Decision', 'user_id': 'user-42'}

        Attributes:
            agent_id (None | str | Unset): The agent that stored it.
            confidence (float | None | Unset): Confidence in `type`, 0..=1 (default 0.9 when `type` is given).
            content (None | str | Unset): The memory's text, 1..=2000 characters; over 500 it is stored summarised (the
                original is kept).
            created_at (None | str | Unset): The memory's own time (ISO 8601, not in the future; default now). Alias
                `timestamp`.
            credibility (float | None | Unset): Trust in the source, 0..=1 (default 1).
            embedding (list[float] | None | Unset): A precomputed embedding of the deployment's dimension.
            emotion (None | str | Unset): An emotion label (joy, frustration, relief...).
            emotional_arousal (float | None | Unset): 0..=1; at 0.8 or more the memory is a flashbulb memory (long-term,
                importance at least 0.9,
                protected for 30 days). Alias `arousal`.
            emotional_valence (float | None | Unset): -1..=1. Alias `valence`.
            episode_id (None | str | Unset): The episode (conversation, session, document) this memory belongs to.
            importance (float | None | Unset): 0..=1, default 0.5.
            memory_type (MemoryInputMemoryType | Unset): `short_term` or `long_term` (default `long_term`; `short_term` when
                only `ttl` is given).
            metadata (MemoryInputMetadata | None | Unset): Any JSON object.
            on_duplicate (MemoryInputOnDuplicate | Unset): Content the tenant already holds: `existing` (the memory holding
                it answers; the default of the
                native API and AutoMem), `error` (a 409 naming it), or `store` (stored again, as a repeat). In a batch,
                set it on the batch, not on an item.
            quality_score (float | None | Unset): 0..=1.
            run_id (None | str | Unset): The run or session it came from.
            sequence_number (int | None | Unset): Its place in the episode.
            source_type (MemoryInputSourceType | Unset): user, system, api, file, web, ai_generated or inferred (default
                user).
            supersede_reason (None | str | Unset): Why, recorded in the old memory's metadata (`supersede_reason`).
            supersede_relation (MemoryInputSupersedeRelation | Unset): `INVALIDATED_BY` (default) or `EVOLVED_INTO`: the
                edge from the old memory to the new one.
            supersedes_memory_id (None | Unset | UUID): Supersede mode (single stores only): the memory this one replaces or
                corrects. In one transaction the
                old memory gets `t_invalid` and the reason in its metadata, and an edge old → new is created.
            t_invalid (None | str | Unset): End of validity (ISO 8601).
            t_valid (None | str | Unset): Start of validity (ISO 8601).
            tags (list[str] | None | Unset): An array of tags or one comma-separated string. Hierarchical with `:` or `/`.
            ttl (int | None | Unset): Seconds a short-term memory lives; sets `expires_at`.
            type_ (MemoryInputType | Unset): Classification, one of the seeds' types (case-insensitive), taken at confidence
                0.9. Default: classified
                by AutoMem's patterns (0.6 + 0.1 per further match, at most 0.95), else by the configured chat model
                during enrichment, else `Context` at 0.3.
            user_id (None | str | Unset): The end user this memory is about.
    """

    agent_id: None | str | Unset = UNSET
    confidence: float | None | Unset = UNSET
    content: None | str | Unset = UNSET
    created_at: None | str | Unset = UNSET
    credibility: float | None | Unset = UNSET
    embedding: list[float] | None | Unset = UNSET
    emotion: None | str | Unset = UNSET
    emotional_arousal: float | None | Unset = UNSET
    emotional_valence: float | None | Unset = UNSET
    episode_id: None | str | Unset = UNSET
    importance: float | None | Unset = UNSET
    memory_type: MemoryInputMemoryType | Unset = UNSET
    metadata: MemoryInputMetadata | None | Unset = UNSET
    on_duplicate: MemoryInputOnDuplicate | Unset = UNSET
    quality_score: float | None | Unset = UNSET
    run_id: None | str | Unset = UNSET
    sequence_number: int | None | Unset = UNSET
    source_type: MemoryInputSourceType | Unset = UNSET
    supersede_reason: None | str | Unset = UNSET
    supersede_relation: MemoryInputSupersedeRelation | Unset = UNSET
    supersedes_memory_id: None | Unset | UUID = UNSET
    t_invalid: None | str | Unset = UNSET
    t_valid: None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET
    ttl: int | None | Unset = UNSET
    type_: MemoryInputType | Unset = UNSET
    user_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_input_metadata import MemoryInputMetadata  # noqa: PLC0415

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        created_at: None | str | Unset
        if isinstance(self.created_at, Unset):
            created_at = UNSET
        else:
            created_at = self.created_at

        credibility: float | None | Unset
        if isinstance(self.credibility, Unset):
            credibility = UNSET
        else:
            credibility = self.credibility

        embedding: list[float] | None | Unset
        if isinstance(self.embedding, Unset):
            embedding = UNSET
        elif isinstance(self.embedding, list):
            embedding = self.embedding

        else:
            embedding = self.embedding

        emotion: None | str | Unset
        if isinstance(self.emotion, Unset):
            emotion = UNSET
        else:
            emotion = self.emotion

        emotional_arousal: float | None | Unset
        if isinstance(self.emotional_arousal, Unset):
            emotional_arousal = UNSET
        else:
            emotional_arousal = self.emotional_arousal

        emotional_valence: float | None | Unset
        if isinstance(self.emotional_valence, Unset):
            emotional_valence = UNSET
        else:
            emotional_valence = self.emotional_valence

        episode_id: None | str | Unset
        if isinstance(self.episode_id, Unset):
            episode_id = UNSET
        else:
            episode_id = self.episode_id

        importance: float | None | Unset
        if isinstance(self.importance, Unset):
            importance = UNSET
        else:
            importance = self.importance

        memory_type: str | Unset = UNSET
        if not isinstance(self.memory_type, Unset):
            memory_type = self.memory_type.value

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, MemoryInputMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        on_duplicate: str | Unset = UNSET
        if not isinstance(self.on_duplicate, Unset):
            on_duplicate = self.on_duplicate.value

        quality_score: float | None | Unset
        if isinstance(self.quality_score, Unset):
            quality_score = UNSET
        else:
            quality_score = self.quality_score

        run_id: None | str | Unset
        if isinstance(self.run_id, Unset):
            run_id = UNSET
        else:
            run_id = self.run_id

        sequence_number: int | None | Unset
        if isinstance(self.sequence_number, Unset):
            sequence_number = UNSET
        else:
            sequence_number = self.sequence_number

        source_type: str | Unset = UNSET
        if not isinstance(self.source_type, Unset):
            source_type = self.source_type.value

        supersede_reason: None | str | Unset
        if isinstance(self.supersede_reason, Unset):
            supersede_reason = UNSET
        else:
            supersede_reason = self.supersede_reason

        supersede_relation: str | Unset = UNSET
        if not isinstance(self.supersede_relation, Unset):
            supersede_relation = self.supersede_relation.value

        supersedes_memory_id: None | str | Unset
        if isinstance(self.supersedes_memory_id, Unset):
            supersedes_memory_id = UNSET
        elif isinstance(self.supersedes_memory_id, UUID):
            supersedes_memory_id = str(self.supersedes_memory_id)
        else:
            supersedes_memory_id = self.supersedes_memory_id

        t_invalid: None | str | Unset
        if isinstance(self.t_invalid, Unset):
            t_invalid = UNSET
        else:
            t_invalid = self.t_invalid

        t_valid: None | str | Unset
        if isinstance(self.t_valid, Unset):
            t_valid = UNSET
        else:
            t_valid = self.t_valid

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        ttl: int | None | Unset
        if isinstance(self.ttl, Unset):
            ttl = UNSET
        else:
            ttl = self.ttl

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if content is not UNSET:
            field_dict["content"] = content
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if credibility is not UNSET:
            field_dict["credibility"] = credibility
        if embedding is not UNSET:
            field_dict["embedding"] = embedding
        if emotion is not UNSET:
            field_dict["emotion"] = emotion
        if emotional_arousal is not UNSET:
            field_dict["emotional_arousal"] = emotional_arousal
        if emotional_valence is not UNSET:
            field_dict["emotional_valence"] = emotional_valence
        if episode_id is not UNSET:
            field_dict["episode_id"] = episode_id
        if importance is not UNSET:
            field_dict["importance"] = importance
        if memory_type is not UNSET:
            field_dict["memory_type"] = memory_type
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if on_duplicate is not UNSET:
            field_dict["on_duplicate"] = on_duplicate
        if quality_score is not UNSET:
            field_dict["quality_score"] = quality_score
        if run_id is not UNSET:
            field_dict["run_id"] = run_id
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if source_type is not UNSET:
            field_dict["source_type"] = source_type
        if supersede_reason is not UNSET:
            field_dict["supersede_reason"] = supersede_reason
        if supersede_relation is not UNSET:
            field_dict["supersede_relation"] = supersede_relation
        if supersedes_memory_id is not UNSET:
            field_dict["supersedes_memory_id"] = supersedes_memory_id
        if t_invalid is not UNSET:
            field_dict["t_invalid"] = t_invalid
        if t_valid is not UNSET:
            field_dict["t_valid"] = t_valid
        if tags is not UNSET:
            field_dict["tags"] = tags
        if ttl is not UNSET:
            field_dict["ttl"] = ttl
        if type_ is not UNSET:
            field_dict["type"] = type_
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_input_metadata import MemoryInputMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))

        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_created_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        created_at = _parse_created_at(d.pop("created_at", UNSET))

        def _parse_credibility(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        credibility = _parse_credibility(d.pop("credibility", UNSET))

        def _parse_embedding(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                embedding_type_0 = cast(list[float], data)

                return embedding_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        embedding = _parse_embedding(d.pop("embedding", UNSET))

        def _parse_emotion(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emotion = _parse_emotion(d.pop("emotion", UNSET))

        def _parse_emotional_arousal(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        emotional_arousal = _parse_emotional_arousal(d.pop("emotional_arousal", UNSET))

        def _parse_emotional_valence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        emotional_valence = _parse_emotional_valence(d.pop("emotional_valence", UNSET))

        def _parse_episode_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        episode_id = _parse_episode_id(d.pop("episode_id", UNSET))

        def _parse_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        importance = _parse_importance(d.pop("importance", UNSET))

        _memory_type = d.pop("memory_type", UNSET)
        memory_type: MemoryInputMemoryType | Unset
        if isinstance(_memory_type, Unset):
            memory_type = UNSET
        else:
            memory_type = MemoryInputMemoryType(_memory_type)

        def _parse_metadata(data: object) -> MemoryInputMetadata | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = MemoryInputMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryInputMetadata | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        _on_duplicate = d.pop("on_duplicate", UNSET)
        on_duplicate: MemoryInputOnDuplicate | Unset
        if isinstance(_on_duplicate, Unset):
            on_duplicate = UNSET
        else:
            on_duplicate = MemoryInputOnDuplicate(_on_duplicate)

        def _parse_quality_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality_score = _parse_quality_score(d.pop("quality_score", UNSET))

        def _parse_run_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run_id = _parse_run_id(d.pop("run_id", UNSET))

        def _parse_sequence_number(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        sequence_number = _parse_sequence_number(d.pop("sequence_number", UNSET))

        _source_type = d.pop("source_type", UNSET)
        source_type: MemoryInputSourceType | Unset
        if isinstance(_source_type, Unset):
            source_type = UNSET
        else:
            source_type = MemoryInputSourceType(_source_type)

        def _parse_supersede_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        supersede_reason = _parse_supersede_reason(d.pop("supersede_reason", UNSET))

        _supersede_relation = d.pop("supersede_relation", UNSET)
        supersede_relation: MemoryInputSupersedeRelation | Unset
        if isinstance(_supersede_relation, Unset):
            supersede_relation = UNSET
        else:
            supersede_relation = MemoryInputSupersedeRelation(_supersede_relation)

        def _parse_supersedes_memory_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                supersedes_memory_id_type_0 = UUID(data)

                return supersedes_memory_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        supersedes_memory_id = _parse_supersedes_memory_id(d.pop("supersedes_memory_id", UNSET))

        def _parse_t_invalid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        t_invalid = _parse_t_invalid(d.pop("t_invalid", UNSET))

        def _parse_t_valid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        t_valid = _parse_t_valid(d.pop("t_valid", UNSET))

        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        def _parse_ttl(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl = _parse_ttl(d.pop("ttl", UNSET))

        _type_ = d.pop("type", UNSET)
        type_: MemoryInputType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = MemoryInputType(_type_)

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        memory_input = cls(
            agent_id=agent_id,
            confidence=confidence,
            content=content,
            created_at=created_at,
            credibility=credibility,
            embedding=embedding,
            emotion=emotion,
            emotional_arousal=emotional_arousal,
            emotional_valence=emotional_valence,
            episode_id=episode_id,
            importance=importance,
            memory_type=memory_type,
            metadata=metadata,
            on_duplicate=on_duplicate,
            quality_score=quality_score,
            run_id=run_id,
            sequence_number=sequence_number,
            source_type=source_type,
            supersede_reason=supersede_reason,
            supersede_relation=supersede_relation,
            supersedes_memory_id=supersedes_memory_id,
            t_invalid=t_invalid,
            t_valid=t_valid,
            tags=tags,
            ttl=ttl,
            type_=type_,
            user_id=user_id,
        )

        memory_input.additional_properties = d
        return memory_input

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

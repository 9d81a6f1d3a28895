from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.memory_patch_memory_type import MemoryPatchMemoryType
from ..models.memory_patch_source_type import MemoryPatchSourceType
from ..models.memory_patch_type import MemoryPatchType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory_patch_metadata import MemoryPatchMetadata


T = TypeVar("T", bound="MemoryPatch")


@_attrs_define
class MemoryPatch:
    """A partial update: absent fields stay as they are; `null` clears a nullable field. `metadata` replaces
    the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash and queues
    re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later does not make
    a memory a flashbulb memory.

    The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset) and MCP's
    `update_memory` all read it.

        Example:
            {'importance': 0.95, 'tags': ['project-alpha', 'database', 'reviewed']}

        Attributes:
            agent_id (None | str | Unset):
            confidence (float | None | Unset):
            content (None | str | Unset): New content, 1..=2000 characters (re-embedded; over 500 it is stored summarised).
            created_at (None | str | Unset): Override the memory's own time (alias `timestamp`).
            credibility (float | None | Unset):
            embedding (list[float] | None | Unset): A precomputed embedding of the deployment's dimension (replaces the
                stored vector).
            emotion (None | str | Unset):
            emotional_arousal (float | None | Unset): Alias `arousal`. Raising it later does not make a memory a flashbulb
                memory.
            emotional_valence (float | None | Unset): Alias `valence`.
            episode_id (None | str | Unset):
            importance (float | None | Unset):
            memory_type (MemoryPatchMemoryType | Unset): `short_term` or `long_term`; changing to long_term clears the TTL.
            metadata (MemoryPatchMetadata | None | Unset): Replaces the stored object.
            quality_score (float | None | Unset): `null` clears it.
            run_id (None | str | Unset):
            sequence_number (int | None | Unset):
            source_type (MemoryPatchSourceType | Unset):
            t_invalid (None | str | Unset):
            t_valid (None | str | Unset):
            tags (list[str] | None | Unset): Replaces the tags (an array, or one comma-separated string).
            ttl (int | None | Unset): New TTL in seconds from now (short-term only).
            type_ (MemoryPatchType | Unset): The classification.
            user_id (None | str | Unset):
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
    memory_type: MemoryPatchMemoryType | Unset = UNSET
    metadata: MemoryPatchMetadata | None | Unset = UNSET
    quality_score: float | None | Unset = UNSET
    run_id: None | str | Unset = UNSET
    sequence_number: int | None | Unset = UNSET
    source_type: MemoryPatchSourceType | Unset = UNSET
    t_invalid: None | str | Unset = UNSET
    t_valid: None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET
    ttl: int | None | Unset = UNSET
    type_: MemoryPatchType | Unset = UNSET
    user_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_patch_metadata import MemoryPatchMetadata  # noqa: PLC0415

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
        elif isinstance(self.metadata, MemoryPatchMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

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
        if quality_score is not UNSET:
            field_dict["quality_score"] = quality_score
        if run_id is not UNSET:
            field_dict["run_id"] = run_id
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if source_type is not UNSET:
            field_dict["source_type"] = source_type
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
        from ..models.memory_patch_metadata import MemoryPatchMetadata  # noqa: PLC0415

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
        memory_type: MemoryPatchMemoryType | Unset
        if isinstance(_memory_type, Unset):
            memory_type = UNSET
        else:
            memory_type = MemoryPatchMemoryType(_memory_type)

        def _parse_metadata(data: object) -> MemoryPatchMetadata | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = MemoryPatchMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryPatchMetadata | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

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
        source_type: MemoryPatchSourceType | Unset
        if isinstance(_source_type, Unset):
            source_type = UNSET
        else:
            source_type = MemoryPatchSourceType(_source_type)

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
        type_: MemoryPatchType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = MemoryPatchType(_type_)

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        memory_patch = cls(
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
            quality_score=quality_score,
            run_id=run_id,
            sequence_number=sequence_number,
            source_type=source_type,
            t_invalid=t_invalid,
            t_valid=t_valid,
            tags=tags,
            ttl=ttl,
            type_=type_,
            user_id=user_id,
        )

        memory_patch.additional_properties = d
        return memory_patch

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

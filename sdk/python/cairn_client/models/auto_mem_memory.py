from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_scope import ActorScope
    from ..models.memory_metadata import MemoryMetadata


T = TypeVar("T", bound="AutoMemMemory")


@_attrs_define
class AutoMemMemory:
    """A memory as AutoMem shows it: every native field, plus `timestamp` and `last_accessed`.

    Attributes:
        id (UUID):
        content (str):
        content_hash (str): sha-256 (hex) of the normalised content; the tenant-wide dedup key.
        type_ (str): The classification.
        confidence (float): Confidence in the classification, 0..=1.
        memory_type (str): `short_term` or `long_term`.
        tags (list[str]):
        tag_prefixes (list[str]): Every hierarchical prefix of every tag (split on `:` and `/`).
        importance (float):
        metadata (MemoryMetadata):
        source_type (str):
        credibility (float):
        created_at (datetime.datetime): The memory's own timestamp (may be back-dated).
        updated_at (datetime.datetime):
        access_count (int):
        embedding_status (str): `pending`, `ready` or `failed`.
        enrichment_status (str): Whether enrichment (entities and their tags) has run on the current content: `pending`,
            `ready` or
            `failed`.
        summarized (bool): Whether the content is a summary of a longer original (500-2000 characters, kept in
            `metadata.original_content`).
        repeated (bool): Stored although the tenant held its content (`on_duplicate: store`): a repeat, which
            deduplication
            never finds (it finds the memory stored first).
        timestamp (datetime.datetime): The memory's own time (`created_at`).
        ttl (int | None | Unset): Time to live in seconds, for short-term memories.
        expires_at (datetime.datetime | None | Unset):
        quality_score (float | None | Unset):
        emotion (None | str | Unset):
        emotional_valence (float | None | Unset):
        emotional_arousal (float | None | Unset):
        flashbulb_until (datetime.datetime | None | Unset): Until when this flashbulb memory is exempt from decay and
            forgetting.
        episode_id (None | str | Unset):
        sequence_number (int | None | Unset):
        user_id (None | str | Unset):
        agent_id (None | str | Unset):
        run_id (None | str | Unset):
        t_valid (datetime.datetime | None | Unset):
        t_invalid (datetime.datetime | None | Unset):
        last_accessed_at (datetime.datetime | None | Unset):
        archived_at (datetime.datetime | None | Unset):
        embedding_model (None | str | Unset):
        embedding_error (None | str | Unset): Why the last embedding attempt failed, while it is failing.
        summary (None | str | Unset): Enrichment's one-line summary (the first sentence, at most 120 characters).
        original_length (int | None | Unset):
        summarized_length (int | None | Unset):
        created_by (None | str | Unset): Who stored it, stamped by the server from the request's credentials, never
            taken from a body:
            `key:<api key id>`, `system:<job>` (the service's own jobs, e.g. consolidation) or `admin:<email>`;
            null for memories stored before authorship was recorded. Filter with `created_by=`.
        created_by_scope (ActorScope | None | Unset):
        last_accessed (datetime.datetime | None | Unset):
    """

    id: UUID
    content: str
    content_hash: str
    type_: str
    confidence: float
    memory_type: str
    tags: list[str]
    tag_prefixes: list[str]
    importance: float
    metadata: MemoryMetadata
    source_type: str
    credibility: float
    created_at: datetime.datetime
    updated_at: datetime.datetime
    access_count: int
    embedding_status: str
    enrichment_status: str
    summarized: bool
    repeated: bool
    timestamp: datetime.datetime
    ttl: int | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    quality_score: float | None | Unset = UNSET
    emotion: None | str | Unset = UNSET
    emotional_valence: float | None | Unset = UNSET
    emotional_arousal: float | None | Unset = UNSET
    flashbulb_until: datetime.datetime | None | Unset = UNSET
    episode_id: None | str | Unset = UNSET
    sequence_number: int | None | Unset = UNSET
    user_id: None | str | Unset = UNSET
    agent_id: None | str | Unset = UNSET
    run_id: None | str | Unset = UNSET
    t_valid: datetime.datetime | None | Unset = UNSET
    t_invalid: datetime.datetime | None | Unset = UNSET
    last_accessed_at: datetime.datetime | None | Unset = UNSET
    archived_at: datetime.datetime | None | Unset = UNSET
    embedding_model: None | str | Unset = UNSET
    embedding_error: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET
    original_length: int | None | Unset = UNSET
    summarized_length: int | None | Unset = UNSET
    created_by: None | str | Unset = UNSET
    created_by_scope: ActorScope | None | Unset = UNSET
    last_accessed: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.actor_scope import ActorScope  # noqa: PLC0415

        id = str(self.id)

        content = self.content

        content_hash = self.content_hash

        type_ = self.type_

        confidence = self.confidence

        memory_type = self.memory_type

        tags = self.tags

        tag_prefixes = self.tag_prefixes

        importance = self.importance

        metadata = self.metadata.to_dict()

        source_type = self.source_type

        credibility = self.credibility

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        access_count = self.access_count

        embedding_status = self.embedding_status

        enrichment_status = self.enrichment_status

        summarized = self.summarized

        repeated = self.repeated

        timestamp = self.timestamp.isoformat()

        ttl: int | None | Unset
        if isinstance(self.ttl, Unset):
            ttl = UNSET
        else:
            ttl = self.ttl

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        quality_score: float | None | Unset
        if isinstance(self.quality_score, Unset):
            quality_score = UNSET
        else:
            quality_score = self.quality_score

        emotion: None | str | Unset
        if isinstance(self.emotion, Unset):
            emotion = UNSET
        else:
            emotion = self.emotion

        emotional_valence: float | None | Unset
        if isinstance(self.emotional_valence, Unset):
            emotional_valence = UNSET
        else:
            emotional_valence = self.emotional_valence

        emotional_arousal: float | None | Unset
        if isinstance(self.emotional_arousal, Unset):
            emotional_arousal = UNSET
        else:
            emotional_arousal = self.emotional_arousal

        flashbulb_until: None | str | Unset
        if isinstance(self.flashbulb_until, Unset):
            flashbulb_until = UNSET
        elif isinstance(self.flashbulb_until, datetime.datetime):
            flashbulb_until = self.flashbulb_until.isoformat()
        else:
            flashbulb_until = self.flashbulb_until

        episode_id: None | str | Unset
        if isinstance(self.episode_id, Unset):
            episode_id = UNSET
        else:
            episode_id = self.episode_id

        sequence_number: int | None | Unset
        if isinstance(self.sequence_number, Unset):
            sequence_number = UNSET
        else:
            sequence_number = self.sequence_number

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        run_id: None | str | Unset
        if isinstance(self.run_id, Unset):
            run_id = UNSET
        else:
            run_id = self.run_id

        t_valid: None | str | Unset
        if isinstance(self.t_valid, Unset):
            t_valid = UNSET
        elif isinstance(self.t_valid, datetime.datetime):
            t_valid = self.t_valid.isoformat()
        else:
            t_valid = self.t_valid

        t_invalid: None | str | Unset
        if isinstance(self.t_invalid, Unset):
            t_invalid = UNSET
        elif isinstance(self.t_invalid, datetime.datetime):
            t_invalid = self.t_invalid.isoformat()
        else:
            t_invalid = self.t_invalid

        last_accessed_at: None | str | Unset
        if isinstance(self.last_accessed_at, Unset):
            last_accessed_at = UNSET
        elif isinstance(self.last_accessed_at, datetime.datetime):
            last_accessed_at = self.last_accessed_at.isoformat()
        else:
            last_accessed_at = self.last_accessed_at

        archived_at: None | str | Unset
        if isinstance(self.archived_at, Unset):
            archived_at = UNSET
        elif isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        embedding_model: None | str | Unset
        if isinstance(self.embedding_model, Unset):
            embedding_model = UNSET
        else:
            embedding_model = self.embedding_model

        embedding_error: None | str | Unset
        if isinstance(self.embedding_error, Unset):
            embedding_error = UNSET
        else:
            embedding_error = self.embedding_error

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        original_length: int | None | Unset
        if isinstance(self.original_length, Unset):
            original_length = UNSET
        else:
            original_length = self.original_length

        summarized_length: int | None | Unset
        if isinstance(self.summarized_length, Unset):
            summarized_length = UNSET
        else:
            summarized_length = self.summarized_length

        created_by: None | str | Unset
        if isinstance(self.created_by, Unset):
            created_by = UNSET
        else:
            created_by = self.created_by

        created_by_scope: dict[str, Any] | None | Unset
        if isinstance(self.created_by_scope, Unset):
            created_by_scope = UNSET
        elif isinstance(self.created_by_scope, ActorScope):
            created_by_scope = self.created_by_scope.to_dict()
        else:
            created_by_scope = self.created_by_scope

        last_accessed: None | str | Unset
        if isinstance(self.last_accessed, Unset):
            last_accessed = UNSET
        elif isinstance(self.last_accessed, datetime.datetime):
            last_accessed = self.last_accessed.isoformat()
        else:
            last_accessed = self.last_accessed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "content": content,
                "content_hash": content_hash,
                "type": type_,
                "confidence": confidence,
                "memory_type": memory_type,
                "tags": tags,
                "tag_prefixes": tag_prefixes,
                "importance": importance,
                "metadata": metadata,
                "source_type": source_type,
                "credibility": credibility,
                "created_at": created_at,
                "updated_at": updated_at,
                "access_count": access_count,
                "embedding_status": embedding_status,
                "enrichment_status": enrichment_status,
                "summarized": summarized,
                "repeated": repeated,
                "timestamp": timestamp,
            }
        )
        if ttl is not UNSET:
            field_dict["ttl"] = ttl
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if quality_score is not UNSET:
            field_dict["quality_score"] = quality_score
        if emotion is not UNSET:
            field_dict["emotion"] = emotion
        if emotional_valence is not UNSET:
            field_dict["emotional_valence"] = emotional_valence
        if emotional_arousal is not UNSET:
            field_dict["emotional_arousal"] = emotional_arousal
        if flashbulb_until is not UNSET:
            field_dict["flashbulb_until"] = flashbulb_until
        if episode_id is not UNSET:
            field_dict["episode_id"] = episode_id
        if sequence_number is not UNSET:
            field_dict["sequence_number"] = sequence_number
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if run_id is not UNSET:
            field_dict["run_id"] = run_id
        if t_valid is not UNSET:
            field_dict["t_valid"] = t_valid
        if t_invalid is not UNSET:
            field_dict["t_invalid"] = t_invalid
        if last_accessed_at is not UNSET:
            field_dict["last_accessed_at"] = last_accessed_at
        if archived_at is not UNSET:
            field_dict["archived_at"] = archived_at
        if embedding_model is not UNSET:
            field_dict["embedding_model"] = embedding_model
        if embedding_error is not UNSET:
            field_dict["embedding_error"] = embedding_error
        if summary is not UNSET:
            field_dict["summary"] = summary
        if original_length is not UNSET:
            field_dict["original_length"] = original_length
        if summarized_length is not UNSET:
            field_dict["summarized_length"] = summarized_length
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if created_by_scope is not UNSET:
            field_dict["created_by_scope"] = created_by_scope
        if last_accessed is not UNSET:
            field_dict["last_accessed"] = last_accessed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.actor_scope import ActorScope  # noqa: PLC0415
        from ..models.memory_metadata import MemoryMetadata  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        content = d.pop("content")

        content_hash = d.pop("content_hash")

        type_ = d.pop("type")

        confidence = d.pop("confidence")

        memory_type = d.pop("memory_type")

        tags = cast(list[str], d.pop("tags"))

        tag_prefixes = cast(list[str], d.pop("tag_prefixes"))

        importance = d.pop("importance")

        metadata = MemoryMetadata.from_dict(d.pop("metadata"))

        source_type = d.pop("source_type")

        credibility = d.pop("credibility")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        access_count = d.pop("access_count")

        embedding_status = d.pop("embedding_status")

        enrichment_status = d.pop("enrichment_status")

        summarized = d.pop("summarized")

        repeated = d.pop("repeated")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        def _parse_ttl(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl = _parse_ttl(d.pop("ttl", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_quality_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality_score = _parse_quality_score(d.pop("quality_score", UNSET))

        def _parse_emotion(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emotion = _parse_emotion(d.pop("emotion", UNSET))

        def _parse_emotional_valence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        emotional_valence = _parse_emotional_valence(d.pop("emotional_valence", UNSET))

        def _parse_emotional_arousal(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        emotional_arousal = _parse_emotional_arousal(d.pop("emotional_arousal", UNSET))

        def _parse_flashbulb_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                flashbulb_until_type_0 = datetime.datetime.fromisoformat(data)

                return flashbulb_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        flashbulb_until = _parse_flashbulb_until(d.pop("flashbulb_until", UNSET))

        def _parse_episode_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        episode_id = _parse_episode_id(d.pop("episode_id", UNSET))

        def _parse_sequence_number(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        sequence_number = _parse_sequence_number(d.pop("sequence_number", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))

        def _parse_run_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run_id = _parse_run_id(d.pop("run_id", UNSET))

        def _parse_t_valid(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                t_valid_type_0 = datetime.datetime.fromisoformat(data)

                return t_valid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        t_valid = _parse_t_valid(d.pop("t_valid", UNSET))

        def _parse_t_invalid(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                t_invalid_type_0 = datetime.datetime.fromisoformat(data)

                return t_invalid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        t_invalid = _parse_t_invalid(d.pop("t_invalid", UNSET))

        def _parse_last_accessed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_accessed_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_accessed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_accessed_at = _parse_last_accessed_at(d.pop("last_accessed_at", UNSET))

        def _parse_archived_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        archived_at = _parse_archived_at(d.pop("archived_at", UNSET))

        def _parse_embedding_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        embedding_model = _parse_embedding_model(d.pop("embedding_model", UNSET))

        def _parse_embedding_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        embedding_error = _parse_embedding_error(d.pop("embedding_error", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_original_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        original_length = _parse_original_length(d.pop("original_length", UNSET))

        def _parse_summarized_length(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        summarized_length = _parse_summarized_length(d.pop("summarized_length", UNSET))

        def _parse_created_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        created_by = _parse_created_by(d.pop("created_by", UNSET))

        def _parse_created_by_scope(data: object) -> ActorScope | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                created_by_scope_type_1 = ActorScope.from_dict(data)

                return created_by_scope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ActorScope | None | Unset, data)

        created_by_scope = _parse_created_by_scope(d.pop("created_by_scope", UNSET))

        def _parse_last_accessed(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_accessed_type_0 = datetime.datetime.fromisoformat(data)

                return last_accessed_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_accessed = _parse_last_accessed(d.pop("last_accessed", UNSET))

        auto_mem_memory = cls(
            id=id,
            content=content,
            content_hash=content_hash,
            type_=type_,
            confidence=confidence,
            memory_type=memory_type,
            tags=tags,
            tag_prefixes=tag_prefixes,
            importance=importance,
            metadata=metadata,
            source_type=source_type,
            credibility=credibility,
            created_at=created_at,
            updated_at=updated_at,
            access_count=access_count,
            embedding_status=embedding_status,
            enrichment_status=enrichment_status,
            summarized=summarized,
            repeated=repeated,
            timestamp=timestamp,
            ttl=ttl,
            expires_at=expires_at,
            quality_score=quality_score,
            emotion=emotion,
            emotional_valence=emotional_valence,
            emotional_arousal=emotional_arousal,
            flashbulb_until=flashbulb_until,
            episode_id=episode_id,
            sequence_number=sequence_number,
            user_id=user_id,
            agent_id=agent_id,
            run_id=run_id,
            t_valid=t_valid,
            t_invalid=t_invalid,
            last_accessed_at=last_accessed_at,
            archived_at=archived_at,
            embedding_model=embedding_model,
            embedding_error=embedding_error,
            summary=summary,
            original_length=original_length,
            summarized_length=summarized_length,
            created_by=created_by,
            created_by_scope=created_by_scope,
            last_accessed=last_accessed,
        )

        auto_mem_memory.additional_properties = d
        return auto_mem_memory

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

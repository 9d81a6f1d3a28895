from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stored_metadata import StoredMetadata


T = TypeVar("T", bound="Stored")


@_attrs_define
class Stored:
    """`201` of `POST /memory` (and `200` with `deduplicated: true` for content already stored).

    Example:
        {'confidence': 0.9, 'embedding_status': 'queued', 'enrichment': 'queued', 'last_accessed':
            '2025-01-15T10:30:00Z', 'memory_id': 'a1b2c3d4-e5f6-7890-abcd-ef1234567890', 'metadata': {}, 'qdrant': 'queued',
            'query_time_ms': 12.5, 'status': 'success', 'stored_at': '2025-01-15T10:30:00Z', 'timestamp':
            '2025-01-15T10:30:00Z', 'type': 'Decision', 'updated_at': '2025-01-15T10:30:00Z'}

    Attributes:
        status (str):
        memory_id (UUID):
        stored_at (datetime.datetime):
        type_ (str):
        confidence (float):
        qdrant (str): `stored` (vector supplied), `queued` (being embedded), `failed`, or `unconfigured` (no embedder).
        embedding_status (str): Same as `qdrant`.
        enrichment (str): `queued`, or `complete` for a deduplicated memory already enriched.
        metadata (StoredMetadata):
        timestamp (datetime.datetime):
        updated_at (datetime.datetime):
        last_accessed (datetime.datetime):
        query_time_ms (float):
        deduplicated (bool | None | Unset): Set (true) when the content was already stored: `memory_id` is the existing
            memory.
        summarized (bool | None | Unset): Set when content over the soft limit was summarised.
        original_length (int | None | Unset):
        summarized_length (int | None | Unset):
    """

    status: str
    memory_id: UUID
    stored_at: datetime.datetime
    type_: str
    confidence: float
    qdrant: str
    embedding_status: str
    enrichment: str
    metadata: StoredMetadata
    timestamp: datetime.datetime
    updated_at: datetime.datetime
    last_accessed: datetime.datetime
    query_time_ms: float
    deduplicated: bool | None | Unset = UNSET
    summarized: bool | None | Unset = UNSET
    original_length: int | None | Unset = UNSET
    summarized_length: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        memory_id = str(self.memory_id)

        stored_at = self.stored_at.isoformat()

        type_ = self.type_

        confidence = self.confidence

        qdrant = self.qdrant

        embedding_status = self.embedding_status

        enrichment = self.enrichment

        metadata = self.metadata.to_dict()

        timestamp = self.timestamp.isoformat()

        updated_at = self.updated_at.isoformat()

        last_accessed = self.last_accessed.isoformat()

        query_time_ms = self.query_time_ms

        deduplicated: bool | None | Unset
        if isinstance(self.deduplicated, Unset):
            deduplicated = UNSET
        else:
            deduplicated = self.deduplicated

        summarized: bool | None | Unset
        if isinstance(self.summarized, Unset):
            summarized = UNSET
        else:
            summarized = self.summarized

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "memory_id": memory_id,
                "stored_at": stored_at,
                "type": type_,
                "confidence": confidence,
                "qdrant": qdrant,
                "embedding_status": embedding_status,
                "enrichment": enrichment,
                "metadata": metadata,
                "timestamp": timestamp,
                "updated_at": updated_at,
                "last_accessed": last_accessed,
                "query_time_ms": query_time_ms,
            }
        )
        if deduplicated is not UNSET:
            field_dict["deduplicated"] = deduplicated
        if summarized is not UNSET:
            field_dict["summarized"] = summarized
        if original_length is not UNSET:
            field_dict["original_length"] = original_length
        if summarized_length is not UNSET:
            field_dict["summarized_length"] = summarized_length

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stored_metadata import StoredMetadata  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        memory_id = UUID(d.pop("memory_id"))

        stored_at = datetime.datetime.fromisoformat(d.pop("stored_at"))

        type_ = d.pop("type")

        confidence = d.pop("confidence")

        qdrant = d.pop("qdrant")

        embedding_status = d.pop("embedding_status")

        enrichment = d.pop("enrichment")

        metadata = StoredMetadata.from_dict(d.pop("metadata"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        last_accessed = datetime.datetime.fromisoformat(d.pop("last_accessed"))

        query_time_ms = d.pop("query_time_ms")

        def _parse_deduplicated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        deduplicated = _parse_deduplicated(d.pop("deduplicated", UNSET))

        def _parse_summarized(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        summarized = _parse_summarized(d.pop("summarized", UNSET))

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

        stored = cls(
            status=status,
            memory_id=memory_id,
            stored_at=stored_at,
            type_=type_,
            confidence=confidence,
            qdrant=qdrant,
            embedding_status=embedding_status,
            enrichment=enrichment,
            metadata=metadata,
            timestamp=timestamp,
            updated_at=updated_at,
            last_accessed=last_accessed,
            query_time_ms=query_time_ms,
            deduplicated=deduplicated,
            summarized=summarized,
            original_length=original_length,
            summarized_length=summarized_length,
        )

        stored.additional_properties = d
        return stored

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

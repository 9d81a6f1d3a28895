from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AutoMemBatchStored")


@_attrs_define
class AutoMemBatchStored:
    """`201` of `POST /memory/batch`.

    Example:
        {'enrichment': 'queued', 'memory_ids': ['abc-123', 'def-456'], 'qdrant': 'queued (2)', 'query_time_ms': 45.2,
            'status': 'success', 'stored': 2}

    Attributes:
        status (str):
        stored (int): Memories written (items that repeated stored content are not counted).
        memory_ids (list[UUID]): Each item's memory id in request order; a repeated item has the existing memory's id.
        qdrant (str): `queued (N)` (being embedded), `stored (N)` or `unconfigured`.
        enrichment (str):
        query_time_ms (float):
        deduplicated (list[int]): Indexes of items whose content was already stored (or repeated an earlier item).
    """

    status: str
    stored: int
    memory_ids: list[UUID]
    qdrant: str
    enrichment: str
    query_time_ms: float
    deduplicated: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        stored = self.stored

        memory_ids = []
        for memory_ids_item_data in self.memory_ids:
            memory_ids_item = str(memory_ids_item_data)
            memory_ids.append(memory_ids_item)

        qdrant = self.qdrant

        enrichment = self.enrichment

        query_time_ms = self.query_time_ms

        deduplicated = self.deduplicated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "stored": stored,
                "memory_ids": memory_ids,
                "qdrant": qdrant,
                "enrichment": enrichment,
                "query_time_ms": query_time_ms,
                "deduplicated": deduplicated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        stored = d.pop("stored")

        memory_ids = []
        _memory_ids = d.pop("memory_ids")
        for memory_ids_item_data in _memory_ids:
            memory_ids_item = UUID(memory_ids_item_data)

            memory_ids.append(memory_ids_item)

        qdrant = d.pop("qdrant")

        enrichment = d.pop("enrichment")

        query_time_ms = d.pop("query_time_ms")

        deduplicated = cast(list[int], d.pop("deduplicated"))

        auto_mem_batch_stored = cls(
            status=status,
            stored=stored,
            memory_ids=memory_ids,
            qdrant=qdrant,
            enrichment=enrichment,
            query_time_ms=query_time_ms,
            deduplicated=deduplicated,
        )

        auto_mem_batch_stored.additional_properties = d
        return auto_mem_batch_stored

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

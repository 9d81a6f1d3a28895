from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scored_memory import ScoredMemory


T = TypeVar("T", bound="ContextResponse")


@_attrs_define
class ContextResponse:
    """What proactive context surfaced (and stored).

    Attributes:
        surfaced_memories (list[ScoredMemory]):
        count (int):
        ingested (bool): Whether the context was stored (false when it was already stored or `auto_ingest` is off).
        ingested_id (None | Unset | UUID): The Conversation memory holding the context (the existing one when it was
            already stored).
    """

    surfaced_memories: list[ScoredMemory]
    count: int
    ingested: bool
    ingested_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        surfaced_memories = []
        for surfaced_memories_item_data in self.surfaced_memories:
            surfaced_memories_item = surfaced_memories_item_data.to_dict()
            surfaced_memories.append(surfaced_memories_item)

        count = self.count

        ingested = self.ingested

        ingested_id: None | str | Unset
        if isinstance(self.ingested_id, Unset):
            ingested_id = UNSET
        elif isinstance(self.ingested_id, UUID):
            ingested_id = str(self.ingested_id)
        else:
            ingested_id = self.ingested_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "surfaced_memories": surfaced_memories,
                "count": count,
                "ingested": ingested,
            }
        )
        if ingested_id is not UNSET:
            field_dict["ingested_id"] = ingested_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.scored_memory import ScoredMemory  # noqa: PLC0415

        d = dict(src_dict)
        surfaced_memories = []
        _surfaced_memories = d.pop("surfaced_memories")
        for surfaced_memories_item_data in _surfaced_memories:
            surfaced_memories_item = ScoredMemory.from_dict(surfaced_memories_item_data)

            surfaced_memories.append(surfaced_memories_item)

        count = d.pop("count")

        ingested = d.pop("ingested")

        def _parse_ingested_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ingested_id_type_0 = UUID(data)

                return ingested_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        ingested_id = _parse_ingested_id(d.pop("ingested_id", UNSET))

        context_response = cls(
            surfaced_memories=surfaced_memories,
            count=count,
            ingested=ingested,
            ingested_id=ingested_id,
        )

        context_response.additional_properties = d
        return context_response

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

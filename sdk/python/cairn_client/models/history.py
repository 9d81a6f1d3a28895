from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory_event import MemoryEvent


T = TypeVar("T", bound="History")


@_attrs_define
class History:
    """
    Attributes:
        memory_id (UUID):
        events (list[MemoryEvent]): Oldest first.
    """

    memory_id: UUID
    events: list[MemoryEvent]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = str(self.memory_id)

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_event import MemoryEvent  # noqa: PLC0415

        d = dict(src_dict)
        memory_id = UUID(d.pop("memory_id"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = MemoryEvent.from_dict(events_item_data)

            events.append(events_item)

        history = cls(
            memory_id=memory_id,
            events=events,
        )

        history.additional_properties = d
        return history

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MemoryRelation")


@_attrs_define
class MemoryRelation:
    """A relation as `GET /memory/{id}` lists it.

    Attributes:
        type_ (str):
        strength (float):
        memory_id (UUID): The memory at the other end.
        direction (str): `outgoing` (this memory is the source) or `incoming`.
        content (str):
    """

    type_: str
    strength: float
    memory_id: UUID
    direction: str
    content: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        strength = self.strength

        memory_id = str(self.memory_id)

        direction = self.direction

        content = self.content

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "strength": strength,
                "memory_id": memory_id,
                "direction": direction,
                "content": content,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = d.pop("type")

        strength = d.pop("strength")

        memory_id = UUID(d.pop("memory_id"))

        direction = d.pop("direction")

        content = d.pop("content")

        memory_relation = cls(
            type_=type_,
            strength=strength,
            memory_id=memory_id,
            direction=direction,
            content=content,
        )

        memory_relation.additional_properties = d
        return memory_relation

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.association_properties import AssociationProperties


T = TypeVar("T", bound="Association")


@_attrs_define
class Association:
    """A typed, weighted edge `memory1_id → memory2_id`.

    Example:
        {'created_at': '2026-11-30T10:00:00Z', 'id': '0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10', 'memory1_id':
            '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11', 'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties':
            {'reason': 'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER', 'updated_at': '2026-11-30T10:00:00Z'}

    Attributes:
        id (UUID):
        memory1_id (UUID): The source memory.
        memory2_id (UUID): The target memory.
        type_ (str):
        strength (float):
        properties (AssociationProperties):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    memory1_id: UUID
    memory2_id: UUID
    type_: str
    strength: float
    properties: AssociationProperties
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        memory1_id = str(self.memory1_id)

        memory2_id = str(self.memory2_id)

        type_ = self.type_

        strength = self.strength

        properties = self.properties.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "memory1_id": memory1_id,
                "memory2_id": memory2_id,
                "type": type_,
                "strength": strength,
                "properties": properties,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association_properties import AssociationProperties  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        memory1_id = UUID(d.pop("memory1_id"))

        memory2_id = UUID(d.pop("memory2_id"))

        type_ = d.pop("type")

        strength = d.pop("strength")

        properties = AssociationProperties.from_dict(d.pop("properties"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        association = cls(
            id=id,
            memory1_id=memory1_id,
            memory2_id=memory2_id,
            type_=type_,
            strength=strength,
            properties=properties,
            created_at=created_at,
            updated_at=updated_at,
        )

        association.additional_properties = d
        return association

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

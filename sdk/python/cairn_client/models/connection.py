from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.connection_properties import ConnectionProperties


T = TypeVar("T", bound="Connection")


@_attrs_define
class Connection:
    """An association in remem's vocabulary.

    Attributes:
        id (UUID):
        source_id (UUID):
        target_id (UUID):
        relationship (str): The association type.
        strength (float):
        properties (ConnectionProperties):
        created_at (datetime.datetime):
    """

    id: UUID
    source_id: UUID
    target_id: UUID
    relationship: str
    strength: float
    properties: ConnectionProperties
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        source_id = str(self.source_id)

        target_id = str(self.target_id)

        relationship = self.relationship

        strength = self.strength

        properties = self.properties.to_dict()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "source_id": source_id,
                "target_id": target_id,
                "relationship": relationship,
                "strength": strength,
                "properties": properties,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connection_properties import ConnectionProperties  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        source_id = UUID(d.pop("source_id"))

        target_id = UUID(d.pop("target_id"))

        relationship = d.pop("relationship")

        strength = d.pop("strength")

        properties = ConnectionProperties.from_dict(d.pop("properties"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        connection = cls(
            id=id,
            source_id=source_id,
            target_id=target_id,
            relationship=relationship,
            strength=strength,
            properties=properties,
            created_at=created_at,
        )

        connection.additional_properties = d
        return connection

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

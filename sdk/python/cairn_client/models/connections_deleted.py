from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConnectionsDeleted")


@_attrs_define
class ConnectionsDeleted:
    """
    Attributes:
        status (str):
        source_id (UUID):
        target_id (UUID):
        deleted_count (int): Associations removed (one per type).
    """

    status: str
    source_id: UUID
    target_id: UUID
    deleted_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        source_id = str(self.source_id)

        target_id = str(self.target_id)

        deleted_count = self.deleted_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "source_id": source_id,
                "target_id": target_id,
                "deleted_count": deleted_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        source_id = UUID(d.pop("source_id"))

        target_id = UUID(d.pop("target_id"))

        deleted_count = d.pop("deleted_count")

        connections_deleted = cls(
            status=status,
            source_id=source_id,
            target_id=target_id,
            deleted_count=deleted_count,
        )

        connections_deleted.additional_properties = d
        return connections_deleted

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

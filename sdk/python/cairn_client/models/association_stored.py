from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.association import Association


T = TypeVar("T", bound="AssociationStored")


@_attrs_define
class AssociationStored:
    """
    Attributes:
        status (str):
        association (Association): A typed, weighted edge `memory1_id → memory2_id`. Example: {'created_at':
            '2026-11-30T10:00:00Z', 'id': '0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10', 'memory1_id':
            '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11', 'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b', 'properties':
            {'reason': 'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER', 'updated_at': '2026-11-30T10:00:00Z'}.
    """

    status: str
    association: Association
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        association = self.association.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "association": association,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association import Association  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        association = Association.from_dict(d.pop("association"))

        association_stored = cls(
            status=status,
            association=association,
        )

        association_stored.additional_properties = d
        return association_stored

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

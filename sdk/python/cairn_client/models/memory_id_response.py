from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MemoryIdResponse")


@_attrs_define
class MemoryIdResponse:
    """
    Example:
        {'memory_id': 'a1b2c3d4-e5f6-7890-abcd-ef1234567890', 'status': 'success'}

    Attributes:
        status (str):
        memory_id (UUID):
    """

    status: str
    memory_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        memory_id = str(self.memory_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "memory_id": memory_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        memory_id = UUID(d.pop("memory_id"))

        memory_id_response = cls(
            status=status,
            memory_id=memory_id,
        )

        memory_id_response.additional_properties = d
        return memory_id_response

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

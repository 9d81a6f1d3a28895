from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Remembered")


@_attrs_define
class Remembered:
    """`201` of `/api/remember`.

    Example:
        {'content_hash': '5d41402abc4b2a76b9719d911017c592ae1d8c5e0f0c6b5b1f3c7b6c0f3e2a1b', 'id':
            '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10', 'success': True}

    Attributes:
        success (bool):
        id (UUID):
        content_hash (str):
    """

    success: bool
    id: UUID
    content_hash: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        id = str(self.id)

        content_hash = self.content_hash

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "success": success,
                "id": id,
                "content_hash": content_hash,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        success = d.pop("success")

        id = UUID(d.pop("id"))

        content_hash = d.pop("content_hash")

        remembered = cls(
            success=success,
            id=id,
            content_hash=content_hash,
        )

        remembered.additional_properties = d
        return remembered

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RestoredByTag")


@_attrs_define
class RestoredByTag:
    """
    Example:
        {'conflicts': [], 'remaining': 0, 'restored': ['0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10',
            '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21'], 'restored_count': 2, 'status': 'success', 'tags': ['ops']}

    Attributes:
        status (str):
        tags (list[str]):
        restored_count (int):
        restored (list[UUID]):
        conflicts (list[UUID]): Deleted memories left in the trash because their content is stored again (delete that
            one first).
        remaining (int): Deleted memories with these tags still restorable after this call: call again for the next
            1000.
    """

    status: str
    tags: list[str]
    restored_count: int
    restored: list[UUID]
    conflicts: list[UUID]
    remaining: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        tags = self.tags

        restored_count = self.restored_count

        restored = []
        for restored_item_data in self.restored:
            restored_item = str(restored_item_data)
            restored.append(restored_item)

        conflicts = []
        for conflicts_item_data in self.conflicts:
            conflicts_item = str(conflicts_item_data)
            conflicts.append(conflicts_item)

        remaining = self.remaining

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "tags": tags,
                "restored_count": restored_count,
                "restored": restored,
                "conflicts": conflicts,
                "remaining": remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        tags = cast(list[str], d.pop("tags"))

        restored_count = d.pop("restored_count")

        restored = []
        _restored = d.pop("restored")
        for restored_item_data in _restored:
            restored_item = UUID(restored_item_data)

            restored.append(restored_item)

        conflicts = []
        _conflicts = d.pop("conflicts")
        for conflicts_item_data in _conflicts:
            conflicts_item = UUID(conflicts_item_data)

            conflicts.append(conflicts_item)

        remaining = d.pop("remaining")

        restored_by_tag = cls(
            status=status,
            tags=tags,
            restored_count=restored_count,
            restored=restored,
            conflicts=conflicts,
            remaining=remaining,
        )

        restored_by_tag.additional_properties = d
        return restored_by_tag

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeletedByTag")


@_attrs_define
class DeletedByTag:
    """What a delete by tag removed (native, AutoMem and MCP).

    Example:
        {'deleted_count': 42, 'status': 'success', 'tags': ['scratch']}

    Attributes:
        status (str):
        tags (list[str]):
        deleted_count (int):
    """

    status: str
    tags: list[str]
    deleted_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        tags = self.tags

        deleted_count = self.deleted_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "tags": tags,
                "deleted_count": deleted_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        tags = cast(list[str], d.pop("tags"))

        deleted_count = d.pop("deleted_count")

        deleted_by_tag = cls(
            status=status,
            tags=tags,
            deleted_count=deleted_count,
        )

        deleted_by_tag.additional_properties = d
        return deleted_by_tag

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

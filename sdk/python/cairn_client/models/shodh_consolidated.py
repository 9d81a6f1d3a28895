from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ShodhConsolidated")


@_attrs_define
class ShodhConsolidated:
    """
    Example:
        {'archived': 4, 'associations_created': 9, 'processed': 120, 'success': True}

    Attributes:
        success (bool):
        processed (int): Memories of the horizon looked at.
        archived (int): Memories archived by forgetting.
        associations_created (int): Associations discovered.
    """

    success: bool
    processed: int
    archived: int
    associations_created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        processed = self.processed

        archived = self.archived

        associations_created = self.associations_created

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "success": success,
                "processed": processed,
                "archived": archived,
                "associations_created": associations_created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        success = d.pop("success")

        processed = d.pop("processed")

        archived = d.pop("archived")

        associations_created = d.pop("associations_created")

        shodh_consolidated = cls(
            success=success,
            processed=processed,
            archived=archived,
            associations_created=associations_created,
        )

        shodh_consolidated.additional_properties = d
        return shodh_consolidated

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

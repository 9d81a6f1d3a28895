from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TrashedMemory")


@_attrs_define
class TrashedMemory:
    """A deleted memory that can still be restored.

    Attributes:
        id (UUID):
        content (str):
        tags (list[str]):
        deleted_at (datetime.datetime):
        erased_after (datetime.datetime): When it will be erased for good (the deletion plus the tenant's `undo_days`).
    """

    id: UUID
    content: str
    tags: list[str]
    deleted_at: datetime.datetime
    erased_after: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        content = self.content

        tags = self.tags

        deleted_at = self.deleted_at.isoformat()

        erased_after = self.erased_after.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "content": content,
                "tags": tags,
                "deleted_at": deleted_at,
                "erased_after": erased_after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        content = d.pop("content")

        tags = cast(list[str], d.pop("tags"))

        deleted_at = datetime.datetime.fromisoformat(d.pop("deleted_at"))

        erased_after = datetime.datetime.fromisoformat(d.pop("erased_after"))

        trashed_memory = cls(
            id=id,
            content=content,
            tags=tags,
            deleted_at=deleted_at,
            erased_after=erased_after,
        )

        trashed_memory.additional_properties = d
        return trashed_memory

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

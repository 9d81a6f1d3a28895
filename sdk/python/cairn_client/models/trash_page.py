from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.trashed_memory import TrashedMemory


T = TypeVar("T", bound="TrashPage")


@_attrs_define
class TrashPage:
    """A page of the trash.

    Example:
        {'count': 1, 'has_more': False, 'limit': 20, 'memories': [{'content': 'Deploys go out on Tuesdays',
            'deleted_at': '2026-11-30T10:00:00Z', 'erased_after': '2026-12-07T10:00:00Z', 'id':
            '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10', 'tags': ['ops']}], 'offset': 0, 'total': 1}

    Attributes:
        memories (list[TrashedMemory]):
        count (int):
        total (int): Deleted memories still restorable in all.
        limit (int):
        offset (int):
        has_more (bool):
    """

    memories: list[TrashedMemory]
    count: int
    total: int
    limit: int
    offset: int
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        count = self.count

        total = self.total

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
                "count": count,
                "total": total,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trashed_memory import TrashedMemory  # noqa: PLC0415

        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = TrashedMemory.from_dict(memories_item_data)

            memories.append(memories_item)

        count = d.pop("count")

        total = d.pop("total")

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        trash_page = cls(
            memories=memories,
            count=count,
            total=total,
            limit=limit,
            offset=offset,
            has_more=has_more,
        )

        trash_page.additional_properties = d
        return trash_page

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

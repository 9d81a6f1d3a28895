from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory_input import MemoryInput


T = TypeVar("T", bound="AutoMemBatch")


@_attrs_define
class AutoMemBatch:
    """`{"memories": [...]}` of AutoMem's batch (documentation shape; parsing is item by item).

    Attributes:
        memories (list[MemoryInput]):
        on_duplicate (None | str | Unset): `existing` (default: an item whose content is held resolves to that memory),
            `error` or `store`.
    """

    memories: list[MemoryInput]
    on_duplicate: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        on_duplicate: None | str | Unset
        if isinstance(self.on_duplicate, Unset):
            on_duplicate = UNSET
        else:
            on_duplicate = self.on_duplicate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
            }
        )
        if on_duplicate is not UNSET:
            field_dict["on_duplicate"] = on_duplicate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_input import MemoryInput  # noqa: PLC0415

        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = MemoryInput.from_dict(memories_item_data)

            memories.append(memories_item)

        def _parse_on_duplicate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        on_duplicate = _parse_on_duplicate(d.pop("on_duplicate", UNSET))

        auto_mem_batch = cls(
            memories=memories,
            on_duplicate=on_duplicate,
        )

        auto_mem_batch.additional_properties = d
        return auto_mem_batch

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

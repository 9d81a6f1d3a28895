from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.batch_item import BatchItem
    from ..models.memory import Memory


T = TypeVar("T", bound="BatchStored")


@_attrs_define
class BatchStored:
    """
    Example:
        {'items': [{'created': True, 'id': '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10'}, {'created': True, 'id':
            '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21'}, {'created': False, 'id': '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10'}],
            'memories': [], 'memory_ids': ['0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10', '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21',
            '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10'], 'stored': 2}

    Attributes:
        stored (int): How many new memories were stored.
        memory_ids (list[UUID]): Each item's memory id, in request order (an item whose content was already held has
            that memory's).
        items (list[BatchItem]): Each item's memory id and whether it is new, in request order.
        memories (list[Memory]): The new memories, in request order.
    """

    stored: int
    memory_ids: list[UUID]
    items: list[BatchItem]
    memories: list[Memory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stored = self.stored

        memory_ids = []
        for memory_ids_item_data in self.memory_ids:
            memory_ids_item = str(memory_ids_item_data)
            memory_ids.append(memory_ids_item)

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stored": stored,
                "memory_ids": memory_ids,
                "items": items,
                "memories": memories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_item import BatchItem  # noqa: PLC0415
        from ..models.memory import Memory  # noqa: PLC0415

        d = dict(src_dict)
        stored = d.pop("stored")

        memory_ids = []
        _memory_ids = d.pop("memory_ids")
        for memory_ids_item_data in _memory_ids:
            memory_ids_item = UUID(memory_ids_item_data)

            memory_ids.append(memory_ids_item)

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = BatchItem.from_dict(items_item_data)

            items.append(items_item)

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = Memory.from_dict(memories_item_data)

            memories.append(memories_item)

        batch_stored = cls(
            stored=stored,
            memory_ids=memory_ids,
            items=items,
            memories=memories,
        )

        batch_stored.additional_properties = d
        return batch_stored

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.related_memory import RelatedMemory


T = TypeVar("T", bound="RelatedResponse")


@_attrs_define
class RelatedResponse:
    """
    Attributes:
        memory_id (UUID):
        count (int):
        related (list[RelatedMemory]):
    """

    memory_id: UUID
    count: int
    related: list[RelatedMemory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = str(self.memory_id)

        count = self.count

        related = []
        for related_item_data in self.related:
            related_item = related_item_data.to_dict()
            related.append(related_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "count": count,
                "related": related,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.related_memory import RelatedMemory  # noqa: PLC0415

        d = dict(src_dict)
        memory_id = UUID(d.pop("memory_id"))

        count = d.pop("count")

        related = []
        _related = d.pop("related")
        for related_item_data in _related:
            related_item = RelatedMemory.from_dict(related_item_data)

            related.append(related_item)

        related_response = cls(
            memory_id=memory_id,
            count=count,
            related=related,
        )

        related_response.additional_properties = d
        return related_response

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.compact_entity import CompactEntity


T = TypeVar("T", bound="CompactRecall")


@_attrs_define
class CompactRecall:
    """The compact shape: `n` = count of memories, `e` = entities.

    Example:
        {'e': [{'m': [{'c': 'prefers TypeScript over JavaScript', 's': 0.92}, {'c': 'uses VS Code as primary editor',
            's': 0.85}], 'n': 'Jeff', 't': 'person'}, {'m': [{'c': 'dark mode enabled by default', 's': 0.78}], 'n':
            'Development Setup', 't': 'preference'}], 'n': 3}

    Attributes:
        n (int):
        e (list[CompactEntity]):
    """

    n: int
    e: list[CompactEntity]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        n = self.n

        e = []
        for e_item_data in self.e:
            e_item = e_item_data.to_dict()
            e.append(e_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "n": n,
                "e": e,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compact_entity import CompactEntity  # noqa: PLC0415

        d = dict(src_dict)
        n = d.pop("n")

        e = []
        _e = d.pop("e")
        for e_item_data in _e:
            e_item = CompactEntity.from_dict(e_item_data)

            e.append(e_item)

        compact_recall = cls(
            n=n,
            e=e,
        )

        compact_recall.additional_properties = d
        return compact_recall

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.compact_memory import CompactMemory


T = TypeVar("T", bound="CompactEntity")


@_attrs_define
class CompactEntity:
    """
    Attributes:
        n (str): Name.
        t (str): Type.
        m (list[CompactMemory]): Memories.
    """

    n: str
    t: str
    m: list[CompactMemory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        n = self.n

        t = self.t

        m = []
        for m_item_data in self.m:
            m_item = m_item_data.to_dict()
            m.append(m_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "n": n,
                "t": t,
                "m": m,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compact_memory import CompactMemory  # noqa: PLC0415

        d = dict(src_dict)
        n = d.pop("n")

        t = d.pop("t")

        m = []
        _m = d.pop("m")
        for m_item_data in _m:
            m_item = CompactMemory.from_dict(m_item_data)

            m.append(m_item)

        compact_entity = cls(
            n=n,
            t=t,
            m=m,
        )

        compact_entity.additional_properties = d
        return compact_entity

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EpisodeEdge")


@_attrs_define
class EpisodeEdge:
    """A `PRECEDED_BY` edge between consecutive memories of an episode.

    Attributes:
        from_ (UUID): The later memory.
        to (UUID): The memory just before it.
        type_ (str):
    """

    from_: UUID
    to: UUID
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = str(self.from_)

        to = str(self.to)

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = UUID(d.pop("from"))

        to = UUID(d.pop("to"))

        type_ = d.pop("type")

        episode_edge = cls(
            from_=from_,
            to=to,
            type_=type_,
        )

        episode_edge.additional_properties = d
        return episode_edge

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

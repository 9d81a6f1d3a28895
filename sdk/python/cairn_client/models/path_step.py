from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PathStep")


@_attrs_define
class PathStep:
    """One step of a traversal path.

    Attributes:
        association_id (UUID):
        from_ (UUID):
        to (UUID):
        type_ (str):
        strength (float):
    """

    association_id: UUID
    from_: UUID
    to: UUID
    type_: str
    strength: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        association_id = str(self.association_id)

        from_ = str(self.from_)

        to = str(self.to)

        type_ = self.type_

        strength = self.strength

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "association_id": association_id,
                "from": from_,
                "to": to,
                "type": type_,
                "strength": strength,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        association_id = UUID(d.pop("association_id"))

        from_ = UUID(d.pop("from"))

        to = UUID(d.pop("to"))

        type_ = d.pop("type")

        strength = d.pop("strength")

        path_step = cls(
            association_id=association_id,
            from_=from_,
            to=to,
            type_=type_,
            strength=strength,
        )

        path_step.additional_properties = d
        return path_step

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

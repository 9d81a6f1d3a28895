from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.connection_input_properties import ConnectionInputProperties


T = TypeVar("T", bound="ConnectionInput")


@_attrs_define
class ConnectionInput:
    """remem's connection body.

    Example:
        {'relationship': 'RelatedTo', 'source_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11', 'strength': 0.7, 'target_id':
            '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b'}

    Attributes:
        source_id (Any | Unset):
        target_id (Any | Unset):
        relationship (Any | Unset): An association type, AutoMem's or remem's names (`RelatedTo`, `CausedBy`...). Alias
            `relationship_type`, `type`. Default RELATES_TO.
        strength (Any | Unset): 0..=1, default 0.5.
        properties (ConnectionInputProperties | None | Unset):
    """

    source_id: Any | Unset = UNSET
    target_id: Any | Unset = UNSET
    relationship: Any | Unset = UNSET
    strength: Any | Unset = UNSET
    properties: ConnectionInputProperties | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_input_properties import ConnectionInputProperties  # noqa: PLC0415

        source_id = self.source_id

        target_id = self.target_id

        relationship = self.relationship

        strength = self.strength

        properties: dict[str, Any] | None | Unset
        if isinstance(self.properties, Unset):
            properties = UNSET
        elif isinstance(self.properties, ConnectionInputProperties):
            properties = self.properties.to_dict()
        else:
            properties = self.properties

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if source_id is not UNSET:
            field_dict["source_id"] = source_id
        if target_id is not UNSET:
            field_dict["target_id"] = target_id
        if relationship is not UNSET:
            field_dict["relationship"] = relationship
        if strength is not UNSET:
            field_dict["strength"] = strength
        if properties is not UNSET:
            field_dict["properties"] = properties

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connection_input_properties import ConnectionInputProperties  # noqa: PLC0415

        d = dict(src_dict)
        source_id = d.pop("source_id", UNSET)

        target_id = d.pop("target_id", UNSET)

        relationship = d.pop("relationship", UNSET)

        strength = d.pop("strength", UNSET)

        def _parse_properties(data: object) -> ConnectionInputProperties | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                properties_type_0 = ConnectionInputProperties.from_dict(data)

                return properties_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConnectionInputProperties | None | Unset, data)

        properties = _parse_properties(d.pop("properties", UNSET))

        connection_input = cls(
            source_id=source_id,
            target_id=target_id,
            relationship=relationship,
            strength=strength,
            properties=properties,
        )

        connection_input.additional_properties = d
        return connection_input

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.association_input_type import AssociationInputType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.association_input_properties import AssociationInputProperties


T = TypeVar("T", bound="AssociationInput")


@_attrs_define
class AssociationInput:
    """One association: the one definition the native API, AutoMem's `/associate`, remem's connections and
    MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that every error
    names its field.

        Example:
            {'memory1_id': '5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11', 'memory2_id': '8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b',
                'properties': {'reason': 'benchmarks'}, 'strength': 0.8, 'type': 'PREFERS_OVER'}

        Attributes:
            memory1_id (UUID): The source memory.
            memory2_id (UUID): The target memory; never the source itself.
            properties (AssociationInputProperties | None | Unset): Free-form object.
            strength (float | None | Unset): 0..=1, default 0.5. The same pair and type again updates the strength.
            type_ (AssociationInputType | Unset): An authorable type (AutoMem's RELATES_TO, LEADS_TO, OCCURRED_BEFORE,
                PREFERS_OVER, EXEMPLIFIES,
                CONTRADICTS, REINFORCES, INVALIDATED_BY, EVOLVED_INTO, DERIVED_FROM, PART_OF; remem's names such as
                RelatedTo, CausedBy, References, Supports are accepted). Default RELATES_TO.
    """

    memory1_id: UUID
    memory2_id: UUID
    properties: AssociationInputProperties | None | Unset = UNSET
    strength: float | None | Unset = UNSET
    type_: AssociationInputType | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.association_input_properties import AssociationInputProperties  # noqa: PLC0415

        memory1_id = str(self.memory1_id)

        memory2_id = str(self.memory2_id)

        properties: dict[str, Any] | None | Unset
        if isinstance(self.properties, Unset):
            properties = UNSET
        elif isinstance(self.properties, AssociationInputProperties):
            properties = self.properties.to_dict()
        else:
            properties = self.properties

        strength: float | None | Unset
        if isinstance(self.strength, Unset):
            strength = UNSET
        else:
            strength = self.strength

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory1_id": memory1_id,
                "memory2_id": memory2_id,
            }
        )
        if properties is not UNSET:
            field_dict["properties"] = properties
        if strength is not UNSET:
            field_dict["strength"] = strength
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association_input_properties import AssociationInputProperties  # noqa: PLC0415

        d = dict(src_dict)
        memory1_id = UUID(d.pop("memory1_id"))

        memory2_id = UUID(d.pop("memory2_id"))

        def _parse_properties(data: object) -> AssociationInputProperties | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                properties_type_0 = AssociationInputProperties.from_dict(data)

                return properties_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AssociationInputProperties | None | Unset, data)

        properties = _parse_properties(d.pop("properties", UNSET))

        def _parse_strength(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        strength = _parse_strength(d.pop("strength", UNSET))

        _type_ = d.pop("type", UNSET)
        type_: AssociationInputType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = AssociationInputType(_type_)

        association_input = cls(
            memory1_id=memory1_id,
            memory2_id=memory2_id,
            properties=properties,
            strength=strength,
            type_=type_,
        )

        association_input.additional_properties = d
        return association_input

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

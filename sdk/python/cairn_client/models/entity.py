from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Entity")


@_attrs_define
class Entity:
    """An entity and how many memories mention it.

    Example:
        {'aliases': ['tool:postgres'], 'created_at': '2026-11-30T10:00:00Z', 'id':
            '3f6d2a9e-1c4b-4e8f-9a7d-5b2c1e0f4a6d', 'memory_count': 12, 'name': 'PostgreSQL', 'normalized_name':
            'postgresql', 'tag': 'entity:tool:postgresql', 'type': 'tool'}

    Attributes:
        id (UUID):
        type_ (str): person, organization, project, tool, concept, location, preference or fact.
        name (str): As first seen.
        normalized_name (str): Lower case, whitespace collapsed: the entity's identity within its type.
        tag (str): The tag its memories carry.
        aliases (list[str]): `type:normalized_name` of the entities merged into this one; mentions of them link here.
        memory_count (int):
        created_at (datetime.datetime):
    """

    id: UUID
    type_: str
    name: str
    normalized_name: str
    tag: str
    aliases: list[str]
    memory_count: int
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_

        name = self.name

        normalized_name = self.normalized_name

        tag = self.tag

        aliases = self.aliases

        memory_count = self.memory_count

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "name": name,
                "normalized_name": normalized_name,
                "tag": tag,
                "aliases": aliases,
                "memory_count": memory_count,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = d.pop("type")

        name = d.pop("name")

        normalized_name = d.pop("normalized_name")

        tag = d.pop("tag")

        aliases = cast(list[str], d.pop("aliases"))

        memory_count = d.pop("memory_count")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        entity = cls(
            id=id,
            type_=type_,
            name=name,
            normalized_name=normalized_name,
            tag=tag,
            aliases=aliases,
            memory_count=memory_count,
            created_at=created_at,
        )

        entity.additional_properties = d
        return entity

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

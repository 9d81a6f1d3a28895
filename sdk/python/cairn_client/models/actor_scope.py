from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ActorScope")


@_attrs_define
class ActorScope:
    """What a scoped key or token was limited to when it acted (each list absent when the scope has none).

    Attributes:
        user_ids (list[str] | None | Unset):
        agent_ids (list[str] | None | Unset):
        tag_prefixes (list[str] | None | Unset):
    """

    user_ids: list[str] | None | Unset = UNSET
    agent_ids: list[str] | None | Unset = UNSET
    tag_prefixes: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_ids: list[str] | None | Unset
        if isinstance(self.user_ids, Unset):
            user_ids = UNSET
        elif isinstance(self.user_ids, list):
            user_ids = self.user_ids

        else:
            user_ids = self.user_ids

        agent_ids: list[str] | None | Unset
        if isinstance(self.agent_ids, Unset):
            agent_ids = UNSET
        elif isinstance(self.agent_ids, list):
            agent_ids = self.agent_ids

        else:
            agent_ids = self.agent_ids

        tag_prefixes: list[str] | None | Unset
        if isinstance(self.tag_prefixes, Unset):
            tag_prefixes = UNSET
        elif isinstance(self.tag_prefixes, list):
            tag_prefixes = self.tag_prefixes

        else:
            tag_prefixes = self.tag_prefixes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if user_ids is not UNSET:
            field_dict["user_ids"] = user_ids
        if agent_ids is not UNSET:
            field_dict["agent_ids"] = agent_ids
        if tag_prefixes is not UNSET:
            field_dict["tag_prefixes"] = tag_prefixes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                user_ids_type_0 = cast(list[str], data)

                return user_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        user_ids = _parse_user_ids(d.pop("user_ids", UNSET))

        def _parse_agent_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                agent_ids_type_0 = cast(list[str], data)

                return agent_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        agent_ids = _parse_agent_ids(d.pop("agent_ids", UNSET))

        def _parse_tag_prefixes(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tag_prefixes_type_0 = cast(list[str], data)

                return tag_prefixes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tag_prefixes = _parse_tag_prefixes(d.pop("tag_prefixes", UNSET))

        actor_scope = cls(
            user_ids=user_ids,
            agent_ids=agent_ids,
            tag_prefixes=tag_prefixes,
        )

        actor_scope.additional_properties = d
        return actor_scope

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="NewKey")


@_attrs_define
class NewKey:
    """
    Example:
        {'agent_ids': ['support-bot'], 'expires_in_days': 90, 'name': 'support-bot', 'rate_limit_per_second': 20,
            'scopes': ['read', 'write']}

    Attributes:
        scopes (list[str] | None | Unset): read, write (implies read), admin (implies both). Default: read, write.
        name (None | str | Unset): A label.
        expires_in_days (int | None | Unset): Days until expiry, 1..=3650 (never, if absent).
        rate_limit_per_second (int | None | Unset): The key's own requests-per-second limit, 1..=100000 (absent: the
            plan's).
        user_ids (list[str] | None | Unset): Limits the key to memories of these end users (`user_id`), 1 to 100 of
            them; absent: any. A scoped key
            sees nothing outside its scope on any surface, and may not hold the admin scope.
        agent_ids (list[str] | None | Unset): Limits the key to memories of these agents (`agent_id`).
        tag_prefixes (list[str] | None | Unset): Limits the key to memories with a tag at or under one of these prefixes
            (`project:x` covers
            `project:x/notes`).
    """

    scopes: list[str] | None | Unset = UNSET
    name: None | str | Unset = UNSET
    expires_in_days: int | None | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    user_ids: list[str] | None | Unset = UNSET
    agent_ids: list[str] | None | Unset = UNSET
    tag_prefixes: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        scopes: list[str] | None | Unset
        if isinstance(self.scopes, Unset):
            scopes = UNSET
        elif isinstance(self.scopes, list):
            scopes = self.scopes

        else:
            scopes = self.scopes

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

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
        if scopes is not UNSET:
            field_dict["scopes"] = scopes
        if name is not UNSET:
            field_dict["name"] = name
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days
        if rate_limit_per_second is not UNSET:
            field_dict["rate_limit_per_second"] = rate_limit_per_second
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

        def _parse_scopes(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scopes_type_0 = cast(list[str], data)

                return scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        scopes = _parse_scopes(d.pop("scopes", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expires_in_days", UNSET))

        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rate_limit_per_second", UNSET))

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

        new_key = cls(
            scopes=scopes,
            name=name,
            expires_in_days=expires_in_days,
            rate_limit_per_second=rate_limit_per_second,
            user_ids=user_ids,
            agent_ids=agent_ids,
            tag_prefixes=tag_prefixes,
        )

        new_key.additional_properties = d
        return new_key

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

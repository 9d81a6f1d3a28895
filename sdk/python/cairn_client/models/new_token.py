from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NewToken")


@_attrs_define
class NewToken:
    """A short-lived token to mint (`POST /api/v1/tokens`), for a browser or device that must not hold a key.

    Example:
        {'scopes': ['read', 'write'], 'ttl_seconds': 900, 'user_ids': ['user-42']}

    Attributes:
        scopes (list[str] | None | Unset): read, or read and write (admin is never granted to a token). Default: read,
            write.
        ttl_seconds (int | None | Unset): Seconds the token lives, 1..=3600 (default 900).
        user_ids (list[str] | None | Unset): Limits the token to memories of these end users; absent: any.
        agent_ids (list[str] | None | Unset): Limits the token to memories of these agents; absent: any.
        tag_prefixes (list[str] | None | Unset): Limits the token to memories with a tag at or under one of these
            prefixes; absent: any.
    """

    scopes: list[str] | None | Unset = UNSET
    ttl_seconds: int | None | Unset = UNSET
    user_ids: list[str] | None | Unset = UNSET
    agent_ids: list[str] | None | Unset = UNSET
    tag_prefixes: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        scopes: list[str] | None | Unset
        if isinstance(self.scopes, Unset):
            scopes = UNSET
        elif isinstance(self.scopes, list):
            scopes = self.scopes

        else:
            scopes = self.scopes

        ttl_seconds: int | None | Unset
        if isinstance(self.ttl_seconds, Unset):
            ttl_seconds = UNSET
        else:
            ttl_seconds = self.ttl_seconds

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

        field_dict.update({})
        if scopes is not UNSET:
            field_dict["scopes"] = scopes
        if ttl_seconds is not UNSET:
            field_dict["ttl_seconds"] = ttl_seconds
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

        def _parse_ttl_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl_seconds = _parse_ttl_seconds(d.pop("ttl_seconds", UNSET))

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

        new_token = cls(
            scopes=scopes,
            ttl_seconds=ttl_seconds,
            user_ids=user_ids,
            agent_ids=agent_ids,
            tag_prefixes=tag_prefixes,
        )

        return new_token

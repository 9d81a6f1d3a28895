from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchRequest")


@_attrs_define
class SearchRequest:
    """remem's search body.

    Example:
        {'limit': 5, 'min_importance': 0.5, 'query': 'communication preferences', 'search_type': 'hybrid'}

    Attributes:
        query (None | str | Unset): What to look for, 1..=1000 characters (optional with `related_to`).
        search_type (None | str | Unset): `hybrid` (default), `semantic` or `keyword`.
        limit (int | None | Unset): 1..=100, default 10.
        offset (int | None | Unset):
        related_to (None | Unset | UUID): Only memories associated with this memory (one hop, either direction; its 200
            strongest neighbours).
        min_importance (float | None | Unset):
        max_importance (float | None | Unset):
        memory_type (None | str | Unset): `short_term` or `long_term`.
        tags (list[str] | Unset):
    """

    query: None | str | Unset = UNSET
    search_type: None | str | Unset = UNSET
    limit: int | None | Unset = UNSET
    offset: int | None | Unset = UNSET
    related_to: None | Unset | UUID = UNSET
    min_importance: float | None | Unset = UNSET
    max_importance: float | None | Unset = UNSET
    memory_type: None | str | Unset = UNSET
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        search_type: None | str | Unset
        if isinstance(self.search_type, Unset):
            search_type = UNSET
        else:
            search_type = self.search_type

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        offset: int | None | Unset
        if isinstance(self.offset, Unset):
            offset = UNSET
        else:
            offset = self.offset

        related_to: None | str | Unset
        if isinstance(self.related_to, Unset):
            related_to = UNSET
        elif isinstance(self.related_to, UUID):
            related_to = str(self.related_to)
        else:
            related_to = self.related_to

        min_importance: float | None | Unset
        if isinstance(self.min_importance, Unset):
            min_importance = UNSET
        else:
            min_importance = self.min_importance

        max_importance: float | None | Unset
        if isinstance(self.max_importance, Unset):
            max_importance = UNSET
        else:
            max_importance = self.max_importance

        memory_type: None | str | Unset
        if isinstance(self.memory_type, Unset):
            memory_type = UNSET
        else:
            memory_type = self.memory_type

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if query is not UNSET:
            field_dict["query"] = query
        if search_type is not UNSET:
            field_dict["search_type"] = search_type
        if limit is not UNSET:
            field_dict["limit"] = limit
        if offset is not UNSET:
            field_dict["offset"] = offset
        if related_to is not UNSET:
            field_dict["related_to"] = related_to
        if min_importance is not UNSET:
            field_dict["min_importance"] = min_importance
        if max_importance is not UNSET:
            field_dict["max_importance"] = max_importance
        if memory_type is not UNSET:
            field_dict["memory_type"] = memory_type
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        def _parse_search_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        search_type = _parse_search_type(d.pop("search_type", UNSET))

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        def _parse_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        offset = _parse_offset(d.pop("offset", UNSET))

        def _parse_related_to(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                related_to_type_0 = UUID(data)

                return related_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        related_to = _parse_related_to(d.pop("related_to", UNSET))

        def _parse_min_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        min_importance = _parse_min_importance(d.pop("min_importance", UNSET))

        def _parse_max_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_importance = _parse_max_importance(d.pop("max_importance", UNSET))

        def _parse_memory_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memory_type = _parse_memory_type(d.pop("memory_type", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        search_request = cls(
            query=query,
            search_type=search_type,
            limit=limit,
            offset=offset,
            related_to=related_to,
            min_importance=min_importance,
            max_importance=max_importance,
            memory_type=memory_type,
            tags=tags,
        )

        return search_request

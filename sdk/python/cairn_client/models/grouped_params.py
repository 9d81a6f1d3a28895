from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.grouped_params_entity_types_item import GroupedParamsEntityTypesItem
from ..models.grouped_params_search_mode import GroupedParamsSearchMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="GroupedParams")


@_attrs_define
class GroupedParams:
    """Entity-grouped recall (textrawl's `recall_memories`; native `POST /api/v1/recall/entities` and MCP's
    `recall_memories`).

        Example:
            {'entityTypes': ['person', 'preference'], 'limit': 10, 'query': 'user preferences for development tools',
                'searchMode': 'hybrid'}

        Attributes:
            compact (bool | None | Unset): Short keys (default: the deployment's `CAIRN_COMPACT_RESPONSES`, true unless
                changed).
            entity_types (list[GroupedParamsEntityTypesItem] | Unset): Only these entity types (default: all).
            limit (int | None | Unset): Memories to return, 1..=50 (default 10).
            query (None | str | Unset): What to look for, 1..=1000 characters.
            search_mode (GroupedParamsSearchMode | Unset): `hybrid` (default: keywords and meaning) or `semantic`.
    """

    compact: bool | None | Unset = UNSET
    entity_types: list[GroupedParamsEntityTypesItem] | Unset = UNSET
    limit: int | None | Unset = UNSET
    query: None | str | Unset = UNSET
    search_mode: GroupedParamsSearchMode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        compact: bool | None | Unset
        if isinstance(self.compact, Unset):
            compact = UNSET
        else:
            compact = self.compact

        entity_types: list[str] | Unset = UNSET
        if not isinstance(self.entity_types, Unset):
            entity_types = []
            for entity_types_item_data in self.entity_types:
                entity_types_item = entity_types_item_data.value
                entity_types.append(entity_types_item)

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        search_mode: str | Unset = UNSET
        if not isinstance(self.search_mode, Unset):
            search_mode = self.search_mode.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if compact is not UNSET:
            field_dict["compact"] = compact
        if entity_types is not UNSET:
            field_dict["entityTypes"] = entity_types
        if limit is not UNSET:
            field_dict["limit"] = limit
        if query is not UNSET:
            field_dict["query"] = query
        if search_mode is not UNSET:
            field_dict["searchMode"] = search_mode

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_compact(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        compact = _parse_compact(d.pop("compact", UNSET))

        _entity_types = d.pop("entityTypes", UNSET)
        entity_types: list[GroupedParamsEntityTypesItem] | Unset = UNSET
        if _entity_types is not UNSET:
            entity_types = []
            for entity_types_item_data in _entity_types:
                entity_types_item = GroupedParamsEntityTypesItem(entity_types_item_data)

                entity_types.append(entity_types_item)

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        _search_mode = d.pop("searchMode", UNSET)
        search_mode: GroupedParamsSearchMode | Unset
        if isinstance(_search_mode, Unset):
            search_mode = UNSET
        else:
            search_mode = GroupedParamsSearchMode(_search_mode)

        grouped_params = cls(
            compact=compact,
            entity_types=entity_types,
            limit=limit,
            query=query,
            search_mode=search_mode,
        )

        grouped_params.additional_properties = d
        return grouped_params

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

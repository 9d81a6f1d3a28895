from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.recall_params_memory_type import RecallParamsMemoryType
from ..models.recall_params_mode import RecallParamsMode
from ..models.recall_params_sort import RecallParamsSort
from ..models.recall_params_state_mode import RecallParamsStateMode
from ..models.recall_params_tag_match import RecallParamsTagMatch
from ..models.recall_params_tag_mode import RecallParamsTagMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="RecallParams")


@_attrs_define
class RecallParams:
    """A recall request: the same fields as a JSON body (POST) or a query string (GET, lists as repeated keys).

    Example:
        {'limit': 5, 'query': 'which database did we choose?', 'since': 'last month', 'tags': ['project-alpha']}

    Attributes:
        agent_id (None | str | Unset):
        created_by (None | str | Unset): Only memories stored by this actor, as `created_by` shows it (`key:<api key
            id>`, `system:<job>`).
        episode_id (None | str | Unset):
        exclude_tags (list[str] | Unset): Leave out memories with any of these tags.
        expand_entities (bool | None | Unset): Add memories that mention the same entities as the results (the rarest
            shared entity first), in
            `expansions`.
        expand_relations (bool | None | Unset): Add memories one association away from the results, in `expansions`.
        expansion_limit (int | None | Unset): Most expansions in all, 1..=200 (default 25).
        include_archived (bool | None | Unset): Include archived and expired memories (default false).
        limit (int | None | Unset): 1..=100, default 10.
        max_importance (float | None | Unset):
        memory_type (RecallParamsMemoryType | Unset): `short_term` or `long_term`.
        min_importance (float | None | Unset):
        mode (RecallParamsMode | Unset): `hybrid` (default), `semantic`, `keyword` or `associative` (semantic hits, then
            activation spread
            along associations).
        offset (int | None | Unset): Results to skip.
        quality_boost (bool | None | Unset): Blend in `quality_score` (SHODH).
        quality_weight (float | None | Unset): Weight of quality when `quality_boost` is on, 0..=1 (default 0.3).
        query (None | str | Unset): What to look for, 1..=1000 characters. Without it: filters and ordering only.
        reference_time (None | str | Unset): The moment the question is asked, ISO 8601 (default: now): relative times
            in `query`, `since`,
            `until` and `valid_at` ("last week", "3 days ago") count back from it. For questions about a past
            conversation, asked as of its date; recency and forgetting still count from the server's clock.
        relation_limit (int | None | Unset): Most expansions per result, 1..=50 (default 5).
        run_id (None | str | Unset):
        since (None | str | Unset): Lower time bound: ISO 8601 or English/German ("last week", "vor 2 Wochen"). Alias
            `from`.
        sort (RecallParamsSort | Unset): `score` (default with a query), `time_desc` (default without), `time_asc`.
        state_mode (RecallParamsStateMode | Unset): `current` (default): a superseded memory is replaced by the head of
            its supersede chain (at most 5
            hops); `history`: every memory as stored.
        tag_match (RecallParamsTagMatch | Unset): `exact` (default) or `prefix`.
        tag_mode (RecallParamsTagMode | Unset): `any` (default) or `all`.
        tags (list[str] | Unset): Tags to require (see `tag_mode`, `tag_match`).
        types (list[str] | Unset): Classifications to keep.
        until (None | str | Unset): Upper time bound, inclusive of a named day or period. Aliases `before`, `to`.
        user_id (None | str | Unset):
        valid_at (None | str | Unset): Only memories valid at this time (t_valid/t_invalid); ISO 8601 or natural
            language.
    """

    agent_id: None | str | Unset = UNSET
    created_by: None | str | Unset = UNSET
    episode_id: None | str | Unset = UNSET
    exclude_tags: list[str] | Unset = UNSET
    expand_entities: bool | None | Unset = UNSET
    expand_relations: bool | None | Unset = UNSET
    expansion_limit: int | None | Unset = UNSET
    include_archived: bool | None | Unset = UNSET
    limit: int | None | Unset = UNSET
    max_importance: float | None | Unset = UNSET
    memory_type: RecallParamsMemoryType | Unset = UNSET
    min_importance: float | None | Unset = UNSET
    mode: RecallParamsMode | Unset = UNSET
    offset: int | None | Unset = UNSET
    quality_boost: bool | None | Unset = UNSET
    quality_weight: float | None | Unset = UNSET
    query: None | str | Unset = UNSET
    reference_time: None | str | Unset = UNSET
    relation_limit: int | None | Unset = UNSET
    run_id: None | str | Unset = UNSET
    since: None | str | Unset = UNSET
    sort: RecallParamsSort | Unset = UNSET
    state_mode: RecallParamsStateMode | Unset = UNSET
    tag_match: RecallParamsTagMatch | Unset = UNSET
    tag_mode: RecallParamsTagMode | Unset = UNSET
    tags: list[str] | Unset = UNSET
    types: list[str] | Unset = UNSET
    until: None | str | Unset = UNSET
    user_id: None | str | Unset = UNSET
    valid_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        created_by: None | str | Unset
        if isinstance(self.created_by, Unset):
            created_by = UNSET
        else:
            created_by = self.created_by

        episode_id: None | str | Unset
        if isinstance(self.episode_id, Unset):
            episode_id = UNSET
        else:
            episode_id = self.episode_id

        exclude_tags: list[str] | Unset = UNSET
        if not isinstance(self.exclude_tags, Unset):
            exclude_tags = self.exclude_tags

        expand_entities: bool | None | Unset
        if isinstance(self.expand_entities, Unset):
            expand_entities = UNSET
        else:
            expand_entities = self.expand_entities

        expand_relations: bool | None | Unset
        if isinstance(self.expand_relations, Unset):
            expand_relations = UNSET
        else:
            expand_relations = self.expand_relations

        expansion_limit: int | None | Unset
        if isinstance(self.expansion_limit, Unset):
            expansion_limit = UNSET
        else:
            expansion_limit = self.expansion_limit

        include_archived: bool | None | Unset
        if isinstance(self.include_archived, Unset):
            include_archived = UNSET
        else:
            include_archived = self.include_archived

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        max_importance: float | None | Unset
        if isinstance(self.max_importance, Unset):
            max_importance = UNSET
        else:
            max_importance = self.max_importance

        memory_type: str | Unset = UNSET
        if not isinstance(self.memory_type, Unset):
            memory_type = self.memory_type.value

        min_importance: float | None | Unset
        if isinstance(self.min_importance, Unset):
            min_importance = UNSET
        else:
            min_importance = self.min_importance

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        offset: int | None | Unset
        if isinstance(self.offset, Unset):
            offset = UNSET
        else:
            offset = self.offset

        quality_boost: bool | None | Unset
        if isinstance(self.quality_boost, Unset):
            quality_boost = UNSET
        else:
            quality_boost = self.quality_boost

        quality_weight: float | None | Unset
        if isinstance(self.quality_weight, Unset):
            quality_weight = UNSET
        else:
            quality_weight = self.quality_weight

        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        reference_time: None | str | Unset
        if isinstance(self.reference_time, Unset):
            reference_time = UNSET
        else:
            reference_time = self.reference_time

        relation_limit: int | None | Unset
        if isinstance(self.relation_limit, Unset):
            relation_limit = UNSET
        else:
            relation_limit = self.relation_limit

        run_id: None | str | Unset
        if isinstance(self.run_id, Unset):
            run_id = UNSET
        else:
            run_id = self.run_id

        since: None | str | Unset
        if isinstance(self.since, Unset):
            since = UNSET
        else:
            since = self.since

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        state_mode: str | Unset = UNSET
        if not isinstance(self.state_mode, Unset):
            state_mode = self.state_mode.value

        tag_match: str | Unset = UNSET
        if not isinstance(self.tag_match, Unset):
            tag_match = self.tag_match.value

        tag_mode: str | Unset = UNSET
        if not isinstance(self.tag_mode, Unset):
            tag_mode = self.tag_mode.value

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        types: list[str] | Unset = UNSET
        if not isinstance(self.types, Unset):
            types = self.types

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        else:
            until = self.until

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        valid_at: None | str | Unset
        if isinstance(self.valid_at, Unset):
            valid_at = UNSET
        else:
            valid_at = self.valid_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if episode_id is not UNSET:
            field_dict["episode_id"] = episode_id
        if exclude_tags is not UNSET:
            field_dict["exclude_tags"] = exclude_tags
        if expand_entities is not UNSET:
            field_dict["expand_entities"] = expand_entities
        if expand_relations is not UNSET:
            field_dict["expand_relations"] = expand_relations
        if expansion_limit is not UNSET:
            field_dict["expansion_limit"] = expansion_limit
        if include_archived is not UNSET:
            field_dict["include_archived"] = include_archived
        if limit is not UNSET:
            field_dict["limit"] = limit
        if max_importance is not UNSET:
            field_dict["max_importance"] = max_importance
        if memory_type is not UNSET:
            field_dict["memory_type"] = memory_type
        if min_importance is not UNSET:
            field_dict["min_importance"] = min_importance
        if mode is not UNSET:
            field_dict["mode"] = mode
        if offset is not UNSET:
            field_dict["offset"] = offset
        if quality_boost is not UNSET:
            field_dict["quality_boost"] = quality_boost
        if quality_weight is not UNSET:
            field_dict["quality_weight"] = quality_weight
        if query is not UNSET:
            field_dict["query"] = query
        if reference_time is not UNSET:
            field_dict["reference_time"] = reference_time
        if relation_limit is not UNSET:
            field_dict["relation_limit"] = relation_limit
        if run_id is not UNSET:
            field_dict["run_id"] = run_id
        if since is not UNSET:
            field_dict["since"] = since
        if sort is not UNSET:
            field_dict["sort"] = sort
        if state_mode is not UNSET:
            field_dict["state_mode"] = state_mode
        if tag_match is not UNSET:
            field_dict["tag_match"] = tag_match
        if tag_mode is not UNSET:
            field_dict["tag_mode"] = tag_mode
        if tags is not UNSET:
            field_dict["tags"] = tags
        if types is not UNSET:
            field_dict["types"] = types
        if until is not UNSET:
            field_dict["until"] = until
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if valid_at is not UNSET:
            field_dict["valid_at"] = valid_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))

        def _parse_created_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        created_by = _parse_created_by(d.pop("created_by", UNSET))

        def _parse_episode_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        episode_id = _parse_episode_id(d.pop("episode_id", UNSET))

        exclude_tags = cast(list[str], d.pop("exclude_tags", UNSET))

        def _parse_expand_entities(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        expand_entities = _parse_expand_entities(d.pop("expand_entities", UNSET))

        def _parse_expand_relations(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        expand_relations = _parse_expand_relations(d.pop("expand_relations", UNSET))

        def _parse_expansion_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expansion_limit = _parse_expansion_limit(d.pop("expansion_limit", UNSET))

        def _parse_include_archived(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        include_archived = _parse_include_archived(d.pop("include_archived", UNSET))

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        def _parse_max_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_importance = _parse_max_importance(d.pop("max_importance", UNSET))

        _memory_type = d.pop("memory_type", UNSET)
        memory_type: RecallParamsMemoryType | Unset
        if isinstance(_memory_type, Unset):
            memory_type = UNSET
        else:
            memory_type = RecallParamsMemoryType(_memory_type)

        def _parse_min_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        min_importance = _parse_min_importance(d.pop("min_importance", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: RecallParamsMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = RecallParamsMode(_mode)

        def _parse_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        offset = _parse_offset(d.pop("offset", UNSET))

        def _parse_quality_boost(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        quality_boost = _parse_quality_boost(d.pop("quality_boost", UNSET))

        def _parse_quality_weight(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality_weight = _parse_quality_weight(d.pop("quality_weight", UNSET))

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        def _parse_reference_time(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_time = _parse_reference_time(d.pop("reference_time", UNSET))

        def _parse_relation_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        relation_limit = _parse_relation_limit(d.pop("relation_limit", UNSET))

        def _parse_run_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        run_id = _parse_run_id(d.pop("run_id", UNSET))

        def _parse_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        since = _parse_since(d.pop("since", UNSET))

        _sort = d.pop("sort", UNSET)
        sort: RecallParamsSort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = RecallParamsSort(_sort)

        _state_mode = d.pop("state_mode", UNSET)
        state_mode: RecallParamsStateMode | Unset
        if isinstance(_state_mode, Unset):
            state_mode = UNSET
        else:
            state_mode = RecallParamsStateMode(_state_mode)

        _tag_match = d.pop("tag_match", UNSET)
        tag_match: RecallParamsTagMatch | Unset
        if isinstance(_tag_match, Unset):
            tag_match = UNSET
        else:
            tag_match = RecallParamsTagMatch(_tag_match)

        _tag_mode = d.pop("tag_mode", UNSET)
        tag_mode: RecallParamsTagMode | Unset
        if isinstance(_tag_mode, Unset):
            tag_mode = UNSET
        else:
            tag_mode = RecallParamsTagMode(_tag_mode)

        tags = cast(list[str], d.pop("tags", UNSET))

        types = cast(list[str], d.pop("types", UNSET))

        def _parse_until(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_valid_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        valid_at = _parse_valid_at(d.pop("valid_at", UNSET))

        recall_params = cls(
            agent_id=agent_id,
            created_by=created_by,
            episode_id=episode_id,
            exclude_tags=exclude_tags,
            expand_entities=expand_entities,
            expand_relations=expand_relations,
            expansion_limit=expansion_limit,
            include_archived=include_archived,
            limit=limit,
            max_importance=max_importance,
            memory_type=memory_type,
            min_importance=min_importance,
            mode=mode,
            offset=offset,
            quality_boost=quality_boost,
            quality_weight=quality_weight,
            query=query,
            reference_time=reference_time,
            relation_limit=relation_limit,
            run_id=run_id,
            since=since,
            sort=sort,
            state_mode=state_mode,
            tag_match=tag_match,
            tag_mode=tag_mode,
            tags=tags,
            types=types,
            until=until,
            user_id=user_id,
            valid_at=valid_at,
        )

        recall_params.additional_properties = d
        return recall_params

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

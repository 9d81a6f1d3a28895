from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ShodhRecallRequest")


@_attrs_define
class ShodhRecallRequest:
    """SHODH's recall body.

    Attributes:
        query (None | str | Unset): Natural-language query, 1..=1000 characters.
        limit (int | None | Unset): 1..=100, default 5.
        mode (None | str | Unset): `hybrid` (default), `semantic` or `associative` (activation spread along
            associations).
        memory_types (list[str] | None | Unset): Classifications to keep.
        quality_boost (bool | None | Unset):
        quality_weight (float | None | Unset): 0..=1, default 0.3.
        since (None | str | Unset): Lower bound: ISO date or words ("last week", "vor 2 Wochen", "yesterday").
        from_ (None | str | Unset): Alias of `since`; wins when both are given.
        before (None | str | Unset): Upper bound (inclusive of a named day or period).
        until (None | str | Unset): Alias of `before`; wins over it.
        to (None | str | Unset): Alias of `before`/`until`; wins over both.
        summarize (bool | None | Unset): Add a short summary of the results.
        language (None | str | Unset): `en` or `de` (default `de`): the summary's language when a chat model writes it
            (an extractive
            summary keeps the memories' own words).
    """

    query: None | str | Unset = UNSET
    limit: int | None | Unset = UNSET
    mode: None | str | Unset = UNSET
    memory_types: list[str] | None | Unset = UNSET
    quality_boost: bool | None | Unset = UNSET
    quality_weight: float | None | Unset = UNSET
    since: None | str | Unset = UNSET
    from_: None | str | Unset = UNSET
    before: None | str | Unset = UNSET
    until: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    summarize: bool | None | Unset = UNSET
    language: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        else:
            mode = self.mode

        memory_types: list[str] | None | Unset
        if isinstance(self.memory_types, Unset):
            memory_types = UNSET
        elif isinstance(self.memory_types, list):
            memory_types = self.memory_types

        else:
            memory_types = self.memory_types

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

        since: None | str | Unset
        if isinstance(self.since, Unset):
            since = UNSET
        else:
            since = self.since

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        before: None | str | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        else:
            before = self.before

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        else:
            until = self.until

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        summarize: bool | None | Unset
        if isinstance(self.summarize, Unset):
            summarize = UNSET
        else:
            summarize = self.summarize

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if query is not UNSET:
            field_dict["query"] = query
        if limit is not UNSET:
            field_dict["limit"] = limit
        if mode is not UNSET:
            field_dict["mode"] = mode
        if memory_types is not UNSET:
            field_dict["memory_types"] = memory_types
        if quality_boost is not UNSET:
            field_dict["quality_boost"] = quality_boost
        if quality_weight is not UNSET:
            field_dict["quality_weight"] = quality_weight
        if since is not UNSET:
            field_dict["since"] = since
        if from_ is not UNSET:
            field_dict["from"] = from_
        if before is not UNSET:
            field_dict["before"] = before
        if until is not UNSET:
            field_dict["until"] = until
        if to is not UNSET:
            field_dict["to"] = to
        if summarize is not UNSET:
            field_dict["summarize"] = summarize
        if language is not UNSET:
            field_dict["language"] = language

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

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        def _parse_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        def _parse_memory_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                memory_types_type_0 = cast(list[str], data)

                return memory_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        memory_types = _parse_memory_types(d.pop("memory_types", UNSET))

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

        def _parse_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        since = _parse_since(d.pop("since", UNSET))

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_before(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        before = _parse_before(d.pop("before", UNSET))

        def _parse_until(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        def _parse_summarize(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        summarize = _parse_summarize(d.pop("summarize", UNSET))

        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))

        shodh_recall_request = cls(
            query=query,
            limit=limit,
            mode=mode,
            memory_types=memory_types,
            quality_boost=quality_boost,
            quality_weight=quality_weight,
            since=since,
            from_=from_,
            before=before,
            until=until,
            to=to,
            summarize=summarize,
            language=language,
        )

        return shodh_recall_request

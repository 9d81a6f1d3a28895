from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scored_memory import ScoredMemory


T = TypeVar("T", bound="ShodhRecallResponse")


@_attrs_define
class ShodhRecallResponse:
    """
    Attributes:
        memories (list[ScoredMemory]):
        count (int):
        query (None | str | Unset): The query (absent for recall by tags).
        mode (None | str | Unset): The mode used.
        notice (None | str | Unset):
        summary (None | str | Unset): With `summarize`: a short summary of the results.
        summary_method (None | str | Unset): `llm` or `extractive`.
    """

    memories: list[ScoredMemory]
    count: int
    query: None | str | Unset = UNSET
    mode: None | str | Unset = UNSET
    notice: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET
    summary_method: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        count = self.count

        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        else:
            mode = self.mode

        notice: None | str | Unset
        if isinstance(self.notice, Unset):
            notice = UNSET
        else:
            notice = self.notice

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        summary_method: None | str | Unset
        if isinstance(self.summary_method, Unset):
            summary_method = UNSET
        else:
            summary_method = self.summary_method

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
                "count": count,
            }
        )
        if query is not UNSET:
            field_dict["query"] = query
        if mode is not UNSET:
            field_dict["mode"] = mode
        if notice is not UNSET:
            field_dict["notice"] = notice
        if summary is not UNSET:
            field_dict["summary"] = summary
        if summary_method is not UNSET:
            field_dict["summary_method"] = summary_method

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.scored_memory import ScoredMemory  # noqa: PLC0415

        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = ScoredMemory.from_dict(memories_item_data)

            memories.append(memories_item)

        count = d.pop("count")

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        def _parse_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_summary_method(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary_method = _parse_summary_method(d.pop("summary_method", UNSET))

        shodh_recall_response = cls(
            memories=memories,
            count=count,
            query=query,
            mode=mode,
            notice=notice,
            summary=summary,
            summary_method=summary_method,
        )

        shodh_recall_response.additional_properties = d
        return shodh_recall_response

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ContextParams")


@_attrs_define
class ContextParams:
    """Proactive context (SHODH's `/api/context`, MCP's `proactive_context`): surface the memories relevant to
    a conversation, then store it.

        Example:
            {'auto_ingest': True, 'context': "I'm working on the authentication system", 'max_results': 5}

        Attributes:
            auto_ingest (bool | None | Unset): Store the context as a Conversation memory (default true).
            context (None | str | Unset): The current conversation context or user message (1..=2000 characters when
                ingested; the first 1000
                characters are searched).
            max_results (int | None | Unset): 1..=20, default 5.
    """

    auto_ingest: bool | None | Unset = UNSET
    context: None | str | Unset = UNSET
    max_results: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        auto_ingest: bool | None | Unset
        if isinstance(self.auto_ingest, Unset):
            auto_ingest = UNSET
        else:
            auto_ingest = self.auto_ingest

        context: None | str | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        else:
            context = self.context

        max_results: int | None | Unset
        if isinstance(self.max_results, Unset):
            max_results = UNSET
        else:
            max_results = self.max_results

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if auto_ingest is not UNSET:
            field_dict["auto_ingest"] = auto_ingest
        if context is not UNSET:
            field_dict["context"] = context
        if max_results is not UNSET:
            field_dict["max_results"] = max_results

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_auto_ingest(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        auto_ingest = _parse_auto_ingest(d.pop("auto_ingest", UNSET))

        def _parse_context(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        context = _parse_context(d.pop("context", UNSET))

        def _parse_max_results(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_results = _parse_max_results(d.pop("max_results", UNSET))

        context_params = cls(
            auto_ingest=auto_ingest,
            context=context,
            max_results=max_results,
        )

        context_params.additional_properties = d
        return context_params

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

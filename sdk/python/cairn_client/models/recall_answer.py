from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.expansion import Expansion
    from ..models.recall_result import RecallResult


T = TypeVar("T", bound="RecallAnswer")


@_attrs_define
class RecallAnswer:
    """
    Attributes:
        status (str):
        results (list[RecallResult]):
        count (int):
        queries (list[str]): The queries recalled.
        mode (str):
        query_time_ms (float):
        notice (None | str | Unset):
        expansions (list[Expansion] | None | Unset):
    """

    status: str
    results: list[RecallResult]
    count: int
    queries: list[str]
    mode: str
    query_time_ms: float
    notice: None | str | Unset = UNSET
    expansions: list[Expansion] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        count = self.count

        queries = self.queries

        mode = self.mode

        query_time_ms = self.query_time_ms

        notice: None | str | Unset
        if isinstance(self.notice, Unset):
            notice = UNSET
        else:
            notice = self.notice

        expansions: list[dict[str, Any]] | None | Unset
        if isinstance(self.expansions, Unset):
            expansions = UNSET
        elif isinstance(self.expansions, list):
            expansions = []
            for expansions_type_0_item_data in self.expansions:
                expansions_type_0_item = expansions_type_0_item_data.to_dict()
                expansions.append(expansions_type_0_item)

        else:
            expansions = self.expansions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "results": results,
                "count": count,
                "queries": queries,
                "mode": mode,
                "query_time_ms": query_time_ms,
            }
        )
        if notice is not UNSET:
            field_dict["notice"] = notice
        if expansions is not UNSET:
            field_dict["expansions"] = expansions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.expansion import Expansion  # noqa: PLC0415
        from ..models.recall_result import RecallResult  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = RecallResult.from_dict(results_item_data)

            results.append(results_item)

        count = d.pop("count")

        queries = cast(list[str], d.pop("queries"))

        mode = d.pop("mode")

        query_time_ms = d.pop("query_time_ms")

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        def _parse_expansions(data: object) -> list[Expansion] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expansions_type_0 = []
                _expansions_type_0 = data
                for expansions_type_0_item_data in _expansions_type_0:
                    expansions_type_0_item = Expansion.from_dict(expansions_type_0_item_data)

                    expansions_type_0.append(expansions_type_0_item)

                return expansions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Expansion] | None | Unset, data)

        expansions = _parse_expansions(d.pop("expansions", UNSET))

        recall_answer = cls(
            status=status,
            results=results,
            count=count,
            queries=queries,
            mode=mode,
            query_time_ms=query_time_ms,
            notice=notice,
            expansions=expansions,
        )

        recall_answer.additional_properties = d
        return recall_answer

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

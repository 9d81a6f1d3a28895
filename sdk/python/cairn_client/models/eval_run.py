from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.probe_result import ProbeResult


T = TypeVar("T", bound="EvalRun")


@_attrs_define
class EvalRun:
    """One quality report run: its figures, and (when asked for one run) each probe's.

    Example:
        {'created_at': '2026-12-03T06:00:00Z', 'hit_at_k': 0.917, 'id': '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'k': 10,
            'mode': 'hybrid', 'model': 'sentence-transformers/all-MiniLM-L6-v2', 'mrr': 0.702, 'probe_set': 'weekly',
            'probes': 12, 'recall_at_k': 0.875, 'trigger': 'schedule'}

    Attributes:
        id (UUID):
        trigger (str): `manual` (asked through the API) or `schedule`.
        k (int):
        mode (str):
        probes (int): Probes asked.
        recall_at_k (float): Mean share of each probe's expected memories in its top k.
        hit_at_k (float): Share of probes with at least one expected memory in the top k.
        mrr (float): Mean reciprocal rank of each probe's first expected memory.
        created_at (datetime.datetime):
        probe_set (None | str | Unset): The stored probe set run; null for probes sent with the request.
        model (None | str | Unset): The embedding model the queries were embedded with (null for keyword mode or without
            a model).
        results (list[ProbeResult] | None | Unset): Each probe's figures (in a run's own answer; left out of the
            history's pages).
    """

    id: UUID
    trigger: str
    k: int
    mode: str
    probes: int
    recall_at_k: float
    hit_at_k: float
    mrr: float
    created_at: datetime.datetime
    probe_set: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    results: list[ProbeResult] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        trigger = self.trigger

        k = self.k

        mode = self.mode

        probes = self.probes

        recall_at_k = self.recall_at_k

        hit_at_k = self.hit_at_k

        mrr = self.mrr

        created_at = self.created_at.isoformat()

        probe_set: None | str | Unset
        if isinstance(self.probe_set, Unset):
            probe_set = UNSET
        else:
            probe_set = self.probe_set

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        results: list[dict[str, Any]] | None | Unset
        if isinstance(self.results, Unset):
            results = UNSET
        elif isinstance(self.results, list):
            results = []
            for results_type_0_item_data in self.results:
                results_type_0_item = results_type_0_item_data.to_dict()
                results.append(results_type_0_item)

        else:
            results = self.results

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "trigger": trigger,
                "k": k,
                "mode": mode,
                "probes": probes,
                "recall_at_k": recall_at_k,
                "hit_at_k": hit_at_k,
                "mrr": mrr,
                "created_at": created_at,
            }
        )
        if probe_set is not UNSET:
            field_dict["probe_set"] = probe_set
        if model is not UNSET:
            field_dict["model"] = model
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.probe_result import ProbeResult  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        trigger = d.pop("trigger")

        k = d.pop("k")

        mode = d.pop("mode")

        probes = d.pop("probes")

        recall_at_k = d.pop("recall_at_k")

        hit_at_k = d.pop("hit_at_k")

        mrr = d.pop("mrr")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_probe_set(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        probe_set = _parse_probe_set(d.pop("probe_set", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_results(data: object) -> list[ProbeResult] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                results_type_0 = []
                _results_type_0 = data
                for results_type_0_item_data in _results_type_0:
                    results_type_0_item = ProbeResult.from_dict(results_type_0_item_data)

                    results_type_0.append(results_type_0_item)

                return results_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ProbeResult] | None | Unset, data)

        results = _parse_results(d.pop("results", UNSET))

        eval_run = cls(
            id=id,
            trigger=trigger,
            k=k,
            mode=mode,
            probes=probes,
            recall_at_k=recall_at_k,
            hit_at_k=hit_at_k,
            mrr=mrr,
            created_at=created_at,
            probe_set=probe_set,
            model=model,
            results=results,
        )

        eval_run.additional_properties = d
        return eval_run

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

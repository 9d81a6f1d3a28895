from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.consolidation_mode import ConsolidationMode
from ..models.time_horizon import TimeHorizon
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConsolidateResponse")


@_attrs_define
class ConsolidateResponse:
    """A consolidation that finished within the request's wait.

    Attributes:
        processed (int): Memories of the horizon considered by clustering and discovery.
        archived (int): Memories archived by forgetting.
        decayed (int): Memories whose importance decayed.
        associations_created (int): DISCOVERED and SUMMARIZES edges created.
        associations_decayed (int): Edges whose learned strength decayed.
        clusters_created (int): Clusters found (connected components of at least 3).
        summaries_created (int): Summary memories written for clusters of at least 5.
        duration_ms (int):
        status (str): Always `success`.
        mode (ConsolidationMode): A consolidation mode: full, decay, creative, cluster or forget.
        time_horizon (TimeHorizon): A consolidation horizon: the memories clustering and discovery look at.
        dry_run (bool):
        run_id (UUID): The run, as listed by `GET /api/v1/consolidate/runs/{id}`.
        notice (None | str | Unset): Set when part of the run was skipped, saying why.
    """

    processed: int
    archived: int
    decayed: int
    associations_created: int
    associations_decayed: int
    clusters_created: int
    summaries_created: int
    duration_ms: int
    status: str
    mode: ConsolidationMode
    time_horizon: TimeHorizon
    dry_run: bool
    run_id: UUID
    notice: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        processed = self.processed

        archived = self.archived

        decayed = self.decayed

        associations_created = self.associations_created

        associations_decayed = self.associations_decayed

        clusters_created = self.clusters_created

        summaries_created = self.summaries_created

        duration_ms = self.duration_ms

        status = self.status

        mode = self.mode.value

        time_horizon = self.time_horizon.value

        dry_run = self.dry_run

        run_id = str(self.run_id)

        notice: None | str | Unset
        if isinstance(self.notice, Unset):
            notice = UNSET
        else:
            notice = self.notice

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "processed": processed,
                "archived": archived,
                "decayed": decayed,
                "associations_created": associations_created,
                "associations_decayed": associations_decayed,
                "clusters_created": clusters_created,
                "summaries_created": summaries_created,
                "duration_ms": duration_ms,
                "status": status,
                "mode": mode,
                "time_horizon": time_horizon,
                "dry_run": dry_run,
                "run_id": run_id,
            }
        )
        if notice is not UNSET:
            field_dict["notice"] = notice

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        processed = d.pop("processed")

        archived = d.pop("archived")

        decayed = d.pop("decayed")

        associations_created = d.pop("associations_created")

        associations_decayed = d.pop("associations_decayed")

        clusters_created = d.pop("clusters_created")

        summaries_created = d.pop("summaries_created")

        duration_ms = d.pop("duration_ms")

        status = d.pop("status")

        mode = ConsolidationMode(d.pop("mode"))

        time_horizon = TimeHorizon(d.pop("time_horizon"))

        dry_run = d.pop("dry_run")

        run_id = UUID(d.pop("run_id"))

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        consolidate_response = cls(
            processed=processed,
            archived=archived,
            decayed=decayed,
            associations_created=associations_created,
            associations_decayed=associations_decayed,
            clusters_created=clusters_created,
            summaries_created=summaries_created,
            duration_ms=duration_ms,
            status=status,
            mode=mode,
            time_horizon=time_horizon,
            dry_run=dry_run,
            run_id=run_id,
            notice=notice,
        )

        consolidate_response.additional_properties = d
        return consolidate_response

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

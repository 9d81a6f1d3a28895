from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Report")


@_attrs_define
class Report:
    """What a consolidation run did (or, dry, would do).

    Example:
        {'archived': 3, 'associations_created': 7, 'associations_decayed': 2, 'clusters_created': 4, 'decayed': 120,
            'duration_ms': 85, 'processed': 240, 'summaries_created': 1}

    Attributes:
        processed (int): Memories of the horizon considered by clustering and discovery.
        archived (int): Memories archived by forgetting.
        decayed (int): Memories whose importance decayed.
        associations_created (int): DISCOVERED and SUMMARIZES edges created.
        associations_decayed (int): Edges whose learned strength decayed.
        clusters_created (int): Clusters found (connected components of at least 3).
        summaries_created (int): Summary memories written for clusters of at least 5.
        duration_ms (int):
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

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        report = cls(
            processed=processed,
            archived=archived,
            decayed=decayed,
            associations_created=associations_created,
            associations_decayed=associations_decayed,
            clusters_created=clusters_created,
            summaries_created=summaries_created,
            duration_ms=duration_ms,
            notice=notice,
        )

        report.additional_properties = d
        return report

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

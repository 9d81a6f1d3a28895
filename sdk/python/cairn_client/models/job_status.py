from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.job_failure import JobFailure
    from ..models.periodic_job import PeriodicJob
    from ..models.pipeline_counts import PipelineCounts
    from ..models.queue_counts import QueueCounts


T = TypeVar("T", bound="JobStatus")


@_attrs_define
class JobStatus:
    """
    Example:
        {'embedding': {'failed': 0, 'pending': 2, 'ready': 40}, 'enrichment': {'failed': 0, 'pending': 0, 'ready': 42},
            'periodic': [{'done_at': '2026-11-30T10:00:30Z', 'period_start': '2026-11-30T10:00:30Z', 'queue':
            'cairn::expire', 'status': 'Done'}], 'queues': [{'done': 40, 'failed': 0, 'killed': 0, 'pending': 2, 'queue':
            'cairn::embed', 'running': 0}], 'recent_failures': []}

    Attributes:
        queues (list[QueueCounts]):
        periodic (list[PeriodicJob]): The service's periodic jobs: each one's latest period.
        recent_failures (list[JobFailure]): Newest first, at most 20.
        embedding (PipelineCounts): Memories by pipeline state.
        enrichment (PipelineCounts): Memories by pipeline state.
    """

    queues: list[QueueCounts]
    periodic: list[PeriodicJob]
    recent_failures: list[JobFailure]
    embedding: PipelineCounts
    enrichment: PipelineCounts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        queues = []
        for queues_item_data in self.queues:
            queues_item = queues_item_data.to_dict()
            queues.append(queues_item)

        periodic = []
        for periodic_item_data in self.periodic:
            periodic_item = periodic_item_data.to_dict()
            periodic.append(periodic_item)

        recent_failures = []
        for recent_failures_item_data in self.recent_failures:
            recent_failures_item = recent_failures_item_data.to_dict()
            recent_failures.append(recent_failures_item)

        embedding = self.embedding.to_dict()

        enrichment = self.enrichment.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queues": queues,
                "periodic": periodic,
                "recent_failures": recent_failures,
                "embedding": embedding,
                "enrichment": enrichment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_failure import JobFailure  # noqa: PLC0415
        from ..models.periodic_job import PeriodicJob  # noqa: PLC0415
        from ..models.pipeline_counts import PipelineCounts  # noqa: PLC0415
        from ..models.queue_counts import QueueCounts  # noqa: PLC0415

        d = dict(src_dict)
        queues = []
        _queues = d.pop("queues")
        for queues_item_data in _queues:
            queues_item = QueueCounts.from_dict(queues_item_data)

            queues.append(queues_item)

        periodic = []
        _periodic = d.pop("periodic")
        for periodic_item_data in _periodic:
            periodic_item = PeriodicJob.from_dict(periodic_item_data)

            periodic.append(periodic_item)

        recent_failures = []
        _recent_failures = d.pop("recent_failures")
        for recent_failures_item_data in _recent_failures:
            recent_failures_item = JobFailure.from_dict(recent_failures_item_data)

            recent_failures.append(recent_failures_item)

        embedding = PipelineCounts.from_dict(d.pop("embedding"))

        enrichment = PipelineCounts.from_dict(d.pop("enrichment"))

        job_status = cls(
            queues=queues,
            periodic=periodic,
            recent_failures=recent_failures,
            embedding=embedding,
            enrichment=enrichment,
        )

        job_status.additional_properties = d
        return job_status

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

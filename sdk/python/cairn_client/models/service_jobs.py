from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.periodic_job import PeriodicJob
    from ..models.queue_load import QueueLoad


T = TypeVar("T", bound="ServiceJobs")


@_attrs_define
class ServiceJobs:
    """The service's background work across tenants.

    Example:
        {'periodic': [{'done_at': '2026-11-30T10:00:30Z', 'period_start': '2026-11-30T10:00:30Z', 'queue':
            'cairn::expire', 'status': 'Done'}], 'queues': [{'failed': 0, 'killed': 1, 'oldest_pending_secs': 4.2,
            'pending': 120, 'queue': 'cairn::embed', 'running': 2}], 'tenants': [{'failed': 0, 'killed': 0,
            'oldest_pending_secs': 4.2, 'pending': 100, 'queue': 'cairn::embed', 'running': 1, 'tenant_id':
            '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21', 'tenant_name': 'acme'}]}

    Attributes:
        queues (list[QueueLoad]): Every queue with jobs not done.
        tenants (list[QueueLoad]): Per queue and tenant, the busiest first (at most `limit`).
        periodic (list[PeriodicJob]): The service's periodic jobs: each one's latest period.
    """

    queues: list[QueueLoad]
    tenants: list[QueueLoad]
    periodic: list[PeriodicJob]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        queues = []
        for queues_item_data in self.queues:
            queues_item = queues_item_data.to_dict()
            queues.append(queues_item)

        tenants = []
        for tenants_item_data in self.tenants:
            tenants_item = tenants_item_data.to_dict()
            tenants.append(tenants_item)

        periodic = []
        for periodic_item_data in self.periodic:
            periodic_item = periodic_item_data.to_dict()
            periodic.append(periodic_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queues": queues,
                "tenants": tenants,
                "periodic": periodic,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.periodic_job import PeriodicJob  # noqa: PLC0415
        from ..models.queue_load import QueueLoad  # noqa: PLC0415

        d = dict(src_dict)
        queues = []
        _queues = d.pop("queues")
        for queues_item_data in _queues:
            queues_item = QueueLoad.from_dict(queues_item_data)

            queues.append(queues_item)

        tenants = []
        _tenants = d.pop("tenants")
        for tenants_item_data in _tenants:
            tenants_item = QueueLoad.from_dict(tenants_item_data)

            tenants.append(tenants_item)

        periodic = []
        _periodic = d.pop("periodic")
        for periodic_item_data in _periodic:
            periodic_item = PeriodicJob.from_dict(periodic_item_data)

            periodic.append(periodic_item)

        service_jobs = cls(
            queues=queues,
            tenants=tenants,
            periodic=periodic,
        )

        service_jobs.additional_properties = d
        return service_jobs

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

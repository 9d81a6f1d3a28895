from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConsolidationQueued")


@_attrs_define
class ConsolidationQueued:
    """A consolidation still on its way when the request stopped waiting (202).

    Example:
        {'message': 'the run is queued; GET /api/v1/consolidate/runs/0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10 shows it',
            'run_id': '0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10', 'status': 'queued'}

    Attributes:
        status (str): `queued`.
        run_id (UUID):
        message (str):
    """

    status: str
    run_id: UUID
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        run_id = str(self.run_id)

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "run_id": run_id,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        run_id = UUID(d.pop("run_id"))

        message = d.pop("message")

        consolidation_queued = cls(
            status=status,
            run_id=run_id,
            message=message,
        )

        consolidation_queued.additional_properties = d
        return consolidation_queued

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

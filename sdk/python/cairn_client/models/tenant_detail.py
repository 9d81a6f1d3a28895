from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tenant_detail_deletion_report import TenantDetailDeletionReport
    from ..models.tenant_detail_limits import TenantDetailLimits
    from ..models.tenant_settings import TenantSettings


T = TypeVar("T", bound="TenantDetail")


@_attrs_define
class TenantDetail:
    """A tenant, with what it stores and its settings.

    Example:
        {'created_at': '2026-11-30T12:00:00Z', 'id': '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21', 'limits': {'max_memories':
            50000}, 'memories': 1200, 'name': 'acme', 'plan': 'standard', 'status': 'active', 'storage_bytes': 480000}

    Attributes:
        id (UUID):
        name (str):
        plan (str):
        status (str): `active`, `suspended`, `deleting` (its data is being removed) or `deleted`.
        limits (TenantDetailLimits): The tenant's own limits over its plan's (see `GET /admin/v1/plans`).
        memories (int): Memories stored now.
        storage_bytes (int): Bytes of content and metadata stored now.
        created_at (datetime.datetime):
        status_reason (None | str | Unset):
        status_changed_at (datetime.datetime | None | Unset):
        settings (None | TenantSettings | Unset):
        deletion_report (None | TenantDetailDeletionReport | Unset): After deletion: rows removed per table and when it
            finished.
    """

    id: UUID
    name: str
    plan: str
    status: str
    limits: TenantDetailLimits
    memories: int
    storage_bytes: int
    created_at: datetime.datetime
    status_reason: None | str | Unset = UNSET
    status_changed_at: datetime.datetime | None | Unset = UNSET
    settings: None | TenantSettings | Unset = UNSET
    deletion_report: None | TenantDetailDeletionReport | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tenant_detail_deletion_report import TenantDetailDeletionReport  # noqa: PLC0415
        from ..models.tenant_settings import TenantSettings  # noqa: PLC0415

        id = str(self.id)

        name = self.name

        plan = self.plan

        status = self.status

        limits = self.limits.to_dict()

        memories = self.memories

        storage_bytes = self.storage_bytes

        created_at = self.created_at.isoformat()

        status_reason: None | str | Unset
        if isinstance(self.status_reason, Unset):
            status_reason = UNSET
        else:
            status_reason = self.status_reason

        status_changed_at: None | str | Unset
        if isinstance(self.status_changed_at, Unset):
            status_changed_at = UNSET
        elif isinstance(self.status_changed_at, datetime.datetime):
            status_changed_at = self.status_changed_at.isoformat()
        else:
            status_changed_at = self.status_changed_at

        settings: dict[str, Any] | None | Unset
        if isinstance(self.settings, Unset):
            settings = UNSET
        elif isinstance(self.settings, TenantSettings):
            settings = self.settings.to_dict()
        else:
            settings = self.settings

        deletion_report: dict[str, Any] | None | Unset
        if isinstance(self.deletion_report, Unset):
            deletion_report = UNSET
        elif isinstance(self.deletion_report, TenantDetailDeletionReport):
            deletion_report = self.deletion_report.to_dict()
        else:
            deletion_report = self.deletion_report

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "plan": plan,
                "status": status,
                "limits": limits,
                "memories": memories,
                "storage_bytes": storage_bytes,
                "created_at": created_at,
            }
        )
        if status_reason is not UNSET:
            field_dict["status_reason"] = status_reason
        if status_changed_at is not UNSET:
            field_dict["status_changed_at"] = status_changed_at
        if settings is not UNSET:
            field_dict["settings"] = settings
        if deletion_report is not UNSET:
            field_dict["deletion_report"] = deletion_report

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tenant_detail_deletion_report import TenantDetailDeletionReport  # noqa: PLC0415
        from ..models.tenant_detail_limits import TenantDetailLimits  # noqa: PLC0415
        from ..models.tenant_settings import TenantSettings  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        plan = d.pop("plan")

        status = d.pop("status")

        limits = TenantDetailLimits.from_dict(d.pop("limits"))

        memories = d.pop("memories")

        storage_bytes = d.pop("storage_bytes")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_status_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_reason = _parse_status_reason(d.pop("status_reason", UNSET))

        def _parse_status_changed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_changed_at_type_0 = datetime.datetime.fromisoformat(data)

                return status_changed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        status_changed_at = _parse_status_changed_at(d.pop("status_changed_at", UNSET))

        def _parse_settings(data: object) -> None | TenantSettings | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                settings_type_1 = TenantSettings.from_dict(data)

                return settings_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TenantSettings | Unset, data)

        settings = _parse_settings(d.pop("settings", UNSET))

        def _parse_deletion_report(data: object) -> None | TenantDetailDeletionReport | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deletion_report_type_0 = TenantDetailDeletionReport.from_dict(data)

                return deletion_report_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TenantDetailDeletionReport | Unset, data)

        deletion_report = _parse_deletion_report(d.pop("deletion_report", UNSET))

        tenant_detail = cls(
            id=id,
            name=name,
            plan=plan,
            status=status,
            limits=limits,
            memories=memories,
            storage_bytes=storage_bytes,
            created_at=created_at,
            status_reason=status_reason,
            status_changed_at=status_changed_at,
            settings=settings,
            deletion_report=deletion_report,
        )

        tenant_detail.additional_properties = d
        return tenant_detail

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

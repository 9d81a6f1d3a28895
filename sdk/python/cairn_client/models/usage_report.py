from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.end_user_usage_page import EndUserUsagePage
    from ..models.usage_day import UsageDay
    from ..models.usage_report_limits import UsageReportLimits
    from ..models.usage_report_totals import UsageReportTotals


T = TypeVar("T", bound="UsageReport")


@_attrs_define
class UsageReport:
    """A tenant's usage: counters per UTC day, what it stores now, and the limits in force.

    Example:
        {'days': [{'counters': {'embeddings': 35, 'memories_stored': 35, 'recalls': 80, 'requests_read': 120,
            'requests_write': 40}, 'day': '2026-11-30'}], 'from': '2026-11-01', 'limits': {'max_memories': 1000000},
            'memories': 35, 'storage_bytes': 5120, 'tenant_id': '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21', 'to': '2026-11-30',
            'totals': {'requests_read': 120}}

    Attributes:
        tenant_id (UUID):
        from_ (datetime.date):
        to (datetime.date):
        days (list[UsageDay]): Days with any usage, ascending: `requests_read`, `requests_write`, `recalls`,
            `memories_stored`,
            `embeddings`, `chat_calls`, and the daily budgets spent (`summaries`, `reenrich`, `consolidations`,
            `reembeds`).
        totals (UsageReportTotals): Each counter summed over the window.
        memories (int): Memories stored now.
        storage_bytes (int): Bytes stored now: memories' content and metadata, their history (each event's before and
            after), the
            trash (each deleted memory's snapshot), associations (properties, and 64 bytes each) and entities (names
            and metadata, and 64 bytes each) — what the storage quota counts.
        limits (UsageReportLimits): The limits in force (the tenant's over its plan's); absent ones are unlimited.
        end_users (EndUserUsagePage | None | Unset):
    """

    tenant_id: UUID
    from_: datetime.date
    to: datetime.date
    days: list[UsageDay]
    totals: UsageReportTotals
    memories: int
    storage_bytes: int
    limits: UsageReportLimits
    end_users: EndUserUsagePage | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.end_user_usage_page import EndUserUsagePage  # noqa: PLC0415

        tenant_id = str(self.tenant_id)

        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)

        totals = self.totals.to_dict()

        memories = self.memories

        storage_bytes = self.storage_bytes

        limits = self.limits.to_dict()

        end_users: dict[str, Any] | None | Unset
        if isinstance(self.end_users, Unset):
            end_users = UNSET
        elif isinstance(self.end_users, EndUserUsagePage):
            end_users = self.end_users.to_dict()
        else:
            end_users = self.end_users

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "from": from_,
                "to": to,
                "days": days,
                "totals": totals,
                "memories": memories,
                "storage_bytes": storage_bytes,
                "limits": limits,
            }
        )
        if end_users is not UNSET:
            field_dict["end_users"] = end_users

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.end_user_usage_page import EndUserUsagePage  # noqa: PLC0415
        from ..models.usage_day import UsageDay  # noqa: PLC0415
        from ..models.usage_report_limits import UsageReportLimits  # noqa: PLC0415
        from ..models.usage_report_totals import UsageReportTotals  # noqa: PLC0415

        d = dict(src_dict)
        tenant_id = UUID(d.pop("tenant_id"))

        from_ = datetime.date.fromisoformat(d.pop("from"))

        to = datetime.date.fromisoformat(d.pop("to"))

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = UsageDay.from_dict(days_item_data)

            days.append(days_item)

        totals = UsageReportTotals.from_dict(d.pop("totals"))

        memories = d.pop("memories")

        storage_bytes = d.pop("storage_bytes")

        limits = UsageReportLimits.from_dict(d.pop("limits"))

        def _parse_end_users(data: object) -> EndUserUsagePage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                end_users_type_1 = EndUserUsagePage.from_dict(data)

                return end_users_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndUserUsagePage | None | Unset, data)

        end_users = _parse_end_users(d.pop("end_users", UNSET))

        usage_report = cls(
            tenant_id=tenant_id,
            from_=from_,
            to=to,
            days=days,
            totals=totals,
            memories=memories,
            storage_bytes=storage_bytes,
            limits=limits,
            end_users=end_users,
        )

        usage_report.additional_properties = d
        return usage_report

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

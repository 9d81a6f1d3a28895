from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_record_report import RunRecordReport


T = TypeVar("T", bound="RunRecord")


@_attrs_define
class RunRecord:
    """A consolidation run, manual or scheduled.

    Attributes:
        id (UUID):
        mode (str):
        time_horizon (str):
        dry_run (bool):
        trigger (str): `manual` or `schedule`.
        status (str): `queued` (waiting for a worker), `done` or `failed`.
        started_at (datetime.datetime): The time the run works as of (when it was asked for).
        finished_at (datetime.datetime | None | Unset): Set once it is done or failed.
        report (None | RunRecordReport | Unset): What it did, once done.
        error (None | str | Unset): Why it failed.
    """

    id: UUID
    mode: str
    time_horizon: str
    dry_run: bool
    trigger: str
    status: str
    started_at: datetime.datetime
    finished_at: datetime.datetime | None | Unset = UNSET
    report: None | RunRecordReport | Unset = UNSET
    error: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.run_record_report import RunRecordReport  # noqa: PLC0415

        id = str(self.id)

        mode = self.mode

        time_horizon = self.time_horizon

        dry_run = self.dry_run

        trigger = self.trigger

        status = self.status

        started_at = self.started_at.isoformat()

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        report: dict[str, Any] | None | Unset
        if isinstance(self.report, Unset):
            report = UNSET
        elif isinstance(self.report, RunRecordReport):
            report = self.report.to_dict()
        else:
            report = self.report

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "mode": mode,
                "time_horizon": time_horizon,
                "dry_run": dry_run,
                "trigger": trigger,
                "status": status,
                "started_at": started_at,
            }
        )
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if report is not UNSET:
            field_dict["report"] = report
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_record_report import RunRecordReport  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        mode = d.pop("mode")

        time_horizon = d.pop("time_horizon")

        dry_run = d.pop("dry_run")

        trigger = d.pop("trigger")

        status = d.pop("status")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        def _parse_report(data: object) -> None | RunRecordReport | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                report_type_0 = RunRecordReport.from_dict(data)

                return report_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunRecordReport | Unset, data)

        report = _parse_report(d.pop("report", UNSET))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        run_record = cls(
            id=id,
            mode=mode,
            time_horizon=time_horizon,
            dry_run=dry_run,
            trigger=trigger,
            status=status,
            started_at=started_at,
            finished_at=finished_at,
            report=report,
            error=error,
        )

        run_record.additional_properties = d
        return run_record

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

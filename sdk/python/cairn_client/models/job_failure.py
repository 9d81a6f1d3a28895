from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobFailure")


@_attrs_define
class JobFailure:
    """A job whose last attempt failed (it may still be retried: see `status` and `attempts`).

    Attributes:
        id (str):
        queue (str):
        status (str):
        attempts (int):
        max_attempts (int):
        run_at (datetime.datetime):
        memory_ids (list[str]):
        last_error (None | str | Unset):
        done_at (datetime.datetime | None | Unset):
    """

    id: str
    queue: str
    status: str
    attempts: int
    max_attempts: int
    run_at: datetime.datetime
    memory_ids: list[str]
    last_error: None | str | Unset = UNSET
    done_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        queue = self.queue

        status = self.status

        attempts = self.attempts

        max_attempts = self.max_attempts

        run_at = self.run_at.isoformat()

        memory_ids = self.memory_ids

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        done_at: None | str | Unset
        if isinstance(self.done_at, Unset):
            done_at = UNSET
        elif isinstance(self.done_at, datetime.datetime):
            done_at = self.done_at.isoformat()
        else:
            done_at = self.done_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "queue": queue,
                "status": status,
                "attempts": attempts,
                "max_attempts": max_attempts,
                "run_at": run_at,
                "memory_ids": memory_ids,
            }
        )
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if done_at is not UNSET:
            field_dict["done_at"] = done_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        queue = d.pop("queue")

        status = d.pop("status")

        attempts = d.pop("attempts")

        max_attempts = d.pop("max_attempts")

        run_at = datetime.datetime.fromisoformat(d.pop("run_at"))

        memory_ids = cast(list[str], d.pop("memory_ids"))

        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))

        def _parse_done_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                done_at_type_0 = datetime.datetime.fromisoformat(data)

                return done_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        done_at = _parse_done_at(d.pop("done_at", UNSET))

        job_failure = cls(
            id=id,
            queue=queue,
            status=status,
            attempts=attempts,
            max_attempts=max_attempts,
            run_at=run_at,
            memory_ids=memory_ids,
            last_error=last_error,
            done_at=done_at,
        )

        job_failure.additional_properties = d
        return job_failure

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QueueCounts")


@_attrs_define
class QueueCounts:
    """One queue's jobs by state (apalis' states: Pending, Running, Done, Failed, Killed).

    Attributes:
        queue (str):
        pending (int):
        running (int):
        done (int):
        failed (int):
        killed (int):
    """

    queue: str
    pending: int
    running: int
    done: int
    failed: int
    killed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        queue = self.queue

        pending = self.pending

        running = self.running

        done = self.done

        failed = self.failed

        killed = self.killed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queue": queue,
                "pending": pending,
                "running": running,
                "done": done,
                "failed": failed,
                "killed": killed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        queue = d.pop("queue")

        pending = d.pop("pending")

        running = d.pop("running")

        done = d.pop("done")

        failed = d.pop("failed")

        killed = d.pop("killed")

        queue_counts = cls(
            queue=queue,
            pending=pending,
            running=running,
            done=done,
            failed=failed,
            killed=killed,
        )

        queue_counts.additional_properties = d
        return queue_counts

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Reembedded")


@_attrs_define
class Reembedded:
    """
    Example:
        {'batch_size': 32, 'queued': 1000, 'status': 'success'}

    Attributes:
        status (str):
        queued (int): Memories whose embedding was queued again (each keeps its old vector until the new one is
            written).
        batch_size (int):
    """

    status: str
    queued: int
    batch_size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        queued = self.queued

        batch_size = self.batch_size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "queued": queued,
                "batch_size": batch_size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        queued = d.pop("queued")

        batch_size = d.pop("batch_size")

        reembedded = cls(
            status=status,
            queued=queued,
            batch_size=batch_size,
        )

        reembedded.additional_properties = d
        return reembedded

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

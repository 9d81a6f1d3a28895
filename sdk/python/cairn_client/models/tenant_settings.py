from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TenantSettings")


@_attrs_define
class TenantSettings:
    """A tenant's lifecycle settings.

    Example:
        {'archive_retention_days': None, 'forgetting_enabled': False, 'forgetting_grace_days': 90,
            'read_keys_strengthen': False, 'undo_days': 7}

    Attributes:
        forgetting_enabled (bool): Active forgetting: archive memories whose health reached 0 (off by default).
        forgetting_grace_days (int): Memories younger than this are never forgotten (0..=3650, default 90).
        undo_days (int): Days a deleted memory can be restored (`POST /api/v1/memories/{id}/restore`) before it is
            erased for
            good (0..=365, default 7).
        read_keys_strengthen (bool): Associative recall with a read-only key strengthens the associations between the
            memories it returns
            together, as a write key's does (default false: reading with a read-only key changes no data).
        archive_retention_days (int | None | Unset): Archived memories older than this are deleted (1..=36500; null, the
            default: never); deleted
            memories stay restorable for `undo_days`.
    """

    forgetting_enabled: bool
    forgetting_grace_days: int
    undo_days: int
    read_keys_strengthen: bool
    archive_retention_days: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        forgetting_enabled = self.forgetting_enabled

        forgetting_grace_days = self.forgetting_grace_days

        undo_days = self.undo_days

        read_keys_strengthen = self.read_keys_strengthen

        archive_retention_days: int | None | Unset
        if isinstance(self.archive_retention_days, Unset):
            archive_retention_days = UNSET
        else:
            archive_retention_days = self.archive_retention_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "forgetting_enabled": forgetting_enabled,
                "forgetting_grace_days": forgetting_grace_days,
                "undo_days": undo_days,
                "read_keys_strengthen": read_keys_strengthen,
            }
        )
        if archive_retention_days is not UNSET:
            field_dict["archive_retention_days"] = archive_retention_days

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        forgetting_enabled = d.pop("forgetting_enabled")

        forgetting_grace_days = d.pop("forgetting_grace_days")

        undo_days = d.pop("undo_days")

        read_keys_strengthen = d.pop("read_keys_strengthen")

        def _parse_archive_retention_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        archive_retention_days = _parse_archive_retention_days(d.pop("archive_retention_days", UNSET))

        tenant_settings = cls(
            forgetting_enabled=forgetting_enabled,
            forgetting_grace_days=forgetting_grace_days,
            undo_days=undo_days,
            read_keys_strengthen=read_keys_strengthen,
            archive_retention_days=archive_retention_days,
        )

        tenant_settings.additional_properties = d
        return tenant_settings

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

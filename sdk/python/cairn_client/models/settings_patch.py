from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SettingsPatch")


@_attrs_define
class SettingsPatch:
    """Changes to the lifecycle settings; absent fields keep their value, `archive_retention_days: null`
    turns retention off.

        Example:
            {'forgetting_enabled': True, 'forgetting_grace_days': 120}

        Attributes:
            forgetting_enabled (bool | None | Unset):
            forgetting_grace_days (int | None | Unset):
            archive_retention_days (int | None | Unset):
            undo_days (int | None | Unset): Days a deleted memory can be restored before it is erased for good (0..=365).
            read_keys_strengthen (bool | None | Unset): Associative recall with a read-only key strengthens associations
                too.
    """

    forgetting_enabled: bool | None | Unset = UNSET
    forgetting_grace_days: int | None | Unset = UNSET
    archive_retention_days: int | None | Unset = UNSET
    undo_days: int | None | Unset = UNSET
    read_keys_strengthen: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        forgetting_enabled: bool | None | Unset
        if isinstance(self.forgetting_enabled, Unset):
            forgetting_enabled = UNSET
        else:
            forgetting_enabled = self.forgetting_enabled

        forgetting_grace_days: int | None | Unset
        if isinstance(self.forgetting_grace_days, Unset):
            forgetting_grace_days = UNSET
        else:
            forgetting_grace_days = self.forgetting_grace_days

        archive_retention_days: int | None | Unset
        if isinstance(self.archive_retention_days, Unset):
            archive_retention_days = UNSET
        else:
            archive_retention_days = self.archive_retention_days

        undo_days: int | None | Unset
        if isinstance(self.undo_days, Unset):
            undo_days = UNSET
        else:
            undo_days = self.undo_days

        read_keys_strengthen: bool | None | Unset
        if isinstance(self.read_keys_strengthen, Unset):
            read_keys_strengthen = UNSET
        else:
            read_keys_strengthen = self.read_keys_strengthen

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if forgetting_enabled is not UNSET:
            field_dict["forgetting_enabled"] = forgetting_enabled
        if forgetting_grace_days is not UNSET:
            field_dict["forgetting_grace_days"] = forgetting_grace_days
        if archive_retention_days is not UNSET:
            field_dict["archive_retention_days"] = archive_retention_days
        if undo_days is not UNSET:
            field_dict["undo_days"] = undo_days
        if read_keys_strengthen is not UNSET:
            field_dict["read_keys_strengthen"] = read_keys_strengthen

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_forgetting_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        forgetting_enabled = _parse_forgetting_enabled(d.pop("forgetting_enabled", UNSET))

        def _parse_forgetting_grace_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        forgetting_grace_days = _parse_forgetting_grace_days(d.pop("forgetting_grace_days", UNSET))

        def _parse_archive_retention_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        archive_retention_days = _parse_archive_retention_days(d.pop("archive_retention_days", UNSET))

        def _parse_undo_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        undo_days = _parse_undo_days(d.pop("undo_days", UNSET))

        def _parse_read_keys_strengthen(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        read_keys_strengthen = _parse_read_keys_strengthen(d.pop("read_keys_strengthen", UNSET))

        settings_patch = cls(
            forgetting_enabled=forgetting_enabled,
            forgetting_grace_days=forgetting_grace_days,
            archive_retention_days=archive_retention_days,
            undo_days=undo_days,
            read_keys_strengthen=read_keys_strengthen,
        )

        settings_patch.additional_properties = d
        return settings_patch

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

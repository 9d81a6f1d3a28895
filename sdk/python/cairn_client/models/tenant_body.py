from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settings_patch import SettingsPatch
    from ..models.tenant_body_limits import TenantBodyLimits


T = TypeVar("T", bound="TenantBody")


@_attrs_define
class TenantBody:
    """A new tenant, or changes to one; absent fields keep their value.

    Example:
        {'limits': {'max_memories': 50000, 'requests_per_second': 50}, 'name': 'acme', 'plan': 'standard'}

    Attributes:
        name (None | str | Unset): Unique, 1..=200 characters (required on create).
        plan (None | str | Unset): A plan from `GET /admin/v1/plans` (default on create: the deployment's default plan).
        limits (None | TenantBodyLimits | Unset): The tenant's own limits, replacing its previous ones:
            requests_per_second, burst,
            key_requests_per_second, max_memories, max_storage_bytes, max_memories_per_user, max_memories_per_agent,
            max_storage_bytes_per_user, max_storage_bytes_per_agent, user_requests_per_second, agent_requests_per_second,
            max_metadata_bytes, max_batch,
            summaries_per_day, reenrich_per_day, consolidations_per_day, reembeds_per_day.
        settings (None | SettingsPatch | Unset):
    """

    name: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    limits: None | TenantBodyLimits | Unset = UNSET
    settings: None | SettingsPatch | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.settings_patch import SettingsPatch  # noqa: PLC0415
        from ..models.tenant_body_limits import TenantBodyLimits  # noqa: PLC0415

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        plan: None | str | Unset
        if isinstance(self.plan, Unset):
            plan = UNSET
        else:
            plan = self.plan

        limits: dict[str, Any] | None | Unset
        if isinstance(self.limits, Unset):
            limits = UNSET
        elif isinstance(self.limits, TenantBodyLimits):
            limits = self.limits.to_dict()
        else:
            limits = self.limits

        settings: dict[str, Any] | None | Unset
        if isinstance(self.settings, Unset):
            settings = UNSET
        elif isinstance(self.settings, SettingsPatch):
            settings = self.settings.to_dict()
        else:
            settings = self.settings

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if plan is not UNSET:
            field_dict["plan"] = plan
        if limits is not UNSET:
            field_dict["limits"] = limits
        if settings is not UNSET:
            field_dict["settings"] = settings

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.settings_patch import SettingsPatch  # noqa: PLC0415
        from ..models.tenant_body_limits import TenantBodyLimits  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_plan(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        plan = _parse_plan(d.pop("plan", UNSET))

        def _parse_limits(data: object) -> None | TenantBodyLimits | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                limits_type_0 = TenantBodyLimits.from_dict(data)

                return limits_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TenantBodyLimits | Unset, data)

        limits = _parse_limits(d.pop("limits", UNSET))

        def _parse_settings(data: object) -> None | SettingsPatch | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                settings_type_1 = SettingsPatch.from_dict(data)

                return settings_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SettingsPatch | Unset, data)

        settings = _parse_settings(d.pop("settings", UNSET))

        tenant_body = cls(
            name=name,
            plan=plan,
            limits=limits,
            settings=settings,
        )

        return tenant_body

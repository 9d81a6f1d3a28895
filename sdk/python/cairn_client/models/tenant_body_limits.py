from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TenantBodyLimits")


@_attrs_define
class TenantBodyLimits:
    """The tenant's own limits, replacing its previous ones: requests_per_second, burst,
    key_requests_per_second, max_memories, max_storage_bytes, max_memories_per_user, max_memories_per_agent,
    max_storage_bytes_per_user, max_storage_bytes_per_agent, user_requests_per_second, agent_requests_per_second,
    max_metadata_bytes, max_batch,
    summaries_per_day, reenrich_per_day, consolidations_per_day, reembeds_per_day.

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_body_limits = cls()

        tenant_body_limits.additional_properties = d
        return tenant_body_limits

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

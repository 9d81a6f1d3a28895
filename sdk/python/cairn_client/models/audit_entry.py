from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.audit_entry_details import AuditEntryDetails


T = TypeVar("T", bound="AuditEntry")


@_attrs_define
class AuditEntry:
    """
    Example:
        {'action': 'key.revoke', 'actor': 'admin:ops@example.com', 'at': '2026-11-30T12:00:00Z', 'client_address':
            '203.0.113.7', 'details': {'prefix': 'k3v9x0p2q8r1'}, 'id': 42, 'request_id':
            '5e0f6c1a-8f1e-4f7e-9a51-0c1d2e3f4a5b', 'target': '0b8f3c1e-3f7a-4d0e-9d6b-2f1c7a9e5b40', 'tenant_id':
            '5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21'}

    Attributes:
        id (int):
        at (datetime.datetime):
        actor (str): Who: `admin:<email>`, `key:<id>`, `cli`, `system:<job>`, or `anonymous` (a failed login: the email
            it
            claimed is in `details`).
        action (str): What: `tenant.create`, `tenant.suspend`, `key.rotate`, `admin.login`, `admin.login_failed`,
            `settings.update`, `memory.purge`, `trash.empty`, `data.export`, `data.import`...
        details (AuditEntryDetails):
        tenant_id (None | Unset | UUID):
        target (None | str | Unset): The id acted on.
        client_address (None | str | Unset): The client's address, when a request caused it (a trusted proxy's
            `CAIRN_CLIENT_IP_HEADER`, else the peer).
        request_id (None | str | Unset): The request's `X-Request-Id` (also in the server's logs), when a request caused
            it.
    """

    id: int
    at: datetime.datetime
    actor: str
    action: str
    details: AuditEntryDetails
    tenant_id: None | Unset | UUID = UNSET
    target: None | str | Unset = UNSET
    client_address: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        at = self.at.isoformat()

        actor = self.actor

        action = self.action

        details = self.details.to_dict()

        tenant_id: None | str | Unset
        if isinstance(self.tenant_id, Unset):
            tenant_id = UNSET
        elif isinstance(self.tenant_id, UUID):
            tenant_id = str(self.tenant_id)
        else:
            tenant_id = self.tenant_id

        target: None | str | Unset
        if isinstance(self.target, Unset):
            target = UNSET
        else:
            target = self.target

        client_address: None | str | Unset
        if isinstance(self.client_address, Unset):
            client_address = UNSET
        else:
            client_address = self.client_address

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "at": at,
                "actor": actor,
                "action": action,
                "details": details,
            }
        )
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id
        if target is not UNSET:
            field_dict["target"] = target
        if client_address is not UNSET:
            field_dict["client_address"] = client_address
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_details import AuditEntryDetails  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        actor = d.pop("actor")

        action = d.pop("action")

        details = AuditEntryDetails.from_dict(d.pop("details"))

        def _parse_tenant_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tenant_id_type_0 = UUID(data)

                return tenant_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        tenant_id = _parse_tenant_id(d.pop("tenant_id", UNSET))

        def _parse_target(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        target = _parse_target(d.pop("target", UNSET))

        def _parse_client_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_address = _parse_client_address(d.pop("client_address", UNSET))

        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("request_id", UNSET))

        audit_entry = cls(
            id=id,
            at=at,
            actor=actor,
            action=action,
            details=details,
            tenant_id=tenant_id,
            target=target,
            client_address=client_address,
            request_id=request_id,
        )

        audit_entry.additional_properties = d
        return audit_entry

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

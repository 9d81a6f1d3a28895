from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Deleted")


@_attrs_define
class Deleted:
    """
    Example:
        {'deleted': True, 'hard': True, 'id': '0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10', 'purged': False, 'status':
            'success'}

    Attributes:
        status (str):
        id (UUID):
        deleted (bool):
        hard (bool): Whether the memory was deleted (true) or archived (false). A deleted memory is restorable for the
            tenant's undo window, then erased.
        purged (bool): Whether it was erased at once (`purge=true`): nothing of it remains, it cannot be restored.
    """

    status: str
    id: UUID
    deleted: bool
    hard: bool
    purged: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        id = str(self.id)

        deleted = self.deleted

        hard = self.hard

        purged = self.purged

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "id": id,
                "deleted": deleted,
                "hard": hard,
                "purged": purged,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        id = UUID(d.pop("id"))

        deleted = d.pop("deleted")

        hard = d.pop("hard")

        purged = d.pop("purged")

        deleted = cls(
            status=status,
            id=id,
            deleted=deleted,
            hard=hard,
            purged=purged,
        )

        deleted.additional_properties = d
        return deleted

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_identity import AdminIdentity


T = TypeVar("T", bound="TokenPair")


@_attrs_define
class TokenPair:
    """A session's tokens.

    Example:
        {'access_token': 'eyJhbGciOiJIUzI1NiIs...', 'admin': {'email': 'ops@example.com', 'id':
            '0b8f3c1e-3f7a-4d0e-9d6b-2f1c7a9e5b40'}, 'expires_in': 900, 'refresh_expires_in': 2592000, 'refresh_token':
            'crt_3kV9...', 'token_type': 'Bearer'}

    Attributes:
        access_token (str): A JWT (HS256) for `Authorization: Bearer` on `/admin/v1`.
        token_type (str): Always `Bearer`.
        expires_in (int): Seconds until the access token expires.
        refresh_token (str): Exchange it at `/admin/v1/refresh` for new tokens (once).
        refresh_expires_in (int):
        admin (AdminIdentity):
    """

    access_token: str
    token_type: str
    expires_in: int
    refresh_token: str
    refresh_expires_in: int
    admin: AdminIdentity
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        token_type = self.token_type

        expires_in = self.expires_in

        refresh_token = self.refresh_token

        refresh_expires_in = self.refresh_expires_in

        admin = self.admin.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "token_type": token_type,
                "expires_in": expires_in,
                "refresh_token": refresh_token,
                "refresh_expires_in": refresh_expires_in,
                "admin": admin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.admin_identity import AdminIdentity  # noqa: PLC0415

        d = dict(src_dict)
        access_token = d.pop("access_token")

        token_type = d.pop("token_type")

        expires_in = d.pop("expires_in")

        refresh_token = d.pop("refresh_token")

        refresh_expires_in = d.pop("refresh_expires_in")

        admin = AdminIdentity.from_dict(d.pop("admin"))

        token_pair = cls(
            access_token=access_token,
            token_type=token_type,
            expires_in=expires_in,
            refresh_token=refresh_token,
            refresh_expires_in=refresh_expires_in,
            admin=admin,
        )

        token_pair.additional_properties = d
        return token_pair

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

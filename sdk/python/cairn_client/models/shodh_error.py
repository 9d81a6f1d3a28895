from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shodh_error_details import ShodhErrorDetails


T = TypeVar("T", bound="ShodhError")


@_attrs_define
class ShodhError:
    """SHODH's `ErrorResponse`, with `success: false` and, for a duplicate, `existing_id`.

    Example:
        {'code': 'BAD_REQUEST', 'details': {'status': 400}, 'error': 'content: is required', 'success': False}

    Attributes:
        success (bool):
        error (str): What went wrong, naming the field.
        code (str): `BAD_REQUEST`, `UNAUTHORIZED`, `FORBIDDEN`, `NOT_FOUND`, `CONFLICT`, `PAYLOAD_TOO_LARGE`,
            `UNSUPPORTED_MEDIA_TYPE`, `SERVICE_UNAVAILABLE` or `INTERNAL_ERROR`.
        details (ShodhErrorDetails): `status`: the HTTP status.
        existing_id (None | Unset | UUID):
    """

    success: bool
    error: str
    code: str
    details: ShodhErrorDetails
    existing_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        error = self.error

        code = self.code

        details = self.details.to_dict()

        existing_id: None | str | Unset
        if isinstance(self.existing_id, Unset):
            existing_id = UNSET
        elif isinstance(self.existing_id, UUID):
            existing_id = str(self.existing_id)
        else:
            existing_id = self.existing_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "success": success,
                "error": error,
                "code": code,
                "details": details,
            }
        )
        if existing_id is not UNSET:
            field_dict["existing_id"] = existing_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shodh_error_details import ShodhErrorDetails  # noqa: PLC0415

        d = dict(src_dict)
        success = d.pop("success")

        error = d.pop("error")

        code = d.pop("code")

        details = ShodhErrorDetails.from_dict(d.pop("details"))

        def _parse_existing_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                existing_id_type_0 = UUID(data)

                return existing_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        existing_id = _parse_existing_id(d.pop("existing_id", UNSET))

        shodh_error = cls(
            success=success,
            error=error,
            code=code,
            details=details,
            existing_id=existing_id,
        )

        shodh_error.additional_properties = d
        return shodh_error

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """The error envelope returned by every route for every 4xx and 5xx.

    Example:
        {'code': 400, 'message': 'importance: must be between 0 and 1', 'status': 'error'}

    Attributes:
        status (str): Always `"error"`.
        code (int): The HTTP status code, repeated for clients that only see the body.
        message (str): What went wrong, naming the offending field where there is one.
        existing_id (None | Unset | UUID): On a 409 for duplicate content: the id of the memory that already holds it.
    """

    status: str
    code: int
    message: str
    existing_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        code = self.code

        message = self.message

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
                "status": status,
                "code": code,
                "message": message,
            }
        )
        if existing_id is not UNSET:
            field_dict["existing_id"] = existing_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        code = d.pop("code")

        message = d.pop("message")

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

        error_body = cls(
            status=status,
            code=code,
            message=message,
            existing_id=existing_id,
        )

        error_body.additional_properties = d
        return error_body

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

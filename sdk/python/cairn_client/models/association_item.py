from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.association import Association


T = TypeVar("T", bound="AssociationItem")


@_attrs_define
class AssociationItem:
    """One item's outcome in a batch.

    Attributes:
        index (int):
        status (str): `stored` or `error`.
        association (Association | None | Unset):
        code (int | None | Unset): The error's status code (400 invalid, 404 memory not found).
        message (None | str | Unset):
    """

    index: int
    status: str
    association: Association | None | Unset = UNSET
    code: int | None | Unset = UNSET
    message: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.association import Association  # noqa: PLC0415

        index = self.index

        status = self.status

        association: dict[str, Any] | None | Unset
        if isinstance(self.association, Unset):
            association = UNSET
        elif isinstance(self.association, Association):
            association = self.association.to_dict()
        else:
            association = self.association

        code: int | None | Unset
        if isinstance(self.code, Unset):
            code = UNSET
        else:
            code = self.code

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "status": status,
            }
        )
        if association is not UNSET:
            field_dict["association"] = association
        if code is not UNSET:
            field_dict["code"] = code
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.association import Association  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        status = d.pop("status")

        def _parse_association(data: object) -> Association | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                association_type_1 = Association.from_dict(data)

                return association_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Association | None | Unset, data)

        association = _parse_association(d.pop("association", UNSET))

        def _parse_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        code = _parse_code(d.pop("code", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        association_item = cls(
            index=index,
            status=status,
            association=association,
            code=code,
            message=message,
        )

        association_item.additional_properties = d
        return association_item

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

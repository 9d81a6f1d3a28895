from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateKey")


@_attrs_define
class RotateKey:
    """
    Example:
        {'grace_period_secs': 3600}

    Attributes:
        grace_period_secs (int | Unset): Seconds the old secret keeps working, 0..=2592000 (default 0: it stops at
            once).
    """

    grace_period_secs: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        grace_period_secs = self.grace_period_secs

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if grace_period_secs is not UNSET:
            field_dict["grace_period_secs"] = grace_period_secs

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grace_period_secs = d.pop("grace_period_secs", UNSET)

        rotate_key = cls(
            grace_period_secs=grace_period_secs,
        )

        return rotate_key

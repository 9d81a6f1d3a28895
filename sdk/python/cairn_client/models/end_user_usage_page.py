from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.end_user_usage import EndUserUsage


T = TypeVar("T", bound="EndUserUsagePage")


@_attrs_define
class EndUserUsagePage:
    """A page of end users, most memories (or requests) first.

    Attributes:
        group_by (str): `user_id` or `agent_id`.
        sort (str): `memories` or `requests`: the order of the page.
        end_users (list[EndUserUsage]):
        count (int):
        total (int): How many end users hold memories (`sort=memories`) or made requests in the window
            (`sort=requests`).
        limit (int):
        offset (int):
        has_more (bool):
        unattributed (EndUserUsage): One end user's (or agent's) share of what the tenant stores.
    """

    group_by: str
    sort: str
    end_users: list[EndUserUsage]
    count: int
    total: int
    limit: int
    offset: int
    has_more: bool
    unattributed: EndUserUsage
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        group_by = self.group_by

        sort = self.sort

        end_users = []
        for end_users_item_data in self.end_users:
            end_users_item = end_users_item_data.to_dict()
            end_users.append(end_users_item)

        count = self.count

        total = self.total

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        unattributed = self.unattributed.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "group_by": group_by,
                "sort": sort,
                "end_users": end_users,
                "count": count,
                "total": total,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
                "unattributed": unattributed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.end_user_usage import EndUserUsage  # noqa: PLC0415

        d = dict(src_dict)
        group_by = d.pop("group_by")

        sort = d.pop("sort")

        end_users = []
        _end_users = d.pop("end_users")
        for end_users_item_data in _end_users:
            end_users_item = EndUserUsage.from_dict(end_users_item_data)

            end_users.append(end_users_item)

        count = d.pop("count")

        total = d.pop("total")

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        unattributed = EndUserUsage.from_dict(d.pop("unattributed"))

        end_user_usage_page = cls(
            group_by=group_by,
            sort=sort,
            end_users=end_users,
            count=count,
            total=total,
            limit=limit,
            offset=offset,
            has_more=has_more,
            unattributed=unattributed,
        )

        end_user_usage_page.additional_properties = d
        return end_user_usage_page

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndUserUsage")


@_attrs_define
class EndUserUsage:
    """One end user's (or agent's) share of what the tenant stores.

    Attributes:
        memories (int): Memories it holds now (archived ones included).
        storage_bytes (int): Bytes of those memories' content and metadata (the tenant's `storage_bytes` also counts
            history,
            trash, associations and entities).
        stored_in_window (int): Of those, the ones stored in the window (`from`..=`to`).
        requests (int): Requests that stored, listed or recalled for it in the window (0 in `unattributed`).
        recalls (int): Of those, recalls.
        end_user (None | str | Unset): The `user_id` (or `agent_id`); null in `unattributed`.
        last_stored_at (datetime.datetime | None | Unset):
    """

    memories: int
    storage_bytes: int
    stored_in_window: int
    requests: int
    recalls: int
    end_user: None | str | Unset = UNSET
    last_stored_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = self.memories

        storage_bytes = self.storage_bytes

        stored_in_window = self.stored_in_window

        requests = self.requests

        recalls = self.recalls

        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user

        last_stored_at: None | str | Unset
        if isinstance(self.last_stored_at, Unset):
            last_stored_at = UNSET
        elif isinstance(self.last_stored_at, datetime.datetime):
            last_stored_at = self.last_stored_at.isoformat()
        else:
            last_stored_at = self.last_stored_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
                "storage_bytes": storage_bytes,
                "stored_in_window": stored_in_window,
                "requests": requests,
                "recalls": recalls,
            }
        )
        if end_user is not UNSET:
            field_dict["end_user"] = end_user
        if last_stored_at is not UNSET:
            field_dict["last_stored_at"] = last_stored_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        memories = d.pop("memories")

        storage_bytes = d.pop("storage_bytes")

        stored_in_window = d.pop("stored_in_window")

        requests = d.pop("requests")

        recalls = d.pop("recalls")

        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))

        def _parse_last_stored_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_stored_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_stored_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_stored_at = _parse_last_stored_at(d.pop("last_stored_at", UNSET))

        end_user_usage = cls(
            memories=memories,
            storage_bytes=storage_bytes,
            stored_in_window=stored_in_window,
            requests=requests,
            recalls=recalls,
            end_user=end_user,
            last_stored_at=last_stored_at,
        )

        end_user_usage.additional_properties = d
        return end_user_usage

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

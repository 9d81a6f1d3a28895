from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_scope import ActorScope
    from ..models.memory_event_after import MemoryEventAfter
    from ..models.memory_event_before import MemoryEventBefore


T = TypeVar("T", bound="MemoryEvent")


@_attrs_define
class MemoryEvent:
    """One change to a memory.

    Attributes:
        id (int): Increases with every event of the tenant.
        memory_id (UUID):
        event_type (str): created, updated, deleted, archived, promoted, superseded, decayed, restored or forgotten.
        actor (str): The API key id (`key:<uuid>`) or background job (`system:<job>`) that made the change.
        created_at (datetime.datetime):
        actor_scope (ActorScope | None | Unset):
        before (MemoryEventBefore | None | Unset): The memory before the change (absent for `created`).
        after (MemoryEventAfter | None | Unset): The memory after the change (absent for `deleted`).
    """

    id: int
    memory_id: UUID
    event_type: str
    actor: str
    created_at: datetime.datetime
    actor_scope: ActorScope | None | Unset = UNSET
    before: MemoryEventBefore | None | Unset = UNSET
    after: MemoryEventAfter | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.actor_scope import ActorScope  # noqa: PLC0415
        from ..models.memory_event_after import MemoryEventAfter  # noqa: PLC0415
        from ..models.memory_event_before import MemoryEventBefore  # noqa: PLC0415

        id = self.id

        memory_id = str(self.memory_id)

        event_type = self.event_type

        actor = self.actor

        created_at = self.created_at.isoformat()

        actor_scope: dict[str, Any] | None | Unset
        if isinstance(self.actor_scope, Unset):
            actor_scope = UNSET
        elif isinstance(self.actor_scope, ActorScope):
            actor_scope = self.actor_scope.to_dict()
        else:
            actor_scope = self.actor_scope

        before: dict[str, Any] | None | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        elif isinstance(self.before, MemoryEventBefore):
            before = self.before.to_dict()
        else:
            before = self.before

        after: dict[str, Any] | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        elif isinstance(self.after, MemoryEventAfter):
            after = self.after.to_dict()
        else:
            after = self.after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "memory_id": memory_id,
                "event_type": event_type,
                "actor": actor,
                "created_at": created_at,
            }
        )
        if actor_scope is not UNSET:
            field_dict["actor_scope"] = actor_scope
        if before is not UNSET:
            field_dict["before"] = before
        if after is not UNSET:
            field_dict["after"] = after

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.actor_scope import ActorScope  # noqa: PLC0415
        from ..models.memory_event_after import MemoryEventAfter  # noqa: PLC0415
        from ..models.memory_event_before import MemoryEventBefore  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        memory_id = UUID(d.pop("memory_id"))

        event_type = d.pop("event_type")

        actor = d.pop("actor")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_actor_scope(data: object) -> ActorScope | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                actor_scope_type_1 = ActorScope.from_dict(data)

                return actor_scope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ActorScope | None | Unset, data)

        actor_scope = _parse_actor_scope(d.pop("actor_scope", UNSET))

        def _parse_before(data: object) -> MemoryEventBefore | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                before_type_0 = MemoryEventBefore.from_dict(data)

                return before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryEventBefore | None | Unset, data)

        before = _parse_before(d.pop("before", UNSET))

        def _parse_after(data: object) -> MemoryEventAfter | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                after_type_0 = MemoryEventAfter.from_dict(data)

                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoryEventAfter | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))

        memory_event = cls(
            id=id,
            memory_id=memory_id,
            event_type=event_type,
            actor=actor,
            created_at=created_at,
            actor_scope=actor_scope,
            before=before,
            after=after,
        )

        memory_event.additional_properties = d
        return memory_event

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

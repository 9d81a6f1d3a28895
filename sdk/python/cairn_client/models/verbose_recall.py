from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verbose_entity import VerboseEntity


T = TypeVar("T", bound="VerboseRecall")


@_attrs_define
class VerboseRecall:
    """The verbose shape.

    Attributes:
        query (str):
        total_memories (int): Distinct memories returned.
        entities (list[VerboseEntity]):
        search_mode (str): The search mode used (`keyword` while the model is not ready for a hybrid request).
        notice (None | str | Unset):
    """

    query: str
    total_memories: int
    entities: list[VerboseEntity]
    search_mode: str
    notice: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        total_memories = self.total_memories

        entities = []
        for entities_item_data in self.entities:
            entities_item = entities_item_data.to_dict()
            entities.append(entities_item)

        search_mode = self.search_mode

        notice: None | str | Unset
        if isinstance(self.notice, Unset):
            notice = UNSET
        else:
            notice = self.notice

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "query": query,
                "totalMemories": total_memories,
                "entities": entities,
                "searchMode": search_mode,
            }
        )
        if notice is not UNSET:
            field_dict["notice"] = notice

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verbose_entity import VerboseEntity  # noqa: PLC0415

        d = dict(src_dict)
        query = d.pop("query")

        total_memories = d.pop("totalMemories")

        entities = []
        _entities = d.pop("entities")
        for entities_item_data in _entities:
            entities_item = VerboseEntity.from_dict(entities_item_data)

            entities.append(entities_item)

        search_mode = d.pop("searchMode")

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        verbose_recall = cls(
            query=query,
            total_memories=total_memories,
            entities=entities,
            search_mode=search_mode,
            notice=notice,
        )

        verbose_recall.additional_properties = d
        return verbose_recall

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

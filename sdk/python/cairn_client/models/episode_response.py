from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.episode_edge import EpisodeEdge
    from ..models.memory import Memory


T = TypeVar("T", bound="EpisodeResponse")


@_attrs_define
class EpisodeResponse:
    """
    Attributes:
        episode_id (str):
        total (int): Memories in the episode.
        count (int):
        has_more (bool):
        memories (list[Memory]): In `sequence_number` order (then time).
        edges (list[EpisodeEdge]): Each memory PRECEDED_BY the one before it on this page.
    """

    episode_id: str
    total: int
    count: int
    has_more: bool
    memories: list[Memory]
    edges: list[EpisodeEdge]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        episode_id = self.episode_id

        total = self.total

        count = self.count

        has_more = self.has_more

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        edges = []
        for edges_item_data in self.edges:
            edges_item = edges_item_data.to_dict()
            edges.append(edges_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "episode_id": episode_id,
                "total": total,
                "count": count,
                "has_more": has_more,
                "memories": memories,
                "edges": edges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.episode_edge import EpisodeEdge  # noqa: PLC0415
        from ..models.memory import Memory  # noqa: PLC0415

        d = dict(src_dict)
        episode_id = d.pop("episode_id")

        total = d.pop("total")

        count = d.pop("count")

        has_more = d.pop("has_more")

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = Memory.from_dict(memories_item_data)

            memories.append(memories_item)

        edges = []
        _edges = d.pop("edges")
        for edges_item_data in _edges:
            edges_item = EpisodeEdge.from_dict(edges_item_data)

            edges.append(edges_item)

        episode_response = cls(
            episode_id=episode_id,
            total=total,
            count=count,
            has_more=has_more,
            memories=memories,
            edges=edges,
        )

        episode_response.additional_properties = d
        return episode_response

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

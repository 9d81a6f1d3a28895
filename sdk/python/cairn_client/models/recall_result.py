from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.auto_mem_memory import AutoMemMemory
    from ..models.score_components import ScoreComponents


T = TypeVar("T", bound="RecallResult")


@_attrs_define
class RecallResult:
    """One AutoMem recall result.

    Attributes:
        id (UUID):
        memory (AutoMemMemory): A memory as AutoMem shows it: every native field, plus `timestamp` and `last_accessed`.
        score (float):
        match_type (str):
        score_components (ScoreComponents): Why a recall result scored as it did.
    """

    id: UUID
    memory: AutoMemMemory
    score: float
    match_type: str
    score_components: ScoreComponents
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        memory = self.memory.to_dict()

        score = self.score

        match_type = self.match_type

        score_components = self.score_components.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "memory": memory,
                "score": score,
                "match_type": match_type,
                "score_components": score_components,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.auto_mem_memory import AutoMemMemory  # noqa: PLC0415
        from ..models.score_components import ScoreComponents  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        memory = AutoMemMemory.from_dict(d.pop("memory"))

        score = d.pop("score")

        match_type = d.pop("match_type")

        score_components = ScoreComponents.from_dict(d.pop("score_components"))

        recall_result = cls(
            id=id,
            memory=memory,
            score=score,
            match_type=match_type,
            score_components=score_components,
        )

        recall_result.additional_properties = d
        return recall_result

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

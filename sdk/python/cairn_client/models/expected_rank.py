from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.score_components import ScoreComponents


T = TypeVar("T", bound="ExpectedRank")


@_attrs_define
class ExpectedRank:
    """Where one expected memory came in a probe's ranking.

    Attributes:
        id (UUID):
        rank (int | None | Unset): 1-based rank among the first 100 results; null when it is not among them.
        score (float | None | Unset):
        score_components (None | ScoreComponents | Unset):
    """

    id: UUID
    rank: int | None | Unset = UNSET
    score: float | None | Unset = UNSET
    score_components: None | ScoreComponents | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.score_components import ScoreComponents  # noqa: PLC0415

        id = str(self.id)

        rank: int | None | Unset
        if isinstance(self.rank, Unset):
            rank = UNSET
        else:
            rank = self.rank

        score: float | None | Unset
        if isinstance(self.score, Unset):
            score = UNSET
        else:
            score = self.score

        score_components: dict[str, Any] | None | Unset
        if isinstance(self.score_components, Unset):
            score_components = UNSET
        elif isinstance(self.score_components, ScoreComponents):
            score_components = self.score_components.to_dict()
        else:
            score_components = self.score_components

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if rank is not UNSET:
            field_dict["rank"] = rank
        if score is not UNSET:
            field_dict["score"] = score
        if score_components is not UNSET:
            field_dict["score_components"] = score_components

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.score_components import ScoreComponents  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rank = _parse_rank(d.pop("rank", UNSET))

        def _parse_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score = _parse_score(d.pop("score", UNSET))

        def _parse_score_components(data: object) -> None | ScoreComponents | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                score_components_type_1 = ScoreComponents.from_dict(data)

                return score_components_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScoreComponents | Unset, data)

        score_components = _parse_score_components(d.pop("score_components", UNSET))

        expected_rank = cls(
            id=id,
            rank=rank,
            score=score,
            score_components=score_components,
        )

        expected_rank.additional_properties = d
        return expected_rank

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

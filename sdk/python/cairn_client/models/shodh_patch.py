from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shodh_patch_metadata import ShodhPatchMetadata


T = TypeVar("T", bound="ShodhPatch")


@_attrs_define
class ShodhPatch:
    """SHODH's update: tags, classification, metadata, quality score; never content.

    Example:
        {'memory_type': 'Learning', 'metadata': {'reviewed_by': 'ana'}, 'tags': ['auth', 'reviewed']}

    Attributes:
        tags (list[str] | None | Unset):
        memory_type (None | str | Unset): The classification (SHODH's MemoryType: Observation, Decision, Learning...).
        metadata (None | ShodhPatchMetadata | Unset): Replaces the stored metadata.
        quality_score (float | None | Unset): 0..=1; `null` clears it.
    """

    tags: list[str] | None | Unset = UNSET
    memory_type: None | str | Unset = UNSET
    metadata: None | ShodhPatchMetadata | Unset = UNSET
    quality_score: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.shodh_patch_metadata import ShodhPatchMetadata  # noqa: PLC0415

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        memory_type: None | str | Unset
        if isinstance(self.memory_type, Unset):
            memory_type = UNSET
        else:
            memory_type = self.memory_type

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ShodhPatchMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        quality_score: float | None | Unset
        if isinstance(self.quality_score, Unset):
            quality_score = UNSET
        else:
            quality_score = self.quality_score

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if tags is not UNSET:
            field_dict["tags"] = tags
        if memory_type is not UNSET:
            field_dict["memory_type"] = memory_type
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if quality_score is not UNSET:
            field_dict["quality_score"] = quality_score

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shodh_patch_metadata import ShodhPatchMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        def _parse_memory_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memory_type = _parse_memory_type(d.pop("memory_type", UNSET))

        def _parse_metadata(data: object) -> None | ShodhPatchMetadata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ShodhPatchMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShodhPatchMetadata | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_quality_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality_score = _parse_quality_score(d.pop("quality_score", UNSET))

        shodh_patch = cls(
            tags=tags,
            memory_type=memory_type,
            metadata=metadata,
            quality_score=quality_score,
        )

        return shodh_patch

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.import_result_errors_item import ImportResultErrorsItem
    from ..models.import_result_inserted import ImportResultInserted
    from ..models.import_result_skipped import ImportResultSkipped


T = TypeVar("T", bound="ImportResult")


@_attrs_define
class ImportResult:
    """What an import did.

    Example:
        {'batches': 3, 'errors': [], 'failed_batches': 0, 'inserted': {'memories': 1000, 'memory_events': 180,
            'relations': 22}, 'lines': 1203, 'skipped': {'memories': 0}}

    Attributes:
        lines (int): Lines read (the header included).
        batches (int): Batches of up to 500 lines, each written all or nothing.
        failed_batches (int):
        inserted (ImportResultInserted): Rows written per table.
        skipped (ImportResultSkipped): Rows already present (same id, or a memory with the same content) per table.
        errors (list[ImportResultErrorsItem]): Each failed batch: its first and last line and why nothing of it was
            written.
    """

    lines: int
    batches: int
    failed_batches: int
    inserted: ImportResultInserted
    skipped: ImportResultSkipped
    errors: list[ImportResultErrorsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lines = self.lines

        batches = self.batches

        failed_batches = self.failed_batches

        inserted = self.inserted.to_dict()

        skipped = self.skipped.to_dict()

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lines": lines,
                "batches": batches,
                "failed_batches": failed_batches,
                "inserted": inserted,
                "skipped": skipped,
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.import_result_errors_item import ImportResultErrorsItem  # noqa: PLC0415
        from ..models.import_result_inserted import ImportResultInserted  # noqa: PLC0415
        from ..models.import_result_skipped import ImportResultSkipped  # noqa: PLC0415

        d = dict(src_dict)
        lines = d.pop("lines")

        batches = d.pop("batches")

        failed_batches = d.pop("failed_batches")

        inserted = ImportResultInserted.from_dict(d.pop("inserted"))

        skipped = ImportResultSkipped.from_dict(d.pop("skipped"))

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = ImportResultErrorsItem.from_dict(errors_item_data)

            errors.append(errors_item)

        import_result = cls(
            lines=lines,
            batches=batches,
            failed_batches=failed_batches,
            inserted=inserted,
            skipped=skipped,
            errors=errors,
        )

        import_result.additional_properties = d
        return import_result

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.eval_params_mode import EvalParamsMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.eval_params_probes_type_0_item import EvalParamsProbesType0Item


T = TypeVar("T", bound="EvalParams")


@_attrs_define
class EvalParams:
    """A quality report asked for: probes sent with the request, or a stored probe set by name.

    Example:
        {'k': 10, 'probes': [{'expected': ['0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10'], 'query': 'which database did we
            choose?'}]}

    Attributes:
        k (int | None | Unset): The cut-off of recall@k and hit@k, 1..=100 (default 10; a probe set's own when it runs
            one).
        mode (EvalParamsMode | Unset): The recall mode probed (default hybrid; a probe set's own when it runs one).
        probe_set (None | str | Unset): Run this stored probe set (`PUT /api/v1/eval/probe-sets/{name}`) instead.
        probes (list[EvalParamsProbesType0Item] | None | Unset): The probes (1..=50); or leave out and name `probe_set`.
    """

    k: int | None | Unset = UNSET
    mode: EvalParamsMode | Unset = UNSET
    probe_set: None | str | Unset = UNSET
    probes: list[EvalParamsProbesType0Item] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        k: int | None | Unset
        if isinstance(self.k, Unset):
            k = UNSET
        else:
            k = self.k

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        probe_set: None | str | Unset
        if isinstance(self.probe_set, Unset):
            probe_set = UNSET
        else:
            probe_set = self.probe_set

        probes: list[dict[str, Any]] | None | Unset
        if isinstance(self.probes, Unset):
            probes = UNSET
        elif isinstance(self.probes, list):
            probes = []
            for probes_type_0_item_data in self.probes:
                probes_type_0_item = probes_type_0_item_data.to_dict()
                probes.append(probes_type_0_item)

        else:
            probes = self.probes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if k is not UNSET:
            field_dict["k"] = k
        if mode is not UNSET:
            field_dict["mode"] = mode
        if probe_set is not UNSET:
            field_dict["probe_set"] = probe_set
        if probes is not UNSET:
            field_dict["probes"] = probes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eval_params_probes_type_0_item import EvalParamsProbesType0Item  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_k(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        k = _parse_k(d.pop("k", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: EvalParamsMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = EvalParamsMode(_mode)

        def _parse_probe_set(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        probe_set = _parse_probe_set(d.pop("probe_set", UNSET))

        def _parse_probes(data: object) -> list[EvalParamsProbesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                probes_type_0 = []
                _probes_type_0 = data
                for probes_type_0_item_data in _probes_type_0:
                    probes_type_0_item = EvalParamsProbesType0Item.from_dict(probes_type_0_item_data)

                    probes_type_0.append(probes_type_0_item)

                return probes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[EvalParamsProbesType0Item] | None | Unset, data)

        probes = _parse_probes(d.pop("probes", UNSET))

        eval_params = cls(
            k=k,
            mode=mode,
            probe_set=probe_set,
            probes=probes,
        )

        eval_params.additional_properties = d
        return eval_params

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

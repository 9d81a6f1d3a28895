from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """Service health, for every surface's health route.

    Example:
        {'database': 'ok', 'embedder': 'ready', 'falkordb': 'connected', 'qdrant': 'connected', 'status': 'healthy',
            'timestamp': '2026-11-30T10:00:00Z', 'uptime_seconds': 42, 'version': '0.1.0'}

    Attributes:
        status (str): `healthy`, or `degraded` when the database does not answer (AutoMem's and SHODH's vocabulary).
        database (str): `ok` or `unreachable`.
        embedder (str): The embedding model: `ready`, `loading`, `failed` or `disabled` (none configured; keyword recall
            only).
        version (str):
        uptime_seconds (int):
        timestamp (datetime.datetime):
        falkordb (str): AutoMem's graph store: Cairn's graph lives in Postgres, so `connected` when Postgres answers,
            else
            `disconnected`.
        qdrant (str): AutoMem's vector store: Cairn's vectors live in Postgres (pgvector), so `connected` when Postgres
            answers, else `disconnected`.
    """

    status: str
    database: str
    embedder: str
    version: str
    uptime_seconds: int
    timestamp: datetime.datetime
    falkordb: str
    qdrant: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        database = self.database

        embedder = self.embedder

        version = self.version

        uptime_seconds = self.uptime_seconds

        timestamp = self.timestamp.isoformat()

        falkordb = self.falkordb

        qdrant = self.qdrant

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "database": database,
                "embedder": embedder,
                "version": version,
                "uptime_seconds": uptime_seconds,
                "timestamp": timestamp,
                "falkordb": falkordb,
                "qdrant": qdrant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = d.pop("status")

        database = d.pop("database")

        embedder = d.pop("embedder")

        version = d.pop("version")

        uptime_seconds = d.pop("uptime_seconds")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        falkordb = d.pop("falkordb")

        qdrant = d.pop("qdrant")

        health = cls(
            status=status,
            database=database,
            embedder=embedder,
            version=version,
            uptime_seconds=uptime_seconds,
            timestamp=timestamp,
            falkordb=falkordb,
            qdrant=qdrant,
        )

        health.additional_properties = d
        return health

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

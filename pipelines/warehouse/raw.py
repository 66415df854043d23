"""Append API payloads to raw.payloads, as fetched."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import duckdb
from pydantic import BaseModel

from ._staging import INT, JSON, STR, TS, drop, require_aware, stage, to_json

Payload = Mapping[str, Any]


def payloads_of(models: Sequence[BaseModel], payloads: Sequence[Payload] | None) -> list[Payload]:
    """The payloads as received when the caller has them, else the models dumped as JSON."""
    if payloads is not None:
        return list(payloads)
    return [m.model_dump(mode="json", by_alias=True) for m in models]


def append_raw(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
               payloads: Sequence[Payload], *, run_id: str, fetched_at: datetime) -> int:
    """Append one raw.payloads row per payload; the caller holds the transaction."""
    require_aware(fetched_at, "fetched_at")
    rows = [{
        "property_id": property_id,
        "stream": stream,
        "entity_id": p.get("id") if isinstance(p.get("id"), int) else None,
        "payload": to_json(p),
        "fetched_at": fetched_at,
        "run_id": run_id,
    } for p in payloads]
    if not rows:
        return 0
    stage(conn, "_stg_raw", {"property_id": INT, "stream": STR, "entity_id": INT,
                             "payload": JSON, "fetched_at": TS, "run_id": STR}, rows)
    conn.execute("INSERT INTO raw.payloads BY NAME SELECT * FROM _stg_raw")
    drop(conn, "_stg_raw")
    return len(rows)

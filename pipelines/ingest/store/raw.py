"""Append API payloads to raw.payloads, as fetched."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import duckdb
from pydantic import BaseModel

from pipelines.warehouse import INT, JSON, STR, TS, frame_of, insert_frame, require_aware

Payload = Mapping[str, Any]


def payloads_of(models: Sequence[BaseModel],
                payloads: Sequence[Payload] | None) -> list[Payload | str]:
    """The payloads as received when the caller has them, else the models as JSON text."""
    if payloads is not None:
        return list(payloads)
    return [m.model_dump_json(by_alias=True) for m in models]


def append_raw(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
               payloads: Sequence[Payload | str], *, run_id: str, fetched_at: datetime) -> int:
    """Append one raw.payloads row per payload (a JSON object, or its text); the caller holds
    the transaction. The entity id is the payload's `id`, read by DuckDB."""
    require_aware(fetched_at, "fetched_at")
    rows = [{
        "property_id": property_id,
        "stream": stream,
        "payload": p if isinstance(p, str) else json.dumps(p, ensure_ascii=False, default=str),
        "fetched_at": fetched_at,
        "run_id": run_id,
    } for p in payloads]
    if not rows:
        return 0
    frame = frame_of({"property_id": INT, "stream": STR, "payload": JSON, "fetched_at": TS,
                      "run_id": STR}, rows)
    return insert_frame(conn, "raw.payloads", frame,
                        "TRY_CAST(json_extract_string(payload, '$.id') AS BIGINT) AS entity_id")

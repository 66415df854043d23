"""Quarantine: records of the API that do not match the model, kept aside with their error
while the rest of their stream lands (docs/ingestion.md, "Quarantine"; table meta.quarantine).

`quarantine_records` keeps (or refreshes) a record, `release_records` marks records landed
valid. Both join the caller's transaction, so a record leaves quarantine in the same commit
as it lands.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb

from pipelines.warehouse import require_aware, transaction


@dataclass(frozen=True)
class Quarantined:
    """One record that did not validate."""

    record_id: int | None
    payload: Any
    error: str
    """The message naming the request and the field."""
    field: str

    @property
    def payload_text(self) -> str:
        return json.dumps(self.payload, ensure_ascii=False, default=str, sort_keys=True)

    @property
    def key(self) -> str:
        """The id as text, or the payload's hash when it has no usable id."""
        if self.record_id is not None:
            return str(self.record_id)
        return "sha256:" + hashlib.sha256(self.payload_text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class OpenRecord:
    """A record in quarantine now."""

    record_id: int | None
    error: str


_UPSERT = """
INSERT INTO meta.quarantine AS q (property_id, stream, record_key, record_id, payload, error,
    field, quarantined_at, quarantined_run_id, last_tried_at, last_run_id, tries)
VALUES ($p, $s, $key, $id, $payload, $error, $field, $at, $run, $at, $run, 1)
ON CONFLICT (property_id, stream, record_key) DO UPDATE SET
    record_id = excluded.record_id, payload = excluded.payload, error = excluded.error,
    field = excluded.field,
    quarantined_at = CASE WHEN q.released_at IS NULL THEN q.quarantined_at
                          ELSE excluded.quarantined_at END,
    quarantined_run_id = CASE WHEN q.released_at IS NULL THEN q.quarantined_run_id
                              ELSE excluded.quarantined_run_id END,
    tries = CASE WHEN q.released_at IS NULL THEN q.tries + 1 ELSE 1 END,
    last_tried_at = excluded.last_tried_at, last_run_id = excluded.last_run_id,
    released_at = NULL, released_run_id = NULL
"""


def quarantine_records(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
                       records: Iterable[Quarantined], *, run_id: str, at: datetime) -> int:
    """Keep each record in quarantine (the last one met of each key wins); return how many.

    A record already open keeps its first quarantine time and counts one more try; one
    released before is reopened."""
    require_aware(at, "at")
    latest = {r.key: r for r in records}
    with transaction(conn):
        for key, record in latest.items():
            conn.execute(_UPSERT, {"p": property_id, "s": stream, "key": key,
                                   "id": record.record_id, "payload": record.payload_text,
                                   "error": record.error, "field": record.field, "at": at,
                                   "run": run_id})
    return len(latest)


def release_records(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
                    record_ids: Sequence[int], *, run_id: str, at: datetime) -> int:
    """Release the open records of these ids (they validated and landed); return how many."""
    require_aware(at, "at")
    if not record_ids:
        return 0
    with transaction(conn):
        row = conn.execute(
            "UPDATE meta.quarantine SET released_at = $at, released_run_id = $run, "
            "last_tried_at = $at, last_run_id = $run "
            "WHERE property_id = $p AND stream = $s AND released_at IS NULL "
            "AND list_contains($ids, record_id) RETURNING record_key",
            {"at": at, "run": run_id, "p": property_id, "s": stream,
             "ids": list(record_ids)}).fetchall()
    return len(row)


def open_records(conn: duckdb.DuckDBPyConnection, property_id: int | None = None,
                 stream: str | None = None) -> list[OpenRecord]:
    """The records in quarantine now (of one property and stream when given), by key."""
    rows = conn.execute(
        "SELECT record_id, error FROM meta.quarantine WHERE released_at IS NULL "
        "AND ($p IS NULL OR property_id = $p) AND ($s IS NULL OR stream = $s) "
        "ORDER BY property_id, stream, record_id NULLS LAST, record_key",
        {"p": property_id, "s": stream}).fetchall()
    return [OpenRecord(None if i is None else int(i), str(e)) for i, e in rows]

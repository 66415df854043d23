"""meta.folio_reads (when each reservation's folios were last read, PMS clock) and
meta.folio_classes (the folio reads of each run by class): the bookkeeping of the folio
re-read policy (docs/ingestion.md, Folios)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import duckdb

from pipelines.warehouse import require_aware


@dataclass(frozen=True)
class FolioClassCost:
    klass: str
    reservations: int
    candidates: int
    calls: int


def record_folio_reads(conn: duckdb.DuckDBPyConnection, property_id: int,
                       reservation_ids: Sequence[int], *, klass: str, read_at: datetime,
                       run_id: str) -> None:
    """The folios of these reservations were read at `read_at` (call it in the landing's
    transaction)."""
    if not reservation_ids:
        return
    conn.execute(
        "INSERT OR REPLACE INTO meta.folio_reads (property_id, reservation_id, read_at, class, "
        "run_id) SELECT ?, unnest(?::BIGINT[]), ?, ?, ?",
        [property_id, list(reservation_ids), require_aware(read_at, "read_at"), klass, run_id])


def last_folio_reads(conn: duckdb.DuckDBPyConnection, property_id: int,
                     ) -> dict[int, datetime]:
    """reservation id -> when its folios were last read."""
    return {int(r): at for r, at in conn.execute(
        "SELECT reservation_id, read_at FROM meta.folio_reads WHERE property_id = ?",
        [property_id]).fetchall()}


def last_folio_run_time(conn: duckdb.DuckDBPyConnection, property_id: int) -> datetime | None:
    """The PMS clock of the last run of the folios stream that completed (None: none yet)."""
    row = conn.execute("SELECT max(server_time) FROM meta.folio_classes WHERE property_id = ?",
                       [property_id]).fetchone()
    return None if row is None else row[0]


def record_folio_classes(conn: duckdb.DuckDBPyConnection, property_id: int,
                         costs: Sequence[FolioClassCost], *, server_time: datetime,
                         run_id: str) -> None:
    """One row per class of this run (call it in the transaction of the run's last landing)."""
    conn.executemany(
        "INSERT OR REPLACE INTO meta.folio_classes (run_id, property_id, class, reservations, "
        "candidates, calls, server_time) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [[run_id, property_id, c.klass, c.reservations, c.candidates, c.calls,
          require_aware(server_time, "server_time")] for c in costs])


def forget_folio_reads(conn: duckdb.DuckDBPyConnection, property_id: int,
                       reservation_ids: Sequence[int]) -> None:
    """Their folios changed through us (a post): the next sync's sweep reads them first,
    as if never read (docs/ingestion.md, Folios)."""
    if reservation_ids:
        conn.execute("DELETE FROM meta.folio_reads WHERE property_id = ? AND "
                     "reservation_id IN (SELECT unnest(?::BIGINT[]))",
                     [property_id, list(reservation_ids)])

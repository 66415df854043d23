"""Backlog mode: reconcile a long stretch of history (`pmsw reconcile --from --to --backlog`)
in chunks of business dates, one run per chunk, resumable after a kill.

Each chunk is one ordinary run (its results written in one transaction at its end), so a
kill loses at most the chunk under way. A chunk that already has a run of the same property,
mode and dates is skipped (unless `redo`), so starting the same backlog again carries on
where it stopped; apply runs are safe to repeat anyway (the Idempotency-Keys). The summary
adds up the runs of every chunk, skipped ones included (read back from recon.runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from pipelines.api import PmsClient
from pipelines.ingest.store import property_row
from pipelines.recon.logic import STATUSES, RulesConfig
from pipelines.recon.run import (
    Mode,
    ReconReport,
    closed_dates,
    run_reconciliation,
)
from pipelines.warehouse import writer


@dataclass
class BacklogReport:
    property_code: str
    mode: Mode
    first: date
    last: date
    chunks: list[tuple[date, date]]
    run: list[int] = field(default_factory=list)
    """Run ids written by this call."""
    skipped: list[int] = field(default_factory=list)
    """Run ids of chunks done before (by an earlier, perhaps killed, backlog)."""
    summary: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per status (count, cents) over every chunk's run."""
    posts: int = 0


def chunks_of(first: date, last: date, days: int) -> list[tuple[date, date]]:
    """[first, last] cut into consecutive chunks of `days` business dates (the last shorter)."""
    if days < 1:
        raise ValueError("chunk days must be at least 1")
    out = []
    start = first
    while start <= last:
        end = min(start + timedelta(days=days - 1), last)
        out.append((start, end))
        start = end + timedelta(days=1)
    return out


def _done_runs(warehouse: str | Path, property_id: int, mode: Mode
               ) -> dict[tuple[date, date], int]:
    with writer(warehouse, publish=False) as conn:
        rows = conn.execute("SELECT first_date, last_date, max(run_id) FROM recon.runs "
                            "WHERE property_id = ? AND mode = ? GROUP BY 1, 2",
                            [property_id, mode.value]).fetchall()
    return {(r[0], r[1]): int(r[2]) for r in rows}


def _run_summary(warehouse: str | Path, run_id: int) -> dict[str, tuple[int, int]]:
    columns = ", ".join(f"{s}_count, {s}_amount" for s in STATUSES)
    with writer(warehouse, publish=False) as conn:
        row = conn.execute(f"SELECT {columns} FROM recon.runs WHERE run_id = ?",
                           [run_id]).fetchone()
    assert row is not None
    return {s: (int(row[2 * i]), int(row[2 * i + 1] * 100))
            for i, s in enumerate(STATUSES)}


def run_backlog(warehouse: str | Path, rules: RulesConfig, *, first: date, last: date,
                mode: Mode = Mode.DRY_RUN, property_ref: int | str | None = None,
                client: PmsClient | None = None, chunk_days: int = 7, redo: bool = False,
                on_chunk: Callable[[tuple[date, date], ReconReport | None], None]
                | None = None) -> BacklogReport:
    """Reconcile [first, last] chunk by chunk; `on_chunk(chunk, report or None if skipped)`
    after each (the progress bar)."""
    with writer(warehouse, publish=False) as conn:
        pid, code, business_date = property_row(conn, property_ref)
    first, last = closed_dates(business_date, first, last)
    chunks = chunks_of(first, last, chunk_days)
    done = {} if redo else _done_runs(warehouse, pid, mode)
    out = BacklogReport(code, mode, first, last, chunks,
                        summary=dict.fromkeys(STATUSES, (0, 0)))
    for chunk in chunks:
        if chunk in done:
            out.skipped.append(done[chunk])
            figures = _run_summary(warehouse, done[chunk])
            report = None
        else:
            report = run_reconciliation(warehouse, rules, mode=mode, first=chunk[0],
                                        last=chunk[1], property_ref=pid, client=client)
            out.run.append(report.run_id)
            figures = report.summary
            out.posts += report.apply.posts if report.apply is not None else 0
        for status, (n, cents) in figures.items():
            had = out.summary[status]
            out.summary[status] = (had[0] + n, had[1] + cents)
        if on_chunk is not None:
            on_chunk(chunk, report)
    return out

"""The reconciliation as the reliability tests drive it: one apply of one business date, and
what the PMS holds afterwards (read from the sandbox's own database, the ground truth)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipelines.api import RetryPolicy
from pipelines.ingest import Endpoint
from pipelines.recon import Mode, run_reconciliation
from pipelines.recon.logic import load_rules
from sandbox.http.server import RunningSandbox

from . import harness as h


def apply_day(db: Path, ep: Endpoint, retry: RetryPolicy | None = None) -> int:
    """Reconcile in apply mode the business date last closed (the default dates, as the daily
    job does) with the shipped rules; return the charges posted."""
    with ep.client(retry=retry) as client:
        report = run_reconciliation(db, load_rules(), mode=Mode.APPLY, client=client)
    assert report.apply is not None
    return report.apply.posts


def posted_lines(server: RunningSandbox, property_id: int = h.PROPERTY_ID,
                 ) -> list[tuple[Any, ...]]:
    """Every folio line of the property in the PMS (ids left out), sorted: two runs of the same
    seed hold the same multiset, and a charge posted twice shows as an extra line."""
    rows = server.state.conn.execute(
        "SELECT f.reservation_id, l.reservation_room_id, l.type, l.description, l.posted_on, "
        "l.quantity, l.unit_price_cents, l.total_cents, l.service_item_id, l.created_at "
        "FROM folio_lines l JOIN folios f ON f.id = l.folio_id WHERE f.property_id = ?",
        (property_id,)).fetchall()
    # a NULL (a line of no room, no service item) sorts before any value
    return sorted((tuple(r) for r in rows),
                  key=lambda row: tuple((v is not None, v) for v in row))

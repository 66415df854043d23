"""The daily close of one property (issue 16, item 1; docs/reconciliation.md, Daily close).

Right after a business date's night audit and the sync that follows it:

1. the reconciliation of the date just closed (business date - 1), in apply mode for the
   kinds the property lets post automatically (`auto_sources`, default the POS tickets and
   the city tax, whose Idempotency-Keys are deterministic); the other kinds stay `missing`
   for a person (`pmsw reconcile --date D --apply`);
2. the pre-departure run: the folios of today's departures (room entries still checked in
   whose departure is the business date), over their stay's dates, so what is missing is
   posted while the folio is open, before the guest checks out.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from pipelines.api import PmsClient
from pipelines.ingest.store import property_row
from pipelines.recon.logic import RulesConfig
from pipelines.recon.run import Mode, ReconReport, run_reconciliation
from pipelines.warehouse import writer

DEFAULT_AUTO_SOURCES = ("pos", "rule:city_tax")
"""Kinds posted without a person by default: POS tickets and the city tax."""


@dataclass
class CloseReport:
    business_date: date
    """The property's business date (the date closed is the day before)."""
    closed: ReconReport
    pre_departure: ReconReport | None
    """None when nobody departs today."""


def todays_departures(warehouse: str | Path,
                      property_id: int | None) -> tuple[int, date, list[int], date | None]:
    """(property_id, business date, reservations with a room entry checked in and leaving
    today, the earliest arrival among those room entries)."""
    with writer(warehouse, publish=False) as conn:
        pid, _, business_date = property_row(conn, property_id)
        rows = conn.execute(
            "SELECT reservation_id, arrival FROM core.reservation_rooms WHERE property_id = ? "
            "AND status = 'checked_in' AND departure = ?", [pid, business_date]).fetchall()
    reservations = sorted({int(r[0]) for r in rows})
    first = min((r[1] for r in rows), default=None)
    return pid, business_date, reservations, first


def daily_close(warehouse: str | Path, rules: RulesConfig, client: PmsClient, *,
                property_id: int | None = None,
                auto_sources: Collection[str] = DEFAULT_AUTO_SOURCES,
                publish: bool = True) -> CloseReport:
    """Steps 1 and 2 above, for the warehouse's property (or `property_id`); each run
    publishes the read copy unless `publish` is False (run_reconciliation)."""
    pid, business_date, reservations, first = todays_departures(warehouse, property_id)
    closed = run_reconciliation(warehouse, rules, mode=Mode.APPLY, property_ref=pid,
                                client=client, sources=auto_sources, publish=publish)
    pre = None
    last = business_date - timedelta(days=1)
    if reservations and first is not None and first <= last:
        pre = run_reconciliation(warehouse, rules, mode=Mode.APPLY, first=first, last=last,
                                 property_ref=pid, client=client, sources=auto_sources,
                                 reservations=reservations, publish=publish)
    return CloseReport(business_date, closed, pre)

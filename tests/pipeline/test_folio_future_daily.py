"""The future book's folios once per business date (issue 51, item 5; docs/ingestion.md,
Folios, `future_folios_daily`): API v1 has no folio events and `updated_since` covers the
reservations only, so a deposit taken on a stay not yet arrived is seen only by reading its
folio. It lands with the first run of the next business date (the run after the night
audit); the hourly runs of a business date whose book was read do not read it again.

Real sandbox over HTTP (the desk's deposit through its admin endpoint); the future book the
daily run must read is worked out from the API, not from the warehouse it wrote."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipelines.ingest.store import forget_folio_reads
from pipelines.warehouse import connect
from tests.conftest import MakeSandbox, answered

from .helpers import Api, advance, clock, folio_reads, later, query, sync

pytestmark = pytest.mark.slow

STREAMS = ["reservations", "folios"]
DEPOSIT = Decimal("150.00")


def _sync(db: Path, base_url: str, run_id: str) -> Any:
    return sync(db, base_url, run_id, streams=STREAMS)["folios"]


def _deposit_line(db: Path, line_id: int) -> tuple[Any, ...] | None:
    rows = query(db, "SELECT type, total, posted_on FROM core.folio_lines "
                      "WHERE folio_line_id = ?", [line_id])
    return rows[0] if rows else None


def _future_open(api: Api, today: date) -> set[int]:
    """Stays not yet arrived (option or confirmed) holding a folio not closed, from the API."""
    found = set()
    for status in ("option", "confirmed"):
        for r in api.find_reservations(status=status):
            if date.fromisoformat(r["arrival"]) >= today and any(
                    f["status"] != "closed"
                    for f in api.get(f"/reservations/{r['id']}/folios")["data"]):
                found.add(int(r["id"]))
    return found


def test_a_deposit_on_a_future_folio_lands_with_the_next_business_dates_first_run(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    advance(sandbox.root_url, days=2)
    _sync(db, sandbox.base_url, "initial")  # the first run reads every folio
    with Api(sandbox.base_url) as api:
        today = date.fromisoformat(api.get("/property")["business_date"])
        stay = next(r for r in api.find_reservations(status="confirmed", sort="arrival")
                    if date.fromisoformat(r["arrival"]) > today + timedelta(days=7))
        folio = next(f for f in api.get(f"/reservations/{stay['id']}/folios")["data"]
                     if f["status"] == "open")
        before = api.get(f"/reservations/{stay['id']}")["updated_at"]
        paid = httpx.post(f"{sandbox.root_url}/_sandbox/folios/{folio['id']}/payments",
                          json={"amount": str(DEPOSIT), "description": "Deposit"}, timeout=30)
        line = max(answered(paid)["lines"], key=lambda x: x["id"])
        assert (line["type"], Decimal(str(line["total"]))) == ("payment", DEPOSIT)
        # The deposit moves the folio, not the reservation: no class read every run sees it.
        assert api.get(f"/reservations/{stay['id']}")["updated_at"] == before

    # An hour later, the same business date: the future book was read today (by the first
    # run), so not again; the deposit is not in the warehouse yet.
    later(sandbox)
    hourly = _sync(db, sandbox.base_url, "hourly")
    assert (hourly.details["read_future"], hourly.details["calls_future"]) == (0, 0)
    assert hourly.details["future_candidates"] > 0
    assert stay["id"] not in folio_reads(db, "hourly", "sweep")
    assert _deposit_line(db, line["id"]) is None

    # The night audit rolls the business date: the next run reads the whole future book.
    sandbox.state.clock.advance(timedelta(days=1))
    audit = httpx.post(f"{sandbox.root_url}/_sandbox/night-audit", json={}, timeout=60)
    assert audit.status_code == 200, audit.text
    later(sandbox)
    daily = _sync(db, sandbox.base_url, "daily")
    assert _deposit_line(db, line["id"]) == ("payment", DEPOSIT, today)
    with Api(sandbox.base_url) as api:
        new_date = date.fromisoformat(api.get("/property")["business_date"])
        future = _future_open(api, new_date)
        payments = Decimal(str(api.get(f"/folios/{folio['id']}")["payments"]))
    assert new_date == today + timedelta(days=1)
    read = folio_reads(db, "daily", "future")
    assert stay["id"] in read
    # Exactly the API's future book, less the reservations a class read every run took.
    assert read == future - folio_reads(db, "daily", "changed")
    assert daily.details["read_future"] == daily.details["calls_future"] == len(read)
    assert query(db, "SELECT payments FROM core.folios WHERE folio_id = ?",
                  [folio["id"]]) == [(payments,)]
    assert query(db, "SELECT cursor_value FROM meta.sync_state WHERE stream = "
                      "'folios_future'", []) == [(new_date.isoformat(),)]

    # The hourly run right after it reads no future folio, but one whose read a post of ours
    # forgot (the reconciliation's apply) is read at once.
    with connect(db) as conn:
        forget_folio_reads(conn, 1, [stay["id"]])
    later(sandbox)
    after = _sync(db, sandbox.base_url, "after")
    assert folio_reads(db, "after", "future") == {stay["id"]}
    assert (after.details["read_future"], after.details["calls_future"]) == (1, 1)
    assert after.details["future_candidates"] >= len(read)  # the book is there, not read

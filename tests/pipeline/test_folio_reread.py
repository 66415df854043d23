"""Which folios an incremental sync re-reads (issue 5, Rules: folios change without touching
the reservation and have no events). A folio not yet closed is re-read (every run for the
changed reservations, in house and departed; in the rotating sweep for the rest, issue 18),
except the folio of a reservation cancelled more than `departed_days` ago
(docs/ingestion.md, Folios)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import httpx

from pipelines.ingest import SyncSettings
from tests.conftest import MakeSandbox, answered, auth

from .helpers import clock, later, query, sync


def _book(client: httpx.Client, arrival: date, nights: int) -> int:
    body = {"market": "leisure", "rooms": [{
        "room_type_id": 1, "arrival": arrival.isoformat(),
        "departure": (arrival + timedelta(days=nights)).isoformat(), "adults": 2}]}
    response = client.post("/reservations", json=body)
    return int(answered(response, 201)["reservation"]["id"])


def test_open_folios_are_reread_but_not_those_of_long_cancelled_reservations(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    # The stay on the books in the rotating sweep (not read whole at each business date's
    # first run, the default: tests/pipeline/test_folio_future_daily.py).
    settings = SyncSettings(departed_days=1, future_folios_daily=False)
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        today = date.fromisoformat(client.get("/property").json()["business_date"])
        kept = _book(client, today + timedelta(days=20), 2)
        cancelled = _book(client, today + timedelta(days=30), 3)
        assert client.post(f"/reservations/{cancelled}/cancel").status_code == 200
    sync(db, sandbox.base_url, "first", settings=settings)

    # Two night audits: the cancellation is now more than one day before the business date.
    for _ in range(2):
        later(sandbox, timedelta(days=1))
        response = httpx.post(f"{sandbox.root_url}/_sandbox/night-audit", json={}, timeout=60)
        assert response.status_code == 200, response.text
    later(sandbox)
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        today = date.fromisoformat(client.get("/property").json()["business_date"])
        new = _book(client, today + timedelta(days=10), 1)
    sync(db, sandbox.base_url, "later", settings=settings)  # also re-reads its overlap window

    # One GET /reservations/{id}/folios per reservation re-read: the newest (changed: inside
    # the overlap window) and, in the sweep, the one still on the books with its open folio;
    # the one cancelled two days ago is not even a candidate of the sweep.
    later(sandbox)
    third = sync(db, sandbox.base_url, "third", settings=settings)
    assert third["folios"].calls == 2
    assert third["folios"].details["reservations_read"] == 2
    assert (third["folios"].details["read_changed"], third["folios"].details["read_sweep"],
            third["folios"].details["sweep_candidates"]) == (1, 1, 1)
    assert _read_in(db, "third") == {new, kept}

    # With a window that still holds the cancellation, its folio is a candidate again, and
    # the one read longest ago (at the first run, two days back: overdue) is read first.
    later(sandbox)
    wide = sync(db, sandbox.base_url, "wide",
                settings=SyncSettings(departed_days=30, future_folios_daily=False))
    assert wide["folios"].details["sweep_candidates"] == 2
    assert _read_in(db, "wide") == {new, cancelled}


def _read_in(db: Path, run_id: str) -> set[int]:
    """Reservations whose folios the run read (meta.folio_reads)."""
    return {int(r) for (r,) in query(
        db, "SELECT reservation_id FROM meta.folio_reads WHERE run_id = ?", [run_id])}

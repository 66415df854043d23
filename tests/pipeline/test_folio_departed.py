"""Folios after departure (issue 51, item 5; docs/ingestion.md, Folios): a room checked out
within `late_charge_days` is re-read on every run until its folios are all closed and settled;
once they are, only the sweep reads it (within `folio_sweep_hours`, while the departure is
within `departed_days`), which is how a late charge lands: the spec posts charges on open
folios only, so a charge after the close goes on a new folio, and neither the reservation's
`updated_at` nor the event log shows a new folio.

Real sandbox over HTTP (the desk's payments and the new folio through its admin endpoints);
what the runs should read is worked out from the API, not from the warehouse they wrote."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipelines.ingest import SyncSettings
from tests.conftest import MakeSandbox, answered

from .helpers import Api, advance, clock, later, query, sync

pytestmark = pytest.mark.slow

STREAMS = ["reservations", "folios"]
LATE_CHARGE = Decimal("7.50")


def _sync(db: Path, base_url: str, run_id: str, settings: SyncSettings) -> Any:
    return sync(db, base_url, run_id, settings=settings, streams=STREAMS)["folios"]


def _reads(db: Path, run_id: str) -> dict[int, str]:
    """reservation id -> the class its folios were read in by the run (meta.folio_reads)."""
    return {int(r): str(c) for r, c in query(
        db, "SELECT reservation_id, class FROM meta.folio_reads WHERE run_id = ?", [run_id])}


def _line_total(db: Path, line_id: int) -> Decimal | None:
    rows = query(db, "SELECT total FROM core.folio_lines WHERE folio_line_id = ?", [line_id])
    return Decimal(str(rows[0][0])) if rows else None


def _folios(api: Api, reservation_id: int) -> list[dict[str, Any]]:
    return list(api.get(f"/reservations/{reservation_id}/folios")["data"])


def _settled(folios: list[dict[str, Any]]) -> bool:
    return all(f["status"] == "closed" and Decimal(str(f["balance"])) == 0 for f in folios)


def _charge(api: Api, folio_id: int) -> int:
    """A minibar-like charge of 7.50 on an open folio; the new line's id."""
    item = api.get("/items")["data"][0]
    response = api.http.post(f"/folios/{folio_id}/charges", json={
        "item_id": item["id"], "quantity": 1, "unit_price": str(LATE_CHARGE)})
    return int(max(line["id"] for line in answered(response, 201)["lines"]))


def _check_out_paid(api: Api, root_url: str, reservation: dict[str, Any], today: date) -> None:
    """The desk takes the balance (the folios stay open), then checks every room out."""
    for folio in _folios(api, reservation["id"]):
        paid = httpx.post(f"{root_url}/_sandbox/folios/{folio['id']}/payments", timeout=30)
        assert paid.status_code == 200, paid.text
    early = any(date.fromisoformat(s["departure"]) > today for s in reservation["rooms"])
    response = api.http.post(f"/reservations/{reservation['id']}/check-out",
                             json={"early_departure": early})
    assert response.status_code == 200, response.text


def _book(api: Api, arrival: date) -> None:
    response = api.http.post("/reservations", json={"market": "leisure", "rooms": [{
        "room_type_id": 1, "arrival": arrival.isoformat(),
        "departure": (arrival + timedelta(days=2)).isoformat(), "adults": 2}]})
    assert response.status_code == 201, response.text


def test_departed_folios_are_read_until_closed_and_settled_then_by_the_sweep(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    settings = SyncSettings(folio_sweep_hours=4)
    advance(sandbox.root_url, days=3)
    _sync(db, sandbox.base_url, "initial", settings)

    with Api(sandbox.base_url) as api:
        today = date.fromisoformat(api.get("/property")["business_date"])
        late_from = today - timedelta(days=settings.late_charge_days)
        # Departures within the late-charge window whose folios the PMS holds closed and
        # settled: final, not to be read on every run.
        departed = [r for r in api.find_reservations(departure_from=late_from.isoformat())
                    if any(s["status"] == "checked_out"
                           and date.fromisoformat(s["departure"]) >= late_from
                           for s in r["rooms"])
                    and not any(s["status"] == "checked_in" for s in r["rooms"])]
        settled = [r for r in departed if _settled(_folios(api, r["id"]))]
        assert settled, "the stretch has no settled departure within the late-charge window"
        final = settled[0]
        # Two guests in house leave now: the desk takes their balance and checks them out,
        # leaving their folios open (balance 0).
        in_house = [r for r in api.find_reservations(status="checked_in")
                    if all(s["status"] == "checked_in" for s in r["rooms"])]
        assert len(in_house) >= 2
        still_open, owing = in_house[0], in_house[1]
        for reservation in (still_open, owing):
            _check_out_paid(api, sandbox.root_url, reservation, today)
        # A booking a quarter of an hour later moves the newest `updated_at` past the
        # check-outs' overlap window, so that the next runs do not read them as `changed`.
        later(sandbox, timedelta(minutes=15))
        _book(api, today + timedelta(days=20))
    later(sandbox)
    _sync(db, sandbox.base_url, "checkout", settings)  # the check-outs: class `changed`

    with Api(sandbox.base_url) as api:
        # A late charge on the open folio of one departure: its balance is now 7.50.
        owing_folio = next(f for f in _folios(api, owing["id"]) if f["status"] == "open")
        owed_line = _charge(api, owing_folio["id"])
        # A late charge on the settled departure: its folios are closed, so the desk opens a
        # new one on its room; the reservation itself does not change.
        before = api.get(f"/reservations/{final['id']}")["updated_at"]
        last_event = api.events()[-1]["id"]
        refused = api.http.post(f"/folios/{_folios(api, final['id'])[0]['id']}/charges",
                                json={"item_id": api.get("/items")["data"][0]["id"],
                                      "quantity": 1})
        assert refused.status_code == 422, refused.text  # a closed folio takes no charge
        opened = httpx.post(f"{sandbox.root_url}/_sandbox/stays/{final['rooms'][0]['id']}"
                            "/folios", timeout=30)
        late_line = _charge(api, int(answered(opened, 201)["id"]))
        # Neither the reservation nor the event log shows it: only a read of the folios does.
        assert api.get(f"/reservations/{final['id']}")["updated_at"] == before
        assert api.get("/events", after=last_event)["data"] == []

    later(sandbox)
    _sync(db, sandbox.base_url, "next", settings)
    reads = _reads(db, "next")
    # The departures still open or owing are read on the next run, as departed...
    assert reads.get(still_open["id"]) == "departed"
    assert reads.get(owing["id"]) == "departed"
    assert _line_total(db, owed_line) == LATE_CHARGE
    # ... and no departure held closed and settled is read as departed: the class is exactly
    # the API's departures within the window less the settled ones (as the warehouse last
    # read them: `final`'s new folio is not known yet).
    departed_ids = {r["id"] for r in departed} | {still_open["id"], owing["id"]}
    settled_ids = {r["id"] for r in settled}
    assert {r for r, c in reads.items() if c == "departed"} == departed_ids - settled_ids
    assert reads.get(final["id"]) in (None, "sweep")

    # The late charge on the new folio lands through the sweep, within its window.
    landed_at = 0 if _line_total(db, late_line) is not None else None
    for hour in range(1, settings.folio_sweep_hours + 1):
        if landed_at is not None:
            break
        later(sandbox)
        run = f"hour-{hour}"
        _sync(db, sandbox.base_url, run, settings)
        assert _reads(db, run).get(final["id"]) in (None, "sweep")
        if _line_total(db, late_line) is not None:
            landed_at = hour
    assert landed_at is not None, (
        f"the late charge did not land within {settings.folio_sweep_hours} hourly runs")
    assert _line_total(db, late_line) == LATE_CHARGE
    # The new folio is open with a balance: from now on its departure is read every run.
    later(sandbox)
    _sync(db, sandbox.base_url, "after", settings)
    assert _reads(db, "after").get(final["id"]) == "departed"

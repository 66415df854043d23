"""The folio re-read policy of an hourly incremental (issue 18, item 1; docs/ingestion.md,
Folios): changed reservations, rooms in house and recent departures are re-read on every run;
the other open folios in a rotating share, each within `folio_sweep_hours` of the PMS's clock
(the sandbox's simulated clock, sent as the HTTP Date); the future book too with
`future_folios_daily` off (by default it is read at each business date's first run).

Real sandbox over HTTP; the counts the policy is held to are read from the API, not from the
warehouse it wrote."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from pipelines.ingest import SyncSettings
from tests.conftest import MakeSandbox, answered

from .helpers import Api, advance, clock, folio_reads, later, query, sync

pytestmark = pytest.mark.slow

STREAMS = ["reservations", "folios"]
"""What the classes depend on: the folios are found through the reservations."""


def _sync(db: Path, base_url: str, run_id: str, settings: SyncSettings,
          streams: list[str] | None = STREAMS) -> dict[str, Any]:
    return sync(db, base_url, run_id, settings=settings, streams=streams)


def _classes(db: Path, run_id: str) -> dict[str, tuple[int, int, int]]:
    """meta.folio_classes of a run: class -> (reservations, candidates, calls)."""
    return {str(c): (int(r), int(n), int(k)) for c, r, n, k in query(
        db, "SELECT class, reservations, candidates, calls FROM meta.folio_classes "
            "WHERE run_id = ?", [run_id])}


def _landed_line(db: Path, line_id: int) -> bool:
    return query(db, "SELECT count(*) FROM core.folio_lines WHERE folio_line_id = ?",
                 [line_id]) == [(1,)]


def _post_charge(api: Api, reservation: dict[str, Any]) -> int:
    """A minibar-like charge on the reservation's open folio; the new line's id."""
    folio = next(f for f in api.get(f"/reservations/{reservation['id']}/folios")["data"]
                 if f["status"] == "open")
    item = api.get("/items")["data"][0]
    response = api.http.post(f"/folios/{folio['id']}/charges", json={
        "item_id": item["id"], "quantity": 1, "unit_price": "7.50"})
    lines = answered(response, 201)["lines"]
    return int(max(line["id"] for line in lines))


def test_a_charge_on_a_future_folio_lands_within_one_sweep_window(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    window = 6
    # The future book in the rotating sweep (by default it is read whole at each business
    # date's first run: tests/pipeline/test_folio_future_daily.py).
    settings = SyncSettings(folio_sweep_hours=window, future_folios_daily=False)
    advance(sandbox.root_url, days=2)
    _sync(db, sandbox.base_url, "initial", settings)
    with Api(sandbox.base_url) as api:
        today = date.fromisoformat(api.get("/property")["business_date"])
        future = [r for r in api.find_reservations(status="confirmed", sort="arrival")
                  if date.fromisoformat(r["arrival"]) > today + timedelta(days=7)]
        assert len(future) > 2 * window  # a book the sweep has to spread over the window
        before = future[0]["updated_at"]
        line = _post_charge(api, future[0])
        # The charge moves the folio, not the reservation: no class but the sweep sees it.
        assert api.get(f"/reservations/{future[0]['id']}")["updated_at"] == before

    landed_at = None
    for hour in range(1, window + 1):
        later(sandbox)
        run = f"hour-{hour}"
        _sync(db, sandbox.base_url, run, settings)
        sweep, candidates, calls = _classes(db, run)["sweep"]
        # A share, never the whole book: ceil(candidates x 1 h / window), or those due.
        assert 0 < sweep < candidates
        assert calls == sweep
        if landed_at is None and _landed_line(db, line):
            landed_at = hour
    # Read at least every (window - 1 h) with hourly runs: within one window of the charge.
    assert landed_at is not None, f"the charge did not land within {window} hourly runs"
    read = query(db, "SELECT class FROM meta.folio_reads WHERE reservation_id = ?",
                 [future[0]["id"]])
    assert read == [("sweep",)]  # found by the sweep, the only class that holds it
    # Every candidate was read at least once within the window (none left unread since the
    # initial load, which read every reservation at hour 0).
    assert query(db, """
        SELECT count(*) FROM meta.folio_reads WHERE run_id = 'initial'
           AND reservation_id IN (SELECT reservation_id FROM core.folios
                                  WHERE status <> 'closed')""") == [(0,)]


def test_a_charge_on_an_in_house_folio_lands_in_the_next_run(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    settings = SyncSettings()
    advance(sandbox.root_url, days=2)
    _sync(db, sandbox.base_url, "initial", settings)
    with Api(sandbox.base_url) as api:
        in_house = api.find_reservations(status="checked_in")
        assert in_house
        line = _post_charge(api, in_house[-1])
    later(sandbox)
    result = _sync(db, sandbox.base_url, "next", settings)["folios"]
    assert _landed_line(db, line)
    assert query(db, "SELECT class, run_id FROM meta.folio_reads WHERE reservation_id = ?",
                 [in_house[-1]["id"]]) == [("in_house", "next")]
    assert query(db, "SELECT sum(total) FROM core.folio_lines WHERE folio_line_id = ?",
                 [line]) == [(Decimal("7.50"),)]
    assert result.details["read_in_house"] == len(in_house)


def test_an_hourly_run_after_an_incremental_costs_near_the_floor(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """A run an hour after a one-day incremental, nothing changed in between, makes at most
    1.5 x (changed + in house + departing) folio calls plus the sweep's share of the hour
    (issue 51, item 5). Departing: rooms checked out within `late_charge_days` one of whose
    folios the PMS still holds open or unsettled. A departure whose folios are all closed and
    settled is not read on every run: only by the sweep (tests/pipeline/test_folio_departed.py)."""
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    settings = SyncSettings()
    advance(sandbox.root_url, days=3)
    _sync(db, sandbox.base_url, "initial", settings, None)
    advance(sandbox.root_url, days=1)
    _sync(db, sandbox.base_url, "one-day", settings, None)
    row = query(db, "SELECT cursor_value FROM meta.sync_state WHERE stream = 'reservations'")[0]
    later(sandbox)
    hourly = _sync(db, sandbox.base_url, "hourly", settings, None)

    with Api(sandbox.base_url) as api:
        today = date.fromisoformat(api.get("/property")["business_date"])
        changed = {r["id"] for r in api.find_reservations(
            updated_since=_minus(row[0], settings.overlap_seconds))}
        in_house = {r["id"] for r in api.find_reservations(status="checked_in")}
        late_from = today - timedelta(days=settings.late_charge_days)
        departures = {r["id"] for r in api.find_reservations(departure_from=late_from.isoformat())
                      if any(s["status"] == "checked_out"
                             and date.fromisoformat(s["departure"]) >= late_from
                             for s in r["rooms"])}
        departing = {r for r in departures
                     if any(f["status"] != "closed" or Decimal(str(f["balance"])) != 0
                            for f in api.get(f"/reservations/{r}/folios")["data"])}
        every = api.find_reservations()
        open_folios = {
            r["id"] for r in every
            if any(f["status"] != "closed"
                   for f in api.get(f"/reservations/{r['id']}/folios")["data"])}
        # The sweep also holds the departures of the last `departed_days`, settled or not
        # (a late charge goes on a new folio).
        recent_from = today - timedelta(days=settings.departed_days)
        recent = {r["id"] for r in every
                  if any(s["status"] == "checked_out"
                         and date.fromisoformat(s["departure"]) >= recent_from
                         for s in r["rooms"])}
    floor = len(changed | in_house | departing)
    # An hour of a 24 h window over (at most) every sweep candidate.
    share = math.ceil(len(open_folios | recent) / settings.folio_sweep_hours)
    folios = hourly["folios"]
    classes = _classes(db, "hourly")
    print(f"\nhourly run: folio calls {folios.calls}; changed + in house + departing "
          f"{floor}; departed within {settings.late_charge_days} days {len(departures)}, of "
          f"them closed and settled {len(departures - departing)}; sweep {classes['sweep'][0]} of "
          f"{classes['sweep'][1]}; {len(every)} reservations; classes {classes}; calls per "
          f"stream { {s: r.calls for s, r in hourly.items()} }")
    assert floor > 0
    assert departures - departing, "the stretch has no settled departure to leave out"
    assert folios.calls <= 1.5 * floor + share
    assert classes["sweep"][0] <= share
    assert sum(c for _, _, c in classes.values()) == folios.calls
    # The departed class is exactly the departures still to watch that no earlier class took.
    assert folio_reads(db, "hourly", "departed") == departing - changed - in_house
    # Far below the book: the whole point.
    assert folios.calls < len(open_folios) / 2


def _minus(stamp: str, seconds: int) -> str:
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")) - timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

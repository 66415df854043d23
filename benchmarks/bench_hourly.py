"""Calls of an hourly run and bytes of a warehouse, per property (docs/scaling.md, "A hotel
group past one machine").

    .venv/bin/python benchmarks/bench_hourly.py [--days 60] [--seed 42]

Simulates `--days` of the 80-room hotel (`pmsw sandbox simulate`), serves it in process on
its simulated clock (rate limit lifted), loads it into a new warehouse, lives one more day
and syncs (the one-day incremental), moves the clock one hour with nothing happening and
syncs again (the hourly run). Prints the hourly run's calls per stream and its folio reads by
class (meta.folio_classes), then the warehouse's size after CHECKPOINT, rows per table, and
that size over the days simulated, scaled to a year. Then the hourly run's tail as `pmsw sync`
runs it: the marts of the property rebuilt and the read copy published, and the publish's share
of the whole run, against the run as measured here (rate limit lifted) and against the run at
the real limit (its calls at 600/min after the burst of 120). Not a benchmark at scale.

The goal of issue 51 (item 5) as a ratio, at most 1: the hourly run's calls against 1.5 x
(changed + in house + departing today) + the reference calls, the three sets read from the API
(not from the warehouse) and counted once per reservation: changed = GET /reservations
updated since the one-day run's cursor less the overlap, in house = a room `checked_in`,
departing today = a room checked in or out whose departure is the business date.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.bench_ingest import simulated  # noqa: E402
from pipelines.ingest import Endpoint, SyncSettings, sync_property  # noqa: E402
from pipelines.marts import build_marts  # noqa: E402
from pipelines.warehouse import connect, publish  # noqa: E402
from sandbox.clock import SimulatedClock  # noqa: E402
from sandbox.http.server import serving_simulation  # noqa: E402

KEY = "sbx_test_all_scopes"
HOURLY = ["reference", "events", "reservations", "folios", "pos_ledger"]
"""The streams of the hourly schedule (availability runs daily)."""
STAYING = ("checked_in", "checked_out")


def _reservations(client: httpx.Client, **filters: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        response = client.get("/reservations", params={**filters, "page": str(page),
                                                       "page_size": "200"})
        response.raise_for_status()
        body = response.json()
        found += body["data"]
        if page >= body["pages"]:
            return found
        page += 1


def floor_sets(base_url: str, changed_since: datetime) -> dict[str, set[int]]:
    """The reservations an hourly run cannot avoid reading, by kind, from the API."""
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {KEY}"},
                      timeout=60) as client:
        response = client.get("/property")
        response.raise_for_status()
        today = response.json()["business_date"]
        stamp = changed_since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return {
            "changed": {r["id"] for r in _reservations(client, updated_since=stamp)},
            "in_house": {r["id"] for r in _reservations(client, status="checked_in")},
            "departing_today": {
                r["id"] for r in _reservations(client, departure_from=today, departure_to=today)
                if any(s["departure"] == today and s["status"] in STAYING for s in r["rooms"])},
        }


def main() -> None:
    work, db, days = simulated("bench_hourly", 60)
    warehouse = work / "warehouse.duckdb"
    sync_settings = SyncSettings()
    with serving_simulation(db, 100_000_000, 100_000_000) as sandbox:
        clock = sandbox.state.clock
        assert isinstance(clock, SimulatedClock)
        endpoint = Endpoint("rome", sandbox.base_url, KEY, 10_000_000, 100_000)

        def sync(run_id: str, streams: list[str] | None = None) -> dict[str, int]:
            with connect(warehouse) as wh:
                return {r.stream: r.calls
                        for r in sync_property(endpoint, wh, run_id, sync_settings, streams)}

        initial = sync("initial")
        httpx.post(f"{sandbox.root_url}/_sandbox/advance", json={"days": 1},
                   timeout=600).raise_for_status()
        one_day = sync("one-day")
        with connect(warehouse) as wh:
            cursor = wh.execute("SELECT cursor_value FROM meta.sync_state WHERE stream = "
                                "'reservations'").fetchall()[0][0]
        clock.advance(timedelta(hours=1))
        started = time.perf_counter()
        hourly = sync("hourly", HOURLY)
        sync_seconds = time.perf_counter() - started
        changed_since = (datetime.fromisoformat(str(cursor).replace("Z", "+00:00"))
                         - sync_settings.overlap)
        floor = floor_sets(sandbox.base_url, changed_since)
    with connect(warehouse) as wh:
        started = time.perf_counter()
        pid = wh.execute("SELECT min(property_id) FROM core.property").fetchall()[0][0]
        build_marts(wh, pid)
        marts_seconds = time.perf_counter() - started
        published = publish(wh, warehouse)
    with connect(warehouse) as wh:
        classes = wh.execute("SELECT class, reservations, candidates, calls FROM "
                             "meta.folio_classes WHERE run_id = 'hourly' ORDER BY class"
                             ).fetchall()
        reservations = wh.execute("SELECT count(*) FROM core.reservations").fetchone()
        rows = wh.execute("SELECT schema_name || '.' || table_name, estimated_size "
                          "FROM duckdb_tables() WHERE schema_name IN ('raw', 'core', 'mart', "
                          "'meta') ORDER BY estimated_size DESC").fetchall()
        wh.execute("CHECKPOINT")
    size = warehouse.stat().st_size
    print(f"80-room hotel, {days} simulated days, {reservations[0] if reservations else 0}"
          " reservations in the warehouse")
    print(f"initial load calls {sum(initial.values())}: {initial}")
    print(f"one-day incremental calls {sum(one_day.values())}: {one_day}")
    print(f"hourly run calls {sum(hourly.values())}: {hourly}")
    print("hourly folio reads by class (class, reservations, candidates, calls):")
    for row in classes:
        print(f"  {row}")
    must = set().union(*floor.values())
    goal = 1.5 * len(must) + hourly["reference"]
    print(f"floor: {len(must)} reservations (changed {len(floor['changed'])}, in house "
          f"{len(floor['in_house'])}, departing today {len(floor['departing_today'])}, counted "
          f"once); goal 1.5 x {len(must)} + {hourly['reference']} reference calls = {goal:.1f}")
    print(f"hourly calls / goal = {sum(hourly.values())} / {goal:.1f} = "
          f"{sum(hourly.values()) / goal:.2f} (issue 51 item 5: at most 1)")
    print("largest tables (estimated rows):")
    for name, estimate in rows[:8]:
        print(f"  {name:<36} {estimate:>10,}")
    days += 1
    print(f"warehouse {size:,} bytes after CHECKPOINT ({warehouse}); {size / days:,.0f} bytes "
          f"per simulated day, {size / days * 365 / 1e6:,.1f} MB per property-year "
          "(linear scaling; the marts, built after this figure, add to it)")
    calls = sum(hourly.values())
    bound = max(calls - 120, 0) / 10
    run = sync_seconds + marts_seconds + published.seconds
    run_real = max(sync_seconds, bound) + marts_seconds + published.seconds
    print(f"hourly run as pmsw sync runs it: sync {sync_seconds:.2f} s (rate limit lifted; "
          f"{calls} calls need {bound:.1f} s at 600/min after the burst), marts "
          f"{marts_seconds:.2f} s, publish {published.seconds:.3f} s ({published.how}, "
          f"{published.size / 2**20:.1f} MiB)")
    print(f"publish share of the hourly run: {published.seconds / run:.1%} as measured here, "
          f"{published.seconds / run_real:.1%} at the real limit (goal: under 5 %)")


if __name__ == "__main__":
    main()

"""Ingestion benchmark: initial load and a one-day incremental sync of a simulated year of the
80-room hotel (issue 5, Performance).

    .venv/bin/python benchmarks/bench_ingest.py [--days 365] [--seed 42]

Prints, per stream, the API calls made against the minimum the endpoints allow, and the wall
time against the rate-limit bound (calls / 600 per minute; the sandbox's limit is lifted so
the sync runs as fast as it can, the bound says what a real PMS would allow). Not a test.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipelines.demo.sandbox_process import sandbox_process  # noqa: E402
from pipelines.ingest import Endpoint, SyncSettings, sync_property  # noqa: E402
from pipelines.warehouse import connect  # noqa: E402

KEY = "sbx_test_all_scopes"
RATE = 600


SERVE = ["--admin", "--clock", "simulated", "--rate-per-minute", "100000000", "--burst",
         "100000000"]
"""`pmsw sandbox serve`'s arguments: the rate limit lifted, the clock simulated."""


def _floor(base_url: str, warehouse: Path, changed: int | None, settings: SyncSettings,
           ) -> dict[str, int]:
    """The fewest calls the endpoints allow for what this sync had to read."""
    headers = {"Authorization": f"Bearer {KEY}"}
    with connect(warehouse) as conn:
        events = conn.execute("SELECT count(*) FROM core.events").fetchone()
        reservations = conn.execute("SELECT count(*) FROM core.reservations").fetchone()
    assert events is not None
    assert reservations is not None
    n = reservations[0] if changed is None else changed
    total = httpx.get(f"{base_url}/reservations", params={"page_size": 1},
                      headers=headers).json()["total"]
    return {"reference": 7, "events": max(1, math.ceil(events[0] / 500)) if changed is None
            else 1, "reservations": max(1, math.ceil(n / 200)) + (n if settings.stay_guests
                                                                   else 0),
            "availability": math.ceil(settings.availability_nights / 62),  # property cached
            "_reservations_total": total}


def _report(title: str, results: Sequence[object], floors: dict[str, int], seconds: float,
            folio_floor: int) -> None:
    print(f"\n== {title}: {seconds:.1f} s wall")
    print(f"{'stream':<13}{'calls':>8}{'floor':>8}{'ratio':>7}{'rows':>9}{'seconds':>9}")
    calls = 0
    for r in results:
        stream, n, rows, secs = (getattr(r, k) for k in ("stream", "calls", "rows", "seconds"))
        floor = folio_floor if stream == "folios" else floors.get(stream, 0)
        ratio = f"{n / floor:.2f}" if floor else "-"
        print(f"{stream:<13}{n:>8}{floor:>8}{ratio:>7}{rows:>9}{secs:>9.2f}")
        calls += n
    bound = calls / RATE * 60
    print(f"{'total':<13}{calls:>8}; rate-limit bound {bound:.0f} s at {RATE}/min "
          f"(wall {seconds:.1f} s = {seconds / bound:.2f} of the bound)")


def simulated(name: str, days: int) -> tuple[Path, Path, int]:
    """`--days` (default `days`) and `--seed` of the 80-room hotel simulated by `pmsw sandbox
    simulate` into a new folder: the folder, the database and the days."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=days)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix=f"{name}_"))
    db = work / "hotel.sqlite"
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipelines.cli", "sandbox", "simulate", "--db",
                    str(db), "--days", str(args.days), "--seed", str(args.seed)], cwd=REPO,
                   check=True, stdout=subprocess.DEVNULL)
    print(f"simulated {args.days} days of the 80-room hotel in "
          f"{time.perf_counter() - began:.0f} s ({db})")
    return work, db, args.days


def main() -> None:
    work, db, _ = simulated("bench_ingest", 365)
    settings = SyncSettings(concurrency=16)
    warehouse = work / "warehouse.duckdb"
    with sandbox_process(db_path=db, extra_args=SERVE) as base_url:
        endpoint = Endpoint("rome", base_url, KEY, 10_000_000, 100_000)
        with connect(warehouse) as conn:
            began = time.perf_counter()
            initial = sync_property(endpoint, conn, "initial", settings)
            seconds = time.perf_counter() - began
        floors = _floor(base_url, warehouse, None, settings)
        with connect(warehouse) as conn:
            with_folios = conn.execute("SELECT count(DISTINCT reservation_id) FROM core.folios"
                                       ).fetchone()
        assert with_folios is not None
        print(f"reservations: {floors['_reservations_total']}")
        _report("initial load", initial, floors, seconds, with_folios[0])

        httpx.post(f"{base_url.removesuffix('/v1')}/_sandbox/advance", json={"days": 1},
                   timeout=600).raise_for_status()
        with connect(warehouse) as conn:
            cursor = conn.execute("SELECT cursor_value FROM meta.sync_state WHERE stream = "
                                  "'reservations'").fetchone()
            assert cursor is not None
            changed = httpx.get(f"{base_url}/reservations", params={
                "updated_since": cursor[0], "page_size": 1},
                headers={"Authorization": f"Bearer {KEY}"}).json()["total"]
            began = time.perf_counter()
            incremental = sync_property(endpoint, conn, "incremental", settings)
            seconds = time.perf_counter() - began
            parts = conn.execute("""
                SELECT count(DISTINCT reservation_id) FILTER (WHERE r.status IN
                           ('confirmed', 'option')),
                       count(DISTINCT reservation_id) FILTER (WHERE r.status = 'cancelled'),
                       count(DISTINCT reservation_id)
                FROM core.folios f JOIN core.reservations r USING (property_id, reservation_id)
                WHERE f.status <> 'closed'""").fetchone()
        assert parts is not None
        floors = _floor(base_url, warehouse, changed, settings)
        folio = next(r for r in incremental if r.stream == "folios")
        _report(f"one-day incremental ({changed} reservations changed)", incremental, floors,
                seconds, int(folio.details.get("reservations_read", 0)))
        classes = {k.removeprefix("read_"): v for k, v in folio.details.items()
                   if k.startswith("read_")}
        print(f"folios re-read by class (docs/ingestion.md, Folios): {classes}; sweep "
              f"candidates {folio.details.get('sweep_candidates')}. Not closed yet after "
              f"this run: {parts[2]} reservations ({parts[0]} on the books, {parts[1]} "
              "cancelled with an empty open folio). A day after the load the sweep reads "
              "the whole book; an hourly run reads about 1/23 of it.")


if __name__ == "__main__":
    main()

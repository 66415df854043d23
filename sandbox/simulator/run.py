"""`pmsw sandbox simulate`: a fresh sandbox database holding the days a hotel has lived.

Timeline (docs/sandbox.md, Simulator): the N simulated days are [start, start + N); by default
they end yesterday (start = today - N), so the last night audit moves the business date to
today and a server started on the database afterwards goes on in wall time without a jump.
The hotel's book does not start empty: the `warmup_days` before `start` are played too, with
bookings only (no guest arrives before `start`), so that on the first day the reservations
made weeks and months ahead are there with their real creation times. The clock ends at 02:00
local time of the day after the last simulated day (after its night audit).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from ..clock import SimulatedClock, WallClock
from ..context import SandboxState
from ..db import iso, one, open_db
from ..seed import seed_if_empty
from ..settings import save_demand
from .engine import Simulation
from .params import SimParams

HOTEL_TIMEZONE = ZoneInfo("Europe/Rome")


@dataclass
class SimulationReport:
    db_path: str
    seed: int
    property_ids: tuple[int, ...]
    first_day: date
    last_day: date
    warmup_from: date
    business_date: date
    seconds: float
    hotels: list[dict[str, Any]] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    """Actions a service refused unexpectedly (none in a sound run)."""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("first_day", "last_day", "warmup_from", "business_date"):
            data[key] = iso(data[key])
        return data


def default_start(days: int, today: date | None = None) -> date:
    """The first simulated day when none is given: the N days end yesterday."""
    if today is None:
        today = WallClock().now().astimezone(HOTEL_TIMEZONE).date()
    return today - timedelta(days=days)


def simulate_database(
    db_path: str,
    *,
    days: int,
    seed: int,
    start: date | None = None,
    property_ids: tuple[int, ...] = (1,),
    pos_export: Path | None = None,
    params: SimParams | None = None,
    group: int = 0,
    on_day: Callable[[int, int], None] | None = None,
) -> SimulationReport:
    """Create `db_path` (it must not exist, or be ':memory:') and play the days into it;
    `on_day(done, days)` is called after each simulated day. `group`: hotels of a group
    seeded beside the demo hotels (sandbox.seed), to simulate by their ids (101, ...)."""
    if days < 1:
        raise ValueError("days must be at least 1")
    if db_path != ":memory:" and Path(db_path).exists():
        raise FileExistsError(f"{db_path} exists: the simulator writes a new database")
    params = params or SimParams()
    start = start or default_start(days)
    warmup_from = start - timedelta(days=params.warmup_days)
    midnight = datetime.combine(warmup_from, datetime.min.time(), tzinfo=HOTEL_TIMEZONE)
    clock = SimulatedClock(midnight.astimezone(UTC))
    began = time.perf_counter()
    # The days are played in memory (about twice as fast) and the result written to the file
    # at the end with SQLite's online backup.
    with closing(open_db(":memory:")) as conn:
        seed_if_empty(conn, clock, group)
        save_demand(conn, seed, start)
        state = SandboxState(conn, clock)
        simulation = Simulation(state, clock, seed, property_ids, first_arrival=start,
                                first_booking_day=warmup_from, demand_origin=start, params=params,
                                pos_export=pos_export, catch_up=True)
        day = warmup_from
        while day < start:
            simulation.play_day(day, full=False)
            day += timedelta(days=1)
        last = start + timedelta(days=days - 1)
        while day <= last:
            simulation.play_day(day)
            day += timedelta(days=1)
            if on_day is not None:
                on_day((day - start).days, days)
        row = one(conn, "SELECT business_date FROM properties WHERE id = ?", property_ids[0])
        assert row is not None
        report = SimulationReport(
            db_path=db_path, seed=seed, property_ids=property_ids, first_day=start,
            last_day=last, warmup_from=warmup_from,
            business_date=date.fromisoformat(row["business_date"]),
            seconds=round(time.perf_counter() - began, 2))
        for hotel in simulation.hotels:
            report.hotels.append({
                "property_id": hotel.property_id, "bookings": asdict(hotel.engine.stats),
                "front_desk": asdict(hotel.desk.stats),
            })
        report.failures = dict(simulation.failures)
        if db_path != ":memory:":
            Path(db_path).parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(db_path)) as target:
                conn.backup(target)
        report.seconds = round(time.perf_counter() - began, 2)
        return report

"""`make verify`: the independent SQL cross-check (tests/marts/crosscheck_sql.py, written from
docs/kpi.md) over a full simulated year of BOTH demo hotels (issue 14, "How it is shown").

The sandbox's simulator plays Rome (property 1, 80 rooms) and Florence (property 2, 40 rooms)
together for 365 days from Monday 2026-01-05 on a simulated clock (POST /_sandbox/simulate,
then /_sandbox/advance a week at a time, the last step one day), and the warehouse syncs each
property with its own key after every step, with the real ingestion code over real HTTP (plus
a first sync before day 1, which reads the seed's out-of-order rooms). Every four weeks the
marts the snapshot marts read and the snapshot marts themselves are built, as a schedule
would, so that otb_snapshots, pickup and pace are computed from their first changed day all
year long (docs/scaling.md, "Marts against history and change"); pace's last year and its
actuals come into play after 52 weeks. Then every mart of each property is built and compared
row for row with the SQL of its definition, and the revenue tie-out must leave no unexplained
cent on any date of either hotel.

Too long for `make test` (minutes on two cores): marker `verify`, deselected by default
(pyproject addopts); `make verify` runs it. tests/marts/test_crosscheck.py is the six-week
version that `make test` runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import httpx
import pytest

from pipelines.ingest import Endpoint, sync_property
from pipelines.marts import built_marts
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED
from tests.marts import crosscheck_sql

pytestmark = [pytest.mark.verify, pytest.mark.timeout(7200)]

DAYS = int(os.environ.get("PMSW_VERIFY_DAYS", "365"))
"""A full year; a shorter stretch for a trial of the test itself (`PMSW_VERIFY_DAYS=21`)."""
STEP = 7
SEED = 7
BUILD_EVERY = 4
"""Steps between the builds of the snapshot marts during the year."""
SNAPSHOT_PATH = ["stay_nights", "revenue_daily", "room_fees", "occupancy_daily",
                 "otb_snapshots", "pickup", "pace"]
HOTELS = {1: ("ROMA01", "sbx_test_all_scopes", 80), 2: ("FIRE01", "sbx_test_other_property", 40)}
"""property id: (code, the seed's all-scopes key of the property, rooms)."""


@dataclass
class Year:
    conn: duckdb.DuckDBPyConnection
    syncs: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    marts: dict[int, dict[str, int]] = field(default_factory=dict)
    partial_builds: int = 0
    """Builds of a snapshot mart computed from a day after its first snapshot."""


def _sync(endpoints: dict[int, Endpoint], conn: duckdb.DuckDBPyConnection, label: str) -> int:
    for pid, endpoint in endpoints.items():
        for result in sync_property(endpoint, conn, f"{label}-{pid}"):
            assert result.status == "success", (pid, label, result.stream, result.message)
    return len(endpoints)


def _build(conn: duckdb.DuckDBPyConnection, pid: int,
           names: list[str] | None = None) -> tuple[dict[str, int], int]:
    """Build the marts `names` (all by default): the rows of each, and how many of the
    snapshot marts were computed from a day (not whole)."""
    rows, partial = {}, 0
    for name, _, written in built_marts(conn, pid, names=names):
        rows[name] = written.rows
        partial += written.since is not None
    return rows, partial


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Year]:
    path: Path = tmp_path_factory.mktemp("year") / "warehouse.duckdb"
    clock = SimulatedClock(datetime(2026, 1, 5, 8, 0, tzinfo=UTC))
    settings = SandboxSettings(admin=True, rate_per_minute=UNLIMITED["rate_per_minute"],
                               burst=UNLIMITED["burst"])
    found = Year(connect(path))
    simulate = sync = interim = 0.0
    with running_sandbox(settings, clock) as sandbox, \
            httpx.Client(base_url=f"{sandbox.root_url}/_sandbox", timeout=1800) as admin:
        endpoints = {pid: Endpoint(code, sandbox.base_url, key, 10**6, 10**6)
                     for pid, (code, key, _) in HOTELS.items()}
        found.syncs += _sync(endpoints, found.conn, "start")
        played = 0
        while played < DAYS:
            days = min(STEP, DAYS - played)
            body: dict[str, object] = {"days": days, "property_ids": list(HOTELS)}
            if played == 0:
                body["seed"] = SEED
            started = time.perf_counter()
            answer = admin.post("/simulate" if played == 0 else "/advance", json=body)
            assert answer.status_code == 200, answer.text
            simulate += time.perf_counter() - started
            played += days
            started = time.perf_counter()
            found.syncs += _sync(endpoints, found.conn, f"day-{played}")
            sync += time.perf_counter() - started
            if (played // STEP) % BUILD_EVERY == 0:
                started = time.perf_counter()
                for pid in HOTELS:
                    found.partial_builds += _build(found.conn, pid, SNAPSHOT_PATH)[1]
                interim += time.perf_counter() - started
    started = time.perf_counter()
    for pid in HOTELS:
        found.marts[pid], partial = _build(found.conn, pid)
        found.partial_builds += partial
    found.seconds = {"simulate": simulate, "sync": sync, "interim": interim,
                     "marts": time.perf_counter() - started}
    try:
        yield found
    finally:
        found.conn.close()


@pytest.mark.parametrize("pid", list(HOTELS))
def test_every_mart_equals_the_sql_of_its_definition_for_a_year(year: Year, pid: int) -> None:
    conn = year.conn
    started = time.perf_counter()
    crosscheck_sql.build(conn, pid)
    built = time.perf_counter() - started
    differing: dict[str, tuple[object, ...]] = {}
    counts: dict[str, int] = {}
    for mart in crosscheck_sql.DEFINED:
        only_ours, only_sql, counts[mart] = crosscheck_sql.differences(conn, mart, pid, 3)
        if only_ours or only_sql:
            differing[mart] = (only_ours, only_sql)
    code, _, rooms = HOTELS[pid]
    print(f"\nverify: {code} ({rooms} rooms), {DAYS} simulated days, seed {SEED}, synced every "
          f"{STEP} days ({year.syncs} property syncs in all); simulate "
          f"{year.seconds['simulate']:.0f} s, syncs {year.seconds['sync']:.0f} s, snapshot "
          f"marts every {BUILD_EVERY} weeks {year.seconds['interim']:.0f} s "
          f"({year.partial_builds} builds of a snapshot mart from a day), marts of both "
          f"{year.seconds['marts']:.0f} s, cross-check SQL {built:.0f} s")
    print(f"verify: {code}: {sum(counts.values())} mart rows equal row for row in "
          f"{len(counts)} marts: " + ", ".join(f"{m} {n}" for m, n in counts.items()))
    assert differing == {}, f"{code}: marts differ from their SQL: {differing}"
    assert year.partial_builds > 0  # the snapshot marts were computed from a day
    assert all(counts[m] > 0 for m in crosscheck_sql.DEFINED), counts
    assert counts == {m: n for m, n in year.marts[pid].items() if m in counts}


@pytest.mark.parametrize("pid", list(HOTELS))
def test_room_revenue_ties_to_the_folios_to_the_cent_all_year(year: Year, pid: int) -> None:
    [(dates, unexplained, folio, rooms, shifted)] = year.conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE unexplained_net <> 0), "
        "sum(folio_accommodation_net), sum(room_revenue_nights_net + room_revenue_fees_net "
        "+ shifted_net), sum(shifted_net) FROM mart.revenue_tieout WHERE property_id = ?",
        [pid]).fetchall()
    code = HOTELS[pid][0]
    print(f"\nverify: {code}: revenue tie-out over {dates} business dates: folio accommodation "
          f"net {folio}, room revenue + fees + shifted {rooms} (shifted {shifted}); "
          f"{unexplained} dates with an unexplained cent")
    # A closed date without a tie-out row must be one on which nothing was posted or lived
    # (tieout.py: "each date closed on which anything was posted or lived"); shown as a table.
    absent = year.conn.execute("""
        WITH closed AS (
            SELECT d::DATE AS d FROM range(DATE '2026-01-05', DATE '2026-01-05' + $days,
                                           INTERVAL 1 DAY) t(d))
        SELECT c.d,
               (SELECT count(*) FROM core.folio_lines l
                 WHERE l.property_id = $p AND l.posted_on = c.d) AS lines_posted,
               (SELECT count(*) FROM mart.stay_nights n
                 WHERE n.property_id = $p AND n.stay_date = c.d AND n.is_actual) AS nights_lived
        FROM closed c
        WHERE c.d NOT IN (SELECT date FROM mart.revenue_tieout WHERE property_id = $p)
        ORDER BY c.d""", {"p": pid, "days": DAYS}).fetchall()
    print(f"verify: {code}: closed dates without a tie-out row (date | lines posted | nights "
          "lived):" + "".join(f"\n  {d} | {lines} | {nights}" for d, lines, nights in absent))
    assert [row for row in absent if row[1] or row[2]] == []
    assert dates + len(absent) == DAYS
    assert unexplained == 0
    assert folio == rooms


@pytest.mark.parametrize("pid", list(HOTELS))
def test_the_year_is_a_real_hotel(year: Year, pid: int) -> None:
    """The cross-check means something: every kind of night and fee the marts treat occurs."""
    kinds = year.conn.execute("""
        SELECT count(*) FILTER (WHERE is_no_show), count(*) FILTER (WHERE is_option),
               count(*) FILTER (WHERE is_cancelled AND NOT is_no_show),
               count(*) FILTER (WHERE is_actual), count(*) FILTER (WHERE NOT is_actual),
               (SELECT count(*) FROM mart.pickup WHERE rooms_cancelled > 0 AND property_id = $p),
               (SELECT count(*) FROM mart.room_fees WHERE property_id = $p)
        FROM mart.stay_nights WHERE property_id = $p""", {"p": pid}).fetchall()[0]
    assert all(k > 0 for k in kinds), kinds
    [(first, last)] = year.conn.execute(
        "SELECT min(stay_date), max(stay_date) FROM mart.occupancy_daily "
        "WHERE property_id = ? AND is_actual", [pid]).fetchall()
    assert (last - first).days >= DAYS - 2, (first, last)

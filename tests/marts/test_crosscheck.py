"""The marts of a simulated stretch, cross-checked against an independent DuckDB SQL
computation of the same definitions (issue 6, Tests; SQL in tests/marts/crosscheck_sql.py,
written from docs/kpi.md, not from the transforms).

The stretch: the sandbox's simulator plays property 1 (80 rooms) for 6 weeks from Monday
2026-01-05 on a simulated clock (POST /_sandbox/simulate, then /_sandbox/advance a week at a
time), the warehouse syncing after each week with the real ingestion code, so the room
versions hold up to seven states of a room (a first sync before the first day reads the
seed's out-of-order rooms), and what happened between syncs is rebuilt as docs/kpi.md says.
A full year is too long for the suite (about 5 s of simulation and sync per week). The marts
are built after each week's sync, as a schedule builds them, so what the SQL is compared with
is the last of seven rebuilds that each wrote only the rows that changed
(pipelines.marts.write), and whose snapshot marts (otb_snapshots, pickup, pace) were each
computed only from the first day whose inputs changed (pipelines.marts.logic.snapshot_inputs).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import httpx
import pytest

from pipelines.ingest import Endpoint, sync_property
from pipelines.marts import MARTS, built_marts
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import ALL_SCOPES_KEY, UNLIMITED

from . import crosscheck_sql

pytestmark = pytest.mark.slow

WEEKS = 6
SEED = 7
SNAPSHOT_MARTS = ("otb_snapshots", "pickup", "pace")


def _build(conn: duckdb.DuckDBPyConnection, build: int) -> None:
    """Build every mart of property 1 as a schedule does, recording in x_builds what each
    snapshot mart computed: from which snapshot (null: whole), how many rows."""
    for name, rows, written in built_marts(conn, 1):
        if name in SNAPSHOT_MARTS:
            conn.execute("INSERT INTO x_builds VALUES (?, ?, ?, ?, ?)",
                         [build, name, written.since, rows.height, written.rows])


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    path: Path = tmp_path_factory.mktemp("simulated") / "warehouse.duckdb"
    clock = SimulatedClock(datetime(2026, 1, 5, 8, 0, tzinfo=UTC))
    settings = SandboxSettings(admin=True, rate_per_minute=UNLIMITED["rate_per_minute"],
                               burst=UNLIMITED["burst"])
    conn = connect(path)
    conn.execute("CREATE TEMP TABLE x_builds (build INTEGER, mart VARCHAR, computed_from DATE, "
                 "computed INTEGER, stored INTEGER)")
    with running_sandbox(settings, clock) as sandbox:
        endpoint = Endpoint("sim", sandbox.base_url, ALL_SCOPES_KEY, 10**6, 10**6)
        sync_property(endpoint, conn, "start")  # the seed's out-of-order rooms, read on day 1
        for week in range(WEEKS):
            body = {"days": 7, "seed": SEED} if week == 0 else {"days": 7}
            answer = httpx.post(f"{sandbox.root_url}/_sandbox/"
                                f"{'simulate' if week == 0 else 'advance'}", json=body,
                                timeout=300)
            assert answer.status_code == 200, answer.text
            for result in sync_property(endpoint, conn, f"week-{week}"):
                assert result.status == "success", (result.stream, result.message)
            _build(conn, week)  # as after each sync: each rebuild writes what changed
        _build(conn, WEEKS)  # again, with nothing synced since
    crosscheck_sql.build(conn, 1)
    with conn:
        yield conn


def test_every_mart_is_written_again_in_sql_or_said_not_to_be() -> None:
    """A new mart fails here until crosscheck_sql defines it or names it as not defined
    (the year's cross-check of `make verify` walks the same list)."""
    assert sorted(crosscheck_sql.DEFINED + crosscheck_sql.NOT_DEFINED) == sorted(MARTS)


@pytest.mark.parametrize("mart", crosscheck_sql.DEFINED)
def test_mart_equals_the_sql_of_its_definition(simulated: duckdb.DuckDBPyConnection,
                                               mart: str) -> None:
    only_polars, only_sql, count = crosscheck_sql.differences(simulated, mart, 1, limit=5)
    assert (only_polars, only_sql) == ([], []), f"mart.{mart} differs ({count} rows in SQL)"
    assert count > 0


def test_the_stretch_is_a_real_hotel(simulated: duckdb.DuckDBPyConnection) -> None:
    """The cross-check means something: the stretch has every kind of night the marts treat."""
    kinds = simulated.execute("""
        SELECT count(*) FILTER (WHERE is_no_show), count(*) FILTER (WHERE is_option),
               count(*) FILTER (WHERE is_cancelled AND NOT is_no_show),
               count(*) FILTER (WHERE is_actual), count(*) FILTER (WHERE NOT is_actual),
               (SELECT count(*) FROM mart.pickup WHERE rooms_cancelled > 0),
               (SELECT count(*) FROM mart.occupancy_daily WHERE rooms_out_of_order > 0)
        FROM mart.stay_nights""").fetchall()[0]
    assert all(k > 0 for k in kinds), kinds


def test_the_stretch_has_fees_and_ties(simulated: duckdb.DuckDBPyConnection) -> None:
    """Issue 14 items 3 and 4 on the simulated stretch: no-show fees exist (so the
    cross-check of mart.room_fees means something; six weeks hold no early departure charged
    in full, tests/marts/test_room_fees.py has those), and room revenue ties to the
    folios on every date closed, to the cent."""
    kinds = dict(simulated.execute("SELECT fee_kind, count(*) FROM mart.room_fees "
                                   "GROUP BY 1").fetchall())
    assert kinds.get("no_show", 0) > 0
    [(dates, unexplained, folio, rooms)] = simulated.execute(
        "SELECT count(*), count(*) FILTER (WHERE unexplained_net <> 0), "
        "sum(folio_accommodation_net), sum(room_revenue_nights_net + room_revenue_fees_net "
        "+ shifted_net) FROM mart.revenue_tieout").fetchall()
    assert dates >= 7 * WEEKS - 1
    assert unexplained == 0
    assert folio == rooms


def test_no_shows_from_the_kept_state_are_the_events_no_shows(
        simulated: duckdb.DuckDBPyConnection) -> None:
    """Issue 14, item 2: the no-shows derived from versions and folio lines are exactly the
    rooms the sandbox's night audit cancelled as no-shows (stay.cancelled with reason no_show,
    still in the log of this six-week stretch), and none of its lapsed options."""
    from_state = simulated.execute(
        "SELECT DISTINCT reservation_room_id FROM mart.stay_nights WHERE is_no_show "
        "ORDER BY 1").fetchall()
    from_events = simulated.execute("""
        SELECT entity_id FROM core.events WHERE type = 'stay.cancelled' AND entity = 'stay'
        GROUP BY 1 HAVING arg_max(data ->> 'reason', event_id) = 'no_show'
        ORDER BY 1""").fetchall()
    lapsed = simulated.execute("""
        SELECT count(DISTINCT entity_id) FROM core.events
        WHERE type = 'stay.cancelled' AND data ->> 'reason' = 'option_expired'""").fetchall()
    assert from_state == from_events
    assert len(from_state) > 0
    assert lapsed[0][0] > 0


def test_snapshots_are_computed_from_the_first_changed_day(
        simulated: duckdb.DuckDBPyConnection) -> None:
    """Issue 18, item 5: the first build computes every snapshot; each weekly rebuild only
    those from a day after the first snapshot (the ones before are kept, and the comparisons
    above show the table equal to its definition all the same); a rebuild with nothing synced
    computes none."""
    builds = simulated.execute(
        "SELECT build, mart, computed_from, computed, stored, "
        "(SELECT min(snapshot_date) FROM mart.otb_snapshots) FROM x_builds "
        "ORDER BY build, mart").fetchall()
    assert len(builds) == (WEEKS + 1) * len(SNAPSHOT_MARTS)
    for build, mart, computed_from, computed, stored, first in builds:
        if build == 0:
            assert computed_from is None, (build, mart)
            assert computed == stored, (build, mart)
        elif build < WEEKS:
            assert computed_from is not None, (build, mart)
            assert computed_from > first, (build, mart)
            assert 0 < computed < stored, (build, mart)
        else:
            assert computed == 0, (build, mart, computed_from)

"""The real Dagster definitions: `dg` loads them from a checkout with no environment set, and
materialized against the sandbox they land what the API says; an event cursor fallen out of
the 30-day log fails the `event_gap` check and resyncs every reservation (issue 5); the same
streams and checks without a run (the demo's days) land and judge as a run does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from pipelines.defs.keys import INGESTION_GROUP
from pipelines.ingest.store import get_state
from pipelines.warehouse import connect
from tests.conftest import MakeSandbox

from .helpers import (
    ALL_SCOPES_KEY,
    OTHER_PROPERTY_KEY,
    REPO,
    Api,
    advance,
    assert_core_equals_api,
    clock,
    materialize_assets,
    write_properties,
)

pytestmark = pytest.mark.slow


def _dg(*args: str) -> subprocess.CompletedProcess[str]:
    """`dg ARGS` from the repository root, as `uv run dg` runs it (the project's environment
    active), with no key, no URL and no DAGSTER_HOME."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    env["VIRTUAL_ENV"] = sys.prefix
    return subprocess.run([str(Path(sys.executable).parent / "dg"), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180, check=False)


def test_dg_checks_and_lists_the_definitions_with_no_environment_and_no_warning() -> None:
    """`dg check defs` and `dg list defs` ([tool.dg] in pyproject.toml) load
    pipelines.definitions:defs with no key, no URL and no DAGSTER_HOME (nothing is read from
    the environment before a run starts), and print no warning: no SupersessionWarning of a
    legacy command, no private or preview API."""
    check = _dg("check", "defs")
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    assert "All definitions loaded successfully" in check.stdout + check.stderr
    listed = _dg("list", "defs", "--json")
    assert listed.returncode == 0, listed.stderr[-2000:]
    for done in (check, listed):
        output = done.stdout + done.stderr
        assert "SupersessionWarning" not in output
        assert "warning" not in output.lower(), output[-2000:]
    found = json.loads(listed.stdout)
    assets = {a["asset_key"] for a in found["assets"]}
    assert {"pms/reservations", "mart/occupancy_daily"} <= assets
    assert {"pms_sync", "pms_availability_snapshot", "pms_marts", "reconcile"} <= {
        j["name"] for j in found["jobs"]}
    assert {"pms_sync_hourly", "pms_availability_daily", "reconcile_daily"} <= {
        s["name"] for s in found["schedules"]}
    assert {"unique_keys", "event_gap"} <= {c["name"] for c in found["asset_checks"]}


def test_the_hourly_schedule_alone_runs_ingestion_checks_and_marts() -> None:
    """docs/ingestion.md, Which automation runs what: the job of `pms_sync_hourly` (and of the
    event sensor) selects every stream but availability, their blocking checks and every mart,
    so one switch runs all three and a failed check holds that run's marts back; no asset
    waits for the automation condition sensor."""
    from pipelines.definitions import defs
    from pipelines.defs.keys import READ_COPY_KEY, stream_key
    from pipelines.marts import MARTS

    job = defs.resolve_job_def("pms_sync")
    assert defs.resolve_schedule_def("pms_sync_hourly").job_name == "pms_sync"
    assert defs.resolve_sensor_def("pms_events_sensor").job_name == "pms_sync"
    selected = job.asset_layer.executable_asset_keys
    marts = {k for k in defs.resolve_asset_graph().get_all_asset_keys()  # the budget is
             if k.path[0] == "mart" and k.path[-1] != "budget_monthly"}  # a file's import
    streams = {stream_key(s) for s in ("reference", "events", "reservations", "folios",
                                       "pos_ledger")}
    assert {key.path[-1] for key in marts} == set(MARTS)
    assert selected == streams | marts | {READ_COPY_KEY}
    checks = {key.name for key in job.asset_layer.asset_graph.asset_check_keys}
    assert {"unique_keys", "count_matches_api", "folio_unique_keys", "event_gap",
            "no_quarantined_records"} <= checks
    for node in defs.resolve_asset_graph().asset_nodes:
        assert node.automation_condition is None, node.key


def test_materialized_assets_land_the_api_and_an_event_gap_fails_its_check(
        make_sandbox: MakeSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    monkeypatch.setenv("PMS_API_BASE_URL", sandbox.base_url)
    monkeypatch.setenv("PMS_API_KEY", ALL_SCOPES_KEY)
    advance(sandbox.root_url)

    ingestion = dg.AssetSelection.groups(INGESTION_GROUP)
    result = materialize_assets(tmp_path / "warehouse.duckdb", ingestion, raise_on_error=True)
    assert result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks == dict.fromkeys((
        "event_gap", "unique_keys", "rooms_have_reservation", "status_is_least_advanced",
        "nights_match_dates", "versions_never_overlap", "count_matches_api",
        "no_quarantined_records", "folio_unique_keys"), True)
    materialized = {event.materialization.asset_key.path[-1]: event.materialization.metadata
                    for event in result.get_asset_materialization_events()}
    assert set(materialized) == {"reference", "events", "reservations", "folios",
                                 "availability", "pos_ledger"}
    for name, meta in materialized.items():
        assert {"calls", "rows", "seconds"} <= set(meta), name
    assert "preview" in materialized["reservations"]
    api = Api(sandbox.base_url)
    with connect(tmp_path / "warehouse.duckdb") as conn:
        assert_core_equals_api(conn, api, 1)

    # A change the warehouse does not read, then 31 days, then another change: the first
    # change's events fell out of the 30-day log before any sync read them.
    reservation = api.reservations()[0]
    api.http.patch(f"/reservations/{reservation['id']}",
                   json={"notes": "changed, never synced"}).raise_for_status()
    sandbox.state.clock.advance(timedelta(days=31))  # type: ignore[attr-defined]
    api.http.patch(f"/reservations/{reservation['id']}",
                   json={"notes": "and again"}).raise_for_status()
    with connect(tmp_path / "warehouse.duckdb") as conn:
        cursor = conn.execute("SELECT max(event_id) FROM core.events").fetchone()
    assert cursor is not None
    assert api.events()[0]["id"] > cursor[0] + 1  # the precondition of a gap

    second = materialize_assets(tmp_path / "warehouse.duckdb", ingestion, raise_on_error=True)
    checks = {e.check_name: e.passed for e in second.get_asset_check_evaluations()}
    assert checks["event_gap"] is False
    with connect(tmp_path / "warehouse.duckdb") as conn:
        runs = dict(conn.execute("SELECT stream, status FROM meta.sync_runs WHERE run_id = ?",
                                 [second.run_id]).fetchall())
        message = conn.execute("SELECT message FROM meta.sync_runs WHERE run_id = ? AND "
                               "stream = 'reservations'", [second.run_id]).fetchone()
        state = get_state(conn, 1, "reservations")
        notes = conn.execute("SELECT notes FROM core.reservations WHERE reservation_id = ?",
                             [reservation["id"]]).fetchone()
    assert runs["events"] == "gap"
    assert message is not None
    assert str(message[0]).startswith("full resync: event gap")
    assert state is not None
    assert state.full_resync_required is False  # the full resync ran and cleared the flag
    assert notes == ("and again",)
    api.close()


def test_a_sync_without_a_run_lands_and_checks_as_a_run_does(
        make_sandbox: MakeSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pipelines.materialize.sync_direct (the demo's days): two hotels synced by a Dagster run
    into one warehouse and without a run, through the writer, into another hold the same core
    rows, and the same checks give the same verdicts; a blocking check that fails (a night
    count that is not departure - arrival) is each property's error, as it fails a run."""
    from pipelines.ingest import SyncSettings
    from pipelines.materialize import materialize, sync_direct
    from tests.verify.test_demo_same_figures import _rows

    sandbox = make_sandbox(clock(), admin=True)
    monkeypatch.setenv("PMSW_PROPERTIES_FILE", str(write_properties(
        tmp_path / "properties.yaml", sandbox.base_url,
        codes={"rome": "KEY_ROME", "fire": "KEY_FIRE"})))
    monkeypatch.setenv("KEY_ROME", ALL_SCOPES_KEY)
    monkeypatch.setenv("KEY_FIRE", OTHER_PROPERTY_KEY)
    advance(sandbox.root_url, property_ids=[1, 2])
    codes, streams = ["rome", "fire"], ["reference", "events", "reservations", "folios"]
    by_run, direct = tmp_path / "run.duckdb", tmp_path / "direct.duckdb"
    ran = materialize(codes, by_run, streams, marts=False, publish=False)
    connect(direct).close()  # the writer opens a warehouse that exists
    synced = sync_direct(codes, direct, streams, settings=SyncSettings())
    for one, other in zip(ran, synced, strict=True):
        assert (one.code, one.error, other.error) == (other.code, None, None)
        assert other.checks == one.checks
        assert len(other.checks) == 9
        assert all(passed for passed, _ in other.checks.values())
        assert {s: m["rows"] for s, m in other.streams.items()} == {
            s: m["rows"] for s, m in one.streams.items()}
    with connect(by_run) as left, connect(direct) as right:
        tables = [str(t) for (t,) in left.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'core' "
            "AND table_type = 'BASE TABLE' ORDER BY 1").fetchall()]
        assert {"reservations", "folio_lines", "events"} <= set(tables)
        for table in tables:
            assert _rows(left, "core", table) == _rows(right, "core", table), table
        right.execute("UPDATE core.reservations SET nights = nights + 1 WHERE reservation_id "
                      "IN (SELECT min(reservation_id) FROM core.reservations GROUP BY "
                      "property_id)")
    again = sync_direct(codes, direct, streams, settings=SyncSettings())
    assert [run.checks["nights_match_dates"] for run in again] == [
        (False, "2 rows whose nights are not departure - arrival")] * 2
    assert all(str(run.error).startswith("asset check nights_match_dates failed")
               for run in again)


def test_one_property_without_a_run_does_what_its_run_does(
        make_sandbox: MakeSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pipelines.materialize.sync_alone (`pmsw sync` of one property): the property's initial
    load by a Dagster run into one warehouse and without a run into another give the same
    streams' metadata, checks, warnings and marts, and the same core and mart rows, each read
    copy published; then a blocking check that fails (a night count that is not departure -
    arrival) stops both, each property's error, and neither publishes."""
    from pipelines.ingest import STREAMS, SyncSettings
    from pipelines.materialize import materialize, sync_alone
    from pipelines.warehouse import read_copy_path
    from tests.verify.test_demo_same_figures import _rows

    sandbox = make_sandbox(clock(), admin=True)
    monkeypatch.setenv("PMSW_PROPERTIES_FILE", str(write_properties(
        tmp_path / "properties.yaml", sandbox.base_url, codes={"rome": "KEY_ROME"})))
    monkeypatch.setenv("KEY_ROME", ALL_SCOPES_KEY)
    advance(sandbox.root_url, property_ids=[1])
    streams = list(STREAMS)
    by_run, alone = tmp_path / "run.duckdb", tmp_path / "alone.duckdb"
    [ran] = materialize(["rome"], by_run, streams)
    synced = sync_alone("rome", alone, streams, settings=SyncSettings())
    assert (ran.error, synced.error) == (None, None)
    assert synced.checks == ran.checks
    assert len(synced.checks) == 10  # 9 of the streams, the tie-out
    assert synced.warnings == ran.warnings
    assert synced.marts == ran.marts
    assert len(synced.marts) > 10

    def what(run_streams: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
        return [(s, {k: v for k, v in m.items() if k != "seconds"})
                for s, m in run_streams.items()]

    assert what(synced.streams) == what(ran.streams)  # in the run's order, the same values
    published, rows = {}, {}
    for path in (by_run, alone):
        with connect(path) as conn:
            published[path] = conn.execute("SELECT * FROM meta.published").fetchall()
            rows[path] = {}
            for schema in ("core", "mart"):
                tables = [str(t) for (t,) in conn.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = ? "
                    "AND table_type = 'BASE TABLE' ORDER BY 1", [schema]).fetchall()]
                assert tables, schema
                for table in tables:
                    rows[path][f"{schema}.{table}"] = _rows(conn, schema, table)
            conn.execute("UPDATE core.reservations SET nights = nights + 1 "
                         "WHERE reservation_id = (SELECT min(reservation_id) "
                         "FROM core.reservations)")
        assert read_copy_path(path).is_file()
    assert rows[alone] == rows[by_run]
    [ran] = materialize(["rome"], by_run, streams)
    synced = sync_alone("rome", alone, streams, settings=SyncSettings())
    assert "nights_match_dates" in str(ran.error)  # Dagster's own words, on two lines
    assert str(synced.error) == ("asset check nights_match_dates failed: 1 rows whose nights "
                                 "are not departure - arrival")
    assert (synced.streams, synced.marts) == ({}, {})
    for path in (by_run, alone):
        with connect(path) as conn:
            assert conn.execute("SELECT * FROM meta.published").fetchall() == published[path]

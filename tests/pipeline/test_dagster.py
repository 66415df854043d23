"""The real Dagster definitions: they validate from a checkout with no environment set, and
materialized against the sandbox they land what the API says; an event cursor fallen out of
the 30-day log fails the `event_gap` check and resyncs every reservation (issue 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from pipelines.warehouse import connect, get_state
from tests.conftest import MakeSandbox

from .helpers import (
    ALL_SCOPES_KEY,
    CLIENT_BURST,
    CLIENT_RATE,
    REPO,
    Api,
    advance,
    assert_core_equals_api,
    clock,
)


def test_definitions_validate_with_no_environment() -> None:
    """`dagster definitions validate -w workspace.yaml` passes with no key, no URL and no
    DAGSTER_HOME: nothing is read from the environment before a run starts."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "dagster"), "definitions", "validate", "-w",
         "workspace.yaml"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Validation successful for code location pipelines.definitions" in (
        done.stdout + done.stderr)


def _materialize(tmp_path: Path) -> dg.ExecuteInProcessResult:
    from pipelines.definitions import defs
    from pipelines.defs.keys import INGESTION_GROUP
    from pipelines.defs.resources import PmsApiResource, WarehouseResource

    resources: dict[str, Any] = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(tmp_path / "warehouse.duckdb"))
    resources["pms"] = PmsApiResource(  # the key stays in the environment (dg.EnvVar)
        base_url=dg.EnvVar("PMS_API_BASE_URL"), api_key=dg.EnvVar("PMS_API_KEY"),
        rate_per_minute=CLIENT_RATE, burst=CLIENT_BURST)
    every = [d for d in defs.assets or [] if isinstance(d, dg.AssetsDefinition)]
    return dg.materialize(every, selection=dg.AssetSelection.groups(INGESTION_GROUP),
                          partition_key="default", resources=resources)


def test_materialized_assets_land_the_api_and_an_event_gap_fails_its_check(
        make_sandbox: MakeSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    monkeypatch.setenv("PMS_API_BASE_URL", sandbox.base_url)
    monkeypatch.setenv("PMS_API_KEY", ALL_SCOPES_KEY)
    advance(sandbox.root_url)

    result = _materialize(tmp_path)
    assert result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks == dict.fromkeys((
        "event_gap", "unique_keys", "rooms_have_reservation", "status_is_least_advanced",
        "nights_match_dates", "versions_never_overlap", "count_matches_api",
        "folio_unique_keys"), True)
    materialized = {event.materialization.asset_key.path[-1]: event.materialization.metadata
                    for event in result.get_asset_materialization_events()}
    assert set(materialized) == {"reference", "events", "reservations", "folios",
                                 "availability", "pos_ledger"}
    for name, meta in materialized.items():
        assert {"calls", "rows", "seconds"} <= set(meta), name
    assert "preview" in materialized["reservations"]
    api = Api(sandbox.base_url)
    conn = connect(tmp_path / "warehouse.duckdb")
    try:
        assert_core_equals_api(conn, api, 1)
    finally:
        conn.close()

    # A change the warehouse does not read, then 31 days, then another change: the first
    # change's events fell out of the 30-day log before any sync read them.
    reservation = api.reservations()[0]
    api.http.patch(f"/reservations/{reservation['id']}",
                   json={"notes": "changed, never synced"}).raise_for_status()
    sandbox.state.clock.advance(timedelta(days=31))  # type: ignore[attr-defined]
    api.http.patch(f"/reservations/{reservation['id']}",
                   json={"notes": "and again"}).raise_for_status()
    conn = connect(tmp_path / "warehouse.duckdb")
    try:
        cursor = conn.execute("SELECT max(event_id) FROM core.events").fetchone()
    finally:
        conn.close()
    assert cursor is not None
    assert api.events()[0]["id"] > cursor[0] + 1  # the precondition of a gap

    second = _materialize(tmp_path)
    checks = {e.check_name: e.passed for e in second.get_asset_check_evaluations()}
    assert checks["event_gap"] is False
    conn = connect(tmp_path / "warehouse.duckdb")
    try:
        runs = dict(conn.execute("SELECT stream, status FROM meta.sync_runs WHERE run_id = ?",
                                 [second.run_id]).fetchall())
        message = conn.execute("SELECT message FROM meta.sync_runs WHERE run_id = ? AND "
                               "stream = 'reservations'", [second.run_id]).fetchone()
        state = get_state(conn, 1, "reservations")
        notes = conn.execute("SELECT notes FROM core.reservations WHERE reservation_id = ?",
                             [reservation["id"]]).fetchone()
    finally:
        conn.close()
    assert runs["events"] == "gap"
    assert message is not None
    assert str(message[0]).startswith("full resync: event gap")
    assert state is not None
    assert state.full_resync_required is False  # the full resync ran and cleared the flag
    assert notes == ("and again",)
    api.close()

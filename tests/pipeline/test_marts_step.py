"""The marts of a run are one Dagster step (a multi-asset, pipelines.defs.marts.assets): one
asset per mart.* table, built together per property so that they read core.* once; a subset
builds only what was selected; a mart that fails stops its property's pass, and the marts
built before it stay written and materialized (issue 18, item 5)."""

from __future__ import annotations

from calendar import monthrange
from datetime import date
from pathlib import Path
from typing import Any

import dagster as dg
import polars as pl
import pytest

from pipelines.marts import MARTS
from pipelines.warehouse import connect
from pipelines.warehouse.frames import query_frame
from tests.conftest import MakeSandbox

from .helpers import ALL_SCOPES_KEY, advance, clock, materialize_assets


def _materialized(result: dg.ExecuteInProcessResult) -> dict[str, dict[str, Any]]:
    return {e.materialization.asset_key.path[-1]: {
        k: v.value for k, v in e.materialization.metadata.items()}
        for e in result.get_asset_materialization_events()}


def _builds(warehouse: Path) -> dict[str, str]:
    with connect(warehouse) as conn:
        return dict(conn.execute("SELECT mart, run_id FROM meta.mart_builds "
                                 "WHERE property_id = 1").fetchall())


def _kept(warehouse: Path) -> list[tuple[Any, ...]]:
    with connect(warehouse) as conn:
        return conn.execute("SELECT rowid, * FROM mart.forecast_history ORDER BY ALL").fetchall()


def test_the_marts_are_one_step_a_subset_builds_alone_a_failure_keeps_the_marts_before(
        make_sandbox: MakeSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipelines.defs.keys import INGESTION_GROUP
    from pipelines.defs.marts.assets import MARTS_GROUP

    sandbox = make_sandbox(clock(), admin=True)
    monkeypatch.setenv("PMS_API_BASE_URL", sandbox.base_url)
    monkeypatch.setenv("PMS_API_KEY", ALL_SCOPES_KEY)
    advance(sandbox.root_url, days=2)
    warehouse = tmp_path / "warehouse.duckdb"
    assert materialize_assets(warehouse, dg.AssetSelection.groups(INGESTION_GROUP)).success

    # Every mart, in one step: a materialization per mart, each with its own metadata.
    every = materialize_assets(warehouse, dg.AssetSelection.groups(MARTS_GROUP))
    assert every.success
    built = _materialized(every)
    assert set(built) == set(MARTS)
    steps = {e.step_key for e in every.get_asset_materialization_events()}
    assert steps == {"marts"}
    with connect(warehouse) as conn:
        for name, meta in built.items():
            stored = conn.execute(f"SELECT count(*) FROM mart.{name} WHERE property_id = 1"
                                  ).fetchall()
            assert meta["rows"] == stored[0][0], name
            assert {"inserted", "deleted", "preview", "columns"} <= set(meta), name
        forecast = query_frame(conn, "SELECT * FROM mart.forecast_daily ORDER BY stay_date",
                               [])
        # the forecast's first build keeps its nights to the end of the month after its
        # as-of date's, as forecast (mart.forecast_history, written with it)
        kept = conn.execute(
            "SELECT h.as_of_date, min(h.stay_date), max(h.stay_date), count(*), "
            "count(*) FILTER (WHERE f.rooms_forecast = h.rooms_forecast AND "
            "f.room_revenue_forecast_net = h.room_revenue_forecast_net) "
            "FROM mart.forecast_history h JOIN mart.forecast_daily f USING (property_id, "
            "as_of_date, stay_date) WHERE h.property_id = 1 GROUP BY 1").fetchall()
    as_of = forecast["as_of_date"][0]
    following = (as_of.month % 12 + 1, as_of.year + (as_of.month == 12))
    end = date(following[1], following[0], monthrange(following[1], following[0])[1])
    nights = (end - as_of).days + 1
    assert kept == [(as_of, as_of, end, nights, nights)]
    assert built["stay_nights"]["rows"] > 0
    assert built["occupancy_daily"]["rows"] > 0
    assert _builds(warehouse) == dict.fromkeys(MARTS, every.run_id)
    history = _kept(warehouse)

    # A subset: only pace is built, from the stored marts it reads; nothing changed, so
    # nothing is written.
    pace = materialize_assets(warehouse, dg.AssetSelection.assets(dg.AssetKey(["mart", "pace"])))
    assert pace.success
    assert set(_materialized(pace)) == {"pace"}
    assert _materialized(pace)["pace"]["inserted"] == 0
    assert _materialized(pace)["pace"]["deleted"] == 0
    builds = _builds(warehouse)
    assert builds.pop("pace") == pace.run_id
    assert builds == dict.fromkeys([m for m in MARTS if m != "pace"], every.run_id)

    # forecast_accuracy fails (injected): the marts before it are written and materialized;
    # it and alerts (after it) are not; the run fails naming where the property stopped.
    def broken(_: object) -> pl.DataFrame:
        raise RuntimeError("injected failure")

    names = list(MARTS)
    monkeypatch.setitem(MARTS, "forecast_accuracy", (broken, MARTS["forecast_accuracy"][1]))
    failed = materialize_assets(warehouse, dg.AssetSelection.groups(MARTS_GROUP))
    assert not failed.success
    before = names[:names.index("forecast_accuracy")]
    assert set(_materialized(failed)) == set(before)
    failure = next(e for e in failed.all_events if e.event_type_value == "STEP_FAILURE")
    message = str(failure.step_failure_data.error)
    assert "stopped: default at mart.forecast_accuracy" in message
    assert "injected failure" in message
    builds = _builds(warehouse)
    assert {m for m, run in builds.items() if run == failed.run_id} == set(before)
    # Nothing changed since the first build: the marts rebuilt wrote no row, and the
    # forecast's nights kept again are the rows kept before, untouched (rowid, kept_at).
    written = {m: (b["inserted"], b["deleted"]) for m, b in _materialized(failed).items()}
    assert written == dict.fromkeys(before, (0, 0))
    assert _kept(warehouse) == history
    assert builds["forecast_accuracy"] == every.run_id
    assert builds["alerts"] == every.run_id
    with connect(warehouse) as conn:
        again = query_frame(conn, "SELECT * FROM mart.forecast_daily ORDER BY stay_date", [])
    assert again.equals(forecast)  # rebuilt from the same warehouse: the same forecast

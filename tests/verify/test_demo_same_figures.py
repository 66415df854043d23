"""The demo's shortcuts leave every figure as it was (issue 47 item 8; docs/operations.md,
"The demo's time").

The demo takes three shortcuts: the daily syncs sweep the future book's folios over the whole
stretch instead of every 24 hours (`DemoConfig.folio_sweep_days`), the daily close does not
publish the read copy after each run (`DemoConfig.publish_daily`), and the final sync reads
every open folio again rather than the folios of every reservation
(`DemoConfig.final_full_refresh`). This builds the same short demo twice, once the way it ran
before the shortcuts (a sweep of every open folio each day, a publish after each close run, a
full folio refresh at the end) and once as it runs now, and requires
the two warehouses to hold the same rows: every mart table, every table of core.* and the
reconciliation's runs and results, row for row (the columns that record when or in which run
a row was read left out: they are the machine's clock and Dagster's run ids, not figures),
the same KPI summary printed, and the new run making fewer folio calls.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
END = "2026-03-02"
DAYS, DAILY_SYNCS = 40, 4

WHEN_READ = {"fetched_at", "loaded_at", "run_id", "started_at", "finished_at",
             "first_seen_run", "last_seen_run", "imported_at", "kept_at"}
"""Columns of when (the machine's clock) or in which run (a Dagster run id, a recon run
number) a row was read, not what it says: the demo's budget's import (imported_at) and the
forecast history's build (kept_at) among them."""

_BUILD = """
import sys
from datetime import date
from pathlib import Path
from pipelines.demo import DemoConfig, run_demo
folder, before = Path(sys.argv[1]), sys.argv[2] == "before"
result = run_demo(DemoConfig(
    data_dir=folder, warehouse=folder / "warehouse.duckdb", days={days},
    daily_syncs={daily}, end=date.fromisoformat("{end}"), progress=False,
    folio_sweep_days=1 if before else None, publish_daily=before,
    final_full_refresh=before))
assert result.summary is not None
print("SUMMARY-BEGINS")
print(result.summary.text())
"""


def _build(folder: Path, mode: str) -> str:
    """The demo in a process of its own (it sets its own environment); its summary."""
    code = _BUILD.format(days=DAYS, daily=DAILY_SYNCS, end=END)
    done = subprocess.run([sys.executable, "-c", code, str(folder), mode], cwd=REPO,
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    summary = done.stdout[done.stdout.index("SUMMARY-BEGINS"):]
    return summary[summary.index("Hotel "):summary.index("Warehouse:")]


def _tables(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    rows = conn.execute(
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_type = 'BASE TABLE' AND table_schema IN ('mart', 'core', 'recon') "
        "ORDER BY 1, 2").fetchall()
    return [(str(schema), str(name)) for schema, name in rows]


def _rows(conn: duckdb.DuckDBPyConnection, schema: str, table: str) -> list[tuple[object, ...]]:
    columns = [str(r[0]) for r in conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND "
        "table_name = ? ORDER BY ordinal_position", [schema, table]).fetchall()
        if str(r[0]) not in WHEN_READ]
    names = ", ".join(f'"{c}"' for c in columns)
    return conn.execute(f'SELECT {names} FROM {schema}."{table}" ORDER BY ALL').fetchall()


def _folio_calls(conn: duckdb.DuckDBPyConnection) -> int:
    row = conn.execute("SELECT sum(calls) FROM meta.folio_classes").fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


@pytest.mark.verify  # make verify: two short demos, a few minutes
def test_the_demo_with_its_shortcuts_builds_the_same_warehouse(tmp_path: Path) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    with ThreadPoolExecutor(2) as pool:  # two processes, one a core
        summaries = list(pool.map(_build, [before, after], ["before", "after"]))
    assert summaries[0] == summaries[1]
    with duckdb.connect(str(before / "warehouse.duckdb"), read_only=True) as old, \
            duckdb.connect(str(after / "warehouse.duckdb"), read_only=True) as new:
        tables = _tables(old)
        assert tables == _tables(new)
        marts = [t for s, t in tables if s == "mart"]
        assert {"occupancy_daily", "otb_snapshots", "pickup", "revenue_daily"} <= set(marts)
        compared = 0
        for schema, table in tables:
            rows = _rows(old, schema, table)
            assert rows == _rows(new, schema, table), f"{schema}.{table} differs"
            compared += len(rows)
        recon_runs = old.execute("SELECT count(*) FROM recon.runs").fetchone()
        assert recon_runs is not None
        assert recon_runs[0] >= 4 + 2 * DAILY_SYNCS
        calls_before, calls_after = _folio_calls(old), _folio_calls(new)
    print(f"\n{len(tables)} tables, {compared:,} rows equal; folio calls "
          f"{calls_before:,} before, {calls_after:,} now")
    assert compared > 100_000
    assert calls_after < calls_before

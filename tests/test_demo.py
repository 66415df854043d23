"""`pmsw demo` (issue 8; README, "What the demo does"): the whole product against the sandbox
on a short stretch, run twice (each run starts clean), and never replacing a warehouse it did
not make. The full-size run is timed by benchmarks/bench_demo.py."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import httpx
import pytest


def pmsw() -> list[str]:
    script = Path(sys.executable).parent / "pmsw"
    if script.exists():
        return [str(script)]
    found = shutil.which("pmsw")
    if found is None:
        pytest.fail("the pmsw console script is not installed")
    return [found]


END = "2026-03-02"
"""The business date the short demo ends on (`--end`): a day the tests pin, not today."""


def run_demo(warehouse: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*pmsw(), "demo", "--warehouse", str(warehouse), "--days", "12",
                           "--daily-syncs", "2", "--end", END], capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.mark.verify  # make verify: two full runs of the short demo (the fixture's run stays)
def test_demo_runs_end_to_end_twice_and_prints_the_summary(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    first = run_demo(warehouse)
    assert first.returncode == 0, first.stderr + first.stdout
    out = first.stdout
    for step in range(1, 9):
        assert re.search(rf"^\[{step}/8\] ", out, re.M), out  # progress, step by step
    for hotel in ("Hotel Aurelia Roma (ROMA01)", "Albergo Laguna Firenze (FIRE01)"):
        assert hotel in out
    assert len(re.findall(r"last 30 nights \(actual\)\s+\d+\.\d%\s+[\d,]+\.\d\d", out)) == 2
    assert len(re.findall(r"next 30 nights \(on the books\)\s+\d+\.\d%", out)) == 2
    assert len(re.findall(r"7-day pickup, next 30 nights: [+-]\d+ room nights", out)) == 2
    assert len(re.findall(r"reconciliation dry_run ", out)) == 2
    assert len(re.findall(r"reconciliation apply ", out)) == 2
    assert len(re.findall(r"daily close, \d+ runs, ", out)) == 2  # issue 16: every day
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        first_runs = conn.execute("SELECT count(*) FROM recon.runs").fetchone()
        last_day = conn.execute("SELECT max(snapshot_date) FROM mart.otb_snapshots").fetchone()
    assert first_runs is not None
    assert first_runs[0] >= 4 + 2 * 2  # final dry run and apply, a close per day and hotel
    assert last_day is not None
    assert str(last_day[0]) == END  # the business date asked for
    assert len(re.findall(r"^  asset checks: \d+ passed$", out, re.M)) == 2  # as pmsw sync runs
    assert f"Warehouse: {warehouse}" in out
    assert "notebooks/revenue_manager.ipynb" in out
    base_url = re.search(r"API v1 at (http://127\.0\.0\.1:\d+/v1)", out)
    assert base_url is not None
    with pytest.raises(httpx.TransportError):  # the sandbox was stopped
        httpx.get(f"{base_url.group(1)}/openapi.json", timeout=2)

    second = run_demo(warehouse)  # starts clean: same hotels, same seed, same figures
    assert second.returncode == 0, second.stderr + second.stdout
    summary = out[out.index("Hotel Aurelia Roma"):out.index("Warehouse:")]
    assert summary in second.stdout
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        runs = conn.execute("SELECT count(*) FROM recon.runs").fetchone()
    assert runs == first_runs  # the same runs again: the first demo's were removed


def test_demo_never_replaces_a_warehouse_it_did_not_make(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    warehouse.write_bytes(b"someone's data")
    result = run_demo(warehouse)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: {warehouse} exists and was not made by the demo: move it away, or pass "
        "--warehouse with another file"]
    assert warehouse.read_bytes() == b"someone's data"


DOMAIN_MD_OCCUPANCY = (55, 60, 70, 82, 85, 82, 78, 70, 85, 85, 68, 62)
"""domain.md, Simulation parameters: occupancy by month, January first."""


def test_the_demo_year_starts_with_a_full_book_not_an_empty_hotel(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The demo's history comes from `pmsw sandbox simulate`, whose warm-up books the months
    before the first day: its first week is as full as domain.md's month says (a hotel
    starting empty had 14% in its first month), within 15 points."""
    from tests.demo_warehouse import demo_warehouse

    with duckdb.connect(str(demo_warehouse(tmp_path_factory)), read_only=True) as conn:
        rows = conn.execute(
            "SELECT property_id, min(stay_date), sum(rooms_sold) / sum(rooms_available) "
            "FROM mart.occupancy_daily WHERE stay_date < (SELECT min(stay_date) + 7 FROM "
            "mart.occupancy_daily) GROUP BY property_id ORDER BY property_id").fetchall()
    assert [row[0] for row in rows] == [1, 2]
    for _, first, occupancy in rows:
        target = DOMAIN_MD_OCCUPANCY[first.month - 1] / 100
        assert target - 0.15 <= occupancy <= target + 0.15, (first, occupancy)

"""The read copy opens with the tools people have (issue 15, item 6): the registry's DuckDB
CLI 1.5.6 (`duckdb-cli`) runs a view docs/notebooks.md documents on it, and `pmsw sql` does
with nothing else installed. The warehouse is written in DuckDB 1.4's storage format
(connection.STORAGE_VERSION), so its read copy is a copy of its bytes; the CLI could open the
warehouse file too, but not while a writer holds it: that is why readers open the copy."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pipelines.warehouse import connect, publish, read_copy_path
from tests.pipeline.helpers import pmsw
from tests.stored_rows import stored_rows

VIEW_SQL = ("SELECT count(*) AS weeks FROM mart.v_occupancy_calendar "
            "WHERE occupancy_pct IS NOT NULL")


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    """A warehouse created by `connect` (1.4 storage), migrated, views applied, published."""
    path = tmp_path / "warehouse.duckdb"
    with connect(path) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 7 AS n")
        publish(conn, path)
    return path


def _expected(warehouse: Path) -> int:
    [(count,)] = stored_rows(read_copy_path(warehouse), VIEW_SQL)
    return int(count)


def test_duckdb_cli_1_5_6_opens_the_read_copy_and_runs_a_documented_view(
        warehouse: Path) -> None:
    uvx = shutil.which("uvx")
    if uvx is None:
        pytest.skip("uvx not on PATH")
    cli = [uvx, "--offline", "--from", "duckdb-cli==1.5.6", "duckdb"]
    probe = subprocess.run([*cli, "-version"], capture_output=True, text=True, timeout=120,
                           check=False)
    if probe.returncode != 0:  # not in uv's cache: fetch it from the package registry
        cli.remove("--offline")
        probe = subprocess.run([*cli, "-version"], capture_output=True, text=True,
                               timeout=600, check=False)
    if probe.returncode != 0:  # no cache and no registry: say so, do not pass
        pytest.skip(f"duckdb-cli 1.5.6 not available: {probe.stderr.strip()[-200:]}")
    assert "v1.5.6" in probe.stdout
    done = subprocess.run([*cli, "-readonly", "-csv", str(read_copy_path(warehouse)), "-c",
                           VIEW_SQL], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["weeks", str(_expected(warehouse))]
    marker = subprocess.run([*cli, "-readonly", "-csv", str(read_copy_path(warehouse)), "-c",
                             "SELECT n FROM core.marker"], capture_output=True, text=True,
                            timeout=120, check=False)
    assert marker.stdout.splitlines() == ["n", "7"], marker.stderr
    with connect(warehouse):
        refused = subprocess.run([*cli, "-readonly", str(warehouse), "-c", "SELECT 1"],
                                 capture_output=True, text=True, timeout=120, check=False)
        beside = subprocess.run([*cli, "-readonly", "-csv", str(read_copy_path(warehouse)),
                                 "-c", "SELECT n FROM core.marker"], capture_output=True,
                                text=True, timeout=120, check=False)
    assert "lock" in (refused.stdout + refused.stderr).lower()  # why readers open the copy
    assert beside.stdout.splitlines() == ["n", "7"], beside.stderr


def test_pmsw_sql_runs_a_documented_view_with_nothing_else_installed(warehouse: Path) -> None:
    done = pmsw(["sql", "--builtin", "--warehouse", str(warehouse), "-c", VIEW_SQL], {},
               timeout=60, ok=True)
    assert re.search(rf"│\s+{_expected(warehouse)} │", done.stdout), done.stdout
    marker = pmsw(["sql", "--builtin", "--warehouse", str(warehouse), "-c",
                  "SELECT n FROM core.marker"], {}, timeout=60)
    assert re.search(r"│\s+7 │", marker.stdout), marker.stdout

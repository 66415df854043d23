"""Every `pmsw report` command fails with ONE clear line on stderr, no traceback, non-zero
exit (issue 8): a missing warehouse, an unknown property, a bad date, a wrong key (an unknown
report or option value)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipelines.cli import main

pytestmark = pytest.mark.slow

REPORTS = ["occupancy", "pickup", "pace", "segments", "revenue", "reconciliation", "forecast",
           "forecast-accuracy", "alerts", "flash", "forecast-months"]


def fails_in_one_line(*args: str) -> str:
    result = CliRunner().invoke(main, ["report", *args])
    assert result.exit_code != 0, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize("name", REPORTS)
def test_missing_warehouse(name: str, tmp_path: Path) -> None:
    line = fails_in_one_line(name, "--warehouse", str(tmp_path / "none.duckdb"))
    assert "no warehouse at" in line
    assert "make demo" in line


@pytest.mark.parametrize("name", REPORTS)
def test_unknown_property(name: str, warehouse: Path) -> None:
    line = fails_in_one_line(name, "--warehouse", str(warehouse), "--property", "VENICE")
    assert "unknown property 'VENICE'" in line
    assert "ROMA01 (1)" in line
    assert "FIRE01 (2)" in line


@pytest.mark.parametrize("name", REPORTS)
def test_several_properties_and_none_named(name: str, warehouse: Path) -> None:
    line = fails_in_one_line(name, "--warehouse", str(warehouse))
    assert "pass --property" in line


@pytest.mark.parametrize("name", REPORTS)
@pytest.mark.parametrize(("option", "value"), [("--from", "2026-02-30"), ("--to", "tomorrow")])
def test_bad_date(name: str, option: str, value: str, warehouse: Path) -> None:
    line = fails_in_one_line(name, "--warehouse", str(warehouse), "--property", "ROMA01",
                             option, value)
    assert f"{option} '{value}' is not a date" in line
    assert "YYYY-MM-DD" in line


def test_from_after_to(warehouse: Path) -> None:
    line = fails_in_one_line("occupancy", "--warehouse", str(warehouse), "--property",
                             "ROMA01", "--from", "2026-03-10", "--to", "2026-03-01")
    assert "--from 2026-03-10 is after --to 2026-03-01" in line


@pytest.mark.parametrize("args", [
    ["occupation"],
    ["occupancy", "--format", "xml"],
    ["pickup", "--window", "5"],
    ["segments", "--by", "nationality"],
    ["pace", "--colour", "red"],
])
def test_wrong_key(args: list[str], warehouse: Path) -> None:
    line = fails_in_one_line(*args, "--warehouse", str(warehouse))
    assert line.startswith("Error: ")
    assert any(arg in line for arg in args)  # names what is wrong


def test_a_warehouse_without_marts_names_the_table(tmp_path: Path) -> None:
    from pipelines.warehouse import connect, publish

    path = tmp_path / "bare.duckdb"
    conn = connect(path)
    conn.execute("DROP VIEW IF EXISTS mart.v_pickup_last_7_days")
    publish(conn, path)
    conn.close()
    line = fails_in_one_line("occupancy", "--warehouse", str(path))
    assert "holds no property yet" in line


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """The real process (console script), not only click's runner."""
    result = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "report", "pace", "--warehouse",
         str(tmp_path / "missing.duckdb")], capture_output=True, text=True, timeout=60,
        check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: no warehouse at ")

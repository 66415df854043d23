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
           "forecast-accuracy", "alerts", "flash", "forecast-months", "flash-ahead"]
NO_RANGE = ["forecast-accuracy", "flash"]  # of REPORTS, those that take no --from/--to


def fails_in_one_line(*args: str, status: int | None = None) -> str:
    """The one line of a failed `pmsw report ARGS`; `status`: the exit status expected (2 for a
    usage error, 1 for any other failure; any non-zero when None)."""
    result = CliRunner().invoke(main, ["report", *args])
    assert result.exit_code != 0, result.output
    assert status is None or result.exit_code == status, (result.exit_code, result.stderr)
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


@pytest.mark.parametrize("name", [n for n in REPORTS if n not in NO_RANGE])
@pytest.mark.parametrize(("option", "value"), [("--from", "2026-02-30"), ("--to", "tomorrow")])
def test_bad_date_is_a_usage_error(name: str, option: str, value: str, warehouse: Path) -> None:
    line = fails_in_one_line(name, "--warehouse", str(warehouse), "--property", "ROMA01",
                             option, value, status=2)
    assert f"'{option}': '{value}' is not a date" in line
    assert "YYYY-MM-DD" in line


@pytest.mark.parametrize("name", NO_RANGE)
def test_a_report_without_dates_refuses_them(name: str, warehouse: Path) -> None:
    """--from/--to mean nothing to these: refused rather than silently ignored."""
    line = fails_in_one_line(name, "--warehouse", str(warehouse), "--property", "ROMA01",
                             "--from", "2026-03-01", status=2)
    assert "--from" in line


@pytest.mark.parametrize(("args", "named"), [
    (["tieout", "--month", "2026-1x"], "'--month': '2026-1x' is not a month: use YYYY-MM"),
    (["city-tax", "--month", "13-2026"], "'--month': '13-2026' is not a month: use YYYY-MM"),
    (["ledger", "--date", "2026-11-31"], "'--date': '2026-11-31' is not a date"),
    (["close-pack", "--month", "2026-1x"], "'--month': '2026-1x' is not a month: use YYYY-MM"),
    (["ledger", "--ledger", "both"], "'--ledger': 'both' is not one of 'guest', 'city'"),
])
def test_bad_month_or_date_option_is_a_usage_error(args: list[str], named: str,
                                                   warehouse: Path) -> None:
    line = fails_in_one_line(*args, "--warehouse", str(warehouse), "--property", "ROMA01",
                             status=2)
    assert named in line


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
    with connect(path) as conn:
        conn.execute("DROP VIEW IF EXISTS mart.v_pickup_last_7_days")
        publish(conn, path)
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

"""One way to name the warehouse (issue 15, item 5): `--warehouse` and PMSW_WAREHOUSE mean the
same file for every command; a reader, `pmsw reconcile` or `pmsw warehouse` given a missing
file prints one line and creates nothing. Real processes, no sandbox needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from pipelines.cli import main
from pipelines.warehouse import WAREHOUSE_ENV, connect, publish, read_copy_path
from tests.pipeline.helpers import REPO, pmsw, pmsw_env

pytestmark = pytest.mark.slow

MISSING_FILE_COMMANDS = [
    ["report", "occupancy"], ["report", "pickup"], ["reconcile"], ["warehouse", "info"],
    ["warehouse", "publish"],
]


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    """Every command and group under `group`, asked as click asks (`pmsw` adds the domains'
    commands when first asked, pipelines/cli/__init__.py)."""
    found = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            found.append((f"{prefix}{name}", command))  # a group takes options too (reconcile)
            found += _commands(command, f"{prefix}{name} ")
        else:
            found.append((f"{prefix}{name}", command))
    return found


def test_every_command_with_a_warehouse_option_reads_pmsw_warehouse() -> None:
    with_option = {name: p for name, c in _commands(main) for p in c.params
                   if p.name == "warehouse"}
    assert {"sync", "reconcile", "demo", "report occupancy", "warehouse info"} <= set(
        with_option)
    for name, param in with_option.items():
        assert isinstance(param, click.Option)
        assert param.envvar == WAREHOUSE_ENV, name


@pytest.mark.parametrize("how", ["option", "env"])
@pytest.mark.parametrize("args", MISSING_FILE_COMMANDS, ids=" ".join)
def test_a_missing_warehouse_is_one_line_and_nothing_is_created(
        args: list[str], how: str, tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "warehouse.duckdb"
    if how == "option":
        done = pmsw([*args, "--warehouse", str(missing)], {}, timeout=60)
    else:
        done = pmsw(args, {WAREHOUSE_ENV: str(missing)}, timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"no warehouse at {missing}" in done.stderr
    assert not missing.parent.exists()


def test_readers_read_the_file_pmsw_warehouse_names(tmp_path: Path) -> None:
    warehouse = tmp_path / "elsewhere.duckdb"
    with connect(warehouse) as conn:
        publish(conn, warehouse)
    assert read_copy_path(warehouse) == tmp_path / "elsewhere.read.duckdb"
    info = pmsw(["warehouse", "info"], {WAREHOUSE_ENV: str(warehouse)}, timeout=60, ok=True)
    assert str(warehouse) in info.stdout
    assert str(tmp_path / "elsewhere.read.duckdb") in info.stdout
    report = pmsw(["report", "occupancy"], {WAREHOUSE_ENV: str(warehouse)}, timeout=60)
    assert report.returncode == 1  # read the copy: one line, it holds no property yet
    assert report.stderr.strip() == (f"Error: the warehouse {warehouse} holds no property yet: "
                                     "run `make demo` or `pmsw sync` first")


def test_the_dagster_resource_opens_the_file_pmsw_warehouse_names(tmp_path: Path) -> None:
    warehouse = tmp_path / "dagster.duckdb"
    code = ("from pipelines.definitions import defs\n"
            "print(defs.resources['warehouse'].file())")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=False,
                          env=pmsw_env({WAREHOUSE_ENV: str(warehouse)}))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(warehouse)

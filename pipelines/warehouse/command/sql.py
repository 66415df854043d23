"""`pmsw sql`: an interactive SQL shell on the warehouse's read copy (never the writer's file).

DuckDB's own shell when one is on PATH (`duckdb -readonly <read copy>`: the registry's
`duckdb-cli` 1.5 opens the copy, which is written in DuckDB 1.4's storage format); else a
plain line shell on the project's own duckdb package, so nothing else needs installing.
Harlequin was considered and left out: a full TUI with its own dependency tree for what
`duckdb -readonly` already does.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from pipelines.cli.options import warehouse_option


def _line_shell(warehouse: Path, command: str | None) -> None:
    import duckdb

    from pipelines.warehouse import open_read_copy, read_copy_path

    with open_read_copy(warehouse) as conn:
        if command is not None:
            _run(conn, command)
            return
        click.echo(f"{read_copy_path(warehouse)} (read-only). End statements with ';', "
                   ".quit to leave.", err=True)
        buffer = ""
        while True:
            try:
                line = input("pmsw sql> " if not buffer else "     ...> ")
            except EOFError:
                break
            if not buffer and line.strip() in (".quit", ".exit", "\\q"):
                break
            buffer += line + "\n"
            if buffer.rstrip().endswith(";"):
                try:
                    _run(conn, buffer)
                except duckdb.Error as error:
                    click.echo(f"Error: {error}", err=True)
                buffer = ""


def _run(conn: object, sql: str) -> None:
    import duckdb

    assert isinstance(conn, duckdb.DuckDBPyConnection)
    relation = conn.sql(sql)
    if relation is not None:
        relation.show(max_rows=100)


@click.command()
@warehouse_option("DuckDB warehouse file; the shell opens its read copy")
@click.option("-c", "command", default=None, help="Run this SQL and exit.")
@click.option("--builtin", is_flag=True, help="The line shell even when `duckdb` is on PATH.")
def sql(warehouse: Path, command: str | None, builtin: bool) -> None:
    """Interactive SQL on the read copy (data/warehouse.read.duckdb): DuckDB's shell when
    installed, else a line shell. Safe while a sync or Dagster runs.

    \b
    Examples:
      pmsw sql
      pmsw sql -c "SELECT * FROM mart.v_occupancy_calendar LIMIT 5"
    """
    from pipelines.warehouse import WarehouseError, open_read_copy, read_copy_path

    try:
        open_read_copy(warehouse).close()  # one line when missing
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None
    shell = None if builtin else shutil.which("duckdb")
    if shell is not None:
        args = [shell, "-readonly", str(read_copy_path(warehouse))]
        if command is not None:
            args += ["-c", command]
        sys.stdout.flush()
        os.execv(shell, args)
    try:
        _line_shell(warehouse, command)
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:  # a SQL error of -c: one line
        raise click.ClickException(str(error).splitlines()[0]) from None

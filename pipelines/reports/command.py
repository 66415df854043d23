"""`pmsw report <name>`: one command per report of the registry (pipelines.reports.REPORTS),
built from its declaration: its help, its options, whether --from/--to mean something to it.

Every failure the user can fix is ONE line on stderr: exit status 2 for a usage error (a bad
date or month, an unknown report or option value), 1 otherwise (a missing warehouse, an
unknown property, a range the report refuses).
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Any

import click

from pipelines.cli.options import ISO_DATE, YEAR_MONTH, OneLineGroup, warehouse_param
from pipelines.reports import (
    FORMATS,
    RANGE,
    REPORTS,
    Option,
    Report,
    ReportError,
    Table,
    as_of_line,
    open_warehouse,
    render,
    render_xlsx,
    resolve_property,
    run_report,
)

_RANGE = (click.Option(["--from", "first"], type=ISO_DATE, help="First date (inclusive)."),
          click.Option(["--to", "last"], type=ISO_DATE, help="Last date (inclusive)."))
_COMMON = (
    click.Option(["--property", "property_ref"], metavar="CODE|ID",
                 help="Property code or id (needed when the warehouse holds several)."),
    click.Option(["--format", "fmt"], type=click.Choice(FORMATS), default="table",
                 show_default=True,
                 help="Output format; xlsx: one sheet, title block, typed cells, totals."),
    click.Option(["--output", "-o", "output"], type=click.Path(dir_okay=False, path_type=Path),
                 default=None, help="Write to FILE instead of stdout (xlsx to a terminal needs "
                 "it)."),
)
_TYPES: dict[str, click.ParamType[Any, Any]] = {
    "date": ISO_DATE, "month": YEAR_MONTH,
    "file": click.Path(dir_okay=False, path_type=Path)}


def _param(option: Option) -> click.Option:
    if option.kind == "flag":
        return click.Option([option.flag, option.flag.lstrip("-").replace("-", "_")],
                            is_flag=True, default=False, help=option.help)
    kind = click.Choice(option.choices) if option.kind == "choice" else _TYPES[option.kind]
    name = option.flag.lstrip("-").replace("-", "_")
    return click.Option([option.flag, name], type=kind, default=option.default,
                        required=option.required, show_default=option.default is not None,
                        help=option.help)


def _command(spec: Report) -> click.Command:
    """The click command of one declared report."""
    def callback(warehouse: Path, property_ref: str | None, fmt: str, output: Path | None,
                 first: date | None = None, last: date | None = None, **given: Any) -> None:
        options: dict[str, Any] = {}
        for option in spec.options:
            value = given[option.flag.lstrip("-").replace("-", "_")]
            if option.dest != RANGE:
                options[option.dest] = value
            elif value is not None:  # a month gives its first and last day, a date itself
                first, last = value if isinstance(value, tuple) else (value, value)
        _run(spec.name, warehouse, property_ref, first, last, fmt, output, **options)

    summary, _, notes = spec.help.strip().partition("\n\n")
    return click.Command(
        spec.name, callback=callback,
        params=[warehouse_param("DuckDB warehouse file; reports read its read copy"), *_COMMON,
                *(_RANGE if spec.takes_range else ()), *(_param(o) for o in spec.options)],
        help=summary.replace("\n", " ") + ("\n\n\b\n" + notes if notes else ""))


def _run(name: str, warehouse: Path, property_ref: str | None, start: date | None,
         end: date | None, fmt: str, output: Path | None = None, **options: Any) -> None:
    if fmt == "xlsx" and output is None and sys.stdout.isatty():
        raise click.ClickException("--format xlsx writes a binary workbook: redirect stdout "
                                   "or pass --output FILE.xlsx")
    try:
        with open_warehouse(warehouse) as conn:
            prop = resolve_property(conn, warehouse, property_ref)
            table = run_report(conn, warehouse, name, prop, start, end, **options)
            as_of_text = as_of_line(conn, prop) + (
                f"; figures as of {table.as_of}" if table.as_of else "")
    except ReportError as error:
        raise click.ClickException(str(error)) from None
    if fmt == "table" and output is None:
        click.echo(as_of_text)
        _write(table, name, fmt, output, as_of_text)
    else:  # csv, json and xlsx stay machine-readable: the line goes to stderr, once written
        _write(table, name, fmt, output, as_of_text)
        click.echo(as_of_text, err=True)


def _write(table: Table, name: str, fmt: str, output: Path | None, as_of: str) -> None:
    """The rendered report to --output or stdout (xlsx as bytes, its title block holding the
    As-of line)."""
    if fmt == "xlsx":
        data = render_xlsx(table, name, as_of)
        if output is None:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            _write_file(output, data)
        return
    text = render(table, fmt)
    if output is None:
        click.echo(text)
    else:
        _write_file(output, (text + "\n").encode())


def _write_file(output: Path, data: bytes) -> None:
    try:
        output.write_bytes(data)
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") \
            from None


@click.group(cls=OneLineGroup)
def report() -> None:
    """Print revenue and reconciliation tables from the warehouse's read copy.

    \b
    Every report takes --property, --format table|csv|json|xlsx and --output FILE (xlsx:
    one sheet named after the report, typed cells, header frozen); most take --from/--to
    (inclusive), and `--help` of each says what else.
    The warehouse is data/warehouse.duckdb unless --warehouse or PMSW_WAREHOUSE says
    otherwise; reports read the copy published after the last write (data/warehouse.read.duckdb),
    never wait for a sync, and print an "As of" line. Examples:
      pmsw report occupancy --property ROMA01
      pmsw report pickup --property ROMA01 --window 30 --format csv > pickup.csv
      pmsw report reconciliation --property FIRE01 --format json
      pmsw report revenue --property ROMA01 --format xlsx -o revenue.xlsx
    """


for _spec in REPORTS.values():
    report.add_command(_command(_spec))

"""`pmsw report <name>`: the click wiring of pipelines.reports (one help text per report).

Every failure the user can fix is ONE line on stderr and exit status 1 (2 for a usage error):
a missing warehouse, an unknown property, a bad date, an unknown report or option value.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipelines.cli.options import OneLineGroup
from pipelines.reports.errors import ReportError
from pipelines.reports.render import FORMATS, render
from pipelines.reports.reports import SEGMENT_DIMENSIONS, run_report
from pipelines.reports.warehouse import open_warehouse, parse_date, resolve_property
from pipelines.warehouse import DEFAULT_PATH

WAREHOUSE_ENV = "PMSW_WAREHOUSE"


def _common(fn: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--warehouse", type=click.Path(dir_okay=False, path_type=Path),
                     envvar=WAREHOUSE_ENV, default=DEFAULT_PATH, show_default=True,
                     help=f"DuckDB warehouse file (env {WAREHOUSE_ENV})."),
        click.option("--property", "property_ref", metavar="CODE|ID",
                     help="Property code or id (needed when the warehouse holds several)."),
        click.option("--from", "first", metavar="YYYY-MM-DD", help="First date (inclusive)."),
        click.option("--to", "last", metavar="YYYY-MM-DD", help="Last date (inclusive)."),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                     show_default=True, help="Output format."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _run(name: str, warehouse: Path, property_ref: str | None, first: str | None,
         last: str | None, fmt: str, **options: Any) -> None:
    try:
        start = parse_date(first, "--from") if first is not None else None
        end = parse_date(last, "--to") if last is not None else None
        as_of = options.get("as_of")
        if isinstance(as_of, str):
            options["as_of"] = parse_date(as_of, "--as-of")
        conn = open_warehouse(warehouse)
        try:
            prop = resolve_property(conn, warehouse, property_ref)
            table = run_report(conn, warehouse, name, prop, start, end, **options)
        finally:
            conn.close()
    except ReportError as error:
        raise click.ClickException(str(error)) from None
    click.echo(render(table, fmt))


@click.group(cls=OneLineGroup)
def report() -> None:
    """Print revenue and reconciliation tables from the warehouse (read-only).

    \b
    Every report takes --property, --from/--to (inclusive) and --format table|csv|json.
    The warehouse is data/warehouse.duckdb unless --warehouse or PMSW_WAREHOUSE says
    otherwise. Examples:
      pmsw report occupancy --property ROMA01
      pmsw report pickup --property ROMA01 --window 30 --format csv > pickup.csv
      pmsw report reconciliation --property FIRE01 --format json
    """


@report.command()
@_common
def occupancy(**kw: Any) -> None:
    """Occupancy, ADR and RevPAR per night (default: the last 30 nights).

    \b
    Rooms available on the STR basis; revenue net of VAT; nights before the business date
    are actuals (from folios), later ones on the books. The total line divides the sums.
    Examples:
      pmsw report occupancy --property ROMA01
      pmsw report occupancy --property ROMA01 --from 2026-08-01 --to 2026-08-31
      pmsw report occupancy --property 2 --format csv
    """
    _run("occupancy", **kw)


@report.command()
@_common
@click.option("--window", type=click.Choice(["1", "7", "14", "30"]), default="7",
              show_default=True, help="Pickup window in days.")
@click.option("--as-of", "as_of", metavar="YYYY-MM-DD",
              help="As-of date (default: the latest snapshot, the business date).")
def pickup(window: str, **kw: Any) -> None:
    """Pickup by stay date: room nights new, cancelled and net over the window, and revenue
    (default: the next 30 stay dates, 7-day window).

    \b
    Examples:
      pmsw report pickup --property ROMA01
      pmsw report pickup --property ROMA01 --window 30 --from 2026-12-01 --to 2026-12-31
      pmsw report pickup --property ROMA01 --as-of 2026-11-01 --format json
    """
    _run("pickup", window=int(window), **kw)


@report.command()
@_common
@click.option("--as-of", "as_of", metavar="YYYY-MM-DD",
              help="As-of date (default: the latest snapshot, the business date).")
def pace(**kw: Any) -> None:
    """On the books per stay date beside the same time last year (STLY: 364 days earlier,
    same weekday, same days before arrival); default: the next 30 stay dates.

    \b
    STLY is empty where the warehouse has no snapshot a year earlier.
    Examples:
      pmsw report pace --property ROMA01
      pmsw report pace --property ROMA01 --from 2026-12-20 --to 2027-01-06 --format csv
    """
    _run("pace", **kw)


@report.command()
@_common
@click.option("--by", type=click.Choice(SEGMENT_DIMENSIONS), default="channel",
              show_default=True, help="Segment dimension.")
def segments(by: str, **kw: Any) -> None:
    """Rooms sold, room revenue (net), shares and ADR by segment over the stay dates
    (default: the last 30 nights).

    \b
    Examples:
      pmsw report segments --property ROMA01
      pmsw report segments --property ROMA01 --by rate_plan --from 2026-07-01 --to 2026-07-31
      pmsw report segments --property ROMA01 --by room_type --format json
    """
    _run("segments", by=by, **kw)


@report.command()
@_common
def revenue(**kw: Any) -> None:
    """Revenue per posting date: accommodation, food and beverage, other (net of VAT), total
    net and gross, and the city tax collected apart (never revenue); default: last 30 days.

    \b
    Examples:
      pmsw report revenue --property ROMA01
      pmsw report revenue --property FIRE01 --from 2026-10-01 --to 2026-10-31 --format csv
    """
    _run("revenue", **kw)


@report.command()
@_common
def reconciliation(**kw: Any) -> None:
    """Folio reconciliation runs covering the business dates: mode, and per status (matched,
    missing, posted, amount_mismatch, blocked, failed) the count and expected amount;
    default: runs covering the last 30 days.

    \b
    Rows per charge: recon.results (notebooks/finance_reconciliation.ipynb).
    Examples:
      pmsw report reconciliation --property ROMA01
      pmsw report reconciliation --property ROMA01 --from 2026-11-01 --format json
    """
    _run("reconciliation", **kw)

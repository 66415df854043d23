"""`pmsw report <name>`: the click wiring of pipelines.reports (one help text per report).

Every failure the user can fix is ONE line on stderr and exit status 1 (2 for a usage error):
a missing warehouse, an unknown property, a bad date, an unknown report or option value.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipelines.cli.options import OneLineGroup, warehouse_option
from pipelines.reports import (
    FORMATS,
    SEGMENT_DIMENSIONS,
    ReportError,
    Table,
    as_of_line,
    open_warehouse,
    parse_date,
    render,
    render_xlsx,
    resolve_property,
    run_report,
)


def _common(fn: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        warehouse_option("DuckDB warehouse file; reports read its read copy"),
        click.option("--property", "property_ref", metavar="CODE|ID",
                     help="Property code or id (needed when the warehouse holds several)."),
        click.option("--from", "first", metavar="YYYY-MM-DD", help="First date (inclusive)."),
        click.option("--to", "last", metavar="YYYY-MM-DD", help="Last date (inclusive)."),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                     show_default=True,
                     help="Output format; xlsx: one sheet, title block, typed cells, totals."),
        click.option("--output", "-o", "output", type=click.Path(dir_okay=False,
                     path_type=Path), default=None,
                     help="Write to FILE instead of stdout (xlsx to a terminal needs it)."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _run(name: str, warehouse: Path, property_ref: str | None, first: str | None,
         last: str | None, fmt: str, output: Path | None = None, **options: Any) -> None:
    if fmt == "xlsx" and output is None and sys.stdout.isatty():
        raise click.ClickException("--format xlsx writes a binary workbook: redirect stdout "
                                   "or pass --output FILE.xlsx")
    try:
        start = parse_date(first, "--from") if first is not None else None
        end = parse_date(last, "--to") if last is not None else None
        as_of = options.get("as_of")
        if isinstance(as_of, str):
            options["as_of"] = parse_date(as_of, "--as-of")
        if isinstance(options.get("date"), str):
            options["date"] = parse_date(options["date"], "--date")
        conn = open_warehouse(warehouse)
        try:
            prop = resolve_property(conn, warehouse, property_ref)
            table = run_report(conn, warehouse, name, prop, start, end, **options)
            as_of_text = as_of_line(conn, prop) + (
                f"; figures as of {table.as_of}" if table.as_of else "")
        finally:
            conn.close()
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
    Every report takes --property, --from/--to (inclusive), --format table|csv|json|xlsx
    and --output FILE (xlsx: one sheet named after the report, typed cells, header frozen).
    The warehouse is data/warehouse.duckdb unless --warehouse or PMSW_WAREHOUSE says
    otherwise; reports read the copy published after the last write (data/warehouse.read.duckdb),
    never wait for a sync, and print an "As of" line. Examples:
      pmsw report occupancy --property ROMA01
      pmsw report pickup --property ROMA01 --window 30 --format csv > pickup.csv
      pmsw report reconciliation --property FIRE01 --format json
      pmsw report revenue --property ROMA01 --format xlsx -o revenue.xlsx
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
              help="As-of date (default: the last closed business date; the open one "
                   "is partial).")
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
              help="As-of date (default: the last closed business date; the open one "
                   "is partial).")
def pace(**kw: Any) -> None:
    """On the books per stay date beside the same time last year (STLY: 364 days earlier,
    same weekday, same days before arrival); default: the next 30 stay dates.

    \b
    STLY is empty where the warehouse has no snapshot a year earlier; stly_is_rebuilt marks
    a STLY rebuilt from the reservations' history, and last year's actual stands beside.
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


@report.command()
@_common
def forecast(**kw: Any) -> None:
    """Where each night will end: rooms on the books, rooms forecast with its low/high band,
    occupancy, net room revenue and ADR forecast, and the method (default: the next 30
    nights). Methods and their accuracy: docs/forecast.md.

    \b
    Examples:
      pmsw report forecast --property ROMA01
      pmsw report forecast --property ROMA01 --from 2026-12-01 --to 2026-12-31 --format csv
    """
    _run("forecast", **kw)


@report.command("forecast-accuracy")
@_common
def forecast_accuracy(**kw: Any) -> None:
    """Backtest of the forecast methods: per horizon (1, 7, 14, 30, 60, 90 days) and method,
    MAE in rooms, WAPE and bias over the last 91 nights realized, and how much better than
    the same night last year with its 90 % interval (docs/forecast.md, "How sure the figures
    are"; --from/--to are not used).

    \b
    Examples:
      pmsw report forecast-accuracy --property ROMA01
      pmsw report forecast-accuracy --property FIRE01 --format json
    """
    _run("forecast-accuracy", **kw)


@report.command("forecast-months")
@_common
def forecast_months(**kw: Any) -> None:
    """Where each month will end: its closed nights actual and the others forecast (rooms,
    occupancy, ADR, RevPAR, net room revenue), beside its budget (`pmsw budget import`) and
    the same month last year, with a total (default: the business date's month and the 11
    after it; --from/--to pick the months that hold them). A month the forecast does not
    reach to its end is not shown; the title says so.

    \b
    Examples:
      pmsw report forecast-months --property ROMA01
      pmsw report forecast-months --property ROMA01 --from 2027-01-01 --to 2027-03-31
      pmsw report forecast-months --property ROMA01 --format xlsx -o months.xlsx
    """
    _run("forecast-months", **kw)


@report.command()
@_common
def alerts(**kw: Any) -> None:
    """Nights to look at, as of the last closed business date: pace a fifth or more below
    last year, pickup spikes (z-score over the last 8 weeks), on the books above capacity
    plus overbooking (default: the next 90 nights).

    \b
    Each alert stands beside stly_is_rebuilt (its STLY rebuilt from the reservations'
    history) and last year's actual (ly_actual_rooms_sold, ly_actual_room_revenue_net).
    Examples:
      pmsw report alerts --property ROMA01
      pmsw report alerts --property ROMA01 --format csv
    """
    _run("alerts", **kw)


@report.command()
@_common
@click.option("--date", "day", metavar="YYYY-MM-DD",
              help="Closed business date reported (default: the day before the business "
                   "date).")
def flash(day: str | None, **kw: Any) -> None:
    """Manager's flash for a business date: the day, month to date and year to date (rooms
    sold, occupancy, ADR, RevPAR, room, F&B and other revenue, net of VAT), each against the
    budget (`pmsw budget import`, pro rata of the month's days), the same dates last year and,
    for the month, its expected end (actual nights plus mart.forecast_daily for the rest).
    --from/--to are not used.

    \b
    Examples:
      pmsw report flash --property ROMA01
      pmsw report flash --property ROMA01 --date 2026-11-15 --format csv
    """
    if day:
        kw["date"] = day
    _run("flash", **kw)


@report.command()
@_common
@click.option("--state", type=click.Choice(["all", "open", "invoiced_separately", "credited",
                                            "written_off", "not_due"]),
              default="all", show_default=True, help="Only the charges in this state.")
def worklist(state: str, **kw: Any) -> None:
    """Charges that cannot be posted (blocked, failed, amount_mismatch) as the latest run
    left them: folio id and number, fiscal document, room, party to bill, item, quantity,
    net/VAT/gross, reason code, age in days, and the latest resolution (default: every
    closed business date).

    \b
    Resolve one: pmsw reconcile resolve ITEM --as written_off --note TEXT
    Examples:
      pmsw report worklist --property ROMA01 --state open
      pmsw report worklist --property ROMA01 --format xlsx -o worklist.xlsx
    """
    _run("worklist", state=state, **kw)


@report.command()
@warehouse_option()
@click.option("--property", "property_ref", metavar="CODE|ID",
              help="Property code or id (needed when the warehouse holds several).")
@click.option("--by", type=click.Choice(["folio", "category"]), default="folio",
              show_default=True, help="One row per folio, or per category with aging.")
@click.option("--date", "day", metavar="YYYY-MM-DD", default=None,
              help="A past business date: the ledger at its end, from the landed history "
                   "(default: as of the last sync).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Output format.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write to FILE instead of stdout.")
def ledger(by: str, day: str | None, **kw: Any) -> None:
    """Guest ledger: open balances by folio as of the last sync (the property's business
    date): in house, departed with a balance, cancelled or future with a balance, deposits
    (a credit balance before arrival), house accounts; aging of the oldest posting in
    buckets 0-30, 31-60, 61-90, over 90 days. Folio balances are the API's. With --date D
    (a past business date): the balances at the end of D, from the folio lines posted up to
    D and each room's state then (docs/reconciliation.md, Guest ledger).

    \b
    Examples:
      pmsw report ledger --property ROMA01
      pmsw report ledger --property ROMA01 --date 2026-10-31
      pmsw report ledger --property ROMA01 --by category --format xlsx -o ledger.xlsx
    """
    _run("ledger", first=None, last=None, by=by, date=day, **kw)


@report.command(name="city-tax")
@click.option("--month", required=True, metavar="YYYY-MM", help="The month of the return.")
@warehouse_option()
@click.option("--property", "property_ref", metavar="CODE|ID",
              help="Property code or id (needed when the warehouse holds several).")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Rules YAML merged over the shipped defaults.")
@click.option("--stays", is_flag=True, default=False,
              help="List the stays behind the exemptions (by age, beyond the nights cap).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Output format.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write to FILE instead of stdout.")
def city_tax(month: str, **kw: Any) -> None:
    """City-tax return of a month: persons, person-nights, taxable nights, exempt nights by
    reason (age, beyond the nights cap), rate, amount due, amount charged on folios,
    difference, and the blocked city tax still due. Each night is taxed under its city's
    rule in force that night (the property's city and stars, as the reconciliation resolves
    it; the title says which); a city the rules do not name is refused.

    \b
    Only nights up to the last closed business date count. Examples:
      pmsw report city-tax --property ROMA01 --month 2026-08
      pmsw report city-tax --property FIRE01 --month 2026-08 --format xlsx -o ctax.xlsx
      pmsw report city-tax --property FIRE01 --month 2026-08 --stays
    """
    import calendar
    from datetime import date

    try:
        year, mon = (int(part) for part in month.strip().split("-"))
        first = date(year, mon, 1)
    except ValueError:
        raise click.ClickException(f"--month {month!r} is not a month: use YYYY-MM, e.g. "
                                   "2026-08") from None
    last = first.replace(day=calendar.monthrange(year, mon)[1])
    _run("city-tax", first=first.isoformat(), last=last.isoformat(), **kw)


@report.command(name="interface-loss")
@_common
def interface_loss(**kw: Any) -> None:
    """Interface loss: POS ticket lines the POS never delivered to a folio, per business
    date and item: lines and amount, lost (count, amount, % of the amount), recovered by
    apply runs, still open; over the reconciled dates (default: the last 30 days).

    \b
    Reconcile the history first to cover it: pmsw reconcile --from D --to D --backlog
    Examples:
      pmsw report interface-loss --property ROMA01
      pmsw report interface-loss --property FIRE01 --from 2026-01-01 --format csv
    """
    _run("interface-loss", **kw)


@report.command()
@_common
@click.option("--date", "day", metavar="YYYY-MM-DD",
              help="One business date (the same as --from D --to D).")
@click.option("--month", metavar="YYYY-MM", help="The closed business dates of a month.")
def tieout(day: str | None, month: str | None, **kw: Any) -> None:
    """Tie-out a controller signs: the folio lines of each department, summed straight from
    the folios, against the revenue reports (rooms against occupancy, nights and fees, the
    fees apart; F&B and other against revenue; city tax apart, not revenue), the difference
    explained (night charges posted on another date) or listed unexplained with its cause.
    Default: the last closed business date.

    \b
    Examples:
      pmsw report tieout --property ROMA01
      pmsw report tieout --property ROMA01 --month 2026-10 --format xlsx -o tieout.xlsx
    """
    import calendar
    from datetime import date

    if day is not None:
        kw["first"] = kw["last"] = day
    if month is not None:
        try:
            year, mon = (int(part) for part in month.strip().split("-"))
            first = date(year, mon, 1)
        except ValueError:
            raise click.UsageError(f"--month {month!r} is not a month: use YYYY-MM, e.g. "
                                   "2026-08") from None
        kw["first"] = first.isoformat()
        kw["last"] = first.replace(day=calendar.monthrange(year, mon)[1]).isoformat()
    _run("tieout", **kw)

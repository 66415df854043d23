"""`pmsw reconcile`: folio reconciliation of one property, printed as a summary table.

    pmsw reconcile --date 2026-03-01                  # dry run of one business date
    pmsw reconcile --from 2026-03-01 --to 2026-03-07 --apply

The same run as the Dagster job `reconcile` (pipelines.recon), on the warehouse
(`--warehouse`). `--property` is the PMS property code (default: the warehouse's only
property; on a group directory it is required and names the member file DIR/<CODE>.duckdb
the run reads, writes and publishes). A dry run reads the warehouse only; `--apply` posts
through the API of that property (pipelines.properties). Exit status 1 when the run could
not be made or a charge `failed` (then one line on stderr says why: the error codes and the
first reason).
"""

from __future__ import annotations

import sys
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pipelines.cli.options import ISO_DATE, as_json, format_option, wait_option, warehouse_option
from pipelines.vocabulary import counted

if TYPE_CHECKING:
    from pipelines.recon import ReconReport


def summary_table(report: ReconReport) -> str:
    """The run's counts and amounts per status, with a total line."""
    from pipelines.recon.logic import STATUSES

    lines = [f"Reconciliation run {report.run_id}: property {report.property_code}, "
             f"business dates {report.first} to {report.last}, {report.mode.value}",
             f"  {'status':<16}{'charges':>9}{'amount':>14}"]
    total_n = total_cents = 0
    for status in STATUSES:
        n, cents = report.summary[status]
        total_n += n
        total_cents += cents
        lines.append(f"  {status:<16}{n:>9}{cents / 100:>14.2f}")
    lines.append(f"  {'total':<16}{total_n:>9}{total_cents / 100:>14.2f}")
    return "\n".join(lines)


def run_facts(report: ReconReport) -> dict[str, Any]:
    """What `summary_table` shows, as data (`--format json`): amounts in the currency's units."""
    from pipelines.recon.logic import STATUSES

    posted = None if report.apply is None else {
        "charges": report.apply.posts, "reservations": report.apply.reservations}
    return {"run_id": report.run_id, "property": report.property_code, "first": report.first,
            "last": report.last, "mode": report.mode.value,
            "statuses": {s: {"charges": report.summary[s][0],
                             "amount": Decimal(report.summary[s][1]) / 100} for s in STATUSES},
            "posted": posted}


def failure_line(report: ReconReport) -> str:
    """Why charges failed, in one line: the error codes with their counts, the first reason
    (a key without folios:write fails every post alike)."""
    from collections import Counter

    failed = [r for r in report.results.iter_rows(named=True) if r["status"] == "failed"]
    codes = Counter(str(r["error_code"]) for r in failed)
    counts = ", ".join(f"{code} ({n})" for code, n in codes.most_common())
    return (f"pmsw reconcile: {len(failed)} charge(s) failed: {counts}; first: "
            f"{failed[0]['reason']}")


@click.group(invoke_without_command=True)
@click.option("--date", "one_date", type=ISO_DATE,
              help="One business date (default: the last one closed).")
@click.option("--from", "first", type=ISO_DATE, help="First business date of a range.")
@click.option("--to", "last", type=ISO_DATE, help="Last business date of a range (inclusive).")
@click.option("--apply", "apply_", is_flag=True,
              help="Post the missing charges (default: dry run, nothing posted).")
@click.option("--property", "code", metavar="CODE", default=None,
              help="PMS property code (default: the warehouse's only property; required on a "
                   "group directory).")
@warehouse_option("DuckDB warehouse file (must exist), or a group directory")
@wait_option()
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Rules YAML merged over the shipped defaults.")
@click.option("--backlog", is_flag=True,
              help="With --from/--to: one run per chunk of --chunk-days dates, with a progress "
                   "bar; started again it skips the chunks done (resumable after a kill).")
@click.option("--chunk-days", type=click.IntRange(1, 366), default=7, show_default=True,
              help="With --backlog: business dates per run.")
@click.option("--redo", is_flag=True, help="With --backlog: run the chunks done before too.")
@click.option("--close", "close", is_flag=True,
              help="The daily close: apply the last closed date for the --auto kinds, then "
                   "the folios of today's departures (needs the API).")
@click.option("--auto", "auto_sources", multiple=True, metavar="KIND",
              help="With --close: a kind posted automatically (pos, rule:city_tax, "
                   "rule:breakfast, rule:room_nights); default pos and rule:city_tax.")
@format_option()
@click.pass_context
def reconcile(ctx: click.Context, one_date: date | None, first: date | None,
              last: date | None, apply_: bool, code: str | None, warehouse: Path,
              rules_file: Path | None, backlog: bool = False, chunk_days: int = 7,
              redo: bool = False, close: bool = False,
              auto_sources: tuple[str, ...] = (), fmt: str = "text") -> None:
    """Find charges missing from folios (POS ledger and rules); --apply posts them once.

    `pmsw reconcile resolve ITEM --as STATE --note TEXT` records what finance did about a
    charge of the worklist (`pmsw report worklist`)."""
    if ctx.invoked_subcommand is not None:
        return
    from contextlib import nullcontext

    from pipelines.api import PmsError
    from pipelines.ingest.store import UnknownPropertyError
    from pipelines.properties import PropertyConfigError, find_property, load_properties
    from pipelines.recon import Mode, ReconInputError, run_reconciliation
    from pipelines.recon.logic import RulesConfigError, load_rules
    from pipelines.warehouse import WarehouseError, property_file

    if one_date is not None and (first is not None or last is not None):
        raise click.UsageError("give --date, or --from and --to, not both")
    if (first is None) != (last is None):
        raise click.UsageError("--from and --to go together")
    if close and (one_date or first or last):
        raise click.UsageError("--close runs the last closed date: no --date, --from, --to")
    start, end = (one_date, one_date) if one_date else (first, last)
    mode = Mode.APPLY if apply_ or close else Mode.DRY_RUN
    if backlog and fmt == "json":
        raise click.UsageError("--backlog prints a progress bar and a summary: no --format json")
    try:
        warehouse = property_file(warehouse, code)  # a group: the property's own file
        rules = load_rules(rules_file)
        endpoint = (find_property(load_properties(), code).endpoint() if mode is Mode.APPLY
                    else None)
        if backlog:
            if start is None or end is None:
                raise click.UsageError("--backlog needs --from and --to")
            _backlog(warehouse, rules, endpoint, mode, start, end, chunk_days, redo, code)
            return
        if close:
            assert endpoint is not None
            _close(warehouse, rules, endpoint, auto_sources, fmt == "json")
            return
        with endpoint.client() if endpoint else nullcontext() as client:
            report = run_reconciliation(warehouse, rules, mode=mode, first=start, last=end,
                                        property_ref=code, client=client)
    except (RulesConfigError, PropertyConfigError, ReconInputError, UnknownPropertyError,
            PmsError, WarehouseError) as error:
        raise click.ClickException(str(error)) from None
    if fmt == "json":
        click.echo(as_json(run_facts(report)))
    else:
        click.echo(summary_table(report))
        if report.apply is not None:
            click.echo(f"  posted through the API: {report.apply.posts} charge(s) on "
                       f"{report.apply.reservations} reservation(s)")
    if report.summary["failed"][0]:
        click.echo(failure_line(report), err=True)
        raise click.exceptions.Exit(1)


def _backlog(warehouse: Path, rules: object, endpoint: object, mode: object, start: date,
             end: date, chunk_days: int, redo: bool, code: str | None) -> None:
    """`--backlog`: chunked runs with a progress bar (stderr), then the summed summary."""
    from contextlib import ExitStack

    from pipelines.properties import Endpoint
    from pipelines.recon import Mode, chunks_of, run_backlog
    from pipelines.recon.logic import STATUSES, RulesConfig

    assert isinstance(rules, RulesConfig)
    assert isinstance(mode, Mode)
    with ExitStack() as stack:
        client = None
        if isinstance(endpoint, Endpoint):
            client = stack.enter_context(endpoint.client())
        bar = stack.enter_context(click.progressbar(
            length=len(chunks_of(start, end, chunk_days)), label="reconciling",
            file=sys.stderr, show_pos=True))
        done = run_backlog(warehouse, rules, first=start, last=end, mode=mode,
                           property_ref=code, client=client,
                           chunk_days=chunk_days, redo=redo,
                           on_chunk=lambda chunk, report: bar.update(1))
    click.echo(f"Backlog {done.property_code} {done.first} to {done.last}, {done.mode.value}: "
               f"{counted(len(done.chunks), 'chunk')} of {counted(chunk_days, 'day')}, "
               f"{len(done.run)} run now "
               f"(runs {', '.join(map(str, done.run)) or 'none'}), {len(done.skipped)} done "
               "before")
    click.echo(f"  {'status':<16}{'charges':>9}{'amount':>14}")
    for status in STATUSES:
        n, cents = done.summary[status]
        click.echo(f"  {status:<16}{n:>9}{cents / 100:>14.2f}")
    if mode is Mode.APPLY:
        click.echo(f"  posted through the API: {done.posts} charge(s)")
    if done.summary["failed"][0]:
        click.echo(f"pmsw reconcile --backlog: {done.summary['failed'][0]} charge(s) failed",
                   err=True)
        raise click.exceptions.Exit(1)


def _close(warehouse: Path, rules: object, endpoint: object,
           auto_sources: tuple[str, ...], as_data: bool) -> None:
    """`--close`: the daily close (pipelines.recon.close), both runs' summaries (`as_data`:
    one JSON object, `closed` and `pre_departure`, null when nobody departs)."""
    from pipelines.properties import Endpoint
    from pipelines.recon import DEFAULT_AUTO_SOURCES, daily_close
    from pipelines.recon.logic import RulesConfig

    assert isinstance(rules, RulesConfig)
    assert isinstance(endpoint, Endpoint)
    with endpoint.client() as client:
        done = daily_close(warehouse, rules, client, property_id=client.get_property().id,
                           auto_sources=auto_sources or DEFAULT_AUTO_SOURCES)
    failed = 0
    if as_data:
        click.echo(as_json({"business_date": done.business_date,
                            "closed": run_facts(done.closed),
                            "pre_departure": done.pre_departure and run_facts(done.pre_departure)}))
    for report in (done.closed, done.pre_departure):
        if report is None:
            continue
        failed += report.summary["failed"][0]
        if as_data:
            continue
        click.echo(summary_table(report))
        if report.apply is not None:
            click.echo(f"  posted through the API: {report.apply.posts} charge(s) on "
                       f"{report.apply.reservations} reservation(s)")
    if done.pre_departure is None and not as_data:
        click.echo(f"No departure on {done.business_date}: no pre-departure run.")
    if failed:
        click.echo(f"pmsw reconcile --close: {failed} charge(s) failed", err=True)
        raise click.exceptions.Exit(1)


@reconcile.command()
@click.argument("item")
@click.option("--as", "state", required=True, metavar="STATE",
              help="open, invoiced_separately, credited, written_off or not_due.")
@click.option("--note", required=True, help="What was done, or why (required).")
@click.option("--by", "resolved_by", default=None,
              help="Who resolves it (default: the login name).")
@click.option("--property", "code", default=None,
              help="Property code, when an item id is shared by several properties (required on "
                   "a group directory).")
@warehouse_option("DuckDB warehouse file (must exist), or a group directory")
def resolve(item: str, state: str, note: str, resolved_by: str | None, code: str | None,
            warehouse: Path) -> None:
    """Record the resolution of a worklist ITEM (append-only: who, when, note).

    \b
    ITEM is the `item` of `pmsw report worklist` (or the charge's key). A charge resolved
    in any state but open is never posted by a later apply. Examples:
      pmsw reconcile resolve 3fa0c2d19b7e --as written_off --note "guest left, 2 coffees"
      pmsw reconcile resolve 3fa0c2d19b7e --as invoiced_separately --note "invoice 2026/118"
    """
    import getpass

    from pipelines.recon import ReconInputError, resolve_item

    try:
        done = resolve_item(warehouse, item, state, note=note, property_code=code,
                            resolved_by=resolved_by or getpass.getuser())
    except ReconInputError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"resolution {done.resolution_id}: {done.key} is {done.state} "
               f"(by {done.resolved_by})")

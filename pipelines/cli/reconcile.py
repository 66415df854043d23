"""`pmsw reconcile`: folio reconciliation of one property, printed as a summary table.

    pmsw reconcile --date 2026-03-01                  # dry run of one business date
    pmsw reconcile --from 2026-03-01 --to 2026-03-07 --apply

The same run as the Dagster job `reconcile` (pipelines.reconcile), on the warehouse
(`--warehouse`). `--property` is the PMS property code (default: the warehouse's only
property). A dry run reads the warehouse only; `--apply` posts through the API of that
property (pipelines.properties). Exit status 1 when the run could not be made or a charge
`failed` (then one line on stderr says why: the error codes and the first reason).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipelines.cli.options import ISO_DATE
from pipelines.warehouse import DEFAULT_PATH

if TYPE_CHECKING:
    from pipelines.reconcile import ReconReport


def summary_table(report: ReconReport) -> str:
    """The run's counts and amounts per status, with a total line."""
    from pipelines.transforms.reconcile import STATUSES

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


def failure_line(report: ReconReport) -> str:
    """Why charges failed, in one line: the error codes with their counts, the first reason
    (a key without folios:write fails every post alike)."""
    from collections import Counter

    failed = [r for r in report.results.iter_rows(named=True) if r["status"] == "failed"]
    codes = Counter(str(r["error_code"]) for r in failed)
    counts = ", ".join(f"{code} ({n})" for code, n in codes.most_common())
    return (f"pmsw reconcile: {len(failed)} charge(s) failed: {counts}; first: "
            f"{failed[0]['reason']}")


@click.command()
@click.option("--date", "one_date", type=ISO_DATE,
              help="One business date (default: the last one closed).")
@click.option("--from", "first", type=ISO_DATE, help="First business date of a range.")
@click.option("--to", "last", type=ISO_DATE, help="Last business date of a range (inclusive).")
@click.option("--apply", "apply_", is_flag=True,
              help="Post the missing charges (default: dry run, nothing posted).")
@click.option("--property", "code", metavar="CODE", default=None,
              help="PMS property code (default: the warehouse's only property).")
@click.option("--warehouse", type=click.Path(dir_okay=False, path_type=Path),
              default=DEFAULT_PATH, show_default=True, help="DuckDB warehouse file.")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Rules YAML merged over the shipped defaults.")
def reconcile(one_date: date | None, first: date | None, last: date | None,
              apply_: bool, code: str | None, warehouse: Path, rules_file: Path | None) -> None:
    """Find charges missing from folios (POS ledger and rules); --apply posts them once."""
    from contextlib import nullcontext

    from pipelines.api import PmsError
    from pipelines.properties import PropertyConfigError, find_property, load_properties
    from pipelines.reconcile import Mode, run_reconciliation
    from pipelines.transforms.reconcile import RulesConfigError, load_rules
    from pipelines.warehouse import UnknownPropertyError
    from pipelines.warehouse.recon import ReconInputError

    if one_date is not None and (first is not None or last is not None):
        raise click.UsageError("give --date, or --from and --to, not both")
    if (first is None) != (last is None):
        raise click.UsageError("--from and --to go together")
    start, end = (one_date, one_date) if one_date else (first, last)
    mode = Mode.APPLY if apply_ else Mode.DRY_RUN
    try:
        rules = load_rules(rules_file)
        endpoint = (find_property(load_properties(), code).endpoint() if mode is Mode.APPLY
                    else None)
        with endpoint.client() if endpoint else nullcontext() as client:
            report = run_reconciliation(warehouse, rules, mode=mode, first=start, last=end,
                                        property_ref=code, client=client)
    except (RulesConfigError, PropertyConfigError, ReconInputError, UnknownPropertyError,
            PmsError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(summary_table(report))
    if report.apply is not None:
        click.echo(f"  posted through the API: {report.apply.posts} charge(s) on "
                   f"{report.apply.reservations} reservation(s)")
    if report.summary["failed"][0]:
        click.echo(failure_line(report), err=True)
        raise click.exceptions.Exit(1)

"""`pmsw reconcile`: folio reconciliation of one property, printed as a summary table.

    pmsw reconcile --date 2026-03-01                  # dry run of one business date
    pmsw reconcile --from 2026-03-01 --to 2026-03-07 --apply

The same run as the Dagster job `reconcile` (pipelines.reconcile), on the warehouse
`data/warehouse.duckdb` unless `--warehouse` or PMSW_WAREHOUSE says otherwise (it must exist:
a missing file is one line, nothing created); the read copy is published after the run.
The property is `--property` of the properties file (or the default property from
PMS_API_BASE_URL / PMS_API_KEY); a dry run without an API configured uses the warehouse's
only property. Exit status 1 when the
run could not be made or a charge `failed` (then one line on stderr says why: the error codes
and the first reason).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import click

from .options import wait_option, warehouse_option


def _day(value: datetime | None) -> date | None:
    return None if value is None else value.date()


def summary_table(report: object) -> str:
    """The run's counts and amounts per status, with a total line."""
    from pipelines.reconcile import ReconReport
    from pipelines.transforms.reconcile import STATUSES

    assert isinstance(report, ReconReport)
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


def failure_line(report: object) -> str:
    """Why charges failed, in one line: the error codes with their counts, the first reason
    (a key without folios:write fails every post alike)."""
    from collections import Counter

    from pipelines.reconcile import ReconReport

    assert isinstance(report, ReconReport)
    failed = [r for r in report.results.iter_rows(named=True) if r["status"] == "failed"]
    codes = Counter(str(r["error_code"]) for r in failed)
    counts = ", ".join(f"{code} ({n})" for code, n in codes.most_common())
    return (f"pmsw reconcile: {len(failed)} charge(s) failed: {counts}; first: "
            f"{failed[0]['reason']}")


@click.command()
@click.option("--date", "one_date", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="One business date (default: the last one closed).")
@click.option("--from", "first", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="First business date of a range.")
@click.option("--to", "last", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Last business date of a range (inclusive).")
@click.option("--apply", "apply_", is_flag=True,
              help="Post the missing charges (default: dry run, nothing posted).")
@click.option("--property", "code", default=None,
              help="Property code of the properties file (default: the only one).")
@warehouse_option("DuckDB warehouse file (must exist)")
@wait_option()
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Rules YAML merged over the shipped defaults.")
def reconcile(one_date: datetime | None, first: datetime | None, last: datetime | None,
              apply_: bool, code: str | None, warehouse: Path, rules_file: Path | None) -> None:
    """Find charges missing from folios (POS ledger and rules); --apply posts them once."""
    from pipelines.api import PmsClient, PmsError
    from pipelines.ingest import PropertyConfigError, find_property, load_properties
    from pipelines.reconcile import Mode, run_reconciliation
    from pipelines.transforms.reconcile import RulesConfigError, load_rules
    from pipelines.warehouse import WarehouseError
    from pipelines.warehouse.recon import ReconInputError

    if one_date is not None and (first is not None or last is not None):
        raise click.UsageError("give --date, or --from and --to, not both")
    if (first is None) != (last is None):
        raise click.UsageError("--from and --to go together")
    start, end = (_day(one_date), _day(one_date)) if one_date else (_day(first), _day(last))
    mode = Mode.APPLY if apply_ else Mode.DRY_RUN
    try:
        rules = load_rules(rules_file)
        endpoint = None
        try:
            properties = load_properties()
            chosen = (find_property(properties, code) if code is not None
                      else properties[0] if len(properties) == 1 else None)
            if chosen is None:
                raise PropertyConfigError(
                    "several properties in the properties file: give --property")
            endpoint = chosen.endpoint()
        except PropertyConfigError:
            if mode is Mode.APPLY or code is not None:
                raise
        if endpoint is None:
            report = run_reconciliation(warehouse, rules, mode=mode, first=start, last=end)
        else:
            with PmsClient(endpoint.base_url, endpoint.api_key,
                           rate_per_minute=endpoint.rate_per_minute,
                           burst=endpoint.burst) as client:
                report = run_reconciliation(
                    warehouse, rules, mode=mode, first=start, last=end,
                    property_id=client.get_property().id,
                    client=client if mode is Mode.APPLY else None)
    except (RulesConfigError, PropertyConfigError, ReconInputError, PmsError,
            WarehouseError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(summary_table(report))
    if report.apply is not None:
        click.echo(f"  posted through the API: {report.apply.posts} charge(s) on "
                   f"{report.apply.reservations} reservation(s)")
    if report.summary["failed"][0]:
        click.echo(failure_line(report), err=True)
        raise click.exceptions.Exit(1)

"""`pmsw demo`: the whole product on the sandbox, ending with a KPI summary."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from pipelines.cli.options import warehouse_option
from pipelines.vocabulary import counted


@click.command()
@warehouse_option("DuckDB file the demo builds (a file it did not make is never replaced)")
@click.option("--days", default=337, show_default=True, type=click.IntRange(1, 3000),
              help="Days simulated before the daily syncs.")
@click.option("--daily-syncs", default=28, show_default=True, type=click.IntRange(1, 400),
              help="Days then played one at a time, each followed by a sync.")
@click.option("--seed", default=42, show_default=True, type=int, help="Simulator seed.")
@click.option("--end", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Business date the demo ends on, YYYY-MM-DD (default: today). The same "
                   "seed and end give the same figures on any day.")
def demo(warehouse: Path, days: int, daily_syncs: int, seed: int,
         end: datetime | None) -> None:
    """Run the whole product against the sandbox PMS and print a KPI summary.

    \b
    Starts the sandbox (a child process on loopback, data/demo/), simulates a year of two
    hotels, syncs daily over the last four weeks, builds every mart, reconciles the folios
    (dry run, then apply) and prints occupancy, ADR, RevPAR, pickup and reconciliation.
    Each run starts clean: data/demo/ and the warehouse the demo made are replaced.
    Examples:
      make demo                                  # the same as: pmsw demo
      pmsw demo --days 60 --daily-syncs 7        # a shorter stretch, in well under a minute
      pmsw demo --end 2026-11-23                 # the data of a given day, whatever today is
    """
    from pipelines.demo import DemoConfig, DemoError, run_demo

    config = DemoConfig(data_dir=warehouse.parent, warehouse=warehouse, days=days,
                        daily_syncs=daily_syncs, seed=seed,
                        end=None if end is None else end.date())
    click.echo(f"pms-warehouse demo: two hotels, {counted(days + daily_syncs, 'day')} of PMS "
               "life, the warehouse, the marts, the reconciliation.")
    try:
        result = run_demo(config)
    except DemoError as error:
        raise click.ClickException(str(error)) from None
    assert result.summary is not None
    click.echo(result.summary.text())
    click.echo(f"\nDemo done in {result.total_seconds:.0f} s.")

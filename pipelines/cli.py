"""`pmsw`: the command line of pms-warehouse.

Commands of other packages of the distribution plug in through the `pmsw.commands` entry
point group (the sandbox does so), so `pipelines` never imports `sandbox`.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import click


@click.group()
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""


@main.command()
@click.option("--warehouse", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("data/warehouse.duckdb"), show_default=True,
              help="DuckDB file the demo builds (a file it did not make is never replaced).")
@click.option("--days", default=337, show_default=True, type=click.IntRange(1, 3000),
              help="Days simulated before the daily syncs.")
@click.option("--daily-syncs", default=28, show_default=True, type=click.IntRange(1, 400),
              help="Days then played one at a time, each followed by a sync.")
@click.option("--seed", default=42, show_default=True, type=int, help="Simulator seed.")
def demo(warehouse: Path, days: int, daily_syncs: int, seed: int) -> None:
    """Run the whole product against the sandbox PMS and print a KPI summary.

    \b
    Starts the sandbox (a child process on loopback, data/demo/), simulates a year of two
    hotels, syncs daily over the last four weeks, builds every mart, reconciles the folios
    (dry run, then apply) and prints occupancy, ADR, RevPAR, pickup and reconciliation.
    Each run starts clean: data/demo/ and the warehouse the demo made are replaced.
    Examples:
      make demo                                  # the same as: pmsw demo
      pmsw demo --days 60 --daily-syncs 7        # a shorter stretch, in well under a minute
    """
    from .demo import DemoConfig, DemoError, run_demo

    config = DemoConfig(data_dir=warehouse.parent, warehouse=warehouse, days=days,
                        daily_syncs=daily_syncs, seed=seed)
    click.echo(f"pms-warehouse demo: two hotels, {days + daily_syncs} days of PMS life, the "
               "warehouse, the marts, the reconciliation.")
    try:
        result = run_demo(config)
    except DemoError as error:
        raise click.ClickException(str(error)) from None
    assert result.summary is not None
    click.echo(result.summary.text())
    click.echo(f"\nDemo done in {result.total_seconds:.0f} s.")


def _add_sync() -> None:
    from .sync_command import sync

    main.add_command(sync)


def _add_reconcile() -> None:
    from .reconcile_command import reconcile

    main.add_command(reconcile)


def _add_report() -> None:
    from .reports.command import report

    main.add_command(report)


def _load_plugins() -> None:
    for entry in entry_points(group="pmsw.commands"):
        command = entry.load()
        if isinstance(command, click.Command):
            main.add_command(command, name=entry.name)


_add_sync()
_add_reconcile()
_add_report()
_load_plugins()


if __name__ == "__main__":
    main()

"""`pmsw`: the command line of pms-warehouse.

Commands of other packages of the distribution plug in through the `pmsw.commands` entry
point group (the sandbox and the web app, `pmsw app`, do so), so `pipelines` never imports
`sandbox` and `cli` never imports `app`, its neighbour in the top layer.
"""

from __future__ import annotations

from pipelines.allocators import tune_glibc_malloc

tune_glibc_malloc()  # first, before any thread has an arena: `pmsw` is a writer's process

from importlib.metadata import entry_points  # noqa: E402

import click  # noqa: E402

from pipelines.cli.options import OneLineGroup  # noqa: E402


@click.group(cls=OneLineGroup)
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""


def _add_demo() -> None:
    from pipelines.cli.demo import demo

    main.add_command(demo)


def _add_sync() -> None:
    from pipelines.cli.sync import sync

    main.add_command(sync)


def _add_reconcile() -> None:
    from pipelines.cli.reconcile import reconcile

    main.add_command(reconcile)


def _add_report() -> None:
    from pipelines.cli.report import report

    main.add_command(report)


def _add_warehouse() -> None:
    from pipelines.cli.warehouse import warehouse

    main.add_command(warehouse)


def _add_sql() -> None:
    from pipelines.cli.sql import sql

    main.add_command(sql)


def _add_export() -> None:
    from pipelines.cli.export import export

    main.add_command(export)


def _add_budget() -> None:
    from pipelines.cli.budget import budget

    main.add_command(budget)


def _load_plugins() -> None:
    for entry in entry_points(group="pmsw.commands"):
        command = entry.load()
        if isinstance(command, click.Command):
            main.add_command(command, name=entry.name)


_add_demo()
_add_sync()
_add_reconcile()
_add_report()
_add_warehouse()
_add_sql()
_add_export()
_add_budget()
_load_plugins()


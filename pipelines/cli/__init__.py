"""`pmsw`: the command line of pms-warehouse, assembled from each domain's command.

Each domain holds its command beside its code (`pipelines/<domain>/command.py`: `sync` in
ingest, `reconcile` in recon, `budget` in forecast, `report` in reports, `demo` in demo;
`warehouse`, `sql` and `export` in `pipelines/warehouse/command/`); this package keeps the
group, the options every command shares (`options.py`) and the assembly. The commands are
added when the group is first asked for one, not when this package is imported, because a
command's module imports the shared options from here. Commands of other packages of the
distribution plug in through the `pmsw.commands` entry point group (the sandbox and the web
app, `pmsw app`, do so), so `pipelines` never imports `sandbox` and `cli` never imports `app`.
"""

from __future__ import annotations

from pipelines.allocators import tune_glibc_malloc

tune_glibc_malloc()  # first, before any thread has an arena: `pmsw` is a writer's process

from importlib.metadata import entry_points  # noqa: E402

import click  # noqa: E402

from pipelines.cli.options import OneLineGroup  # noqa: E402


def _domain_commands() -> list[click.Command]:
    from pipelines.demo.command import demo
    from pipelines.forecast.command import budget
    from pipelines.ingest.command import sync
    from pipelines.recon.command import reconcile
    from pipelines.reports.command import report
    from pipelines.warehouse.command import export, sql, warehouse

    return [demo, sync, reconcile, report, warehouse, sql, export, budget]


class Pmsw(OneLineGroup):
    """The `pmsw` group: the domains' commands and the plugins, added on first use."""

    def _assemble(self) -> None:
        if self.commands:
            return
        for command in _domain_commands():
            self.add_command(command)
        for entry in entry_points(group="pmsw.commands"):
            plugin = entry.load()
            if isinstance(plugin, click.Command):
                self.add_command(plugin, name=entry.name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._assemble()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self._assemble()
        return super().get_command(ctx, cmd_name)


@click.group(cls=Pmsw)
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""

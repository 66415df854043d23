"""`pmsw`: the group, assembled on first use from each domain's `command` (docs/architecture.md)
and the `pmsw.commands` entry point (the sandbox and `pmsw app` plug in there, so `pipelines`
never imports `sandbox` nor `cli` `app`); not at import, since the commands import `options`.
A plugin asked for by name (`pmsw app`, `pmsw sandbox`) is loaded alone, without the domains'.
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


def _plugin(name: str) -> click.Command | None:
    """The command `name` of the `pmsw.commands` entry point, loaded alone: `pmsw app` then
    imports the app and what it reads, not every domain's command (issue 50, the cold start)."""
    for entry in entry_points(group="pmsw.commands", name=name):
        plugin = entry.load()
        if isinstance(plugin, click.Command):
            return plugin
    return None


class Pmsw(OneLineGroup):
    _assembled = False

    def _assemble(self) -> None:
        if self._assembled:
            return
        self._assembled = True
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
        if not self._assembled and cmd_name not in self.commands:
            plugin = _plugin(cmd_name)
            if plugin is not None:
                self.add_command(plugin, name=cmd_name)
                return plugin
        self._assemble()
        return super().get_command(ctx, cmd_name)


@click.group(cls=Pmsw)
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""

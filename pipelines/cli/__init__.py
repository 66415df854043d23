"""`pmsw`: the group, assembled on first use from each domain's `command` (docs/architecture.md)
and the `pmsw.commands` entry point (the sandbox and `pmsw app` plug in there, so `pipelines`
never imports `sandbox` nor `cli` `app`); not at import, since the commands import `options`.
A command asked for by name (`pmsw sync`, `pmsw app`, `pmsw sandbox`) is loaded alone, without the
others': a group's `pmsw sync` starts a process per property (docs/scaling.md).
"""

from __future__ import annotations

from pipelines.allocators import tune_gc, tune_glibc_malloc

tune_glibc_malloc()  # first, before any thread has an arena: `pmsw` is a writer's process
tune_gc()  # before the imports: their objects live to the end

from importlib import import_module  # noqa: E402
from importlib.metadata import entry_points  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

import click  # noqa: E402

from pipelines.cli.options import OneLineGroup  # noqa: E402

if TYPE_CHECKING:  # the edges for mypy and the import contracts; loaded by name below
    from pipelines.demo.command import demo  # noqa: F401
    from pipelines.forecast.command import budget  # noqa: F401
    from pipelines.ingest.command import sync  # noqa: F401
    from pipelines.recon.command import reconcile  # noqa: F401
    from pipelines.reports.command import report  # noqa: F401
    from pipelines.warehouse.command import export, sql, warehouse  # noqa: F401

DOMAIN_COMMANDS = {"demo": "pipelines.demo.command", "sync": "pipelines.ingest.command",
                   "reconcile": "pipelines.recon.command", "report": "pipelines.reports.command",
                   "warehouse": "pipelines.warehouse.command", "sql": "pipelines.warehouse.command",
                   "export": "pipelines.warehouse.command", "budget": "pipelines.forecast.command"}
"""Each domain's command: its name -> the module defining it under that name."""


def _domain_command(name: str) -> click.Command:
    command = getattr(import_module(DOMAIN_COMMANDS[name]), name)
    assert isinstance(command, click.Command)
    return command


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
        for name in DOMAIN_COMMANDS:
            self.add_command(_domain_command(name))
        for entry in entry_points(group="pmsw.commands"):
            plugin = entry.load()
            if isinstance(plugin, click.Command):
                self.add_command(plugin, name=entry.name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._assemble()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and not self._assembled:
            command = (_domain_command(cmd_name) if cmd_name in DOMAIN_COMMANDS
                       else _plugin(cmd_name))
            if command is not None:
                self.add_command(command, name=cmd_name)
        if cmd_name not in self.commands:
            self._assemble()
        return super().get_command(ctx, cmd_name)


@click.group(cls=Pmsw)
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""

"""`pmsw`: the command line of pms-warehouse.

Commands of other packages of the distribution plug in through the `pmsw.commands` entry
point group (the sandbox does so), so `pipelines` never imports `sandbox`.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import click


@click.group()
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""


def _load_plugins() -> None:
    for entry in entry_points(group="pmsw.commands"):
        command = entry.load()
        if isinstance(command, click.Command):
            main.add_command(command, name=entry.name)


_load_plugins()

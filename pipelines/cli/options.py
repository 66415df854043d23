"""Options every command shares: the warehouse file and how long a writer waits for it.

`--warehouse` and PMSW_WAREHOUSE mean the same file for every command (default
data/warehouse.duckdb, `pipelines.warehouse.DEFAULT_PATH`); `--wait` and PMSW_WAREHOUSE_WAIT
the seconds a writer waits while another writer holds it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipelines.warehouse import DEFAULT_PATH, WAIT_ENV, WAREHOUSE_ENV


def warehouse_option(help_text: str = "DuckDB warehouse file.") -> Callable[..., Any]:
    return click.option(
        "--warehouse", type=click.Path(dir_okay=False, path_type=Path), envvar=WAREHOUSE_ENV,
        default=DEFAULT_PATH, show_default=True, help=f"{help_text} (env {WAREHOUSE_ENV})")


def _set_wait(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None:
        os.environ[WAIT_ENV] = str(value)  # read by every open of this process, Dagster's too
    return value


def wait_option() -> Callable[..., Any]:
    return click.option(
        "--wait", type=click.FloatRange(min=0), default=None, expose_value=False,
        callback=_set_wait, metavar="SECONDS",
        help=f"Seconds to wait while another writer holds the warehouse (env {WAIT_ENV}; "
             "default 600), then fail naming it.")

"""The one convention of every `pmsw` command: a failure the user can fix is ONE line on
stderr naming the option or field (exit status 1; 2 for a usage error), dates are YYYY-MM-DD;
and the options every command shares: the warehouse file and how long a writer waits for it.

`--warehouse` and PMSW_WAREHOUSE mean the same file for every command (default
data/warehouse.duckdb, `pipelines.warehouse.DEFAULT_PATH`), or a directory: a group, one file
a property (`pipelines.warehouse.group`; `pmsw sync`, the reports and `pmsw sql` take it);
`--wait` and PMSW_WAREHOUSE_WAIT the seconds a writer waits while another writer holds it.
"""

from __future__ import annotations

import calendar
import json
import os
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import click

from pipelines.warehouse import DEFAULT_PATH, WAIT_ENV, WAREHOUSE_ENV


def _warehouse_attrs(help_text: str) -> dict[str, Any]:
    return {"type": click.Path(path_type=Path), "envvar": WAREHOUSE_ENV,
            "default": DEFAULT_PATH, "show_default": True,
            "help": f"{help_text} (env {WAREHOUSE_ENV})"}


def warehouse_option(help_text: str = "DuckDB warehouse file.") -> Callable[..., Any]:
    return click.option("--warehouse", **_warehouse_attrs(help_text))


def warehouse_param(help_text: str = "DuckDB warehouse file.") -> click.Option:
    """The same option, for a command built from a declaration (`pmsw report`)."""
    return click.Option(["--warehouse"], **_warehouse_attrs(help_text))


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


class OneLineUsageError(click.UsageError):
    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()} (see --help)", err=True)


class OneLineGroup(click.Group):
    """A group whose usage errors (unknown command, bad option) print one line, no usage."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            raise OneLineUsageError(error.format_message(), error.ctx) from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            raise OneLineUsageError(error.format_message(), error.ctx) from None


class IsoDate(click.ParamType[date, Any]):
    """A date written YYYY-MM-DD (shown so in every help)."""

    name = "YYYY-MM-DD"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> date:
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a date: use YYYY-MM-DD, e.g. 2026-03-01", param, ctx)


ISO_DATE = IsoDate()


class YearMonth(click.ParamType[tuple[date, date], Any]):
    """A month written YYYY-MM, as its first and last day."""

    name = "YYYY-MM"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[date, date]:
        if isinstance(value, tuple):
            return value
        try:
            year, month = (int(part) for part in str(value).strip().split("-"))
            first = date(year, month, 1)
        except ValueError:
            self.fail(f"{value!r} is not a month: use YYYY-MM, e.g. 2026-08", param, ctx)
        return first, first.replace(day=calendar.monthrange(year, month)[1])


YEAR_MONTH = YearMonth()


def format_option() -> Callable[..., Any]:
    """--format text|json of a command that prints a summary (`pmsw sync`, `pmsw reconcile`,
    `pmsw warehouse info`): json is one object on stdout, the progress lines on stderr."""
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                        show_default=True, help="text for a person, json for a program.")


def as_json(value: Any) -> str:
    """`value` as JSON: dates and times in ISO 8601, decimals as numbers, paths as text."""
    return json.dumps(value, default=_json_default, indent=2)


def _json_default(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):  # amounts of two decimals: a float prints them exactly
        return float(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")

"""The one convention of every `pmsw` command: a failure the user can fix is ONE line on
stderr naming the option or field (exit status 1; 2 for a usage error), dates are YYYY-MM-DD."""

from __future__ import annotations

from datetime import date
from typing import Any

import click


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

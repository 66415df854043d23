"""The app's only way to the figures: the read copy opened read-only per request (so a page
sees the copy published last, and never waits for a writer) and the reports of the registry,
run as `pmsw report` runs them. Errors become a PageError with the report's own line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from pipelines.reports import (
    PropertyRow,
    ReportError,
    Table,
    as_of_line,
    open_warehouse,
    resolve_property,
    run_report,
)

from .errors import PageError


@dataclass(frozen=True)
class Reader:
    """One request's view of the read copy: its connection and the property asked for."""

    conn: duckdb.DuckDBPyConnection
    path: Path
    prop: PropertyRow

    def report(self, name: str, first: date | None, last: date | None, **options: Any
               ) -> Table:
        """Report `name` exactly as `pmsw report name` builds it."""
        try:
            return run_report(self.conn, self.path, name, self.prop, first, last, **options)
        except ReportError as error:
            raise PageError(400, str(error)) from None

    def as_of(self, table: Table | None = None) -> str:
        """The As-of line `pmsw report` prints (and writes in its xlsx) for `table`."""
        line = as_of_line(self.conn, self.prop)
        return line + (f"; figures as of {table.as_of}" if table and table.as_of else "")

    def properties(self) -> list[tuple[str, str]]:
        """(code, name) of every property of the read copy, for the page's menu."""
        return [(str(code), str(name)) for code, name in self.conn.execute(
            "SELECT code, name FROM core.property ORDER BY property_id").fetchall()]


@contextmanager
def reading(path: Path, property_ref: str | None) -> Iterator[Reader]:
    """A Reader on the read copy of `path` for the property named (code or id)."""
    try:
        conn = open_warehouse(path)
    except ReportError as error:
        raise PageError(503, str(error)) from None
    with conn:
        try:
            prop = resolve_property(conn, path, property_ref or None)
        except ReportError as error:
            message = str(error).replace("pass --property", "add ?property=CODE")
            raise PageError(404 if property_ref else 400, message) from None
        yield Reader(conn, path, prop)

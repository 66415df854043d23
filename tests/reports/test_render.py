"""The aligned text of a report (pipelines/reports/render.py): a record's identifier is
printed as the PMS shows it, a count or an amount with thousands separators; in CSV an
amount keeps its cents (1234.50)."""

from __future__ import annotations

from decimal import Decimal

from pipelines.reports.render import render
from pipelines.reports.reports import Table


def test_identifiers_have_no_thousands_separator() -> None:
    table = Table("Ledger", ("folio_id", "folio_number", "reservation_id", "nights",
                             "balance"),
                  [(26762, 1, 125294, 12345, Decimal("1234.50"))])
    lines = render(table, "table").splitlines()
    assert lines[-1].split() == ["26762", "1", "125294", "12,345", "1,234.50"]
    assert render(table, "csv").splitlines()[1] == "26762,1,125294,12345,1234.50"

"""How a report's value reads in a page's cell: as `pmsw report`'s table prints it (amounts
with their two decimals and thousands separators, identifiers as the PMS shows them)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

IDENTIFIER_SUFFIXES = ("_id", "_number")
NUMERIC = (int, float, Decimal)


def cell(value: Any, column: str = "") -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and column.endswith(IDENTIFIER_SUFFIXES):
        return str(value)
    if isinstance(value, Decimal):
        return f"{value:,.2f}" if value.as_tuple().exponent != 0 else f"{value:,}"
    if isinstance(value, float):  # a ratio the report rounded (alerts): as it rounded it
        return f"{value:,}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def numeric(value: Any) -> bool:
    """Right-aligned in its column."""
    return isinstance(value, NUMERIC) and not isinstance(value, bool)

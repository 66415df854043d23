"""Finance reports (issue 16): the worklist of charges that cannot be posted. Each reads a
view or table of the warehouse for one property; registered in REPORTS beside the revenue
reports (pipelines/reports/reports.py)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import duckdb

from .reports import Query, Table, _title

WORKLIST_COLUMNS = (
    "item", "business_date", "age_days", "status", "reason_code", "state", "folio_id",
    "folio_number", "fiscal_document_number", "fiscal_document_date", "reservation_id",
    "room", "bill_to", "item_code", "quantity", "net", "vat", "gross", "resolved_by",
    "resolved_at", "resolution_note", "reason")


def all_closed(business_date: date) -> tuple[date, date]:
    """Every closed business date (ten years back)."""
    return business_date - timedelta(days=3650), business_date - timedelta(days=1)


def worklist(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    state = str(q.options.get("state") or "all")
    rows = conn.execute(
        f"SELECT {', '.join(WORKLIST_COLUMNS)} FROM recon.v_worklist WHERE property_id = ? "
        "AND business_date BETWEEN ? AND ? AND (? = 'all' OR state = ?) "
        "ORDER BY business_date, reservation_id, item_code, item",
        [q.prop.property_id, q.first, q.last, state, state]).fetchall()
    out = [tuple(str(v) if i == WORKLIST_COLUMNS.index("resolved_at") and v is not None
                 else v for i, v in enumerate(r)) for r in rows]
    zero = Decimal("0.00")
    sums = {c: sum((Decimal(r[WORKLIST_COLUMNS.index(c)] or 0) for r in rows), zero)
            for c in ("net", "vat", "gross")}
    total = tuple("total" if c == "item" else sums.get(c, "")
                  for c in WORKLIST_COLUMNS) if rows else None
    return Table(_title(q, "Worklist: charges that cannot be posted (latest run), with "
                           f"their resolution ({state})"), WORKLIST_COLUMNS, out, total)

"""The tie-out a controller signs (issue 46, item 5): per business date or range of them, the
folio lines of each department, summed straight from core.folio_lines, against the figure the
revenue reports give for the same dates; rooms against `occupancy` (nights and fees, by stay
date; the fees apart), food and beverage and other against `revenue` (by posting date), city
tax apart (not revenue). Each difference is either explained (rooms: night charges posted on
another date than the night they are for, mart.revenue_tieout's `shifted_net`) or listed as
unexplained with its cause. Department of a line: the item's (transforms/departments.py)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import duckdb

from pipelines.reports.errors import ReportError
from pipelines.reports.reports import Query, Table, _title
from pipelines.vocabulary import ACCOMMODATION, DEPARTMENTS, line_department_sql

TIEOUT_COLUMNS = ("department", "folio_lines_net", "folio_lines_gross", "reported_net",
                  "of_which_fees_net", "reported_by", "difference_net", "explained_net",
                  "unexplained_net", "cause")

_FOLIO_LINES = f"""
SELECT {line_department_sql()},
       sum(l.amount_net), sum(l.amount_gross)
  FROM core.folio_lines l
  LEFT JOIN core.items i ON i.property_id = l.property_id AND i.item_id = l.service_item_id
 WHERE l.property_id = $p AND l.type <> 'payment' AND l.posted_on BETWEEN $first AND $last
 GROUP BY 1"""


def last_closed(business_date: date) -> tuple[date, date]:
    """The last closed business date, alone."""
    day = business_date - timedelta(days=1)
    return day, day


def tieout(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    closed = q.prop.business_date - timedelta(days=1)
    first, last = q.first, q.last
    if q.options.get("month") is not None:  # the month's closed dates: month to date if open
        first, last = q.options["month"]
        if first > closed:
            raise ReportError(f"--month {first:%Y-%m}: no business date of it is closed yet; "
                              f"the last closed one of {q.prop.code} is {closed}")
        last = min(last, closed)
    elif last > closed:
        raise ReportError(f"--to {last}: a tie-out is of closed business dates; the last "
                          f"one of {q.prop.code} is {closed}")
    q = Query(q.prop, first, last, q.options)
    params: dict[str, Any] = {"p": q.prop.property_id, "first": q.first, "last": q.last}
    zero = Decimal("0.00")
    folio = {r[0]: (Decimal(r[1]), Decimal(r[2]))
             for r in conn.execute(_FOLIO_LINES, params).fetchall()}
    reported = dict(conn.execute(
        "SELECT department, sum(department_revenue_net) FROM mart.revenue_daily "
        "WHERE property_id = $p AND date BETWEEN $first AND $last GROUP BY 1", params).fetchall())
    rooms = conn.execute(
        "SELECT coalesce(sum(room_revenue_nights_net), 0), coalesce(sum(room_revenue_fees_net), "
        "0), coalesce(sum(shifted_net), 0), string_agg(DISTINCT reason, '; ') FILTER (WHERE "
        "unexplained_net <> 0 OR shifted_net <> 0), count(*) FROM mart.revenue_tieout "
        "WHERE property_id = $p AND date BETWEEN $first AND $last", params).fetchone()
    assert rooms is not None
    nights, fees, shifted, reasons, dates = rooms
    days = (q.last - q.first).days + 1
    rows: list[tuple[Any, ...]] = []
    for dep in DEPARTMENTS:
        net, gross = folio.get(dep.code, (zero, zero))
        if dep.code == ACCOMMODATION:
            report_net, of_fees, by = Decimal(nights) + Decimal(fees), Decimal(fees), \
                "occupancy (stay date: nights + fees)"
            explained = Decimal(shifted)
        else:
            report_net, of_fees = Decimal(reported.get(dep.code) or zero), None
            by = "revenue (posting date)" + ("" if dep.is_revenue else ", not revenue")
            explained = zero
        difference = net - report_net
        unexplained = difference - explained
        cause = _cause(dep.code, explained, unexplained, reasons, int(dates), days)
        rows.append((dep.code, net, gross, report_net, of_fees, by, difference, explained,
                     unexplained, cause))
    earning = [r for r in rows if r[0] != "city_tax"]
    total = ("total revenue", *[sum((r[i] or zero for r in earning), zero) for i in (1, 2, 3, 4)],
             "", *[sum((r[i] for r in earning), zero) for i in (6, 7, 8)],
             "city tax apart")
    return Table(_title(q, "Tie-out: folio lines by department against the revenue reports "
                           "(net of VAT; fees apart; city tax apart, not revenue)"),
                 TIEOUT_COLUMNS, rows, total)


def _cause(department: str, explained: Decimal, unexplained: Decimal, reasons: str | None,
           dates_built: int, days: int) -> str:
    parts = []
    if explained:
        parts.append(f"explained: night charges posted on another date than their night "
                     f"({reasons or 'shifted'})")
    if unexplained:
        if department == ACCOMMODATION and dates_built < days:
            parts.append(f"mart.revenue_tieout holds {dates_built} of the {days} dates: "
                         "build the marts after the last sync")
        else:
            parts.append(reasons if department == ACCOMMODATION and reasons else
                         "lines landed after the marts were built: build them again")
    return "; ".join(parts) or "ties to the cent"

"""The close pack (issue 48, item 2): what a controller signs for a closed business date or
month, one table per section (xlsx: one sheet each), every figure from core.folio_lines and
core.folios through the definitions the other reports use (docs/reconciliation.md, Close
pack):

1. revenue by item and outlet, VAT by rate, net and gross (the line's department as the
   vocabulary gives it), and the VAT by rate;
2. payments by method (mart.payment_method; transfers between folios are not money);
3. the roll-forward of the guest and city ledgers: opening + charges - payments - transfers =
   closing, beside `ledger --date` of the last date, whose figure it must equal to the cent;
4. deposits: the credit balances of stays not yet arrived at the end of the period (the
   ledger's category `deposit`, finance.DEPOSIT: a cancelled stay's credit is owed back);
5. the city ledger (accounts receivable) by folio, aged;
6. the tie-out of the period (tieout.py);
7. the worklist of the period's charges that cannot be posted, each with its action."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import duckdb

from pipelines.reports import finance, tieout
from pipelines.reports.errors import ReportError
from pipelines.reports.reports import Query, Table, _title
from pipelines.vocabulary import CODES, line_department_sql

ZERO = Decimal("0.00")

REVENUE_COLUMNS = ("department", "item_code", "item", "vat_pct", "lines", "net", "vat",
                   "gross")
_REVENUE = f"""
SELECT * FROM (
SELECT {line_department_sql()} AS department, coalesce(i.code, '') AS item_code,
       coalesce(i.name, nullif(trim(split_part(l.description, ':', 1)), ''), l.type) AS item,
       l.tax_pct AS vat_pct, count(*) AS lines, sum(l.amount_net) AS net,
       sum(l.amount_gross - l.amount_net) AS vat, sum(l.amount_gross) AS gross
  FROM core.folio_lines l
  LEFT JOIN core.items i ON i.property_id = l.property_id AND i.item_id = l.service_item_id
 WHERE l.property_id = $p AND l.type <> 'payment' AND l.posted_on BETWEEN $first AND $last
 GROUP BY ALL)
 ORDER BY list_position($codes, department), item_code, item, vat_pct"""

PAYMENT_COLUMNS = ("method", "kind", "ledger", "lines", "amount")
_PAYMENTS = """
SELECT mart.payment_method(l.description) AS method,
       CASE WHEN contains(coalesce(l.description, ''), ': ')
            THEN trim(split_part(l.description, ': ', 1)) ELSE 'Payment' END AS kind,
       CASE WHEN f.reservation_id IS NOT NULL AND mart.is_city_ledger(f.description)
            THEN 'city' ELSE 'guest' END AS ledger,
       count(*) AS lines, sum(l.total) AS amount
  FROM core.folio_lines l
  JOIN core.folios f ON f.property_id = l.property_id AND f.folio_id = l.folio_id
 WHERE l.property_id = $p AND l.type = 'payment' AND NOT mart.is_transfer(l.type, l.description)
   AND l.posted_on BETWEEN $first AND $last
 GROUP BY ALL ORDER BY method, kind, ledger"""

_MOVEMENTS = """
SELECT f.reservation_id IS NOT NULL AND mart.is_city_ledger(f.description) AS city,
       coalesce(sum(l.total) FILTER (WHERE l.type <> 'payment'), 0) AS charges,
       coalesce(sum(l.total) FILTER (WHERE l.type = 'payment'
                                     AND NOT mart.is_transfer(l.type, l.description)), 0)
           AS payments,
       coalesce(sum(l.total) FILTER (WHERE mart.is_transfer(l.type, l.description)), 0)
           AS transfers
  FROM core.folio_lines l
  JOIN core.folios f ON f.property_id = l.property_id AND f.folio_id = l.folio_id
 WHERE l.property_id = $p AND l.posted_on BETWEEN $first AND $last
 GROUP BY ALL"""

DEPOSIT_COLUMNS = ("folio_id", "folio_number", "reservation_id", "reservation_status",
                   "holder", "arrival", "departure", "received", "charges", "balance")

CITY_LEDGER_COLUMNS = ("folio_id", "reservation_id", "holder", "departure", "oldest_posting",
                       "age_days", *[f"balance_{b}" for b in finance.AGING_BUCKETS],
                       "balance")

WORKLIST_COLUMNS = ("item", "business_date", "status", "reason_code", "state", "folio_id",
                    "reservation_id", "room", "bill_to", "item_code", "gross", "departure",
                    "age_days", "action")
_WORKLIST = """
SELECT w.item, w.business_date, w.status, w.reason_code, w.state, w.folio_id,
       w.reservation_id, w.room, w.bill_to, w.item_code, w.gross, rr.departure,
       $last - w.business_date AS age_days
  FROM recon.v_worklist w
  LEFT JOIN core.reservation_rooms rr ON rr.property_id = w.property_id
       AND rr.reservation_room_id = w.reservation_room_id
 WHERE w.property_id = $p AND w.business_date BETWEEN $first AND $last
 ORDER BY w.business_date, w.reservation_id, w.item_code, w.item"""

ACTIONS = {
    "folio_closed": "bill the guest on a new folio (invoiced_separately) or write it off",
    "folio_suspended": "post it once the folio is reopened, or bill it separately",
    "no_folio": "open a folio for the stay and post it, or write it off",
    "stay_cancelled": "charge the cancelled stay's holder or write it off",
    "stay_unknown": "find the stay the POS charged (room, date) and post it, or write it off",
    "item_unknown": "create the item in the PMS, then post it",
    "amount_mismatch": "reverse the posted line and post the POS amount, or accept it "
                       "(credited)",
    "post_failed": "post it again: pmsw reconcile --apply",
}
"""What to do about a charge that cannot be posted, by its reason code (recon.v_worklist)."""


def action(state: str, reason_code: str | None, status: str) -> str:
    """The worklist item's next step; a resolved item needs none."""
    if state != "open":
        return f"none: resolved ({state})"
    return ACTIONS.get(reason_code or status, "look into it, then: pmsw reconcile resolve ITEM")


def close_pack(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """The pack of the closed business dates q.first to q.last (a date or a month)."""
    bd = q.prop.business_date
    if q.last >= bd:
        what = (f"--date {q.first}: business date {q.first}" if q.first == q.last
                else f"--month {q.first:%Y-%m}: the month")
        raise ReportError(f"{what} of {q.prop.code} is not closed (the business date is {bd}, "
                          f"the last closed one {bd - timedelta(days=1)})")
    params: dict[str, Any] = {"p": q.prop.property_id, "first": q.first, "last": q.last}
    sections = (
        ("revenue", _revenue(conn, q, params)),
        ("vat", _vat(conn, q, params)),
        ("payments", _payments(conn, q, params)),
        ("roll_forward", roll_forward(conn, q, params)),
        ("deposits", _deposits(conn, q)),
        ("city_ledger", _city_ledger(conn, q)),
        ("tieout", _tieout(conn, q)),
        ("worklist", _worklist(conn, q, params)),
    )
    return Table(_title(q, "Close pack"), (), [], sections=sections)


def _sum(rows: list[tuple[Any, ...]], index: int) -> Decimal:
    return sum((Decimal(r[index]) for r in rows), ZERO)


def _revenue(conn: duckdb.DuckDBPyConnection, q: Query, params: dict[str, Any]) -> Table:
    rows = [tuple(r) for r in conn.execute(_REVENUE, {**params, "codes": list(CODES)})
            .fetchall()]
    total = ("total charges (city tax included)", "", "", "", sum(int(r[4]) for r in rows),
             *[_sum(rows, i) for i in (5, 6, 7)]) if rows else None
    return Table(_title(q, "1. Revenue by item and outlet, VAT by rate (folio lines by posting "
                           "date; city tax apart, not revenue)"), REVENUE_COLUMNS, rows, total)


def _vat(conn: duckdb.DuckDBPyConnection, q: Query, params: dict[str, Any]) -> Table:
    found = conn.execute(_REVENUE, {**params, "codes": list(CODES)}).fetchall()
    rates: dict[Decimal, list[Any]] = {}
    for r in found:
        acc = rates.setdefault(Decimal(r[3]), [0, ZERO, ZERO, ZERO])
        acc[0] += int(r[4])
        for k, i in ((1, 5), (2, 6), (3, 7)):
            acc[k] += Decimal(r[i])
    rows = [(rate, *acc) for rate, acc in sorted(rates.items())]
    total = ("total", sum(int(r[1]) for r in rows), *[_sum(rows, i) for i in (2, 3, 4)]
             ) if rows else None
    return Table(_title(q, "1b. VAT by rate (charges, net and gross)"),
                 ("vat_pct", "lines", "net", "vat", "gross"), rows, total)


def _payments(conn: duckdb.DuckDBPyConnection, q: Query, params: dict[str, Any]) -> Table:
    rows = [tuple(r) for r in conn.execute(_PAYMENTS, params).fetchall()]
    total = ("total", "", "", sum(int(r[3]) for r in rows), _sum(rows, 4)) if rows else None
    return Table(_title(q, "2. Payments by method (money received, refunds negative; "
                           "transfers between folios apart)"), PAYMENT_COLUMNS, rows, total)


def _ledger_balance(conn: duckdb.DuckDBPyConnection, q: Query, day: date, which: str
                    ) -> Decimal:
    """The total of `ledger --date day --ledger which`: the one figure of a ledger."""
    table = finance.ledger(conn, Query(q.prop, q.first, q.last,
                                       {"by": "folio", "date": day, "ledger": which}))
    return ZERO if table.total is None else Decimal(table.total[12])


ROLL_FORWARD_COLUMNS = ("line", "guest_ledger", "city_ledger", "both_ledgers")


def roll_forward(conn: duckdb.DuckDBPyConnection, q: Query, params: dict[str, Any]) -> Table:
    """opening (ledger --date first - 1) + charges - payments - transfers = closing, per
    ledger; then `ledger --date last` and the difference (zero when the books balance)."""
    moved = {bool(r[0]): (Decimal(r[1]), Decimal(r[2]), Decimal(r[3]))
             for r in conn.execute(_MOVEMENTS, params).fetchall()}
    columns: list[list[Decimal]] = []
    for which, city in (("guest", False), ("city", True)):
        opening = _ledger_balance(conn, q, q.first - timedelta(days=1), which)
        charges, payments, transfers = moved.get(city, (ZERO, ZERO, ZERO))
        closing = opening + charges - payments - transfers
        reported = _ledger_balance(conn, q, q.last, which)
        columns.append([opening, charges, payments, transfers, closing, reported,
                        closing - reported])
    labels = (f"opening balance (end of {q.first - timedelta(days=1)})", "+ charges",
              "- payments", "- transfers (to the city ledger; on it, received from folios)",
              "= closing balance", f"ledger --date {q.last}", "difference")
    rows = [(label, g, c, g + c) for label, g, c in zip(labels, *columns, strict=True)]
    return Table(_title(q, "3. Ledger roll-forward: opening + charges - payments - transfers "
                           "= closing, against the ledger report"), ROLL_FORWARD_COLUMNS, rows)


def _deposits(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    found = conn.execute(
        f"SELECT {', '.join(DEPOSIT_COLUMNS[:-3])}, payments, charges, balance "
        f"FROM ({finance.FOLIOS_AS_OF_SQL}) WHERE category = $deposit "
        f"ORDER BY arrival, folio_id",
        {"p": q.prop.property_id, "d": q.last, "deposit": finance.DEPOSIT}).fetchall()
    rows = [tuple(r) for r in found]
    total = ("total", len(rows), *[""] * 5, *[_sum(rows, i) for i in (7, 8, 9)]
             ) if rows else None
    return Table(_title(q, f"4. Deposits ledger: credit balances of stays not yet arrived at "
                           f"the end of {q.last} (ledger --date {q.last}, category deposit; a "
                           "cancelled stay's credit is owed back, category cancelled)"),
                 DEPOSIT_COLUMNS, rows, total)


def _city_ledger(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    ledger = finance.ledger(conn, Query(q.prop, q.first, q.last,
                                        {"by": "folio", "date": q.last, "ledger": "city"}))
    i = finance.LEDGER_COLUMNS.index
    rows = []
    for r in ledger.rows:
        balance = Decimal(r[i("balance")])
        buckets = [balance if r[i("aging_bucket")] == b else ZERO
                   for b in finance.AGING_BUCKETS]
        rows.append((r[i("folio_id")], r[i("reservation_id")], r[i("holder")],
                     r[i("departure")], r[i("oldest_posting")], r[i("age_days")], *buckets,
                     balance))
    total = ("total", len(rows), "", "", "", "", *[_sum(rows, n) for n in range(6, 11)]
             ) if rows else None
    return Table(_title(q, f"5. City ledger (accounts receivable) at the end of {q.last}, "
                           "aged from the transfer (ledger --ledger city)"),
                 CITY_LEDGER_COLUMNS, rows, total)


def _worklist(conn: duckdb.DuckDBPyConnection, q: Query, params: dict[str, Any]) -> Table:
    rows = [(*r, action(r[4], r[3], r[2])) for r in conn.execute(_WORKLIST, params).fetchall()]
    total = ("total", len(rows), *[""] * 8, _sum(rows, 10), "", "", "") if rows else None
    return Table(_title(q, "7. Worklist: the period's charges that cannot be posted, each "
                           "with its action, departure and age at the close"),
                 WORKLIST_COLUMNS, rows, total)


def _tieout(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    table = tieout.tieout(conn, Query(q.prop, q.first, q.last, {}))
    return replace(table, title=f"6. {table.title}")

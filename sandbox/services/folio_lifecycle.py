"""The life of a folio after its charges: payments, suspension, closing with a fiscal document.

Transitions (docs/sandbox.md, "Folios"):

    open      --suspend-->  suspended   (on hold: takes no charges; payments still accepted)
    suspended --reopen--->  open
    open      --close---->  closed      (balance 0; fiscal document number and issue date)

A closed folio is final: its document is issued, so corrections go on another folio.
Any other move answers 422 rule_violation naming the folio's status.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from decimal import Decimal

from models.common import FolioStatus

from ..db import one, transaction, ts, update
from ..errors import rule_violation
from .folios import PAYMENT, folio_row, folio_totals, post_line, stay_room_code

DOCUMENT_DIGITS = 6


def business_date(conn: sqlite3.Connection, property_id: int) -> date:
    row = one(conn, "SELECT business_date FROM properties WHERE id = ?", property_id)
    assert row is not None
    return date.fromisoformat(row["business_date"])


def post_payment(
    conn: sqlite3.Connection,
    property_id: int,
    folio_id: int,
    amount_cents: int,
    description: str,
    now: datetime,
) -> int:
    """Post a payment line (a negative amount is a refund) on an open or suspended folio."""
    with transaction(conn):
        folio = folio_row(conn, property_id, folio_id)
        if folio["status"] == FolioStatus.CLOSED.value:
            raise rule_violation(f"folio {folio_id} is closed: it takes no more payments")
        if amount_cents == 0:
            raise rule_violation("a payment needs an amount other than 0", field="amount")
        return post_line(
            conn, folio_id, line_type=PAYMENT, description=description or "Payment",
            posted_on=business_date(conn, property_id), quantity=Decimal(1),
            unit_price_cents=amount_cents, tax_pct=Decimal(0),
            room_code=stay_room_code(conn, folio["reservation_room_id"]), service_item_id=None,
            reservation_room_id=folio["reservation_room_id"], now=now,
        )


def next_document_number(conn: sqlite3.Connection, property_id: int, year: int) -> str:
    """The next fiscal number of the property in `year`: "2026/000123", restarting each year."""
    conn.execute(
        "INSERT INTO document_counters (property_id, year, last_number) VALUES (?, ?, 1) "
        "ON CONFLICT (property_id, year) DO UPDATE SET last_number = last_number + 1",
        (property_id, year),
    )
    row = one(conn, "SELECT last_number FROM document_counters WHERE property_id = ? AND year = ?",
              property_id, year)
    assert row is not None
    return f"{year}/{row['last_number']:0{DOCUMENT_DIGITS}d}"


def close_folio(conn: sqlite3.Connection, property_id: int, folio_id: int, now: datetime) -> str:
    """Settle an open folio whose balance is 0: issue its document. Returns the number."""
    with transaction(conn):
        folio = folio_row(conn, property_id, folio_id)
        _require_status(folio, FolioStatus.OPEN, "closed")
        balance = folio_totals(conn, folio_id).balance_cents
        if balance != 0:
            raise rule_violation(
                f"folio {folio_id} has a balance of {Decimal(balance) / 100:.2f}: "
                "only a settled folio (balance 0) is closed")
        issued_on = business_date(conn, property_id)
        document = next_document_number(conn, property_id, issued_on.year)
        update(conn, "folios", folio_id, {
            "status": FolioStatus.CLOSED.value, "document": document,
            "issue_date": issued_on.isoformat(), "updated_at": ts(now),
        })
        return document


def suspend_folio(conn: sqlite3.Connection, property_id: int, folio_id: int, now: datetime) -> None:
    """Put an open folio on hold: no charges until it is reopened."""
    _move(conn, property_id, folio_id, FolioStatus.OPEN, FolioStatus.SUSPENDED, "suspended", now)


def reopen_folio(conn: sqlite3.Connection, property_id: int, folio_id: int, now: datetime) -> None:
    """Take a suspended folio off hold. A closed folio is never reopened."""
    _move(conn, property_id, folio_id, FolioStatus.SUSPENDED, FolioStatus.OPEN, "reopened", now)


def _move(
    conn: sqlite3.Connection, property_id: int, folio_id: int, source: FolioStatus,
    target: FolioStatus, verb: str, now: datetime,
) -> None:
    with transaction(conn):
        folio = folio_row(conn, property_id, folio_id)
        _require_status(folio, source, verb)
        update(conn, "folios", folio_id, {"status": target.value, "updated_at": ts(now)})


def _require_status(folio: sqlite3.Row, expected: FolioStatus, verb: str) -> None:
    if folio["status"] != expected.value:
        raise rule_violation(
            f"folio {folio['id']} is {folio['status']}: only a folio that is {expected.value} "
            f"can be {verb}")

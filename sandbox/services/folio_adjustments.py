"""Moving money between folios, reversing a line, a rebate (docs/sandbox.md, "Money").

The spec names line types `charge` and `payment` only and has no transfer operation, so a
transfer is two payment lines of opposite sign: `amount` paid on the source folio (its
balance falls) and `-amount` on the target (its balance rises by as much). Charges and
revenue are untouched; across the hotel the payments still sum to the money received.
A reversal is a line of the same type, item, price and VAT with the opposite quantity and
`reversal_of` naming the line: lines are never edited. A rebate (an allowance granted to the
guest, not a correction of a line) is a charge line of a negative amount without an item.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from decimal import Decimal

from models.common import FolioStatus

from ..db import one, transaction
from ..errors import rule_violation
from .folio_lifecycle import business_date, post_payment
from .folios import CHARGE, folio_row, post_line, stay_room_code


def transfer(
    conn: sqlite3.Connection, property_id: int, source: int, target: int, amount_cents: int,
    *, out_text: str, in_text: str, now: datetime,
) -> None:
    """Move `amount_cents` of balance from folio `source` to folio `target`."""
    with transaction(conn):
        if amount_cents <= 0:
            raise rule_violation("a transfer needs a positive amount", field="amount")
        if source == target:
            raise rule_violation(f"folio {source} cannot be transferred to itself")
        post_payment(conn, property_id, source, amount_cents, out_text, now)
        post_payment(conn, property_id, target, -amount_cents, in_text, now)


def reverse_line(
    conn: sqlite3.Connection, property_id: int, line_id: int, now: datetime,
) -> int:
    """Post the reversal of a charge line of an open folio. Returns the new line's id."""
    with transaction(conn):
        line = one(conn, "SELECT l.* FROM folio_lines l JOIN folios f ON f.id = l.folio_id "
                   "WHERE l.id = ? AND f.property_id = ?", line_id, property_id)
        if line is None:
            raise rule_violation(f"line {line_id} is not a line of the property",
                                 field="reversal_of")
        folio = folio_row(conn, property_id, line["folio_id"])
        if folio["status"] != FolioStatus.OPEN.value:
            raise rule_violation(f"folio {folio['id']} is {folio['status']}: a reversal is "
                                 "posted only on an open folio")
        if line["reversal_of"] is not None or one(
                conn, "SELECT 1 FROM folio_lines WHERE reversal_of = ?", line_id) is not None:
            raise rule_violation(f"line {line_id} is a reversal or reversed already",
                                 field="reversal_of")
        return post_line(
            conn, line["folio_id"], line_type=line["type"],
            description=f"Reversal: {line['description']}",
            posted_on=business_date(conn, property_id), quantity=-Decimal(line["quantity"]),
            unit_price_cents=line["unit_price_cents"], tax_pct=Decimal(line["tax_pct"]),
            room_code=line["room"], service_item_id=line["service_item_id"],
            reservation_room_id=line["reservation_room_id"], now=now,
            discount_cents=-line["discount_cents"], reversal_of=line_id)


def post_rebate(
    conn: sqlite3.Connection, property_id: int, folio_id: int, amount_cents: int, reason: str,
    tax_pct: Decimal, now: datetime,
) -> int:
    """Post a rebate of `amount_cents` (positive: the line's total is its negative) on an
    open folio, VAT at `tax_pct` (that of what it allows against). Returns the line's id."""
    with transaction(conn):
        folio = folio_row(conn, property_id, folio_id)
        if folio["status"] != FolioStatus.OPEN.value:
            raise rule_violation(f"folio {folio_id} is {folio['status']}: a rebate is "
                                 "posted only on an open folio")
        if amount_cents <= 0:
            raise rule_violation("a rebate needs a positive amount", field="amount")
        return post_line(
            conn, folio_id, line_type=CHARGE, description=f"Rebate: {reason}",
            posted_on=business_date(conn, property_id), quantity=Decimal(1),
            unit_price_cents=-amount_cents, tax_pct=tax_pct,
            room_code=stay_room_code(conn, folio["reservation_room_id"]), service_item_id=None,
            reservation_room_id=folio["reservation_room_id"], now=now)

"""Land folios and their lines (current state), with net and gross amounts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import duckdb

from models import Folio, FolioLine

from ._staging import BOOL, DATE, DEC, INT, STR, TS, dec, drop, require_aware, stage
from .raw import Payload, append_raw, payloads_of
from .transaction import transaction

STREAM = "folios"
_CENT = Decimal("0.01")

_FOLIO = {
    "property_id": INT, "folio_id": INT, "reservation_id": INT, "guest_id": INT,
    "guest_name": STR, "description": STR, "status": STR, "document": STR, "issue_date": DATE,
    "prices_include_vat": BOOL, "charges": DEC, "payments": DEC, "balance": DEC,
    "last_seen_run": STR, "fetched_at": TS,
}
_LINE = {
    "property_id": INT, "folio_line_id": INT, "folio_id": INT, "reservation_id": INT,
    "type": STR, "description": STR, "posted_on": DATE, "quantity": DEC, "unit_price": DEC,
    "discount": DEC, "tax_pct": DEC, "total": DEC, "amount_gross": DEC, "amount_net": DEC,
    "room": STR, "service_item_id": INT, "reversal_of": INT, "last_seen_run": STR,
    "fetched_at": TS,
}


@dataclass(frozen=True)
class FolioLanding:
    folios: int
    lines: int
    lines_with_room_entry: int


def net_and_gross(line: FolioLine, prices_include_vat: bool) -> tuple[Decimal, Decimal]:
    """(net, gross) of a line, each rounded half-up to the cent.

    With VAT included, gross = total and net = total / (1 + tax_pct/100); otherwise net = total
    and gross = total * (1 + tax_pct/100).
    """
    factor = 1 + line.tax_pct / 100
    if prices_include_vat:
        return (line.total / factor).quantize(_CENT, ROUND_HALF_UP), line.total
    return line.total, (line.total * factor).quantize(_CENT, ROUND_HALF_UP)


def land_folios(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    folios: Sequence[Folio],
    *,
    run_id: str,
    fetched_at: datetime,
    payloads: Sequence[Payload] | None = None,
) -> FolioLanding:
    """Replace each folio of the batch and all its lines, in one transaction.

    A line's `reservation_room_id` is derived from the room entries already in
    core.reservation_rooms (land reservations before their folios): the only entry of the
    folio's reservation with the line's room number, or among several the one whose stay
    covers `posted_on` (departure day included).
    """
    require_aware(fetched_at, "fetched_at")
    latest = {f.id: f for f in folios}  # a folio read twice in a batch: the last read wins
    folio_rows: list[dict[str, Any]] = []
    line_rows: list[dict[str, Any]] = []
    for f in latest.values():
        folio_rows.append({
            "property_id": property_id, "folio_id": f.id, "reservation_id": f.reservation_id,
            "guest_id": f.guest_id, "guest_name": f.guest_name, "description": f.description,
            "status": f.status.value, "document": f.document, "issue_date": f.issue_date,
            "prices_include_vat": f.prices_include_vat, "charges": dec(f.charges),
            "payments": dec(f.payments), "balance": dec(f.balance), "last_seen_run": run_id,
            "fetched_at": fetched_at,
        })
        for ln in f.lines:
            net, gross = net_and_gross(ln, f.prices_include_vat)
            line_rows.append({
                "property_id": property_id, "folio_line_id": ln.id, "folio_id": f.id,
                "reservation_id": f.reservation_id, "type": ln.type,
                "description": ln.description, "posted_on": ln.posted_on,
                "quantity": dec(ln.quantity), "unit_price": dec(ln.unit_price),
                "discount": dec(ln.discount), "tax_pct": dec(ln.tax_pct),
                "total": dec(ln.total), "amount_gross": dec(gross), "amount_net": dec(net),
                "room": ln.room, "service_item_id": ln.service_item_id,
                "reversal_of": ln.reversal_of, "last_seen_run": run_id, "fetched_at": fetched_at,
            })
    with transaction(conn):
        append_raw(conn, property_id, STREAM, payloads_of(folios, payloads),
                   run_id=run_id, fetched_at=fetched_at)
        stage(conn, "_stg_folios", _FOLIO, folio_rows)
        stage(conn, "_stg_lines", _LINE, line_rows)
        conn.execute("DELETE FROM core.folios WHERE property_id = ? AND folio_id IN "
                     "(SELECT folio_id FROM _stg_folios)", [property_id])
        conn.execute("INSERT INTO core.folios BY NAME SELECT * FROM _stg_folios")
        conn.execute("DELETE FROM core.folio_lines WHERE property_id = ? AND folio_id IN "
                     "(SELECT folio_id FROM _stg_folios)", [property_id])
        conn.execute("""
            INSERT INTO core.folio_lines BY NAME
            WITH cand AS (
                SELECT l.folio_line_id, r.reservation_room_id,
                       l.posted_on BETWEEN r.arrival AND r.departure AS covers
                FROM _stg_lines l JOIN core.reservation_rooms r
                  ON r.property_id = l.property_id AND r.reservation_id = l.reservation_id
                 AND r.room_code = l.room AND l.room <> ''
            ), pick AS (
                SELECT folio_line_id,
                       CASE WHEN count(*) = 1 THEN min(reservation_room_id)
                            WHEN count(*) FILTER (WHERE covers) = 1
                                THEN min(reservation_room_id) FILTER (WHERE covers)
                       END AS reservation_room_id
                FROM cand GROUP BY folio_line_id
            )
            SELECT l.*, pick.reservation_room_id
            FROM _stg_lines l LEFT JOIN pick USING (folio_line_id)
        """)
        row = conn.execute("SELECT count(*) FROM core.folio_lines WHERE property_id = ? AND "
                           "reservation_room_id IS NOT NULL AND folio_id IN "
                           "(SELECT folio_id FROM _stg_folios)", [property_id]).fetchone()
        drop(conn, "_stg_folios", "_stg_lines")
    return FolioLanding(len(folio_rows), len(line_rows), 0 if row is None else int(row[0]))

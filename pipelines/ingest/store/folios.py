"""Land folios and their lines (current state), with net and gross amounts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import duckdb
import polars as pl

from models import Folio, FolioLine
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.vocabulary import line_room_entries
from pipelines.warehouse import (
    BOOL,
    DATE,
    DEC,
    INT,
    STR,
    TS,
    dec,
    drop,
    query_frame,
    require_aware,
    stage,
    transaction,
    write_difference,
)

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
    "room": STR, "service_item_id": INT, "reversal_of": INT, "reservation_room_id": INT,
    "last_seen_run": STR, "fetched_at": TS,
}


@dataclass(frozen=True)
class FolioLanding:
    folios: int
    lines: int


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
    """Replace each folio of the batch and all its lines, in one transaction, writing only the
    folios and lines that changed (`write_difference`).

    A line's `reservation_room_id` is derived from the room entries already in
    core.reservation_rooms (land reservations before their folios) by the rule of
    `pipelines.vocabulary.line_rooms`.
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
    _with_room_entries(conn, property_id, line_rows)
    with transaction(conn):
        append_raw(conn, property_id, STREAM, payloads_of(folios, payloads),
                   run_id=run_id, fetched_at=fetched_at)
        stage(conn, "_stg_folios", _FOLIO, folio_rows)
        stage(conn, "_stg_lines", _LINE, line_rows)
        write_difference(conn, "core.folios", "SELECT * FROM _stg_folios")
        write_difference(conn, "core.folio_lines", "SELECT * FROM _stg_lines",
                         "t.property_id = ? AND t.folio_id IN (SELECT folio_id FROM _stg_folios)",
                         [property_id])
        drop(conn, "_stg_folios", "_stg_lines")
    return FolioLanding(len(folio_rows), len(line_rows))


def _with_room_entries(conn: duckdb.DuckDBPyConnection, property_id: int,
                       line_rows: list[dict[str, Any]]) -> None:
    """Set each line's `reservation_room_id` from the room entries of its reservation."""
    if not line_rows:
        return
    rooms = query_frame(conn, """
        SELECT property_id, reservation_id, reservation_room_id, room_code, arrival, departure
          FROM core.reservation_rooms
         WHERE property_id = $p AND reservation_id IN (SELECT unnest($ids))""",
        {"p": property_id, "ids": sorted({r["reservation_id"] for r in line_rows})})
    lines = pl.DataFrame([{k: r[k] for k in ("property_id", "folio_line_id", "reservation_id",
                                              "room", "posted_on")} for r in line_rows],
                         schema={"property_id": pl.Int64, "folio_line_id": pl.Int64,
                                 "reservation_id": pl.Int64, "room": pl.String,
                                 "posted_on": pl.Date})
    entry = dict(line_room_entries(lines, rooms).select("folio_line_id", "reservation_room_id")
                 .iter_rows())
    for row in line_rows:
        row["reservation_room_id"] = entry[row["folio_line_id"]]

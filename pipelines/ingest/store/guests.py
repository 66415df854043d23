"""Complete core.guests with archive records (GET /guests/{id}) of guests seen on stays."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import duckdb

from models import Guest
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.warehouse import (
    DATE,
    INT,
    STR,
    TS,
    drop,
    require_aware,
    stage,
    transaction,
    write_difference,
)

STREAM = "guests"

_GUEST = {
    "property_id": INT, "guest_id": INT, "kind": STR, "display_name": STR, "first_name": STR,
    "last_name": STR, "company_name": STR, "gender": STR, "birth_date": DATE,
    "nationality": STR, "country_code": STR, "city": STR, "email": STR, "language": STR,
    "last_seen_run": STR, "fetched_at": TS,
}


def land_guests(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    guests: Sequence[Guest],
    *,
    run_id: str,
    fetched_at: datetime,
    payloads: Sequence[Payload] | None = None,
) -> int:
    """Upsert archive records of guests already seen on the property's stays; return how many.

    Records of guests never placed on a stay of the property are ignored: the archive is shared
    by a group of hotels and is never copied in bulk. Documents and tax codes are not stored.
    A guest read twice in one batch lands once, as last read.
    """
    require_aware(fetched_at, "fetched_at")
    guests = list({g.id: g for g in guests}.values())
    rows = [{
        "property_id": property_id, "guest_id": g.id, "kind": g.kind.value,
        "display_name": g.display_name, "first_name": g.first_name, "last_name": g.last_name,
        "company_name": g.company_name, "gender": g.gender, "birth_date": g.birth_date,
        "nationality": g.nationality, "country_code": g.country_code, "city": g.city,
        "email": g.email, "language": g.language, "last_seen_run": run_id,
        "fetched_at": fetched_at,
    } for g in guests]
    with transaction(conn):
        stage(conn, "_stg_arch", _GUEST, rows)
        conn.execute("""
            CREATE OR REPLACE TEMP TABLE _stg_arch_seen AS
            SELECT * FROM _stg_arch s WHERE EXISTS (
                SELECT 1 FROM core.stay_guests g
                WHERE g.property_id = s.property_id AND g.guest_id = s.guest_id)
        """)
        kept = {int(i) for (i,) in conn.execute("SELECT guest_id FROM _stg_arch_seen").fetchall()}
        received = payloads_of([g for g in guests if g.id in kept],
                               None if payloads is None
                               else [p for p in payloads if p.get("id") in kept])
        append_raw(conn, property_id, STREAM, received, run_id=run_id, fetched_at=fetched_at)
        write_difference(conn, "core.guests", "SELECT * FROM _stg_arch_seen")
        drop(conn, "_stg_arch", "_stg_arch_seen")
    return len(kept)

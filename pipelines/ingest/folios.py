"""Stream `folios`: folios change without touching the reservation and have no events, so
each run re-reads the folios of (issue 5):

- reservations landed since the folios were last read (their `updated_at` at or after the
  folio watermark less the overlap; a run that died between the two streams is made good),
  and reservations released from quarantine since (whatever their `updated_at`);
- rooms in house (`checked_in`);
- rooms departed within `departed_days` of the business date;
- reservations holding a folio not yet `closed` in the warehouse (and folios without a
  reservation, one by one), except reservations cancelled more than `departed_days` ago: a
  cancelled stay's folio stays open and empty in most PMSs, and re-reading every one of them
  on every run would make the calls grow with the history; a cancellation fee is posted
  within that window like a departed room's last charges (`full_folio_refresh` catches
  anything later);
- or, with `full_folio_refresh`, every reservation of the warehouse.

A folio stored `closed` is final: it is never written again. Folios are fetched many at once
(`fetch_many`, the client's shared rate limit) and landed `chunk` reservations per
transaction; the watermark (the largest reservation `updated_at` in the warehouse when the
stream began) moves with the last chunk only, so a crash re-reads rather than skips.
"""

from __future__ import annotations

from datetime import timedelta

from models import Folio
from pipelines.warehouse import advance_cursor, get_timestamp_cursor, land_folios, transaction

from ._preview import preview
from .context import StreamResult, SyncContext
from .progress import report

STREAM = "folios"


def reservations_to_read(ctx: SyncContext) -> tuple[list[int], list[int], str]:
    """(reservation ids, loose folio ids, why) whose folios this run re-reads."""
    conn, pid, settings = ctx.conn, ctx.property_id, ctx.settings
    watermark = get_timestamp_cursor(conn, pid, STREAM)
    if settings.full_folio_refresh or watermark is None:
        rows = conn.execute("SELECT reservation_id FROM core.reservations WHERE property_id = ? "
                            "ORDER BY 1", [pid]).fetchall()
        why = "full refresh" if settings.full_folio_refresh else "first run"
    else:
        departed_since = ctx.business_date - timedelta(days=settings.departed_days)
        rows = conn.execute("""
            SELECT reservation_id FROM core.reservations
             WHERE property_id = $p AND updated_at >= $since
            UNION SELECT q.record_id FROM meta.quarantine q
              JOIN meta.sync_state s ON s.property_id = q.property_id AND s.stream = 'folios'
             WHERE q.property_id = $p AND q.stream = 'reservations'
               AND q.released_at >= s.updated_at - $overlap
            UNION SELECT reservation_id FROM core.reservation_rooms
             WHERE property_id = $p AND status = 'checked_in'
            UNION SELECT reservation_id FROM core.reservation_rooms
             WHERE property_id = $p AND status = 'checked_out' AND departure >= $departed
            UNION SELECT f.reservation_id FROM core.folios f
              JOIN core.reservations r
                ON r.property_id = f.property_id AND r.reservation_id = f.reservation_id
             WHERE f.property_id = $p AND f.status <> 'closed'
               AND NOT (r.status = 'cancelled' AND r.updated_at < CAST($departed AS TIMESTAMPTZ))
            ORDER BY 1
        """, {"p": pid, "since": watermark - settings.overlap, "overlap": settings.overlap,
              "departed": departed_since}).fetchall()
        why = "incremental"
    loose = conn.execute("SELECT folio_id FROM core.folios WHERE property_id = ? AND "
                         "status <> 'closed' AND reservation_id IS NULL ORDER BY 1",
                         [pid]).fetchall()
    return [int(r[0]) for r in rows], [int(f[0]) for f in loose], why


def sync_folios(ctx: SyncContext, result: StreamResult) -> None:
    conn, pid, code, settings = ctx.conn, ctx.property_id, ctx.endpoint.code, ctx.settings
    top_row = conn.execute("SELECT max(updated_at) FROM core.reservations WHERE property_id = ?",
                           [pid]).fetchone()
    top = top_row[0] if top_row else None
    reservation_ids, loose, why = reservations_to_read(ctx)
    closed = {int(f[0]) for f in conn.execute(
        "SELECT folio_id FROM core.folios WHERE property_id = ? AND status = 'closed'",
        [pid]).fetchall()}
    total = len(reservation_ids) + len(loose)
    report(code, STREAM, 0, total)
    chunks = [reservation_ids[i:i + settings.chunk]
              for i in range(0, len(reservation_ids), settings.chunk)] or [[]]
    done = landed = lines = 0
    for index, chunk in enumerate(chunks):
        folios: list[Folio] = []
        for _, found in ctx.client.fetch_many(ctx.client.list_folios, chunk,
                                              concurrency=settings.concurrency):
            folios.extend(found)
        last = index == len(chunks) - 1
        if last and loose:
            folios.extend(f for _, f in ctx.client.fetch_many(
                ctx.client.get_folio, loose, concurrency=settings.concurrency))
        fresh = [f for f in folios if f.id not in closed]  # a closed folio is final
        with transaction(conn):
            landing = land_folios(conn, pid, fresh, run_id=ctx.run_id,
                                  fetched_at=ctx.fetched_at())
            if last and top is not None:
                result.cursor = advance_cursor(conn, pid, STREAM, top, run_id=ctx.run_id,
                                               at=ctx.fetched_at())
        done += len(chunk) + (len(loose) if last else 0)
        landed += landing.folios
        lines += landing.lines
        report(code, STREAM, done, total)
    result.rows = landed
    result.details = {"mode": why, "reservations_read": len(reservation_ids),
                      "loose_folios_read": len(loose), "folios_landed": landed,
                      "lines_landed": lines}
    result.preview = preview(
        conn, "SELECT folio_id, reservation_id, status, charges, payments, balance "
        "FROM core.folios WHERE property_id = ? ORDER BY folio_id DESC", [pid])

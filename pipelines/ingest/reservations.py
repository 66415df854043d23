"""Stream `reservations`: every reservation changed since the cursor, with its rooms' history.

- Read with `updated_since` = stored cursor - `overlap` (the client's incremental read,
  docs/client.md "Paging"); the first run, or a run after a full-resync flag (an event gap),
  reads everything.
- With `stay_guests`, the detail of each reservation read (GET /reservations/{id}) brings the
  guests of its rooms (the list does not carry them).
- The rows and the new cursor land in ONE transaction (`land_reservations`). The cursor is the
  largest server `updated_at` of the list read (never the machine clock), and never beyond the
  point the client's read vouches for (`ReservationStream.cursor`).
"""

from __future__ import annotations

from models import Reservation
from pipelines.warehouse import get_state, get_timestamp_cursor, land_reservations, max_updated_at

from ._preview import preview
from .context import StreamResult, SyncContext
from .progress import report

STREAM = "reservations"


def sync_reservations(ctx: SyncContext, result: StreamResult) -> None:
    conn, pid, code, settings = ctx.conn, ctx.property_id, ctx.endpoint.code, ctx.settings
    state = get_state(conn, pid, STREAM)
    full = state is None or state.cursor_value is None or state.full_resync_required
    since = None if full else get_timestamp_cursor(conn, pid, STREAM)
    stream = ctx.client.iter_reservations(updated_since=since, overlap=settings.overlap)
    listed: list[Reservation] = []
    for reservation in stream:
        listed.append(reservation)
        if len(listed) % 200 == 0:
            report(code, STREAM, len(listed), 0)
    details: list[Reservation] = []
    if settings.stay_guests and listed:
        ids = sorted({r.id for r in listed})
        for done, (_, detail) in enumerate(ctx.client.fetch_many(
                ctx.client.get_reservation, ids, concurrency=settings.concurrency), start=1):
            details.append(detail)
            if done % 50 == 0 or done == len(ids):
                report(code, STREAM, done, len(ids))
    top = max_updated_at(listed)
    cursor = top if stream.cursor is None or top is None else min(top, stream.cursor)
    landing = land_reservations(
        conn, pid, listed + details, run_id=ctx.run_id, fetched_at=ctx.fetched_at(),
        new_cursor=cursor, clear_resync=full)
    result.rows = len(listed)
    result.cursor = landing.cursor
    result.details = {"mode": "full" if full else "incremental", "reservations": landing.received,
                      "written": landing.written, "rooms": landing.rooms,
                      "versions_opened": landing.versions_opened,
                      "stay_guests": landing.stay_guests, "details_read": len(details),
                      "passes": stream.passes}
    if full and state is not None and state.full_resync_reason:
        result.message = f"full resync: {state.full_resync_reason}"
    result.preview = preview(
        conn, "SELECT reservation_id, status, arrival, departure, total, updated_at "
        "FROM core.reservations WHERE property_id = ? ORDER BY updated_at DESC", [pid])

"""Stream `reservations`: every reservation changed since the cursor, with its rooms' history.

- Read with `updated_since` = stored cursor - `overlap` (the client's incremental read,
  docs/client.md "Paging"); the first run, or a run after a full-resync flag (an event gap),
  reads everything.
- With `stay_guests`, the detail of each reservation read (GET /reservations/{id}) brings the
  guests of its rooms (the list does not carry them).
- The rows and the new cursor land in ONE transaction (`land_reservations`). The cursor is the
  largest server `updated_at` of the list read (never the machine clock), and never beyond the
  point the client's read vouches for (`ReservationStream.cursor`).
- Quarantine (docs/ingestion.md, "Quarantine"): a record that does not match the model (a
  field missing, an unknown enum value) does not stop the stream. It is kept in
  meta.quarantine with its payload and the error naming the field; the rest lands and the
  cursor moves (by the valid records only). Every later run re-fetches each record still in
  quarantine by id (GET /reservations/{id}) and releases it once it validates, landing it in
  the same transaction. The asset check `no_quarantined_records` is red while any is held.
"""

from __future__ import annotations

from models import Reservation
from pipelines.api import InvalidRecord
from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.store import (
    Quarantined,
    get_state,
    get_timestamp_cursor,
    land_reservations,
    max_updated_at,
    open_records,
    quarantine_records,
    release_records,
)
from pipelines.warehouse import transaction

STREAM = "reservations"


def _quarantined(record: InvalidRecord) -> Quarantined:
    return Quarantined(record.record_id, record.payload, str(record.error), record.error.field)


def sync_reservations(ctx: SyncContext, result: StreamResult) -> None:
    conn, pid, code, settings = ctx.conn, ctx.property_id, ctx.endpoint.code, ctx.settings
    state = get_state(conn, pid, STREAM)
    full = state is None or state.cursor_value is None or state.full_resync_required
    since = None if full else get_timestamp_cursor(conn, pid, STREAM)
    held = open_records(conn, pid, STREAM)  # quarantined by earlier runs
    stream = ctx.client.iter_reservations(updated_since=since, overlap=settings.overlap,
                                          quarantine=True)
    listed: list[Reservation] = []
    for reservation in stream:
        listed.append(reservation)
        if len(listed) % 200 == 0:
            report(code, STREAM, len(listed), 0)
    invalid = [_quarantined(r) for r in stream.invalid]
    details: list[Reservation] = []
    if settings.stay_guests and listed:
        ids = sorted({r.id for r in listed})
        for done, (_, detail) in enumerate(ctx.client.fetch_many(
                ctx.client.check_reservation, ids, concurrency=settings.concurrency), start=1):
            if isinstance(detail, InvalidRecord):
                invalid.append(_quarantined(detail))
            else:
                details.append(detail)
            if done % 50 == 0 or done == len(ids):
                report(code, STREAM, done, len(ids))
        bad_details = {q.record_id for q in invalid}
        listed = [r for r in listed if r.id not in bad_details]  # all of a record, or none
    # Every record held in quarantine and not listed valid now: re-fetched one by one.
    valid_ids = {r.id for r in listed}
    retry = [h.record_id for h in held if h.record_id is not None
             and h.record_id not in valid_ids]
    refetched: list[Reservation] = []
    for _, answer in ctx.client.fetch_many(ctx.client.check_reservation, retry,
                                           concurrency=settings.concurrency):
        if isinstance(answer, InvalidRecord):
            invalid.append(_quarantined(answer))
        else:
            refetched.append(answer)
    landed_ids = valid_ids | {r.id for r in refetched}
    invalid = [q for q in invalid if q.record_id not in landed_ids]  # a valid read wins
    released_ids = sorted(h.record_id for h in held
                          if h.record_id is not None and h.record_id in landed_ids)
    top = max_updated_at(listed)
    cursor = top if stream.cursor is None or top is None else min(top, stream.cursor)
    at = ctx.fetched_at()
    with transaction(conn):
        landing = land_reservations(
            conn, pid, listed + details + refetched, run_id=ctx.run_id, fetched_at=at,
            new_cursor=cursor, clear_resync=full)
        quarantined = quarantine_records(conn, pid, STREAM, invalid, run_id=ctx.run_id, at=at)
        released = release_records(conn, pid, STREAM, released_ids, run_id=ctx.run_id, at=at)
    still = open_records(conn, pid, STREAM)
    result.rows = len(listed) + len(refetched)
    result.cursor = landing.cursor
    result.details = {"mode": "full" if full else "incremental", "reservations": landing.received,
                      "written": landing.written, "rooms": landing.rooms,
                      "versions_opened": landing.versions_opened,
                      "stay_guests": landing.stay_guests, "details_read": len(details),
                      "passes": stream.passes, "quarantined_now": quarantined,
                      "refetched": len(retry), "released": released,
                      "in_quarantine": len(still)}
    notes: list[str] = []
    if full and state is not None and state.full_resync_reason:
        notes.append(f"full resync: {state.full_resync_reason}")
    if still or released:
        notes.append(f"{len(still)} in quarantine, {released} released")
    result.message = "; ".join(notes) or None
    result.preview = preview(
        conn, "SELECT reservation_id, status, arrival, departure, total, updated_at "
        "FROM core.reservations WHERE property_id = ? ORDER BY updated_at DESC", [pid])

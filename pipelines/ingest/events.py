"""Stream `events`: the event log after the last landed id, each event once.

Gap: the log keeps 30 days. When the stored cursor is not 0 and the oldest event still in the
log (GET /events?after=0&limit=1) is newer than cursor + 1, the events in between are lost.
The run then records the gap (meta.sync_runs status `gap`, and the reservations stream flagged
for a full resync with the reason, in the same transaction as the first batch), and the
`event_gap` check fails. The oldest event is asked for only when the first batch does not
start right after the cursor (when it does, nothing can be missing).

Event ids may be shared by all the properties of a PMS; then the ids between two events of a
property belong to others and a property quiet for 30 days reads as a gap. That costs a full
reservation resync, never a silent skip.
"""

from __future__ import annotations

from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.store import get_int_cursor, land_events, require_full_resync
from pipelines.warehouse import transaction

STREAM = "events"
BATCH = 500


def find_gap(ctx: SyncContext, cursor: int, first_id: int | None) -> str | None:
    """The gap description when events after `cursor` were lost, else None."""
    if cursor == 0 or first_id is None or first_id == cursor + 1:
        return None
    head = ctx.client.get_events(0, limit=1)
    oldest = head.data[0].id if head.data else None
    if oldest is None or oldest <= cursor + 1:
        return None
    return (f"event gap: the last landed event is {cursor} but the oldest event in the log "
            f"is {oldest}; events {cursor + 1}..{oldest - 1} fell out of the 30-day log. "
            "A full reservation resync is required.")


def sync_events(ctx: SyncContext, result: StreamResult) -> None:
    conn, pid, code = ctx.conn, ctx.property_id, ctx.endpoint.code
    cursor = get_int_cursor(conn, pid, STREAM) or 0
    after, first, inserted = cursor, True, 0
    gap: str | None = None
    while True:
        batch = ctx.client.get_events(after, limit=BATCH)
        if first:
            gap = find_gap(ctx, cursor, batch.data[0].id if batch.data else None)
        with transaction(conn):
            landing = land_events(conn, pid, batch.data, run_id=ctx.run_id,
                                  fetched_at=ctx.fetched_at(),
                                  new_cursor=batch.next_after if batch.data else None)
            if first and gap is not None:
                require_full_resync(conn, pid, "reservations", gap)
        first = False
        inserted += landing.inserted
        result.rows += len(batch.data)
        result.cursor = landing.cursor or result.cursor
        report(code, STREAM, result.rows, 0)
        if not batch.has_more or batch.next_after <= after:
            break
        after = batch.next_after
    if gap is not None:
        result.status, result.message = "gap", gap
    result.details = {"inserted": inserted, "from_cursor": cursor}
    result.preview = preview(conn, "SELECT event_id, type, entity, entity_id, created_at "
                             "FROM core.events WHERE property_id = ? ORDER BY event_id DESC",
                             [pid])

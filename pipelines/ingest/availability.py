"""Stream `availability`: a snapshot of the next nights (365 by default) per room type, taken
on the property's business date (GET /property, never the machine's date), read in windows
of 62 nights (the most one call answers) and landed in one transaction."""

from __future__ import annotations

from datetime import date, timedelta

from models import TypeAvailability
from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.settings import AVAILABILITY_WINDOW
from pipelines.ingest.store import land_availability

STREAM = "availability"


def windows(first: date, nights: int, size: int = AVAILABILITY_WINDOW) -> list[tuple[date, date]]:
    """[from, to) windows of at most `size` nights covering `nights` nights from `first`."""
    end = first + timedelta(days=nights)
    starts = [first + timedelta(days=i) for i in range(0, nights, size)]
    return [(s, min(s + timedelta(days=size), end)) for s in starts]


def sync_availability(ctx: SyncContext, result: StreamResult) -> None:
    code = ctx.endpoint.code
    snapshot = ctx.business_date
    spans = windows(snapshot, ctx.settings.availability_nights)
    read: list[TypeAvailability] = []
    for done, (first, to) in enumerate(spans, start=1):
        read.extend(ctx.client.get_availability(first, to).data)
        report(code, STREAM, done, len(spans))
    result.rows = land_availability(ctx.conn, ctx.property_id, read, snapshot_date=snapshot,
                                    run_id=ctx.run_id, fetched_at=ctx.fetched_at())
    result.cursor = snapshot.isoformat()
    result.details = {"snapshot_date": snapshot.isoformat(), "windows": len(spans)}
    result.preview = preview(
        ctx.conn, "SELECT stay_date, room_type_code, total, occupied, out_of_order, available "
        "FROM core.availability WHERE property_id = ? AND snapshot_date = ? "
        "ORDER BY stay_date, room_type_code", [ctx.property_id, snapshot])

"""Stream `reference`: the property and its room types, rooms, plans, brackets, items and
classifications, replaced every run (7 calls)."""

from __future__ import annotations

from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.store import PropertyData, land_reference

STREAM = "reference"


def sync_reference(ctx: SyncContext, result: StreamResult) -> None:
    client, code = ctx.client, ctx.endpoint.code
    steps = 7
    report(code, STREAM, 0, steps)
    data = PropertyData(
        property=ctx.pms_property, room_types=client.list_room_types(), rooms=client.list_rooms(),
        rate_plans=client.list_rate_plans(), age_brackets=client.list_age_brackets(),
        items=client.list_items(), classifications=client.get_classifications())
    report(code, STREAM, steps - 1, steps)
    counts = land_reference(ctx.conn, ctx.property_id, data, run_id=ctx.run_id,
                            fetched_at=ctx.fetched_at())
    report(code, STREAM, steps, steps)
    result.rows = sum(counts.values())
    result.details = dict(counts)
    result.details["business_date"] = ctx.business_date.isoformat()
    result.preview = preview(ctx.conn, "SELECT room_type_id, code, name, rooms FROM "
                             "core.room_types WHERE property_id = ? ORDER BY room_type_id",
                             [ctx.property_id])

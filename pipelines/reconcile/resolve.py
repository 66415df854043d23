"""A worklist item's resolution, recorded the one way (`pmsw reconcile resolve` and the web
app's worklist page): checked, appended to recon.resolutions (never updated) by a writer
that waits for the warehouse like every writer, then the read copy published so the
worklist report shows it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pipelines.warehouse import publish
from pipelines.warehouse.recon import (
    RESOLUTION_STATES,
    ReconInputError,
    add_resolution,
    find_item,
)

from .run import open_warehouse


def resolve_item(warehouse: Path, item: str, state: str, note: str, resolved_by: str,
                 code: str | None = None) -> tuple[int, str]:
    """Record that `item` (a worklist item, Idempotency-Key or key) is `state`; return the
    resolution id and the charge's key. A bad state, property, item or an empty note or
    name is a ReconInputError (one line) and writes nothing."""
    if state not in RESOLUTION_STATES:
        raise ReconInputError(f"unknown state {state!r}: one of {', '.join(RESOLUTION_STATES)}")
    if not resolved_by.strip():
        raise ReconInputError("a resolution needs who made it (--by NAME)")
    if not note.strip():
        raise ReconInputError("a resolution needs a note (--note TEXT): what was done, or why")
    if not warehouse.is_file():
        raise ReconInputError(f"no warehouse at {warehouse}: sync and reconcile first")
    with open_warehouse(warehouse) as conn:
        property_id = None
        if code is not None:
            row = conn.execute("SELECT property_id FROM core.property WHERE "
                               "lower(code) = lower(?)", [code]).fetchone()
            if row is None:
                raise ReconInputError(f"unknown property {code!r}")
            property_id = int(row[0])
        pid, key = find_item(conn, item, property_id)
        resolution_id = add_resolution(conn, property_id=pid, key=key, state=state,
                                       note=note, resolved_by=resolved_by.strip(),
                                       resolved_at=datetime.now(UTC))
        publish(conn, warehouse)  # the worklist report reads the read copy
    return resolution_id, key

"""Resolving a worklist item: who decided what about a charge, appended to
recon.resolutions (never updated), and the read copy published so the worklist shows it.
`pmsw reconcile resolve` and the web app both come here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pipelines.recon.logic import RESOLUTION_STATES
from pipelines.recon.store import ReconInputError, add_resolution, find_item
from pipelines.warehouse import WarehouseError, is_group, property_file, writer


@dataclass(frozen=True)
class Resolution:
    resolution_id: int
    key: str
    """The charge's stable key (recon.results.charge_key)."""
    state: str
    resolved_by: str


def resolve_item(warehouse: str | Path, item: str, state: str, *, resolved_by: str,
                 note: str, property_code: str | None = None,
                 wait: float | None = None) -> Resolution:
    """Append a resolution of worklist `item` (its charge key or result id) in `state`;
    refused with ReconInputError, writing nothing, on an unknown state, property or item."""
    if state not in RESOLUTION_STATES:
        raise ReconInputError(f"unknown state {state!r}: one of {', '.join(RESOLUTION_STATES)}")
    if is_group(warehouse):  # the group layout: the property's own file
        try:
            warehouse = property_file(warehouse, property_code)
        except WarehouseError as error:
            raise ReconInputError(str(error)) from None
    if not Path(warehouse).is_file():
        raise ReconInputError(f"no warehouse at {warehouse}: sync and reconcile first")
    with writer(warehouse, wait=wait) as conn:
        property_id = None
        if property_code is not None:
            row = conn.execute("SELECT property_id FROM core.property WHERE "
                               "lower(code) = lower(?)", [property_code]).fetchone()
            if row is None:
                raise ReconInputError(f"unknown property {property_code!r}")
            property_id = int(row[0])
        pid, key = find_item(conn, item, property_id)
        resolution_id = add_resolution(conn, property_id=pid, key=key, state=state, note=note,
                                       resolved_by=resolved_by, resolved_at=datetime.now(UTC))
    return Resolution(resolution_id, key, state, resolved_by)

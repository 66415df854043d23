"""Each table's key: the columns that name one of its rows, in one place.

Most tables hold their key as a PRIMARY KEY too (the upserts of meta.* rely on it). The five
largest tables a day's sync changes do not since migration 0044 (mart.pickup,
mart.otb_snapshots, mart.pace, mart.stay_nights, core.folio_lines): DuckDB writes a PRIMARY
KEY's index whole at the checkpoint once a row of its table changed, a write in proportion to
the table's size (docs/scaling.md, "No write in proportion to size"). Nor, since migrations
0045 and 0047, do the core tables a sync writes by difference (reservations, their rooms and
room versions, stay guests, guests, folios, availability and the property's reference
tables): DuckDB extends a keyed table's last row group on append, rewriting it whole. Their
uniqueness is kept by the writing path (`pipelines.warehouse.difference`), which refuses rows
holding a key twice.
The data dictionary shows the keys from here; a test holds every PRIMARY KEY equal to its
entry. A table not listed has no key: a row is one combination of its values.
"""

from __future__ import annotations

KEYS: dict[str, tuple[str, ...]] = {
    "core.age_brackets": ("property_id", "age_bracket_id"),
    "core.availability": ("property_id", "snapshot_date", "stay_date", "room_type_id"),
    "core.classifications": ("property_id", "kind", "value"),
    "core.events": ("property_id", "event_id"),
    "core.folio_lines": ("property_id", "folio_line_id"),
    "core.folios": ("property_id", "folio_id"),
    "core.guests": ("property_id", "guest_id"),
    "core.items": ("property_id", "item_id"),
    "core.pos_ledger": ("property_id", "ticket_id", "line"),
    "core.pos_ledger_files": ("property_id", "file_name", "sha256"),
    "core.property": ("property_id",),
    "core.rate_plans": ("property_id", "rate_plan_id"),
    "core.reservation_room_versions": ("property_id", "reservation_room_id", "valid_from"),
    "core.reservation_rooms": ("property_id", "reservation_room_id"),
    "core.reservations": ("property_id", "reservation_id"),
    "core.room_types": ("property_id", "room_type_id"),
    "core.rooms": ("property_id", "room_id"),
    "core.sandbox_levels": ("property_id", "stay_date"),
    "core.stay_guests": ("property_id", "stay_guest_id"),
    "mart.alerts": ("property_id", "as_of_date", "stay_date", "alert"),
    "mart.booking_outcomes": ("property_id", "reservation_id"),
    "mart.departments": ("department",),
    "mart.forecast_accuracy": ("property_id", "horizon_days", "method"),
    "mart.forecast_daily": ("property_id", "as_of_date", "stay_date"),
    "mart.forecast_history": ("property_id", "as_of_date", "stay_date"),
    "mart.occupancy_by_room_type": ("property_id", "stay_date", "room_type_id"),
    "mart.occupancy_daily": ("property_id", "stay_date"),
    "mart.otb_snapshots": ("property_id", "snapshot_date", "stay_date"),
    "mart.pace": ("property_id", "stay_date", "days_before"),
    "mart.pickup": ("property_id", "as_of_date", "stay_date", "window_days"),
    "mart.revenue_daily": ("property_id", "date", "department"),
    "mart.revenue_tieout": ("property_id", "date"),
    "mart.room_fees": ("property_id", "folio_line_id"),
    "mart.stay_nights": ("property_id", "reservation_room_id", "stay_date"),
    "meta.folio_classes": ("run_id", "property_id", "class"),
    "meta.folio_reads": ("property_id", "reservation_id"),
    "meta.mart_builds": ("property_id", "mart"),
    "meta.mart_inputs": ("property_id", "mart", "day"),
    "meta.published": ("property_id", "part"),
    "meta.quarantine": ("property_id", "stream", "record_key"),
    "meta.schema_migrations": ("version",),
    "meta.sync_runs": ("run_id", "property_id", "stream"),
    "meta.sync_state": ("property_id", "stream"),
    "recon.resolutions": ("resolution_id",),
    "recon.results": ("run_id", "key"),
    "recon.runs": ("run_id",),
}

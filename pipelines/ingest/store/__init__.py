"""Ingest's store: the landing of API v1 models in the warehouse (raw.*, core.* with SCD2
history, meta.* sync state, quarantine, the POS ledger files). Every loader writes its raw
payloads, its core rows and its cursor in ONE transaction (`pipelines.warehouse.transaction`;
nested blocks join the outer). Tables and columns: docs/warehouse.md.
"""

from pipelines.ingest.store.availability import land_availability
from pipelines.ingest.store.events import EventLanding, land_events
from pipelines.ingest.store.folio_reads import (
    FolioClassCost,
    forget_folio_reads,
    last_folio_reads,
    last_folio_run_time,
    record_folio_classes,
    record_folio_reads,
)
from pipelines.ingest.store.folios import FolioLanding, land_folios, net_and_gross
from pipelines.ingest.store.guests import land_guests
from pipelines.ingest.store.pos_ledger import LedgerLoad, load_pos_ledger_dir
from pipelines.ingest.store.quarantine import (
    OpenRecord,
    Quarantined,
    open_records,
    quarantine_records,
    release_records,
)
from pipelines.ingest.store.reference import (
    PropertyData,
    UnknownPropertyError,
    land_reference,
    property_row,
)
from pipelines.ingest.store.reservations import (
    ReservationLanding,
    land_reservations,
    max_updated_at,
)
from pipelines.ingest.store.sync_state import (
    SyncRun,
    SyncState,
    advance_cursor,
    clear_full_resync,
    get_cursor,
    get_int_cursor,
    get_state,
    get_timestamp_cursor,
    record_sync_run,
    require_full_resync,
    reset_cursor,
)

__all__ = [
    "EventLanding",
    "FolioClassCost",
    "FolioLanding",
    "LedgerLoad",
    "OpenRecord",
    "PropertyData",
    "Quarantined",
    "ReservationLanding",
    "SyncRun",
    "SyncState",
    "UnknownPropertyError",
    "advance_cursor",
    "clear_full_resync",
    "forget_folio_reads",
    "get_cursor",
    "get_int_cursor",
    "get_state",
    "get_timestamp_cursor",
    "land_availability",
    "land_events",
    "land_folios",
    "land_guests",
    "land_reference",
    "land_reservations",
    "last_folio_reads",
    "last_folio_run_time",
    "load_pos_ledger_dir",
    "max_updated_at",
    "net_and_gross",
    "open_records",
    "property_row",
    "quarantine_records",
    "record_folio_classes",
    "record_folio_reads",
    "record_sync_run",
    "release_records",
    "require_full_resync",
    "reset_cursor",
]

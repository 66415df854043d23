"""The DuckDB warehouse: migrations from sql/, loaders (merge, SCD2 history), sync state.

Every loader takes API v1 models and a DuckDB connection, and writes its raw payloads, its
core rows and its cursor in ONE transaction (`transaction()`; nested blocks join the outer).
Nothing here knows HTTP or Dagster. Tables and columns: docs/warehouse.md.
"""

from pipelines.warehouse._staging import insert_frame, registered
from pipelines.warehouse.availability import land_availability
from pipelines.warehouse.connection import (
    DEFAULT_PATH,
    MEMORY_ENV,
    WAIT_ENV,
    WAREHOUSE_ENV,
    WarehouseError,
    WarehouseLockedError,
    WarehouseMissingError,
    WarehouseSchemaError,
    connect,
    default_path,
    open_read_copy,
    out_of_memory,
    read_copy_path,
    resolve,
    thread_cursor,
)
from pipelines.warehouse.events import EventLanding, land_events
from pipelines.warehouse.folio_reads import (
    FolioClassCost,
    forget_folio_reads,
    last_folio_reads,
    last_folio_run_time,
    record_folio_classes,
    record_folio_reads,
)
from pipelines.warehouse.folios import FolioLanding, land_folios, net_and_gross
from pipelines.warehouse.guests import land_guests
from pipelines.warehouse.migrate import MigrationError, migrate
from pipelines.warehouse.pos_ledger import LedgerLoad, load_pos_ledger_dir
from pipelines.warehouse.publish import Published, publish
from pipelines.warehouse.quarantine import (
    OpenRecord,
    Quarantined,
    open_records,
    quarantine_records,
    release_records,
)
from pipelines.warehouse.reference import (
    PropertyData,
    UnknownPropertyError,
    land_reference,
    property_row,
)
from pipelines.warehouse.reservations import ReservationLanding, land_reservations, max_updated_at
from pipelines.warehouse.sync_state import (
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
from pipelines.warehouse.transaction import transaction

__all__ = [
    "DEFAULT_PATH",
    "MEMORY_ENV",
    "WAIT_ENV",
    "WAREHOUSE_ENV",
    "EventLanding",
    "FolioClassCost",
    "FolioLanding",
    "LedgerLoad",
    "MigrationError",
    "OpenRecord",
    "PropertyData",
    "Published",
    "Quarantined",
    "ReservationLanding",
    "SyncRun",
    "SyncState",
    "UnknownPropertyError",
    "WarehouseError",
    "WarehouseLockedError",
    "WarehouseMissingError",
    "WarehouseSchemaError",
    "advance_cursor",
    "clear_full_resync",
    "connect",
    "default_path",
    "forget_folio_reads",
    "get_cursor",
    "get_int_cursor",
    "get_state",
    "get_timestamp_cursor",
    "insert_frame",
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
    "migrate",
    "net_and_gross",
    "open_read_copy",
    "open_records",
    "out_of_memory",
    "property_row",
    "publish",
    "quarantine_records",
    "read_copy_path",
    "record_folio_classes",
    "record_folio_reads",
    "record_sync_run",
    "registered",
    "release_records",
    "require_full_resync",
    "reset_cursor",
    "resolve",
    "thread_cursor",
    "transaction",
]

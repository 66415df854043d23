"""The engine: open the DuckDB warehouse (the writer waits its turn; readers read the
published copy; a directory is a group, one file a property), migrate it from sql/, its
views, transactions, staging of frames, writing by difference (each table's key in keys.py),
the one writing path that publishes on exit, the compaction of a file, and the export.
Nothing here knows a hotel, HTTP or Dagster. Tables and columns: docs/warehouse.md.
"""

from pipelines.warehouse.compact import (
    COMPACT_THRESHOLD,
    Compacted,
    FileSpace,
    compact,
)
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
    held,
    out_of_memory,
    read_copy_files,
    read_copy_path,
    resolve,
    thread_cursor,
)
from pipelines.warehouse.difference import DuplicateKeyError, write_difference
from pipelines.warehouse.export import export_parquet
from pipelines.warehouse.frames import query_frame
from pipelines.warehouse.group import (
    files_of,
    is_group,
    member_copies,
    member_files,
    member_path,
    open_group,
    property_file,
)
from pipelines.warehouse.keys import KEYS
from pipelines.warehouse.migrate import MigrationError, migrate
from pipelines.warehouse.publish import Published, publish
from pipelines.warehouse.reading import open_read_copy
from pipelines.warehouse.staging import (
    BOOL,
    DATE,
    DEC,
    INT,
    JSON,
    STR,
    TS,
    dec,
    drop,
    frame_of,
    insert_frame,
    registered,
    require_aware,
    stage,
    to_json,
)
from pipelines.warehouse.transaction import transaction
from pipelines.warehouse.writer import writer

__all__ = [
    "BOOL",
    "COMPACT_THRESHOLD",
    "DATE",
    "DEC",
    "DEFAULT_PATH",
    "INT",
    "JSON",
    "KEYS",
    "MEMORY_ENV",
    "STR",
    "TS",
    "WAIT_ENV",
    "WAREHOUSE_ENV",
    "Compacted",
    "DuplicateKeyError",
    "FileSpace",
    "MigrationError",
    "Published",
    "WarehouseError",
    "WarehouseLockedError",
    "WarehouseMissingError",
    "WarehouseSchemaError",
    "compact",
    "connect",
    "dec",
    "default_path",
    "drop",
    "export_parquet",
    "files_of",
    "frame_of",
    "held",
    "insert_frame",
    "is_group",
    "member_copies",
    "member_files",
    "member_path",
    "migrate",
    "open_group",
    "open_read_copy",
    "out_of_memory",
    "property_file",
    "publish",
    "query_frame",
    "read_copy_files",
    "read_copy_path",
    "registered",
    "require_aware",
    "resolve",
    "stage",
    "thread_cursor",
    "to_json",
    "transaction",
    "write_difference",
    "writer",
]

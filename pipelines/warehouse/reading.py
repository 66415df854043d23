"""The one function every reader opens the warehouse with: a file's read copy, or a group's.

`open_read_copy(path)`: when `path` is a directory (the group layout,
pipelines.warehouse.group), every property's read copy attached read-only as one database;
else the file's read copy (pipelines.warehouse.connection.open_file_copy). Either never waits
for a writer and never takes its lock.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipelines.warehouse.connection import open_file_copy, resolve
from pipelines.warehouse.group import open_group


def open_read_copy(path: str | Path | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to what the warehouse `path` last published (module doc); the
    relations as `core.*`, `mart.*`, `recon.*`, `meta.*`. One-line errors: no warehouse, no
    read copy yet, a read copy of another schema than this code's."""
    target = resolve(path)
    if target.is_dir():
        return open_group(target)
    return open_file_copy(target)

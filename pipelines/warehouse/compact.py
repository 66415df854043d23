"""Compaction: rewrite a warehouse file whose free blocks pass a threshold, swapped in atomically.

A DuckDB file never shrinks: the blocks freed by a DELETE, a mart rebuilt whole or a staging
table dropped are reused by later writes but stay in the file, and a row group with deleted
rows keeps their bytes until it is rewritten. `compact()` measures the file after a
CHECKPOINT (`PRAGMA database_size`: its blocks, used and free) and, when the free share is at
least the threshold (or forced), rewrites it:

1. as the writer (`pipelines.warehouse.writer`, no publish yet), under the process's writer
   lock, so nothing is committed to the file while it is copied: into a temporary file beside
   it, `.<name>.compact-<pid>`, the definitions (COPY FROM DATABASE ... (SCHEMA): tables,
   views, macros, constraints and comments as they are; the file's storage format kept), then
   each table's rows, every table's row count checked against the original, fsynced;
2. still holding the file, `os.replace` of the temporary file onto the warehouse's name (one
   rename: a reader or a writer opening the name gets the old file or the new one, whole);
   the old file's connection closed at once, then an fsync of the directory;
3. then a writer again on the new file, which publishes its read copy.

A compaction killed at any point leaves the old file under the name, intact (before the
rename) or the complete new one (after it); its temporary file is removed by the next
compaction. The measured waste and cost: docs/operations.md, "Upkeep of the warehouse files".
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipelines.warehouse.connection import (
    ROW_GROUP_SIZE,
    STORAGE_VERSION,
    WarehouseError,
    resolve,
)
from pipelines.warehouse.publish import copyable, fsync, storage_version
from pipelines.warehouse.transaction import WRITER_LOCK
from pipelines.warehouse.writer import writer

COMPACT_THRESHOLD = 0.2
"""Rewrite when at least this share of the file's blocks is free (docs/operations.md)."""
_ATTACHED = "pmsw_compact"


@dataclass(frozen=True)
class FileSpace:
    """A warehouse file's blocks after a CHECKPOINT (`PRAGMA database_size`)."""

    file_bytes: int
    block_size: int
    used_blocks: int
    free_blocks: int

    @property
    def free_bytes(self) -> int:
        return self.free_blocks * self.block_size

    @property
    def free_share(self) -> float:
        """Free blocks over all blocks (0 for an empty file)."""
        total = self.used_blocks + self.free_blocks
        return self.free_blocks / total if total else 0.0


@dataclass(frozen=True)
class Compacted:
    """What `compact()` did to one file."""

    path: Path
    before: FileSpace
    rewritten: bool
    """False when the free share was below the threshold (nothing written); True: rewritten
    and its read copy published."""
    after_bytes: int
    """The file's bytes afterwards (= before.file_bytes when not rewritten)."""
    seconds: float


def temporary_name(path: Path) -> Path:
    """The temporary file a compaction of `path` by this process writes."""
    return path.with_name(f".{path.name}.compact-{os.getpid()}")


def remove_leftovers(path: Path) -> list[Path]:
    """Temporary files of compactions of `path` that died midway (the caller is the writer,
    so no other compaction of `path` runs); the files removed."""
    stale = sorted(path.parent.glob(f".{path.name}.compact-*"))
    for leftover in stale:
        leftover.unlink(missing_ok=True)
        leftover.with_name(leftover.name + ".wal").unlink(missing_ok=True)
    return stale


def file_space(conn: duckdb.DuckDBPyConnection, path: Path) -> FileSpace:
    """The blocks of the warehouse `conn` holds as the writer, measured after a CHECKPOINT."""
    conn.execute("CHECKPOINT")
    row = conn.execute("SELECT block_size, used_blocks, free_blocks "
                       "FROM pragma_database_size() WHERE database_name = current_database()"
                       ).fetchone()
    assert row is not None
    return FileSpace(path.stat().st_size, int(row[0]), int(row[1]), int(row[2]))


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def _ident(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _tables(conn: duckdb.DuckDBPyConnection, database: str) -> list[tuple[str, str]]:
    return [(str(schema), str(table)) for schema, table in conn.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = ? "
        "ORDER BY ALL", [database]).fetchall()]


def _qualified(database: str, schema: str, table: str) -> str:
    return ".".join(_ident(part) for part in (database, schema, table))


def _row_counts(conn: duckdb.DuckDBPyConnection, database: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for schema, table in _tables(conn, database):
        row = conn.execute(f"SELECT count(*) FROM {_qualified(database, schema, table)}"
                           ).fetchone()
        counts[f"{schema}.{table}"] = int(row[0]) if row else 0
    return counts


def _rewrite(conn: duckdb.DuckDBPyConnection, temporary: Path) -> None:
    """COPY FROM DATABASE of the warehouse into `temporary`, row counts checked, fsynced."""
    row = conn.execute("SELECT current_database()").fetchone()
    assert row is not None
    source = str(row[0])
    # Laid out in the writer's row groups (pipelines.warehouse.connection.ROW_GROUP_SIZE).
    version = f", STORAGE_VERSION '{STORAGE_VERSION}'" if copyable(storage_version(conn)) else ""
    conn.execute(f"ATTACH '{_quoted(str(temporary))}' AS {_ATTACHED} "
                 f"(ROW_GROUP_SIZE {ROW_GROUP_SIZE}{version})")
    try:
        # The definitions first, then each table's rows in a commit of its own: one COPY of
        # the whole database is one transaction, which ran out of a writer's 64 MiB on a
        # year's file (docs/operations.md, "Upkeep of the warehouse files").
        conn.execute(f"COPY FROM DATABASE {_ident(source)} TO {_ATTACHED} (SCHEMA)")
        for schema, table in _tables(conn, source):
            conn.execute(f"INSERT INTO {_qualified(_ATTACHED, schema, table)} "
                         f"SELECT * FROM {_qualified(source, schema, table)}")
        before, after = _row_counts(conn, source), _row_counts(conn, _ATTACHED)
        if before != after:
            differ = sorted(t for t in before.keys() | after.keys()
                            if before.get(t) != after.get(t))
            raise WarehouseError(f"compaction of {source} abandoned: the rewrite's row counts "
                                 f"differ in {', '.join(differ)}; the file is unchanged")
        conn.execute(f"CHECKPOINT {_ATTACHED}")
    finally:
        conn.execute(f"DETACH {_ATTACHED}")
    fsync(temporary)


def compact(path: str | Path | None, *, threshold: float = COMPACT_THRESHOLD,
            force: bool = False, wait: float | None = None) -> Compacted:
    """Rewrite the warehouse file `path` when at least `threshold` of its blocks are free (or
    `force`), atomically, then publish its read copy (module doc). The caller's process must
    hold no other connection to the file: DuckDB would keep serving it the old one."""
    if not 0.0 <= threshold <= 1.0:
        raise WarehouseError(f"threshold {threshold!r} is not a share between 0 and 1")
    target = resolve(path)
    if target.is_dir():
        raise WarehouseError(f"the warehouse {target} is a group directory: compact each "
                             "property's file (pmsw warehouse compact does)")
    started = time.perf_counter()
    with writer(target, wait=wait, publish=False) as conn:
        remove_leftovers(target)
        with WRITER_LOCK:  # no writer of this process commits while the file is copied
            before = file_space(conn, target)
            if not force and (before.free_blocks == 0 or before.free_share < threshold):
                return Compacted(target, before, False, before.file_bytes,
                                 time.perf_counter() - started)
            temporary = temporary_name(target)
            try:
                _rewrite(conn, temporary)
            except BaseException:
                remove_leftovers(target)
                raise
            os.replace(temporary, target)  # still the writer: nobody wrote meanwhile
    # Closed at once: a writer may open the new file from the rename on; this connection,
    # with nothing written since its CHECKPOINT, leaves that writer's WAL (same name) alone.
    fsync(target.parent)
    with writer(target, wait=wait):  # the new file's read copy, published on exit
        pass
    return Compacted(target, before, True, target.stat().st_size,
                     time.perf_counter() - started)

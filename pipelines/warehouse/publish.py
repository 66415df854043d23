"""Publish the read copy: the state a writer just committed, for every reader to open.

The writer, still holding the warehouse, records what the copy holds (meta.published, in the
warehouse itself, so the copy carries it) and CHECKPOINTs (the file alone then holds every
committed row; no WAL is left). The read copy `<warehouse>.read.duckdb` is a symbolic link to
one of two generations beside it, `<warehouse>.read.duckdb.a` and `.b`. A publish brings the
generation the link does NOT name up to the file by writing only the blocks that differ
(`pipelines.warehouse.patch`, in a child process: the writer must not open its own file), which
fsyncs it, and then points the link at it in one `os.replace` of a new link. A generation that
some reader still has open is not patched: the patch finds it held and the publish copies the
file's bytes whole into a fresh file renamed onto that generation's name instead (`cp`, in a
child process, fsync), the reader keeping the old inode. So a publish writes about what
changed since the generation's last publish, two publishes ago, not the file's size.

The warehouse is created in DuckDB 1.4's storage format (`connection.STORAGE_VERSION`), so
its bytes are already what the DuckDB CLI, DBeaver and BI drivers that lag behind read. A
warehouse created in a newer format (by an older version of this project) is published the
slower way: `COPY FROM DATABASE` into a new file attached with `STORAGE_VERSION 'v1.4.0'` (a
rewrite of every table), renamed onto the spare generation.

A reader that holds the previous copy keeps reading it; a reader opening after the swap gets
the new one; nobody ever sees a half-written copy. A publish killed midway leaves the link on
the last good generation (and maybe a temporary file, removed by the next publish).
docs/operations.md, "Reading while syncing", has the design and its measured cost. With
PMSW_EXPORT_PARQUET=DIR each publish then exports the marts of the new copy as Parquet
(`pipelines.warehouse.export`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

import duckdb

from pipelines.warehouse import patch
from pipelines.warehouse.connection import (
    STORAGE_VERSION,
    WarehouseError,
    read_copy_generations,
    read_copy_path,
    resolve,
)
from pipelines.warehouse.transaction import WRITER_LOCK, transaction

_ATTACHED = "pmsw_publish"
HEADER_BYTES = 3 * 4096
"""DuckDB's file header and its two database headers, before the first block."""
_VERSION = re.compile(r"v(\d+)\.(\d+)\.(\d+)")

_RECORD = """
INSERT INTO meta.published (published_at, property_id, part, run_id, status, finished_at)
SELECT $published_at, property_id, stream, run_id, status, ended_at FROM (
    SELECT *, row_number() OVER (PARTITION BY property_id, stream
                                 ORDER BY started_at DESC, run_id DESC) AS n
    FROM meta.sync_runs WHERE ended_at IS NOT NULL) WHERE n = 1
UNION ALL
SELECT $published_at, property_id, 'marts', arg_min(run_id, built_at), 'built', max(built_at)
FROM meta.mart_builds GROUP BY property_id
UNION ALL
SELECT $published_at, property_id, 'reconciliation', CAST(arg_max(run_id, run_id) AS VARCHAR),
       arg_max(mode, run_id), max(finished_at)
FROM recon.runs GROUP BY property_id
"""


How = Literal["patch", "copy", "rewrite"]


@dataclass(frozen=True)
class Published:
    path: Path
    """The read copy (the link readers open)."""
    published_at: datetime
    seconds: float
    size: int
    """Bytes of the read copy."""
    exported: int | None = None
    """Mart tables exported as Parquet after the publish (PMSW_EXPORT_PARQUET), else None."""
    how: How = "copy"
    """`patch`: the blocks of the checkpointed warehouse that differ from the spare generation
    written into it; `copy`: the warehouse's bytes whole into a fresh file (the spare held by a
    reader, or none yet); `rewrite`: COPY FROM DATABASE (a warehouse in a storage format newer
    than STORAGE_VERSION)."""
    written: int = 0
    """Bytes written to the read copy's generation by this publish."""
    generation: Path | None = None
    """The file the read copy now names (`<warehouse>.read.duckdb.a` or `.b`)."""


def _temporary(copy: Path) -> Path:
    return copy.with_name(f".{copy.name}.tmp-{os.getpid()}")


def remove_leftovers(copy: Path) -> None:
    """Temporary files of publishes that died midway (the caller holds the writer's lock,
    so no other publish is running)."""
    for stale in copy.parent.glob(f".{copy.name}.tmp-*"):
        stale.unlink(missing_ok=True)


def current_generation(copy: Path) -> Path | None:
    """The generation the read copy's link names; None when it is no link (not published
    yet, or published as a plain file by an older version)."""
    if not copy.is_symlink():
        return None
    return copy.parent / os.readlink(copy)


def spare_generation(copy: Path) -> Path:
    """The generation a publish writes: the one the read copy does not name."""
    first, second = read_copy_generations(copy)
    return second if current_generation(copy) == first else first


def _patch_outside(source: Path, target: Path, block: int) -> int | None:
    """`pipelines.warehouse.patch` of `target` from `source` in a child process: the bytes
    written, None when a reader holds `target`."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", patch.__file__, str(source), str(target),
         str(HEADER_BYTES), str(block)], capture_output=True, text=True, check=False)
    if done.returncode == patch.IN_USE:
        return None
    if done.returncode != 0:
        raise WarehouseError(f"cannot patch the read copy {target}: "
                             f"{(done.stderr.strip().splitlines() or ['killed'])[-1]}")
    return int(done.stdout.split()[0])


def _copy_outside(source: Path, target: Path) -> None:
    """Copy the warehouse's bytes from a child process, `cp` (copy_file_range or a reflink
    where the file system has them). DuckDB's lock on the file is a POSIX record lock, and a
    process loses those when it closes any descriptor of the file: a copy opening and closing
    it in this process would let another writer open the warehouse while this one still has
    it open. `cp` starts in a millisecond or two, where a Python child takes tens (a publish
    of a small warehouse is some tens of milliseconds)."""
    subprocess.run(["cp", "--", str(source), str(target)], check=True)


def fsync(path: Path) -> None:
    """Flush a file, or a directory's entries (a rename in it), to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def storage_version(conn: duckdb.DuckDBPyConnection) -> str | None:
    """The storage format of the database `conn` uses, as DuckDB tags it (`v1.4.0+`)."""
    row = conn.execute("SELECT tags['storage_version'] FROM duckdb_databases() "
                       "WHERE database_name = current_database()").fetchone()
    return None if row is None or row[0] is None else str(row[0])


def copyable(version: str | None) -> bool:
    """True when a file of storage format `version` opens in DuckDB STORAGE_VERSION and later."""
    ours, theirs = _VERSION.match(STORAGE_VERSION), _VERSION.match(version or "")
    if ours is None or theirs is None:
        return False
    return tuple(map(int, theirs.groups())) <= tuple(map(int, ours.groups()))


def _database_file(conn: duckdb.DuckDBPyConnection) -> Path | None:
    row = conn.execute("SELECT path FROM duckdb_databases() "
                       "WHERE database_name = current_database()").fetchone()
    return None if row is None or row[0] is None else Path(row[0])


def _checkpointed(conn: duckdb.DuckDBPyConnection, source: Path) -> bool:
    """CHECKPOINT; True when the file alone now holds every committed change (no WAL)."""
    try:
        conn.execute("CHECKPOINT")
    except duckdb.Error:  # another transaction of this process is open: rewrite instead
        return False
    wal = source.with_name(source.name + ".wal")
    return not wal.exists() or wal.stat().st_size == 0


def _rewrite(conn: duckdb.DuckDBPyConnection, temporary: Path) -> None:
    source = conn.execute("SELECT current_database()").fetchone()
    assert source is not None
    conn.execute(f"ATTACH '{_quoted(temporary)}' AS {_ATTACHED} "
                 f"(STORAGE_VERSION '{STORAGE_VERSION}')")
    try:
        conn.execute(f'COPY FROM DATABASE "{source[0]}" TO {_ATTACHED}')
    finally:
        conn.execute(f"DETACH {_ATTACHED}")


def _block_size(conn: duckdb.DuckDBPyConnection) -> int:
    row = conn.execute("SELECT block_size FROM pragma_database_size() "
                       "WHERE database_name = current_database()").fetchone()
    return int(row[0]) if row and row[0] else 262144


def _bring_up(conn: duckdb.DuckDBPyConnection, source: Path | None, spare: Path,
              temporary: Path) -> tuple[How, int]:
    """Make `spare` the warehouse's committed state: patched, else copied whole, else
    rewritten (module doc). How, and the bytes written."""
    if source is None or not copyable(storage_version(conn)) or not _checkpointed(conn, source):
        _rewrite(conn, temporary)
        how: How = "rewrite"
    else:
        if spare.is_file():
            done = _patch_outside(source, spare, _block_size(conn))
            if done is not None:
                return "patch", done
        _copy_outside(source, temporary)
        how = "copy"
    fsync(temporary)
    os.replace(temporary, spare)
    return how, spare.stat().st_size


def _point(copy: Path, generation: Path) -> None:
    """Swap the read copy's link onto `generation` in one rename (a new link first)."""
    link = _temporary(copy)
    link.unlink(missing_ok=True)
    os.symlink(generation.name, link)
    os.replace(link, copy)


def publish(conn: duckdb.DuckDBPyConnection, warehouse: str | Path | None = None
            ) -> Published:
    """Publish the warehouse `conn` is connected to (read-write: the caller is the only
    writer) as its read copy, atomically. Call it after a successful write, outside any
    transaction."""
    started = time.perf_counter()
    copy = read_copy_path(resolve(warehouse))
    with WRITER_LOCK:  # no writer nor publish of this process meanwhile
        remove_leftovers(copy)
        spare = spare_generation(copy)
        with transaction(conn):
            conn.execute("DELETE FROM meta.published")
            conn.execute(_RECORD, {"published_at": datetime.now().astimezone()})
        row = conn.execute("SELECT max(published_at) FROM meta.published").fetchone()
        published_at = row[0] if row and row[0] is not None else datetime.now().astimezone()
        how, written = _bring_up(conn, _database_file(conn), spare, _temporary(copy))
        _point(copy, spare)
    fsync(copy.parent)
    seconds, size = time.perf_counter() - started, copy.stat().st_size
    from pipelines.warehouse.export import (
        export_after_publish,  # the export reads the copy just published
    )

    exported = export_after_publish(warehouse)
    return Published(copy, published_at, seconds, size,
                     None if exported is None else len(exported), how, written, spare)


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")

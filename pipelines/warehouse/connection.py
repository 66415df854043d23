"""Open the warehouse: the one way every writer and every reader opens a DuckDB file.

DuckDB lets ONE process open a file read-write, or several open it read-only, never both.
So (docs/operations.md, "Reading while syncing"):

- writers (Dagster assets and checks, `pmsw sync`, `pmsw reconcile`, the demo) call
  `connect()`, which waits for another writer with backoff up to `wait_seconds()` and then
  fails with one line naming the process that holds the file;
- readers (`pmsw report`, `pmsw sql`, the notebooks, the demo's summary) call
  `open_read_copy()`: the read copy published after each successful write
  (`pipelines.warehouse.publish`), never the writer's file.

The file is named once: `--warehouse`, else PMSW_WAREHOUSE, else data/warehouse.duckdb.
A new warehouse is created in DuckDB 1.4's storage format (STORAGE_VERSION), which the
database keeps for its life, so its read copy is a copy of its bytes and DuckDB 1.4 and later
(the registry's CLI, BI drivers) open both.

A writer attaches the file with row groups of ROW_GROUP_SIZE rows (docs/scaling.md, "Row groups
of 2,048 rows"), which DuckDB takes only as an ATTACH option and forgets at close: in an
in-memory DuckDB named after the file, shared by every writer's connection to it in the
process as `duckdb.connect(path)` shared its own, under the catalog name `duckdb.connect` gave
it (`warehouse` for warehouse.duckdb, `rome` for rome.duckdb), made the default with USE.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import duckdb

from pipelines.warehouse.schema import bring_up_to_date, schema_gap

DEFAULT_PATH = Path("data/warehouse.duckdb")
WAREHOUSE_ENV = "PMSW_WAREHOUSE"
"""Environment variable naming the warehouse file (the same as --warehouse everywhere)."""
WAIT_ENV = "PMSW_WAREHOUSE_WAIT"
"""Seconds a writer waits for another writer before failing (default DEFAULT_WAIT)."""
DEFAULT_WAIT = 600.0
MEMORY_ENV = "PMSW_WAREHOUSE_MEMORY_LIMIT"
"""DuckDB's memory limit in a writer process, e.g. `1GB` (default: writer_memory_limit())."""
MEMORY_PER_THREAD_MIB = 32
MEMORY_FLOOR_MIB = 64
"""The default limit: the larger of the floor and 32 MiB a core. A writer appends, merges a
batch and reads one property at a time, so a small pool serves it; what DuckDB does not keep
it reads again from the file's pages in the kernel's cache (docs/operations.md, "A writer's
memory")."""
LEAST_MEMORY_MB = 48
LEAST_MEMORY_LIMIT = f"{LEAST_MEMORY_MB}MB"
"""The least PMSW_WAREHOUSE_MEMORY_LIMIT accepted: the least a 40-hotel group's sync was run with
(b921919:benchmarks/results.md, "The same with the writer's DuckDB at 48 MB"). At `0B` every write
fails in DuckDB and is rolled back."""
LEAST_MEMORY_BYTES = LEAST_MEMORY_MB * 1000 ** 2
READ_COPY_SUFFIX = ".read.duckdb"
STORAGE_VERSION = "v1.4.0"
"""Oldest DuckDB release whose storage format a new warehouse (and every read copy) uses."""
ROW_GROUP_SIZE = 2048
"""Rows of a row group in what a writer writes (DuckDB's default 122,880; 2,048, a vector, is its
least). A day's rows go into a small row group that a checkpoint merges with the ones next to
it, a few row groups' worth: a row group of raw.payloads at the default was the whole
table for two years, rewritten on the day the merge fell (docs/scaling.md, "Row groups of
2,048 rows")."""

_SIZE = re.compile(r"^(?P<number>\d+(\.\d+)?)\s*(?P<unit>B|[KMGT]i?B)$", re.IGNORECASE)
_UNIT_BYTES: dict[str, int] = {
    "B": 1, **{f"{prefix}B": 1000 ** power for power, prefix in enumerate("KMGT", 1)},
    **{f"{prefix}IB": 1024 ** power for power, prefix in enumerate("KMGT", 1)}}
"""DuckDB's units: KB, MB... are powers of 1000; KiB, MiB... of 1024."""
_HOLDER = re.compile(r"Conflicting lock is held in (?P<holder>.+?)(?:\. See also|$)")


class WarehouseError(RuntimeError):
    """The warehouse cannot be opened; the message is one line a person can act on."""


class WarehouseMissingError(WarehouseError):
    """The file named does not exist (and was not created)."""


class WarehouseLockedError(WarehouseError):
    """Another process held the file for longer than the wait limit."""


class WarehouseSchemaError(WarehouseError):
    """The read copy holds another schema than this code's (published before an upgrade)."""


def default_path() -> Path:
    """PMSW_WAREHOUSE when set, else data/warehouse.duckdb."""
    return Path(os.environ.get(WAREHOUSE_ENV) or DEFAULT_PATH)


def resolve(path: str | Path | None) -> Path:
    """The warehouse file: `path` when given, else `default_path()`."""
    return default_path() if path is None else Path(path)


def read_copy_path(path: str | Path | None = None) -> Path:
    """The published read copy beside the warehouse: data/warehouse.read.duckdb."""
    target = resolve(path)
    stem = target.name[:-len(".duckdb")] if target.name.endswith(".duckdb") else target.name
    return target.with_name(stem + READ_COPY_SUFFIX)


def read_copy_generations(copy: Path) -> tuple[Path, Path]:
    """The two files the read copy `copy` (a symbolic link) names in turn, `<copy>.a` and
    `<copy>.b` (pipelines.warehouse.publish): never `*.duckdb`, so no glob of warehouse files
    takes them for one."""
    return copy.with_name(copy.name + ".a"), copy.with_name(copy.name + ".b")


def read_copy_files(path: str | Path | None = None) -> list[Path]:
    """Every file of the warehouse's read copy: the link and its two generations."""
    copy = read_copy_path(path)
    return [copy, *read_copy_generations(copy)]


def wait_seconds() -> float:
    """PMSW_WAREHOUSE_WAIT (seconds) when set to a number, else DEFAULT_WAIT."""
    raw = os.environ.get(WAIT_ENV, "").strip()
    if not raw:
        return DEFAULT_WAIT
    try:
        return max(0.0, float(raw))
    except ValueError:
        raise WarehouseError(f"{WAIT_ENV}={raw!r} is not a number of seconds") from None


def writer_memory_limit() -> str:
    """PMSW_WAREHOUSE_MEMORY_LIMIT when set (a DuckDB size: `512MB`, `2GiB`), else the larger of
    MEMORY_FLOOR_MIB and MEMORY_PER_THREAD_MIB per core (DuckDB runs a thread per core).

    Why a writer has a limit at all: DuckDB keeps every block it reads or writes in its
    buffer pool up to its limit, by default 80 % of the machine's memory, so a writer's memory
    grew with the data it touched, and a group's run with its properties
    (b921919:benchmarks/results.md, "99 hotels with the writer's DuckDB at 48 MB"). Past the
    limit DuckDB evicts clean blocks and spills to its temporary directory; the readers' own
    processes keep DuckDB's default (a notebook should cache what it reads)."""
    raw = os.environ.get(MEMORY_ENV, "").strip()
    if not raw:
        return f"{max(MEMORY_FLOOR_MIB, MEMORY_PER_THREAD_MIB * (os.cpu_count() or 1))}MiB"
    size = _size_bytes(raw)
    if size is None:
        raise WarehouseError(f"{MEMORY_ENV}={raw!r} is not a size such as 512MB or 2GiB")
    if size < LEAST_MEMORY_BYTES:
        raise WarehouseError(f"{MEMORY_ENV}={raw!r} is below {LEAST_MEMORY_LIMIT}, the least "
                             "a writer is run with (docs/operations.md, \"A writer's memory\")")
    return raw.replace(" ", "")


def out_of_memory(error: duckdb.OutOfMemoryException) -> WarehouseError:
    """DuckDB's out-of-memory error as the user can act on it: the variable to raise, not
    DuckDB's own `SET memory_limit` advice (a writer sets it on every open)."""
    return WarehouseError(
        f"DuckDB ran out of the writer's memory, {MEMORY_ENV}={writer_memory_limit()} "
        f"({_first_line(error)}): set {MEMORY_ENV} higher, e.g. 512MB, and run again "
        "(docs/operations.md, \"A writer's memory\"); the write was rolled back")


def _size_bytes(size: str) -> float | None:
    """The bytes of a DuckDB size (`512MB`, `2 GiB`), None when it is not one."""
    match = _SIZE.match(size)
    if match is None:
        return None
    return float(match["number"]) * _UNIT_BYTES[match["unit"].upper()]


def lock_holder(error: BaseException) -> str | None:
    """`/usr/bin/python3 (PID 1234)` from DuckDB's lock error, None when it is not one."""
    text = str(error)
    if "Could not set lock" not in text and "Conflicting lock" not in text:
        return None
    match = _HOLDER.search(text)
    return match.group("holder").strip() if match else "another process"


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _create(path: Path) -> None:
    """Create an empty database file at `path` in the STORAGE_VERSION format. A file that
    appeared meanwhile (another writer created it) is left to the normal open."""
    conn = duckdb.connect(":memory:")
    try:
        conn.execute(f"ATTACH '{_quoted(path)}' AS pmsw_new "
                     f"(STORAGE_VERSION '{STORAGE_VERSION}')")
        conn.execute("DETACH pmsw_new")
    except duckdb.Error as error:
        if not path.is_file():
            raise WarehouseError(
                f"cannot create the warehouse {path}: {_first_line(error)}") from None
    finally:
        conn.close()


_ATTACH_LOCK = threading.Lock()


def _open(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A connection to the file: a reader's opens it; a writer's attaches it with ROW_GROUP_SIZE
    (module doc) in the process's in-memory DuckDB named after it, once, and uses it."""
    if read_only:
        return duckdb.connect(str(path), read_only=True)
    real = path.resolve()  # one DuckDB however the file is spelled (links, ..)
    conn = duckdb.connect(f":memory:pmsw:{real}")
    try:
        with _ATTACH_LOCK:  # one ATTACH however many threads open it at once
            if _warehouse_name(conn) is None:
                # Spills beside the file, as duckdb.connect(path) put them (an in-memory
                # DuckDB's default is `.tmp` in the working directory).
                conn.execute(f"SET temp_directory = '{_quoted(real)}.tmp'")
                # No AS: DuckDB names the catalog as duckdb.connect(path) does.
                conn.execute(f"ATTACH '{_quoted(real)}' "
                             f"(ROW_GROUP_SIZE {ROW_GROUP_SIZE})")
        _use_warehouse(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _warehouse_name(conn: duckdb.DuckDBPyConnection) -> str | None:
    """The catalog of the file a writer's DuckDB attached first (a publish's or compaction's
    temporary comes after), None in an in-memory warehouse."""
    row = conn.execute("SELECT database_name FROM duckdb_databases() WHERE NOT internal "
                       "AND path IS NOT NULL ORDER BY database_oid LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def _use_warehouse(conn: duckdb.DuckDBPyConnection) -> None:
    """Make the warehouse file the default of `conn`, which starts in the host `memory`."""
    name = _warehouse_name(conn)
    if name is not None:
        conn.execute(f"USE {_ident(name)}")


def _open_waiting(path: Path, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + wait
    delay = 0.05
    waited = False
    while True:
        try:
            conn = _open(path, read_only)
        except duckdb.IOException as error:
            holder = lock_holder(error)
            if holder is None:
                raise WarehouseError(
                    f"cannot open the warehouse {path}: {_first_line(error)}") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise WarehouseLockedError(
                    f"the warehouse {path} is held by {holder}: gave up after "
                    f"{wait:g} s (raise {WAIT_ENV} or --wait to wait longer)") from None
            if not waited:
                sys.stderr.write(f"waiting for the warehouse {path}: held by {holder} "
                                 f"(up to {wait:g} s, {WAIT_ENV})\n")
                sys.stderr.flush()
            waited = True
            time.sleep(min(delay, left))
            delay = min(delay * 2, 1.0)
            continue
        except duckdb.Error as error:
            raise WarehouseError(
                f"cannot open the warehouse {path}: {_first_line(error)}") from None
        return conn


def _first_line(error: BaseException) -> str:
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def connect(
    path: str | Path | None = None, *, read_only: bool = False, create: bool = True,
    wait: float | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open the warehouse file (default: `default_path()`) and bring it up to the shipped schema
    (migrations and views, pipelines.warehouse.schema; nothing written when it is).

    A writer waits while another process holds the file, with backoff, up to `wait` seconds
    (default `wait_seconds()`), then raises WarehouseLockedError naming the holder. With
    `create=False` (and always when read-only) a missing file raises WarehouseMissingError and
    nothing is created. The session time zone is UTC, so TIMESTAMPTZ values read back and
    casts to DATE are UTC whatever the machine's zone. A read-only connection is not migrated.
    A writer's DuckDB memory is capped at `writer_memory_limit()`.
    """
    if str(path) == ":memory:":
        conn = duckdb.connect(":memory:")
        conn.execute("SET TimeZone = 'UTC'")
        bring_up_to_date(conn)
        return conn
    limit = None if read_only else writer_memory_limit()  # a bad value: refused, nothing made
    target = resolve(path)
    if target.is_dir():
        raise WarehouseError(f"the warehouse {target} is a group directory (one file a "
                             "property, pipelines.warehouse.group): open a property's file")
    if not target.is_file():
        if read_only or not create:
            raise WarehouseMissingError(f"no warehouse at {target}")
        target.parent.mkdir(parents=True, exist_ok=True)
        _create(target)
    conn = _open_waiting(target, read_only, wait_seconds() if wait is None else wait)
    _session(conn)
    if limit is not None:
        _cap_memory(conn, target, limit)
        bring_up_to_date(conn)
    return conn


WAL_SHARE_OF_MEMORY = 16
"""A writer checkpoints once its WAL reaches 1/16 of its memory limit (DuckDB's own threshold,
16 MiB, at 256 MiB). What is committed but not yet checkpointed stays in DuckDB's memory,
pinned, and takes several times its WAL size there: with DuckDB's threshold a 64 MiB writer
ran out of memory building a year's marts (docs/operations.md, "A writer's memory")."""


def _cap_memory(conn: duckdb.DuckDBPyConnection, path: Path, limit: str) -> None:
    """Set the writer's memory limit and the WAL size that triggers a checkpoint. A WAL left by
    an earlier process (a crash, a larger limit) was replayed into memory on open: it is
    checkpointed first, else the limit could not be set below what it holds."""
    wal = path.with_name(path.name + ".wal")
    if wal.is_file() and wal.stat().st_size > 0 and not _is_held(path):
        # Another connection of this process writing: the WAL is its own, held already.
        with suppress(duckdb.TransactionException):
            conn.execute("CHECKPOINT")
    try:
        conn.execute(f"SET memory_limit = '{limit}'")  # matched by _SIZE: no quote inside
    except duckdb.OutOfMemoryException as error:
        conn.close()
        raise WarehouseError(f"the warehouse {path} holds more than {MEMORY_ENV}={limit} "
                             f"allows ({_first_line(error)}); raise it") from None
    limit_bytes = _size_bytes(limit) or LEAST_MEMORY_BYTES
    conn.execute(f"SET checkpoint_threshold = "
                 f"'{int(limit_bytes // WAL_SHARE_OF_MEMORY // 1024)}KiB'")


_HELD: Counter[Path] = Counter()
"""Warehouse files this process keeps open (`held`), by absolute path: how many blocks hold each."""
_HELD_LOCK = threading.Lock()


def _is_held(path: Path) -> bool:
    with _HELD_LOCK:
        return _HELD[path.absolute()] > 0


@contextmanager
def held(path: str | Path | None) -> Iterator[None]:
    """Keep the warehouse file open as the writer for the block, so that every `connect()` to
    it inside (each Dagster step and check of a run, each writer of the demo's daily close)
    reuses DuckDB's database already open in this process instead of reading the file again,
    and no close in between checkpoints it: the WAL is checkpointed at DuckDB's threshold, at
    a publish, and when the block ends. The writer's lock is held for the whole block.

    Nothing is held when the file is missing (the first open creates it), a group directory
    (each property's file is opened by its steps) or held by another process right now (no
    wait: the opens inside wait as they always do, and say so)."""
    target = resolve(path)
    keeper = None
    if target.is_file():
        with suppress(WarehouseError):
            keeper = connect(target, create=False, wait=0)
    if keeper is None:
        yield
        return
    key = target.absolute()
    with _HELD_LOCK:
        _HELD[key] += 1
    try:
        yield
    finally:
        with _HELD_LOCK:
            _HELD[key] -= 1
        keeper.close()


def _session(conn: duckdb.DuckDBPyConnection) -> None:
    conn.execute("SET TimeZone = 'UTC'")
    conn.execute("SET enable_progress_bar = false")  # a long COPY would draw on our stdout


def thread_cursor(conn: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Another connection to `conn`'s database for another thread (DuckDB's cursor), with the
    session settings of `connect()`: a cursor starts in the machine's time zone otherwise,
    and would cast TIMESTAMPTZ to DATE there."""
    cursor = conn.cursor()
    _use_warehouse(cursor)  # asked of the cursor: another thread may be using `conn`
    _session(cursor)
    return cursor


def open_file_copy(path: str | Path | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the read copy of the warehouse file `path` (never its file;
    readers call `pipelines.warehouse.open_read_copy`, which also opens a group directory).

    It never waits and never takes the writer's lock: a publish swaps the copy's link onto
    another file atomically and never writes into a file a reader holds, so this connection
    keeps reading the copy it opened, and a new call opens the newest. The copy is attached
    as the database `warehouse` (core.*, mart.*, ...).
    One-line errors: no warehouse, no read copy yet, a read copy of another schema than
    this code's (published before an upgrade: its tables are not those the code reads).
    """
    target = resolve(path)
    copy = read_copy_path(target)
    if not copy.is_file():
        if not target.is_file():
            raise WarehouseMissingError(f"no warehouse at {target}")
        raise WarehouseMissingError(f"no read copy of the warehouse {target} yet ({copy}): run "
                               "`pmsw warehouse publish` or a sync")
    # ATTACH in a fresh in-memory database, not duckdb.connect(copy): DuckDB caches one
    # database instance per path and process, which would hand a second open in the same
    # process (a notebook kernel reopening) the copy replaced since.
    conn = duckdb.connect(":memory:")
    for attempt in range(3):
        try:
            conn.execute(f"ATTACH '{_quoted(copy)}' AS warehouse (READ_ONLY)")
            conn.execute("USE warehouse")
            break
        except duckdb.Error as error:
            # The link resolved to a generation that two publishes since have begun to patch
            # (a window of microseconds between resolving and locking): the link now names
            # the newest, so resolve it again.
            if attempt < 2 and "lock" in str(error).lower():
                continue
            conn.close()
            raise WarehouseError(f"cannot open the read copy {copy}: "
                                 f"{_first_line(error)}") from None
    gap = schema_gap(conn)
    if gap is not None:  # its tables are not those this code's queries read
        conn.close()
        raise WarehouseSchemaError(f"the read copy {copy} {gap}")
    conn.execute("SET TimeZone = 'UTC'")
    return conn

"""Publishing the read copy (pipelines.warehouse.publish): a warehouse created by `connect`
is in DuckDB 1.4's storage format and is published as a copy of its bytes after a CHECKPOINT;
one created in a newer format (before this design) is published by rewriting it into that
format. Either way the copy holds every committed row and opens as 1.4 storage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

from pipelines.warehouse import connect, publish, read_copy_path
from pipelines.warehouse.connection import STORAGE_VERSION
from pipelines.warehouse.publish import copyable, storage_version


def _copy_facts(path: Path) -> tuple[str | None, list[tuple[int]]]:
    with duckdb.connect(str(read_copy_path(path)), read_only=True) as conn:
        version = storage_version(conn)
        rows = conn.execute("SELECT n FROM core.marker ORDER BY n").fetchall()
    return version, rows


def _publish_with_marker(path: Path) -> str:
    with connect(path) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT range AS n FROM range(3)")
        conn.execute("INSERT INTO core.marker VALUES (41)")  # committed, maybe still in WAL
        return publish(conn, path).how


def test_a_new_warehouse_is_published_as_a_copy_of_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    assert _publish_with_marker(path) == "copy"
    version, rows = _copy_facts(path)
    assert copyable(version), version
    assert rows == [(0,), (1,), (2,), (41,)]


def test_a_warehouse_in_a_newer_format_is_rewritten_into_the_old_one(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    duckdb.connect(str(path)).close()  # DuckDB's own default format, newer than STORAGE_VERSION
    with duckdb.connect(str(path)) as probe:
        newer = storage_version(probe)
    assert not copyable(newer), (newer, STORAGE_VERSION)
    assert _publish_with_marker(path) == "rewrite"
    version, rows = _copy_facts(path)
    assert copyable(version), version
    assert rows == [(0,), (1,), (2,), (41,)]


HOLDS = """
import duckdb, sys
try:
    duckdb.connect(sys.argv[1]).close()
except duckdb.IOException as error:
    print("refused" if "lock" in str(error) else f"other: {error}")
else:
    print("opened")
"""


def _another_writer(path: Path) -> str:
    """What a writer in another process gets: `refused` while this one holds the file."""
    return subprocess.run([sys.executable, "-c", HOLDS, str(path)], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_the_writer_still_holds_the_warehouse_after_publishing(tmp_path: Path) -> None:
    """DuckDB's lock is a POSIX record lock, lost by a process that closes any descriptor of
    the file: a publish that read the warehouse's bytes itself let a second writer in while
    the first still had it open (a sync and a reconciliation, in CI: the second's publish
    removed the first's temporary copy). After publishing, the writer holds it still."""
    path = tmp_path / "w.duckdb"
    with connect(path) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 1 AS n")
        assert _another_writer(path) == "refused"
        assert publish(conn, path).how == "copy"
        assert _another_writer(path) == "refused"
        conn.execute("INSERT INTO core.marker VALUES (2)")  # still the only writer
    assert _another_writer(path) == "opened"

"""`pipelines.warehouse.held`: the warehouse kept open for a block (a Dagster run, the demo's
stretch), so that the opens inside reuse DuckDB's open database rather than reading the file
again, and their closes checkpoint nothing (docs/operations.md, "The demo's time")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse import connect, held

REPO = Path(__file__).resolve().parents[2]


def _wal_bytes(path: Path) -> int:
    wal = path.with_name(path.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


def _markers(path: Path) -> list[int]:
    with duckdb.connect(str(path), read_only=True) as conn:
        return [r[0] for r in conn.execute("SELECT n FROM core.marker ORDER BY n").fetchall()]


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    with connect(path) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 1 AS n")
    return path


def test_a_close_inside_the_block_checkpoints_nothing(warehouse: Path) -> None:
    # Without the block, closing the only connection checkpoints: the WAL is emptied.
    conn = connect(warehouse)
    conn.execute("INSERT INTO core.marker VALUES (2)")
    conn.close()
    assert _wal_bytes(warehouse) == 0
    with held(warehouse):
        with connect(warehouse) as conn:
            conn.execute("INSERT INTO core.marker VALUES (3)")
        # the same database, still open: the write waits in the WAL
        assert _wal_bytes(warehouse) > 0
        with connect(warehouse) as again:
            assert again.execute("SELECT max(n) FROM core.marker").fetchone() == (3,)
        assert _wal_bytes(warehouse) > 0
    assert _wal_bytes(warehouse) == 0  # checkpointed when the block ends
    assert _markers(warehouse) == [1, 2, 3]


def test_another_process_cannot_write_during_the_block(warehouse: Path) -> None:
    code = ("import sys; from pipelines.warehouse import connect\n"
            "connect(sys.argv[1], wait=0).close()")
    with held(warehouse):
        inside = subprocess.run([sys.executable, "-c", code, str(warehouse)], cwd=REPO,
                                capture_output=True, text=True, timeout=120, check=False)
    assert inside.returncode == 1
    assert "WarehouseLockedError: the warehouse" in inside.stderr
    assert "gave up after 0 s" in inside.stderr


def test_nothing_is_held_on_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    missing = tmp_path / "new.duckdb"
    with held(missing):
        assert not missing.exists()  # the first open creates it, as without the block
        with connect(missing) as conn:
            conn.execute("CREATE TABLE core.marker AS SELECT 7 AS n")
        assert _wal_bytes(missing) == 0  # nothing kept it open
    assert _markers(missing) == [7]
    with held(tmp_path):  # a group directory: each property's file is opened by its steps
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.duckdb"]

"""A writer's DuckDB memory is capped (pipelines.warehouse.connection.writer_memory_limit;
docs/operations.md, "A writer's memory"): DuckDB's own default lets its buffer pool keep every
block a run touches up to 80 % of the machine, so a writer's memory grew with the number of
properties it synced. Readers keep DuckDB's default."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.ingest.store.raw import append_raw
from pipelines.warehouse import (
    MEMORY_ENV,
    WarehouseError,
    connect,
    insert_frame,
    open_read_copy,
    transaction,
)
from pipelines.warehouse.connection import LEAST_MEMORY_LIMIT
from pipelines.warehouse.publish import publish

MIB = 1024 * 1024
REPO = Path(__file__).resolve().parents[2]


def _limit_bytes(conn: duckdb.DuckDBPyConnection) -> int:
    row = conn.execute("SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'"
                       ).fetchone()
    assert row is not None
    number, unit = str(row[0]).split()
    scale = {"KiB": 1024, "MiB": MIB, "GiB": 1024 * MIB, "TiB": 1024 * 1024 * MIB}[unit]
    return round(float(number) * scale)


def test_a_writer_is_capped_at_32_mib_a_core_and_at_least_64(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    with connect(tmp_path / "w.duckdb") as conn:
        expected = max(64, 32 * (os.cpu_count() or 1)) * MIB
        assert _limit_bytes(conn) == expected
        # far below DuckDB's own default of 80 % of the machine's memory
        assert expected < 0.8 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def test_the_limit_is_the_environment_s_when_set(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_ENV, "1GiB")
    with connect(tmp_path / "w.duckdb") as conn:
        assert _limit_bytes(conn) == 1024 * MIB
        publish(conn, tmp_path / "w.duckdb")
    # the read copy opens in a DuckDB instance of its own: its default, not the cap
    with open_read_copy(tmp_path / "w.duckdb") as reader:
        assert _limit_bytes(reader) > 1024 * MIB


NOT_A_SIZE = "is not a size such as 512MB or 2GiB"
TOO_SMALL = ("is below 48MB, the least a writer is run with "
             "(docs/operations.md, \"A writer's memory\")")


@pytest.mark.parametrize(("bad", "why"), [
    *((value, NOT_A_SIZE) for value in ["lots", "512", "-1GB", "1GB; DROP TABLE core.rooms"]),
    # at 0B every write would fail inside DuckDB; 48MB is the least a group's sync was run with
    *((value, TOO_SMALL) for value in ["0B", "1MB", "47MB", "45MiB"])])
def test_a_bad_limit_is_refused_in_one_line_naming_the_variable_and_creates_nothing(
        bad: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_ENV, bad)
    with pytest.raises(WarehouseError) as refused:
        connect(tmp_path / "w.duckdb")
    assert str(refused.value) == f"{MEMORY_ENV}={bad!r} {why}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("least", "expected_bytes"), [("48MB", 48_000_000),
                                                       ("46MiB", 46 * MIB)])
def test_the_least_limit_is_accepted_and_a_fresh_warehouse_is_migrated_under_it(
        least: str, expected_bytes: int, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_ENV, least)
    with connect(tmp_path / "w.duckdb") as conn:
        assert abs(_limit_bytes(conn) - expected_bytes) < 0.01 * expected_bytes  # DuckDB rounds
        assert conn.execute("SELECT count(*) FROM core.rooms").fetchone() == (0,)


def test_a_large_landing_fits_in_the_least_limit(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer's memory does not grow with the size of one transaction: 20,000 payloads of
    about 1 KB (20 MB of JSON, the first load of a large hotel's book) land in
    raw.payloads in one transaction at the least limit, 48MB. (Extracting the id through a
    `::JSON` cast ran out of DuckDB's memory here; so did the demo's first sync.)"""
    monkeypatch.setenv(MEMORY_ENV, LEAST_MEMORY_LIMIT)
    payloads = [{"id": n, "notes": "x" * 1000, "rooms": [{"id": 10 * n, "nights": [1, 2, 3]}]}
                for n in range(20_000)]
    with connect(tmp_path / "w.duckdb") as conn:
        with transaction(conn):
            landed = append_raw(conn, 1, "reservations", payloads, run_id="r1",
                                fetched_at=datetime(2026, 11, 27, tzinfo=UTC))
        assert landed == 20_000
        assert conn.execute("SELECT count(*), sum(entity_id), count(DISTINCT payload) "
                            "FROM raw.payloads").fetchone() == (20_000, 19_999 * 10_000, 20_000)


def test_a_failed_insert_raises_its_own_error_not_the_aborted_transaction_s(
        tmp_path: Path) -> None:
    """When an INSERT from a frame fails inside a transaction, the user sees why (here the
    NOT NULL of raw.payloads.run_id), not DuckDB's "transaction is aborted" from the cleanup
    after it; and nothing is written."""
    conn = connect(tmp_path / "w.duckdb")
    at = datetime(2026, 11, 27, tzinfo=UTC)
    no_run = pl.DataFrame({"property_id": [1], "stream": ["events"], "payload": ["{}"],
                           "fetched_at": [at], "run_id": [None]},
                          schema_overrides={"run_id": pl.String})

    def land_then_fail() -> None:
        with transaction(conn):
            append_raw(conn, 1, "events", [{"id": 1}], run_id="r1", fetched_at=at)
            insert_frame(conn, "raw.payloads", no_run)

    with conn:
        with pytest.raises(duckdb.ConstraintException, match="run_id"):
            land_then_fail()
        assert conn.execute("SELECT count(*) FROM raw.payloads").fetchone() == (0,)


LEAVE_A_WAL = """
import os, sys
from datetime import UTC, datetime
from pipelines.warehouse import connect, transaction
from pipelines.ingest.store.raw import append_raw
conn = connect(sys.argv[1])
for batch in range(30):  # each commit under a row group: its rows go to the WAL, not the file
    payloads = [{"id": batch * 1000 + n, "notes": "x" * 1000} for n in range(1000)]
    with transaction(conn):
        append_raw(conn, 1, "events", payloads, run_id="r1", fetched_at=datetime.now(UTC))
os._exit(0)  # no close, so no checkpoint: the committed rows are left in the WAL
"""


def test_a_wal_left_by_a_larger_writer_is_checkpointed_before_the_limit_is_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that wrote at a large limit and died leaves its last commits in the WAL, which
    DuckDB replays into memory, pinned, on the next open. A writer at the least limit
    checkpoints it before setting its limit (a year's WAL replayed held more than 48MB, and
    the limit could not be set), reads every row, and checkpoints its own WAL at a sixteenth
    of its limit."""
    warehouse = tmp_path / "w.duckdb"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PMSW_")}
    left = subprocess.run([sys.executable, "-c", LEAVE_A_WAL, str(warehouse)],
                          env={**clean, MEMORY_ENV: "2GiB"}, cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=False)
    assert left.returncode == 0, left.stderr[-2000:]
    assert Path(f"{warehouse}.wal").stat().st_size > 20 * MIB
    monkeypatch.setenv(MEMORY_ENV, LEAST_MEMORY_LIMIT)
    with connect(warehouse) as conn:
        wal = Path(f"{warehouse}.wal")
        assert not wal.exists() or wal.stat().st_size == 0  # checkpointed on open
        assert conn.execute("SELECT count(*) FROM raw.payloads").fetchone() == (30_000,)
        assert abs(_limit_bytes(conn) - 48_000_000) < 480_000
        threshold = conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        assert threshold == ("2.8 MiB",), threshold  # 48,000,000 / 16 bytes

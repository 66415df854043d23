"""Exactly-once landing: rows and cursor commit together or not at all (ARCHITECTURE, rules).

A failure is forced inside a landing, after rows were written and before the commit: the
database, read back from the file by a new connection, holds nothing of it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

import pipelines.ingest.store.events as events_module
import pipelines.ingest.store.reservations as reservations_module
from pipelines.ingest.store import get_state, land_events, land_reservations, max_updated_at
from pipelines.warehouse import connect, transaction

from .factories import event, reservation, room, ts

P = 1
TABLES = ("raw.payloads", "core.reservations", "core.reservation_rooms",
          "core.reservation_room_versions", "core.stay_guests", "core.events", "meta.sync_state")


def snapshot_via(conn: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    return {t: conn.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


class KilledError(RuntimeError):
    pass


def _raise(*_: object, **__: object) -> str:
    raise KilledError("killed while landing")


def test_failure_at_the_cursor_step_leaves_no_rows(
        conn: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch) -> None:
    land_reservations(conn, P, [reservation(1)], run_id="a", fetched_at=ts(1),
                      new_cursor=ts(0))
    before = snapshot_via(conn)
    changed = [reservation(1, [room(11, status="cancelled", cancelled_by="guest",
                                    updated_at=ts(5))]), reservation(2)]
    # The cursor is written last: raising there means every row above was already written.
    monkeypatch.setattr(reservations_module, "advance_cursor", _raise)
    with pytest.raises(KilledError):
        land_reservations(conn, P, changed, run_id="b", fetched_at=ts(6),
                          new_cursor=max_updated_at(changed))
    assert snapshot_via(conn) == before
    monkeypatch.undo()
    # And the next run lands it all as if nothing had happened.
    land_reservations(conn, P, changed, run_id="b", fetched_at=ts(6),
                      new_cursor=max_updated_at(changed))
    assert get_state(conn, P, "reservations") is not None
    assert conn.execute("SELECT count(*) FROM core.reservation_room_versions").fetchone() == (3,)


def test_failure_in_an_outer_transaction_undoes_every_stream(
        conn: duckdb.DuckDBPyConnection) -> None:
    def two_streams_then_killed() -> None:
        with transaction(conn):
            land_reservations(conn, P, [reservation(1)], run_id="a", fetched_at=ts(1),
                              new_cursor=ts(0))
            land_events(conn, P, [event(1), event(2)], run_id="a", fetched_at=ts(1))
            raise KilledError("killed between two streams")

    before = snapshot_via(conn)
    with pytest.raises(KilledError):
        two_streams_then_killed()
    assert snapshot_via(conn) == before


def test_failure_while_inserting_events_leaves_the_cursor(
        conn: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch) -> None:
    land_events(conn, P, [event(1)], run_id="a", fetched_at=ts(1))
    before = snapshot_via(conn)
    monkeypatch.setattr(events_module, "advance_cursor", _raise)
    with pytest.raises(KilledError):
        land_events(conn, P, [event(2), event(3)], run_id="b", fetched_at=ts(2))
    assert snapshot_via(conn) == before


_KILLED_LANDING = """
import os, signal, sys
sys.path[:0] = [{repo!r}]
from tests.warehouse.factories import reservation, room, ts
import pipelines.ingest.store.reservations as module
from pipelines.ingest.store import land_reservations
from pipelines.warehouse import connect

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

conn = connect({path!r})
land_reservations(conn, 1, [reservation(1)], run_id="a", fetched_at=ts(1), new_cursor=ts(0))
module.advance_cursor = die
batch = [reservation(i, [room(i * 10 + 1, updated_at=ts(5))]) for i in range(2, 300)]
land_reservations(conn, 1, batch, run_id="b", fetched_at=ts(6), new_cursor=ts(5))
"""


def test_sigkill_mid_landing_leaves_the_previous_state(tmp_path: Path) -> None:
    """A process killed after writing the rows but before its commit: the file holds run a."""
    path = tmp_path / "killed.duckdb"
    repo = str(Path(__file__).resolve().parents[2])
    proc = subprocess.run([sys.executable, "-c", _KILLED_LANDING.format(repo=repo, path=str(path))],
                          capture_output=True, timeout=120)
    assert proc.returncode == -9
    with connect(path) as conn:
        assert conn.execute("SELECT reservation_id FROM core.reservations").fetchall() == [(1,)]
        assert conn.execute("SELECT DISTINCT run_id FROM raw.payloads").fetchall() == [("a",)]
        state = get_state(conn, P, "reservations")
        assert state is not None
        assert state.cursor_value == "2026-03-01T09:00:00Z"

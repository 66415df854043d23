"""The sandbox's seeded database, in memory, for the unit tests of its services."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from sandbox.clock import SimulatedClock
from sandbox.db import open_db, transaction
from sandbox.seed import seed


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    """A freshly seeded database; its business date is 2026-03-02 (the clock's day)."""
    db = open_db(":memory:")
    with transaction(db):
        seed(db, SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)))
    yield db
    db.close()

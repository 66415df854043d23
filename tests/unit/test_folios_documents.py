"""Fiscal document numbering per property and year (issue 3; docs/sandbox.md "Folios").

The business date crosses a year only through the night audit, so the year restart is
checked here on the service, over a real seeded database.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sandbox.clock import SimulatedClock
from sandbox.db import open_db, transaction
from sandbox.seed import seed_if_empty
from sandbox.services.folio_lifecycle import next_document_number


def test_numbers_restart_each_year_and_are_kept_per_property() -> None:
    conn = open_db(":memory:")
    seed_if_empty(conn, SimulatedClock(datetime(2026, 12, 31, 12, tzinfo=UTC)))
    with transaction(conn):
        issued = [
            next_document_number(conn, 1, 2026),
            next_document_number(conn, 1, 2026),
            next_document_number(conn, 2, 2026),
            next_document_number(conn, 1, 2027),
            next_document_number(conn, 1, 2026),
        ]
    assert issued == ["2026/000001", "2026/000002", "2026/000001", "2027/000001",
                      "2026/000003"]
    conn.close()

"""The simulator's level of each night the demo played, stored as data for the forecast's
floor (core.sandbox_levels; docs/forecast.md, "The simulator's floor").

The pipelines never import the sandbox: the level comes over HTTP from the sandbox's admin
endpoint GET /_sandbox/levels, which computes it from the simulator's own parameters and the
seed its database stores, and is written through the one writing path.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from pipelines.demo.sandbox_admin import SandboxAdmin
from pipelines.warehouse import transaction, writer


def store_levels(warehouse: Path, admin: SandboxAdmin, property_ids: list[int],
                 first: date) -> int:
    """Replace the hotels' rows of core.sandbox_levels with the level of each night from
    `first` (the first simulated day) to the night before the hotel's business date as
    synced (the nights realized); the nights stored. The read copy is published with the
    marts."""
    fetched = datetime.now(UTC)
    with writer(warehouse, publish=False) as conn:
        synced = dict(conn.execute("SELECT property_id, business_date FROM core.property")
                      .fetchall())
        rows = []
        for property_id in property_ids:
            seed, levels = admin.levels(property_id, first,
                                        synced[property_id] - timedelta(days=1))
            rows += [(property_id, night, rooms, seed, fetched) for night, rooms in levels]
        with transaction(conn):
            conn.execute("DELETE FROM core.sandbox_levels WHERE property_id IN "
                         f"({', '.join('?' for _ in property_ids)})", property_ids)
            conn.executemany("INSERT INTO core.sandbox_levels (property_id, stay_date, "
                             "rooms_level, seed, fetched_at) VALUES (?, ?, ?, ?, ?)", rows)
    return len(rows)

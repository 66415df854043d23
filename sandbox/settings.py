"""How a sandbox is configured: the settings a server starts with (`SandboxSettings`), and
those the database keeps (the `settings` table: the simulated time, the demand's seed and
origin), so that a restarted server or a later simulation carries on from them."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime

from .clock import SimulatedClock
from .db import iso, one, ts


@dataclass(frozen=True)
class SandboxSettings:
    db_path: str = ":memory:"
    rate_per_minute: int = 600
    """Calls per minute per key (the spec's limit); tests lower or raise it."""
    burst: int = 120
    admin: bool = False
    """Serve the `/_sandbox` admin endpoints (clock, night audit, faults, switches, reset)."""
    allow_http_webhooks: bool = False
    """Accept plain-http webhook addresses on loopback (tests)."""
    webhook_timeout_seconds: float = 10.0
    """A webhook receiver that has not answered within this time has failed (spec: 10 s)."""
    idempotency_wait_seconds: float = 30.0
    """How long a repeat waits for the first request with the same Idempotency-Key."""
    pos_export_dir: str | None = None
    """Folder where days simulated through /_sandbox write their POS ledger CSV files."""
    group: int = 0
    """Hotels of a group seeded beside the demo hotels in a new database (sandbox.seed)."""


def save_clock(conn: sqlite3.Connection, clock: SimulatedClock) -> None:
    """Keep the simulated time in the database, so a restarted server carries on from it."""
    conn.execute("INSERT INTO settings (name, value) VALUES ('simulated_now', ?) ON CONFLICT "
                 "(name) DO UPDATE SET value = excluded.value", (f'"{ts(clock.now())}"',))


def stored_clock(conn: sqlite3.Connection) -> datetime | None:
    row = one(conn, "SELECT value FROM settings WHERE name = 'simulated_now'")
    if row is None:
        return None
    return datetime.fromisoformat(str(row["value"]).strip('"').replace("Z", "+00:00"))


def save_demand(conn: sqlite3.Connection, seed: int, origin: date) -> None:
    """Keep the seed and the origin of the demand book, so that a later run draws the same
    plans (demand_book.py: a date's plans depend on the dates back to the origin)."""
    for name, value in (("sim_seed", str(seed)), ("sim_origin", f'"{iso(origin)}"')):
        conn.execute("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) "
                     "DO UPDATE SET value = excluded.value", (name, value))


def stored_demand(conn: sqlite3.Connection) -> tuple[int | None, date | None]:
    """The seed and origin of the demand a run stored (None where nothing is stored; a
    database simulated before origins were stored has a seed only)."""
    seed = one(conn, "SELECT value FROM settings WHERE name = 'sim_seed'")
    origin = one(conn, "SELECT value FROM settings WHERE name = 'sim_origin'")
    return (None if seed is None else int(seed["value"]),
            None if origin is None else date.fromisoformat(str(origin["value"]).strip('"')))

"""What the hotel acts on and under: the database, clock and settings of one sandbox
(`SandboxState`), and the context of one call (`Ctx`).

Every service call takes a `Ctx`. API calls build theirs from the API key (http/deps.py); the
simulator and the admin endpoints are not API clients, so they act with every scope under the
property's first key id (0 if none): `system_ctx`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime

from models.common import Scope

from .clock import Clock
from .db import one
from .settings import SandboxSettings

ALL_SCOPES = frozenset(scope.value for scope in Scope)


@dataclass
class SandboxState:
    """One sandbox database with its clock and settings (a server adds its switches to it:
    http/state.py)."""

    conn: sqlite3.Connection
    clock: Clock
    settings: SandboxSettings = field(default_factory=SandboxSettings)


@dataclass(frozen=True)
class Ctx:
    """Who is calling and what they may touch: every service call takes one."""

    conn: sqlite3.Connection
    clock: Clock
    state: SandboxState
    property_id: int
    key_id: int
    scopes: frozenset[str]

    def now(self) -> datetime:
        return self.clock.now()

    def business_date(self) -> date:
        row = one(self.conn, "SELECT business_date FROM properties WHERE id = ?", self.property_id)
        assert row is not None
        return date.fromisoformat(row["business_date"])


def system_ctx(state: SandboxState, property_id: int) -> Ctx:
    key = one(state.conn, "SELECT id FROM api_keys WHERE property_id = ? ORDER BY id LIMIT 1",
              property_id)
    return Ctx(conn=state.conn, clock=state.clock, state=state, property_id=property_id,
               key_id=0 if key is None else int(key["id"]), scopes=ALL_SCOPES)

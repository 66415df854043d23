"""The context the hotel itself acts under (front desk, booking engine, night audit).

Services take a `Ctx`, the context of an API call; the simulator and the admin endpoints are
not API clients, so they act with every scope under the property's first key id (0 if none).
"""

from __future__ import annotations

import sqlite3

from models.common import Scope

from ..clock import Clock
from ..db import one
from ..deps import Ctx
from ..settings import SandboxSettings
from ..state import SandboxState

ALL_SCOPES = frozenset(scope.value for scope in Scope)


def system_ctx(state: SandboxState, property_id: int) -> Ctx:
    key = one(state.conn, "SELECT id FROM api_keys WHERE property_id = ? ORDER BY id LIMIT 1",
              property_id)
    return Ctx(conn=state.conn, clock=state.clock, state=state, property_id=property_id,
               key_id=0 if key is None else int(key["id"]), scopes=ALL_SCOPES)


def offline_state(conn: sqlite3.Connection, clock: Clock) -> SandboxState:
    """A server state without a server: what the simulator hands to the services."""
    return SandboxState(conn=conn, clock=clock, settings=SandboxSettings())

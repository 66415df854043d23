"""Admin endpoints under `/_sandbox`: served only with `--admin`, outside API v1.

They need no key (the server listens on loopback) and are left out of the OpenAPI document of
`/v1`. Switches set here live in the running server (`ServerState`); `reset` rebuilds the
database in place.

Extension points, for the clock and night-audit work (not here yet):
- `POST /_sandbox/clock/advance {days}`: advance the simulated clock day by day (activity,
  then night audit); add it next to `get_clock` below.
- `POST /_sandbox/night-audit {property_id}`: run the night audit of a property.
The CLI talks to these endpoints through `sandbox.cli._admin_call`.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from ...clock import SimulatedClock
from ...db import all_rows, one, transaction, ts
from ...errors import not_found, rule_violation
from ...seed import seed as seed_database
from ...seed import stored_group
from ...services.webhooks import stop_webhooks_of_key
from ...settings import stored_demand
from ...simulator.demand_book import night_levels
from ...simulator.hotel import load_hotel
from ...simulator.params import SimParams
from ..deps import get_state
from ..faults import FaultConfig
from ..state import ServerState

router = APIRouter(prefix="/_sandbox", include_in_schema=False)
State = Annotated[ServerState, Depends(get_state)]

Share = Annotated[float, Field(ge=0, le=1)]


class FaultSettings(BaseModel):
    """The body of PUT /_sandbox/faults: the whole configuration (omitted fields are off)."""

    model_config = ConfigDict(extra="forbid")

    error_rate: Share = 0.0
    unavailable_rate: Share = 0.0
    rate_limit_rate: Share = 0.0
    rate_limit_burst: Annotated[int, Field(ge=1, le=1000)] = 3
    retry_after_seconds: Annotated[int, Field(ge=0, le=3600)] = 1
    latency_ms: Annotated[int, Field(ge=0, le=60_000)] = 0
    latency_jitter_ms: Annotated[int, Field(ge=0, le=60_000)] = 0
    drop_before_rate: Share = 0.0
    drop_after_rate: Share = 0.0
    truncate_rate: Share = 0.0
    seed: int | None = None


class Switch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    on: bool


class PropertySwitch(Switch):
    property_id: int


def _faults_view(state: ServerState) -> dict[str, Any]:
    return {"faults": dataclasses.asdict(state.faults), "active": state.faults.active,
            "counts": dict(sorted(state.fault_counts.items()))}


@router.get("/faults")
async def get_faults(state: State) -> dict[str, Any]:
    """The fault configuration and what has been injected since it was set."""
    return _faults_view(state)


@router.put("/faults")
async def put_faults(state: State, body: FaultSettings) -> dict[str, Any]:
    """Replace the fault configuration; counts and dice start afresh."""
    state.faults = FaultConfig(**body.model_dump())
    state.fault_counts.clear()
    return _faults_view(state)


@router.put("/maintenance")
async def put_maintenance(state: State, body: Switch) -> dict[str, Any]:
    """Maintenance switch: every /v1 call answers 503 while it is on."""
    state.maintenance = body.on
    return {"on": state.maintenance}


@router.put("/pause")
async def put_pause(state: State, body: PropertySwitch) -> dict[str, Any]:
    """Seasonal pause of a property: its write calls answer 423 read_only while on."""
    with transaction(state.conn):
        cur = state.conn.execute("UPDATE properties SET read_only = ? WHERE id = ?",
                                 (int(body.on), body.property_id))
        if cur.rowcount == 0:
            raise not_found("property")
    return {"property_id": body.property_id, "on": body.on}


@router.post("/keys/{key_id}/revoke")
async def revoke_key(state: State, key_id: int) -> dict[str, Any]:
    """Revoke an API key, as the hotel does in its settings; its webhooks stop."""
    now = state.clock.now()
    with transaction(state.conn):
        key = one(state.conn, "SELECT id, revoked_at FROM api_keys WHERE id = ?", key_id)
        if key is None:
            raise not_found("API key")
        revoked_at = key["revoked_at"] or ts(now)
        state.conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ?",
                           (revoked_at, key_id))
        stopped = stop_webhooks_of_key(state.conn, key_id, now)
    return {"id": key_id, "revoked_at": revoked_at, "webhooks_stopped": stopped}


@router.post("/reset")
async def reset(state: State) -> dict[str, Any]:
    """Empty every table and seed again, in one transaction (the server keeps running).

    Switches held by the server (maintenance, faults) are left as they are.
    """
    conn = state.conn
    tables = [row["name"] for row in all_rows(
        conn, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    group = stored_group(conn)
    with transaction(conn):
        conn.execute("PRAGMA defer_foreign_keys = ON")  # rows go in any order; checked at commit
        for table in tables:
            conn.execute(f'DELETE FROM "{table}"')
        if one(conn, "SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'"):
            conn.execute("DELETE FROM sqlite_sequence")
        seed_database(conn, state.clock, group)
    return {"reset": True, "tables": len(tables)}


@router.get("/clock")
async def get_clock(state: State) -> dict[str, Any]:
    """The sandbox clock and the business date of each property."""
    dates = all_rows(state.conn, "SELECT id, business_date FROM properties ORDER BY id")
    return {
        "now": ts(state.clock.now()),
        "simulated": isinstance(state.clock, SimulatedClock),
        "business_dates": {str(row["id"]): row["business_date"] for row in dates},
    }


LEVEL_SPAN_DAYS = 3660
"""The most nights one call of GET /_sandbox/levels answers."""


@router.get("/levels")
async def get_levels(state: State, property_id: Annotated[int, Query()],
                     first: Annotated[date, Query()],
                     last: Annotated[date, Query()]) -> dict[str, Any]:
    """The simulator's level of each night from `first` to `last` of a simulated hotel: the
    rooms its demand plans before the night's own noise (`night_levels`), which no API v1
    call shows; the floor of any forecast of the hotel (docs/forecast.md)."""
    if last < first:
        raise rule_violation(f"last {last} is before first {first}", field="last")
    if (last - first).days >= LEVEL_SPAN_DAYS:
        raise rule_violation(f"at most {LEVEL_SPAN_DAYS} nights a call, not "
                             f"{(last - first).days + 1}", field="last")
    if one(state.conn, "SELECT id FROM properties WHERE id = ?", property_id) is None:
        raise not_found(f"property {property_id}")
    seed, _ = stored_demand(state.conn)
    if seed is None:
        raise rule_violation("no simulation stored in this database (settings.sim_seed): "
                             "its nights have no level", field="seed")
    profile = load_hotel(state.conn, property_id).profile
    levels = night_levels(SimParams().demand, profile, seed, first, last)
    return {"property_id": property_id, "seed": seed,
            "levels": [{"night": night.isoformat(), "rooms": round(rooms, 6)}
                       for night, rooms in levels.items()]}

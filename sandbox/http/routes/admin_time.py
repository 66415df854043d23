"""Admin endpoints of time under `/_sandbox` (served only with `--admin`, outside API v1):
the night audit, advancing the simulated clock day by day, and simulating days.

- POST /_sandbox/night-audit `{property_id?}`: close the current business date of the property
  (of every property when omitted). Works on either clock.
- POST /_sandbox/advance `{days, property_ids?}`: for each day, the simulator's activity in the
  hotels `property_ids` (default [1]), then the night audit of every property; the simulated
  clock moves through the day to 02:00 of the next. Needs `serve --clock simulated`.
- POST /_sandbox/simulate `{days, seed, start?, property_ids?}`: the same with a given seed;
  `start` (not before the business date) plays the days before it with bookings only (the
  offline simulator's warm-up).
GET /_sandbox/clock lives in routes/admin.py.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from ...clock import SimulatedClock
from ...context import system_ctx
from ...db import all_rows, one, transaction, ts
from ...errors import not_found, rule_violation
from ...services.night_audit import run_night_audit
from ...settings import save_demand, stored_demand
from ...simulator.engine import Simulation
from ...simulator.params import SimParams
from ..deps import get_state
from ..state import ServerState

router = APIRouter(prefix="/_sandbox", include_in_schema=False)
State = Annotated[ServerState, Depends(get_state)]
DEFAULT_SEED = 0


class NightAuditInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    property_id: int | None = None
    business_date: date | None = None
    """A date already closed answers `already_closed` and changes nothing."""


class AdvanceInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days: Annotated[int, Field(ge=1, le=400)]
    property_ids: Annotated[list[int], Field(min_length=1)] = Field(default_factory=lambda: [1])


class SimulateInput(AdvanceInput):
    seed: int
    start: date | None = None


@router.post("/night-audit")
async def night_audit(state: State, body: NightAuditInput | None = None) -> dict[str, Any]:
    """Close the current business date of one property, or of every property."""
    body = body or NightAuditInput()
    wanted = body.property_id
    rows = all_rows(state.conn, "SELECT id FROM properties ORDER BY id")
    ids = [row["id"] for row in rows if wanted is None or row["id"] == wanted]
    if not ids:
        raise not_found(f"property {wanted}")
    results = [run_night_audit(system_ctx(state, pid), body.business_date).summary()
               for pid in ids]
    if state.dispatcher is not None:
        state.dispatcher.poke()
    return {"now": ts(state.clock.now()), "audits": results}


def _simulated(state: ServerState) -> SimulatedClock:
    if not isinstance(state.clock, SimulatedClock):
        raise rule_violation("the server runs on the wall clock: start it with "
                             "`pmsw sandbox serve --admin --clock simulated` to move time",
                             field="clock")
    return state.clock


def _business_date(state: ServerState, property_ids: list[int]) -> date:
    dates = set()
    for pid in property_ids:
        row = one(state.conn, "SELECT business_date FROM properties WHERE id = ?", pid)
        if row is None:
            raise not_found(f"property {pid}")
        dates.add(row["business_date"])
    if len(dates) > 1:
        raise rule_violation(f"the properties {property_ids} are at different business dates "
                             f"{sorted(dates)}: advance them one by one", field="property_ids")
    return date.fromisoformat(dates.pop())


def _demand(state: ServerState, first_day: date, seed: int | None) -> tuple[int, date]:
    """The seed and origin of the demand to play: the stored seed unless another is given,
    with its stored origin (the same plans go on), else a book drawn from `first_day`."""
    stored_seed, stored_origin = stored_demand(state.conn)
    if seed is None:
        seed = DEFAULT_SEED if stored_seed is None else stored_seed
    if stored_origin is not None and seed == stored_seed:
        return seed, stored_origin
    with transaction(state.conn):
        save_demand(state.conn, seed, first_day)
    return seed, first_day


def _runners(request: Request) -> dict[tuple[int, tuple[int, ...]], Simulation]:
    runners: dict[tuple[int, tuple[int, ...]], Simulation] = getattr(
        request.app.state, "simulations", {})
    request.app.state.simulations = runners
    return runners


def _simulation(request: Request, state: ServerState, seed: int | None,
                property_ids: list[int], first_day: date) -> Simulation:
    """The server's running simulation for this seed and these hotels (kept between calls)."""
    seed, origin = _demand(state, first_day, seed)
    key = (seed, tuple(property_ids))
    runners = _runners(request)
    runner = runners.get(key)
    if runner is not None and not _still_valid(state, runner):
        del runners[key]  # the database was reset under it
    if key not in runners:
        runners[key] = Simulation(state, _simulated(state), seed, tuple(property_ids),
                                  first_arrival=first_day, first_booking_day=first_day,
                                  demand_origin=origin, params=SimParams(),
                                  pos_export=_pos_export(state))
    return runners[key]


def _warm_up(request: Request, state: ServerState, seed: int, property_ids: list[int],
             first_day: date, start: date) -> None:
    """Play [first_day, start) with bookings only, as the offline simulator's warm-up: the
    bookings made ahead of `start` are made on their days (those a plan made earlier still
    are made on `first_day` when the hotel has none yet); nobody arrives before `start`."""
    seed, origin = _demand(state, start, seed)
    runner = Simulation(state, _simulated(state), seed, tuple(property_ids),
                        first_arrival=start, first_booking_day=first_day,
                        demand_origin=origin, params=SimParams(),
                        pos_export=_pos_export(state), catch_up=True)
    _runners(request)[seed, tuple(property_ids)] = runner
    day = first_day
    while day < start:
        runner.play_day(day, full=False)
        day += timedelta(days=1)


def _pos_export(state: ServerState) -> Path | None:
    folder = state.settings.pos_export_dir
    return Path(folder) if folder else None


def _still_valid(state: ServerState, runner: Simulation) -> bool:
    """Whether the bookings the runner remembers are still the database's."""
    for hotel in runner.hotels:
        for ref, reservation_id in list(hotel.engine.reservation_of.items())[:1]:
            row = one(state.conn, "SELECT external_ref FROM reservations WHERE id = ?",
                      reservation_id)
            if row is None or row["external_ref"] != ref:
                return False
    return True


def _play(request: Request, state: ServerState, seed: int | None, days: int,
          property_ids: list[int]) -> dict[str, Any]:
    clock = _simulated(state)
    first = _business_date(state, property_ids)
    simulation = _simulation(request, state, seed, property_ids, first)
    played = []
    for offset in range(days):
        report = simulation.play_day(first + timedelta(days=offset))
        played.append({"business_date": report.day.isoformat(),
                       "audits": [audit.summary() for audit in report.audits]})
    return {"now": ts(clock.now()), "seed": simulation.seed, "days": played,
            "business_date": _business_date(state, property_ids).isoformat()}


@router.post("/advance")
async def advance(request: Request, state: State, body: AdvanceInput) -> dict[str, Any]:
    """Move the simulated clock `days` days: each day the hotels' activity, then the audit."""
    if state.dispatcher is not None:
        state.dispatcher.poke()
    result = _play(request, state, None, body.days, body.property_ids)
    if state.dispatcher is not None:
        state.dispatcher.poke()
    return result


@router.post("/simulate")
async def simulate(request: Request, state: State, body: SimulateInput) -> dict[str, Any]:
    """Simulate `days` days with `seed` from the business date, or from `start` after the
    days before it played as a warm-up (bookings only)."""
    _simulated(state)
    first = _business_date(state, body.property_ids)
    if body.start is not None:
        if body.start < first:
            raise rule_violation(f"start {body.start} is before the business date {first}",
                                 field="start")
        if body.start > first:
            _warm_up(request, state, body.seed, body.property_ids, first, body.start)
    result = _play(request, state, body.seed, body.days, body.property_ids)
    if state.dispatcher is not None:
        state.dispatcher.poke()
    return result

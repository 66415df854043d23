"""The simulator's booking engine counts a cancellation the API refuses (docs/sandbox.md,
"Simulator": `cancel_refused` in the report's bookings) instead of dropping it silently."""

from __future__ import annotations

from datetime import timedelta

from sandbox.context import system_ctx
from sandbox.http.server import RunningSandbox
from sandbox.simulator.booking import BookingEngine
from sandbox.simulator.demand import BookingPlan, Person, RoomAsk
from sandbox.simulator.hotel import load_hotel


def test_a_refused_cancellation_is_counted(sandbox: RunningSandbox) -> None:
    state = sandbox.app.state.sandbox
    ctx = system_ctx(state, 1)
    hotel = load_hotel(state.conn, 1)
    engine = BookingEngine(ctx, hotel)
    arrival = ctx.business_date() + timedelta(days=10)
    type_code = next(iter(hotel.type_ids))
    plan = BookingPlan(ref="REF-CANCEL-1", booked_on=ctx.business_date(), booked_minute=600,
                       arrival=arrival, departure=arrival + timedelta(days=2),
                       rooms=(RoomAsk(type_code, 2),), channel="website", source="direct",
                       market="leisure", plan_code=next(iter(hotel.plan_ids)),
                       booker=Person("Ada", "Cancel", "IT"), arrival_time="15:00")
    assert engine.create(plan) is not None
    assert plan.ref in engine.reservation_of
    engine.cancel(plan)
    assert (engine.stats.cancelled, engine.stats.cancel_refused) == (1, 0)
    engine.cancel(plan)  # cancelled already: the API refuses, the engine counts it
    assert (engine.stats.cancelled, engine.stats.cancel_refused) == (1, 1)

"""GET /_sandbox/levels: the simulator's level of each night, the rooms its demand plans before
the night's own noise (docs/sandbox.md, Admin endpoints; docs/forecast.md, "The simulator's
floor"), worked out by hand from the simulator's definition."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import httpx

from sandbox.clock import SimulatedClock
from tests.conftest import MakeSandbox, answered

START = datetime(2026, 1, 5, 7, 0, tzinfo=UTC)
# Relative demand by weekday, Monday first (docs/sandbox.md, Simulator)
SHAPE = (0.93, 0.95, 0.98, 1.01, 1.09, 1.12, 0.92)


def test_levels_of_a_month_without_events_are_its_occupancy_shaped_by_weekday(
        make_sandbox: MakeSandbox) -> None:
    """February 2026 in Rome has no dated event and four nights of each weekday (the shapes
    average 7.00 / 7 = 1), and no night reaches the 96 % cap: each night's level is the
    month's target occupancy x the weekday's shape x its 78 sellable rooms (80, two of them
    not for sale). The target is Rome's February
    60 % grown 3 % a year from the middle of 2025: 0.60 x 1.03 ^ (1 + (2 - 6.5) / 12)."""
    server = make_sandbox(clock=SimulatedClock(START), admin=True)
    with httpx.Client(base_url=f"{server.root_url}/_sandbox", timeout=120) as admin:
        none_yet = admin.get("/levels", params={"property_id": 1, "first": "2026-02-01",
                                                "last": "2026-02-28"})
        assert answered(none_yet, 422)["error"]["field"] == "seed"
        assert admin.post("/simulate", json={"days": 1, "seed": 4}).status_code == 200

        got = admin.get("/levels", params={"property_id": 1, "first": "2026-02-01",
                                           "last": "2026-02-28"})
        body = answered(got)
        assert (body["property_id"], body["seed"]) == (1, 4)
        target = 0.60 * 1.03 ** 0.625
        nights = [date(2026, 2, 1) + timedelta(days=n) for n in range(28)]
        assert [row["night"] for row in body["levels"]] == [n.isoformat() for n in nights]
        for row, night in zip(body["levels"], nights, strict=True):
            assert abs(row["rooms"] - 78 * target * SHAPE[night.weekday()]) < 1e-4
        # Friday 6 February: 78 x 0.611188 x 1.09 = 51.96 rooms
        assert round(body["levels"][5]["rooms"], 2) == 51.96

        # a bad range is refused naming its field; an unknown hotel is not found
        backwards = admin.get("/levels", params={"property_id": 1, "first": "2026-02-02",
                                                 "last": "2026-02-01"})
        assert answered(backwards, 422)["error"]["field"] == "last"
        missing = admin.get("/levels", params={"property_id": 9, "first": "2026-02-01",
                                               "last": "2026-02-01"})
        assert missing.status_code == 404

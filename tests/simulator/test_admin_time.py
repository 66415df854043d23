"""Moving a served sandbox's time: POST /_sandbox/simulate and /_sandbox/advance on a server
started with a simulated clock (docs/sandbox.md, "Time and the night audit")."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import httpx

from sandbox.clock import SimulatedClock
from tests.conftest import MakeSandbox, auth

START = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # 08:00 in Rome


def test_simulate_then_advance_move_clock_business_dates_and_book(
        make_sandbox: MakeSandbox) -> None:
    server = make_sandbox(clock=SimulatedClock(START), admin=True)
    admin = httpx.Client(base_url=f"{server.root_url}/_sandbox", timeout=120)
    api = httpx.Client(base_url=server.base_url, headers=auth(), timeout=60)
    first = date(2026, 3, 2)

    response = admin.post("/simulate", json={"days": 3, "seed": 4})
    assert response.status_code == 200, response.text
    assert [day["business_date"] for day in response.json()["days"]] == [
        str(first + timedelta(days=n)) for n in range(3)]
    clock = admin.get("/clock").json()
    assert clock["simulated"] is True
    assert clock["now"] == "2026-03-05T01:00:00Z"  # 02:00 in Rome, after the third audit
    assert set(clock["business_dates"].values()) == {"2026-03-05"}

    booked = api.get("/reservations", params={"page_size": 200}).json()
    assert booked["total"] > 20
    created = [r["created_at"] for r in booked["data"]]
    assert min(created) >= "2026-03-02T07:00:00Z"
    assert max(created) < "2026-03-05T01:00:00Z"

    response = admin.post("/advance", json={"days": 2})
    assert response.status_code == 200, response.text
    assert api.get("/property").json()["business_date"] == "2026-03-07"
    assert admin.get("/clock").json()["now"] == "2026-03-07T01:00:00Z"
    in_house = api.get("/reservations", params={"status": "checked_in"}).json()
    assert in_house["total"] > 0


def test_simulate_refuses_a_start_before_the_business_date(make_sandbox: MakeSandbox) -> None:
    server = make_sandbox(clock=SimulatedClock(START), admin=True)
    response = httpx.post(f"{server.root_url}/_sandbox/simulate",
                          json={"days": 1, "seed": 1, "start": "2026-03-01"}, timeout=60)
    assert response.status_code == 422
    assert "start" in response.text

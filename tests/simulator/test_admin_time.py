"""Moving a served sandbox's time: POST /_sandbox/simulate and /_sandbox/advance on a server
started with a simulated clock (docs/sandbox.md, "Time and the night audit")."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import httpx

from sandbox.clock import SimulatedClock
from tests.conftest import MakeSandbox, answered, auth, every_reservation

START = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # 08:00 in Rome


def test_simulate_then_advance_move_clock_business_dates_and_book(
        make_sandbox: MakeSandbox) -> None:
    server = make_sandbox(clock=SimulatedClock(START), admin=True)
    with (httpx.Client(base_url=f"{server.root_url}/_sandbox", timeout=120) as admin,
          httpx.Client(base_url=server.base_url, headers=auth(), timeout=60) as api):
        first = date(2026, 3, 2)

        response = admin.post("/simulate", json={"days": 3, "seed": 4})
        assert [day["business_date"] for day in answered(response)["days"]] == [
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


def test_simulate_with_a_later_start_plays_the_days_before_it_as_a_warm_up(
        make_sandbox: MakeSandbox) -> None:
    """docs/sandbox.md, Admin endpoints: `start` after the business date plays the days before
    it with bookings only, so the first simulated night is as full as a hotel's would be
    (the hotel does not start empty) and the bookings made ahead carry their own times."""
    server = make_sandbox(clock=SimulatedClock(START), admin=True)
    with (httpx.Client(base_url=f"{server.root_url}/_sandbox", timeout=300) as admin,
          httpx.Client(base_url=server.base_url, headers=auth(), timeout=60) as api):
        response = admin.post("/simulate", json={"days": 1, "seed": 4, "start": "2026-04-01"})
        assert response.status_code == 200, response.text
        assert api.get("/property").json()["business_date"] == "2026-04-02"

        stays, created = [], []
        for reservation in every_reservation(api):
            if reservation["external_ref"].startswith("ROMA01-"):
                created.append(reservation["created_at"])
                stays += reservation["rooms"]
        assert min(s["arrival"] for s in stays) >= "2026-04-01"  # nobody arrives before start
        assert sum(c < "2026-03-31" for c in created) > 100  # made during the warm-up days
        rooms = sum(t["rooms"] for t in api.get("/room-types").json()["data"])
        in_house = [s for s in stays if s["status"] in ("checked_in", "checked_out")
                    and s["arrival"] <= "2026-04-01" < s["departure"]]
        # domain.md: April 82%, Wednesday a little under; an empty hotel gets some 15-25%.
        assert len(in_house) / rooms > 0.6, (len(in_house), rooms)

"""City tax is the property's city's, also when an apply posts it (issue 14, item 5).

A Florence stay of 10 nights is built through API v1 on the seeded sandbox (property 2,
Firenze, 4 stars), checked in, and lived through 10 night audits with no city tax posted by
anyone. The warehouse syncs it; a reconciliation apply over the 10 business dates posts the
city tax Florence's rule owes (domain.md, City tax: 4 stars 7.00 per person and night, at
most 7 nights): 2 adults x 7.00 = 14.00 on each of the first 7 nights, 98.00 in all, and
nothing for nights 8 to 10. The folios, read back through the API, carry exactly that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import httpx
import polars as pl
import pytest

from pipelines.api import PmsClient
from pipelines.ingest import Endpoint, sync_property
from pipelines.recon import Mode, run_reconciliation
from pipelines.recon.logic import load_rules
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED, answered, auth

FLORENCE_KEY = "sbx_test_other_property"  # property 2, FIRE01, Firenze, 4 stars
ARRIVAL = date(2026, 3, 2)
NIGHTS = 10


@pytest.fixture
def florence(tmp_path: Path) -> Iterator[tuple[RunningSandbox, SimulatedClock]]:
    clock = SimulatedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))  # 09:00 in Florence
    settings = SandboxSettings(admin=True, rate_per_minute=UNLIMITED["rate_per_minute"],
                               burst=UNLIMITED["burst"], db_path=str(tmp_path / "pms.sqlite"))
    with running_sandbox(settings, clock) as sandbox:
        yield sandbox, clock


def test_an_apply_in_florence_posts_seven_nights_of_a_ten_night_stay(
        florence: tuple[RunningSandbox, SimulatedClock], tmp_path: Path) -> None:
    sandbox, clock = florence
    warehouse = tmp_path / "warehouse.duckdb"
    with httpx.Client(base_url=sandbox.base_url, headers=auth(FLORENCE_KEY),
                      timeout=30) as api:
        prop = answered(api.get("/property"))
        assert (prop["city"], prop["star_rating"], prop["business_date"]) == \
            ("Firenze", "4", ARRIVAL.isoformat())
        room_type = answered(api.get("/room-types"))["data"][0]["id"]
        body = {"rooms": [{"room_type_id": room_type, "arrival": ARRIVAL.isoformat(),
                           "departure": (ARRIVAL + timedelta(days=NIGHTS)).isoformat(),
                           "adults": 2, "price_override": "110.00"}],
                "new_party": {"first_name": "Guest", "last_name": "Ten nights"},
                "channel": "website", "source": "booking_engine", "market": "leisure"}
        reservation = answered(api.post("/reservations", json=body), 201)["reservation"]
        rid, entry = reservation["id"], reservation["rooms"][0]["id"]
        answered(api.post(f"/reservations/{rid}/assign-rooms"))
        answered(api.post(f"/reservations/{rid}/check-in"))
        for night in range(NIGHTS):  # the audit of each night, at 02:00 of the next day
            clock.set(datetime(2026, 3, 3 + night, 1, 0, tzinfo=UTC))
            audit = answered(httpx.post(f"{sandbox.root_url}/_sandbox/night-audit",
                                        json={"property_id": 2}, timeout=30))
            assert audit["audits"][0]["business_date"] == \
                (ARRIVAL + timedelta(days=night)).isoformat()
        with connect(warehouse) as conn:
            endpoint = Endpoint("florence", sandbox.base_url, FLORENCE_KEY, 1_000_000,
                                1_000_000)
            for result in sync_property(endpoint, conn, "sync-1"):
                assert result.status == "success", (result.stream, result.message)
        last = ARRIVAL + timedelta(days=NIGHTS - 1)
        with PmsClient(sandbox.base_url, FLORENCE_KEY, rate_per_minute=1_000_000,
                       burst=1_000_000) as client:
            report = run_reconciliation(warehouse, load_rules(), mode=Mode.APPLY,
                                        first=ARRIVAL, last=last, client=client)
        city_tax = report.results.filter(pl.col("source") == "rule:city_tax").sort(
            "business_date")
        assert city_tax["business_date"].to_list() == \
            [ARRIVAL + timedelta(days=n) for n in range(7)]
        assert set(city_tax["status"]) == {"posted"}
        assert set(city_tax["quantity"]) == {Decimal("2")}
        assert set(city_tax["unit_price"]) == {Decimal("7.00")}
        assert sum(city_tax["expected_amount"]) == Decimal("98.00")
        assert report.summary["failed"] == (0, 0)
        posted_dates = Counter(
            line["posted_on"]
            for folio in answered(api.get(f"/reservations/{rid}/folios"))["data"]
            for line in folio["lines"]
            if line["description"].startswith("City tax") and line["reversal_of"] is None)
        assert posted_dates == Counter({(ARRIVAL + timedelta(days=n)).isoformat(): 1
                                        for n in range(7)})
        assert entry in set(city_tax["reservation_room_id"])

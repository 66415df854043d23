"""POST /quotes: the rate engine, nothing booked (spec, Endpoints: Availability and quotes;
QuoteRequest; Quote). The seed's grid, plans, offers and brackets are in docs/sandbox.md
(Seed, Rate engine): STD costs 150.00 on a Monday of a mid month; Saturday is the dearest
night and Sunday the cheapest; April is high season, March mid, January low; offers 1 EARLY 10%
and 2 LASTMIN 5%; plan 6 OLD is inactive, plan 7 CORP a 12% contract plan; per-person plans
charge each adult 55% of the grid and a child of CHD half an adult's price.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import httpx
import pytest

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, auth, refusal
from tests.contract import reading

sandbox, api = reading.sandbox, reading.api


def ids(api: httpx.Client, path: str) -> dict[str, int]:
    return {row["code"]: row["id"] for row in api.get(path).json()["data"]}


def monday_of(api: httpx.Client, month: int) -> date:
    """The first Monday of `month` next year: always in the future of the business date."""
    year = date.fromisoformat(api.get("/property").json()["business_date"]).year + 1
    day = date(year, month, 1)
    return day + timedelta(days=(7 - day.weekday()) % 7)


def quote(api: httpx.Client, type_code: str = "STD", *, arrival: date, nights: int = 1,
          **fields: Any) -> httpx.Response:
    body = {"room_type_id": ids(api, "/room-types")[type_code], "arrival": arrival.isoformat(),
            "departure": (arrival + timedelta(days=nights)).isoformat(), **fields}
    return api.post("/quotes", json=body)


def cents(value: float | int) -> Decimal:
    return Decimal(str(value))


def half_up(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_one_priced_entry_per_night_and_total_is_their_sum(api: httpx.Client) -> None:
    """Spec, Quote: `nights` holds the price of each night; `total` the stay."""
    arrival = monday_of(api, 3)
    body = answered(quote(api, arrival=arrival, nights=7))
    assert [n["date"] for n in body["nights"]] == [
        (arrival + timedelta(days=d)).isoformat() for d in range(7)]
    assert cents(body["total"]) == sum(cents(n["price"]) for n in body["nights"])
    assert set(body["nights"][0]) >= {"date", "list_price", "discount_pct", "price"}


def test_grid_price_depends_on_the_weekday(api: httpx.Client) -> None:
    """Seed grid (docs/sandbox.md): Saturday > Monday > Sunday."""
    prices = [n["price"]
              for n in answered(quote(api, arrival=monday_of(api, 3), nights=7))["nights"]]
    assert prices[0] == 150
    assert prices[5] > prices[0] > prices[6]


def test_grid_price_depends_on_the_season_of_the_month(api: httpx.Client) -> None:
    """Seed seasons (docs/sandbox.md): April high, March mid, January low."""
    low, mid, high = (answered(quote(api, arrival=monday_of(api, m)))["total"] for m in (1, 3, 4))
    assert low < mid < high


def test_default_plan_and_default_adults(api: httpx.Client) -> None:
    """Spec, QuoteRequest: `rate_plan_id` defaults to the default plan, `adults` to 2."""
    arrival = monday_of(api, 3)
    default = next(p["id"] for p in api.get("/rate-plans").json()["data"] if p["is_default"])
    assert answered(quote(api, arrival=arrival, nights=3)) == answered(
        quote(api, arrival=arrival, nights=3, rate_plan_id=default))
    plans = ids(api, "/rate-plans")
    assert answered(quote(api, "SUP", arrival=arrival, rate_plan_id=plans["PP"])) == answered(
        quote(api, "SUP", arrival=arrival, rate_plan_id=plans["PP"], adults=2))


def test_plan_discount(api: httpx.Client) -> None:
    """Spec: the price comes from the rate engine with the plan (NREF: discount_pct 15)."""
    arrival = monday_of(api, 3)
    plan = next(p for p in api.get("/rate-plans").json()["data"] if p["code"] == "NREF")
    bar = answered(quote(api, arrival=arrival, nights=2))["nights"]
    nref = answered(quote(api, arrival=arrival, nights=2, rate_plan_id=plan["id"]))["nights"]
    for full, discounted in zip(bar, nref, strict=True):
        assert discounted["list_price"] == full["price"]
        assert discounted["discount_pct"] == plan["discount_pct"] == 15
        assert cents(discounted["price"]) == half_up(cents(full["price"]) * Decimal("0.85"))


def test_plan_offer_and_request_discounts_stack(api: httpx.Client) -> None:
    """QuoteRequest `offer_id` and `discount_pct` (docs/sandbox.md: discounts multiply)."""
    arrival = monday_of(api, 3)
    night = answered(quote(api, arrival=arrival, rate_plan_id=ids(api, "/rate-plans")["NREF"],
                     offer_id=1, discount_pct=5))["nights"][0]
    assert night["discount_pct"] == 27.325  # 1 - 0.85 * 0.90 * 0.95
    assert cents(night["price"]) == half_up(cents(night["list_price"]) * Decimal("0.72675"))


def test_nightly_price_rounds_half_up_to_the_cent(api: httpx.Client) -> None:
    """docs/sandbox.md: 150.00 less 33.33% is 100.0050, which rounds half up to 100.01."""
    night = answered(quote(api, arrival=monday_of(api, 3), discount_pct=33.33))["nights"][0]
    assert night["price"] == 100.01


def test_price_override_is_the_nightly_price(api: httpx.Client) -> None:
    """Spec, QuoteRequest: `price_override` is a fixed nightly price instead of the grid
    (docs/sandbox.md: no discount applies to it)."""
    body = answered(quote(api, arrival=monday_of(api, 3), nights=3, price_override=123.45,
                    rate_plan_id=ids(api, "/rate-plans")["NREF"], discount_pct=10, offer_id=1))
    assert [n["price"] for n in body["nights"]] == [123.45] * 3
    assert all(n["discount_pct"] == 0 for n in body["nights"])
    assert body["total"] == 370.35


def test_per_person_plan_prices_adults_and_children_and_infants_are_free(
    api: httpx.Client,
) -> None:
    """Spec, convention 9 (occupancy = adults + brackets); per-person plans (docs/sandbox.md)."""
    arrival = monday_of(api, 3)
    plan = ids(api, "/rate-plans")["PP"]
    brackets = ids(api, "/age-brackets")
    grid = cents(answered(quote(api, "SUP", arrival=arrival))["total"])
    one = cents(answered(quote(api, "SUP", arrival=arrival, rate_plan_id=plan, adults=1))["total"])
    two = cents(answered(quote(api, "SUP", arrival=arrival, rate_plan_id=plan, adults=2))["total"])
    family = cents(answered(quote(api, "SUP", arrival=arrival, rate_plan_id=plan, adults=2,
                            brackets={str(brackets["CHD"]): 1}))["total"])
    with_infant = cents(answered(quote(api, "SUP", arrival=arrival, rate_plan_id=plan, adults=2,
                                 brackets={str(brackets["CHD"]): 1,
                                           str(brackets["INF"]): 1}))["total"])
    assert one == half_up(grid * Decimal("0.55"))
    assert two == half_up(grid * Decimal("1.10"))
    assert family == half_up(grid * Decimal("1.375"))
    assert with_infant == family


def test_contract_plan_prices_by_id_although_hidden(api: httpx.Client) -> None:
    """docs/sandbox.md: contract plans are hidden from GET /rate-plans but priced by id."""
    night = answered(quote(api, arrival=monday_of(api, 3), rate_plan_id=7))["nights"][0]
    assert night["discount_pct"] == 12
    assert night["price"] == 132


def test_occupancy_above_max_pax_is_refused(api: httpx.Client) -> None:
    """Occupancy = adults + children counted as persons must fit the type's `max_pax`."""
    arrival = monday_of(api, 3)
    brackets = ids(api, "/age-brackets")
    max_pax = {t["code"]: t["max_pax"] for t in api.get("/room-types").json()["data"]}
    assert max_pax["STD"] == 2
    too_many = quote(api, arrival=arrival, adults=3)
    refusal(too_many, 422, "rule_violation")
    child = quote(api, arrival=arrival, adults=2, brackets={str(brackets["CHD"]): 1})
    assert child.status_code == 422
    infant = quote(api, arrival=arrival, adults=2, brackets={str(brackets["INF"]): 1})
    assert infant.status_code == 200  # infants do not count as persons


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"rate_plan_id": 999_999}, "rate_plan_id"),
        ({"rate_plan_id": 6}, "rate_plan_id"),  # seed: OLD, inactive
        ({"offer_id": 999_999}, "offer_id"),
        ({"brackets": {"999999": 1}}, "brackets"),
    ],
)
def test_unknown_or_inactive_references_are_rule_violations(
    api: httpx.Client, fields: dict[str, Any], field: str,
) -> None:
    """Spec: 422 possible; Errors: rule_violation names what refused."""
    response = quote(api, arrival=monday_of(api, 3), **fields)
    assert refusal(response, 422, "rule_violation")["field"] == field


def test_plan_of_another_property_is_refused(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, convention 8: records of another property do not exist for this key."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_other_property")) as c:
        other_plan = c.get("/rate-plans").json()["data"][0]["id"]
    response = quote(api, arrival=monday_of(api, 3), rate_plan_id=other_plan)
    assert response.status_code == 422


def test_unknown_room_type_is_404(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec: 404 possible; a room type of another property answers as if it did not exist."""
    arrival = monday_of(api, 3).isoformat()
    departure = (monday_of(api, 3) + timedelta(days=1)).isoformat()
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_other_property")) as c:
        other_type = c.get("/room-types").json()["data"][0]["id"]
    for type_id in (999_999, other_type):
        response = api.post("/quotes", json={"room_type_id": type_id, "arrival": arrival,
                                             "departure": departure})
        refusal(response, 404, "not_found")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"arrival": "2030-03-04", "departure": "2030-03-04"}, "departure"),
        ({"arrival": "2030-03-04", "departure": "2030-03-01"}, "departure"),
        ({"arrival": "2030-03-04"}, "departure"),
        ({"arrival": "2030-02-30", "departure": "2030-03-04"}, "arrival"),
        ({"arrival": "2030-03-04", "departure": "2030-03-05", "adults": 0}, "adults"),
        ({"arrival": "2030-03-04", "departure": "2030-03-05", "discount_pct": 101},
         "discount_pct"),
        ({"arrival": "2030-03-04", "departure": "2030-03-05", "price_override": -1},
         "price_override"),
        ({"arrival": "2030-03-04", "departure": "2030-03-05", "price_override": 1e30},
         "price_override"),  # docs/sandbox.md: at most 1,000,000 a night
    ],
)
def test_malformed_request_is_400_naming_the_field(api: httpx.Client, body: dict[str, Any],
                                                   field: str) -> None:
    """Spec: 400 possible; Errors: invalid_request (a parameter is missing or malformed)."""
    response = api.post("/quotes", json={"room_type_id": ids(api, "/room-types")["STD"], **body})
    assert refusal(response, 400, "invalid_request")["field"] == field


def test_nothing_is_booked(api: httpx.Client) -> None:
    """Spec, POST /quotes: nothing is booked."""
    arrival = date.fromisoformat(api.get("/property").json()["business_date"])
    params = {"from": arrival.isoformat(), "to": (arrival + timedelta(days=3)).isoformat()}
    before = api.get("/availability", params=params).json()
    for _ in range(3):
        answered(quote(api, "JSU", arrival=arrival, nights=3))
    assert api.get("/availability", params=params).json() == before


def test_virtual_room_type_is_not_priced(api: httpx.Client) -> None:
    """Spec, Property data: virtual types are excluded from the list; the sandbox does not sell
    them either (docs/sandbox.md: 422 rule_violation; seed: type 5 DUS is virtual)."""
    assert 5 not in ids(api, "/room-types").values()
    arrival = monday_of(api, 3)
    response = api.post("/quotes", json={"room_type_id": 5, "arrival": arrival.isoformat(),
                                         "departure": (arrival + timedelta(days=1)).isoformat(),
                                         "adults": 1})
    assert answered(response, 422)["error"]["field"] == "room_type_id"

"""The simulator's money (docs/sandbox.md, "Money"), read from the API of a simulated hotel.

One run of Rome (75 days after a 30-day warm-up); every figure below is recomputed here from
the folio lines the API serves: the spec's balance rule on every folio, the shares a
controller reads against the documented bands, the city ledger folios and their settlement,
deposits and prepayments against the stays they cover, rebates and reversals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from sandbox.db import open_db
from sandbox.http.server import serving_simulation
from sandbox.simulator.demand_book import plans_for
from sandbox.simulator.hotel import load_hotel
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database
from sandbox.simulator.terms import terms_for
from tests.conftest import auth, every_reservation

pytestmark = pytest.mark.slow

START = date(2025, 3, 1)
DAYS = 75
END = START + timedelta(days=DAYS)
PARAMS = replace(SimParams(), warmup_days=30)
METHODS = ("card", "cash", "bank transfer", "OTA virtual card")
ZERO = Decimal(0)


class Hotel:
    def __init__(self, api: httpx.Client, db_path: Path) -> None:
        self.api = api
        self.db_path = db_path
        self.reservations = list(every_reservation(api))
        self.folios: list[dict[str, Any]] = []
        self.reservation_of: dict[int, dict[str, Any]] = {}
        for reservation in self.reservations:
            if reservation["arrival"] >= END.isoformat():
                continue  # the book ahead: read where it matters (prepayments) below
            found = api.get(f"/reservations/{reservation['id']}/folios").json()["data"]
            for folio in found:
                self.reservation_of[folio["id"]] = reservation
            self.folios.extend(found)

    def lines(self, kind: str | None = None) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        for folio in self.folios:
            for line in folio["lines"]:
                if kind is None or line["type"] == kind:
                    yield folio, line


@pytest.fixture(scope="module")
def hotel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hotel]:
    folder = tmp_path_factory.mktemp("money")
    db_path = folder / "hotel.sqlite"
    report = simulate_database(str(db_path), days=DAYS, seed=31, start=START, params=PARAMS)
    assert report.failures == {}
    with serving_simulation(db_path) as server, httpx.Client(
            base_url=server.base_url, headers=auth(), timeout=60) as api:
        yield Hotel(api, db_path)


def _money(value: Any) -> Decimal:
    return Decimal(str(value))


def test_every_folio_balance_is_charges_less_payments(hotel: Hotel) -> None:
    """Spec, Folio: charges, payments, balance; charges are the lines that are not payments."""
    assert len(hotel.folios) > 2000
    for folio in hotel.folios:
        charges = sum((_money(line["total"]) for line in folio["lines"]
                       if line["type"] != "payment"), ZERO)
        payments = sum((_money(line["total"]) for line in folio["lines"]
                        if line["type"] == "payment"), ZERO)
        assert (_money(folio["charges"]), _money(folio["payments"])) == (charges, payments)
        assert _money(folio["balance"]) == charges - payments, folio["id"]
        if folio["status"] == "closed":
            assert charges == payments, folio["id"]
            assert folio["document"], folio["id"]


def _method(description: str) -> str | None:
    head, _, method = description.partition(": ")
    if head in ("Payment", "Prepayment", "Deposit", "Refund", "No-show fee"):
        return method
    return None


def test_payment_lines_name_a_method_and_transfers_pair_up(hotel: Hotel) -> None:
    """Every payment line is "<what>: <method>" or one side of a transfer; each transfer's
    two lines are of the same reservation and amount, so they add up to nothing."""
    outs: dict[int, Decimal] = {}
    ins: dict[int, Decimal] = {}
    for folio, line in hotel.lines("payment"):
        description = line["description"]
        if description.startswith("Transfer to "):
            target = int(description.rsplit("(folio ", 1)[1].rstrip(")"))
            outs[target] = _money(line["total"])
            assert hotel.reservation_of[target] is hotel.reservation_of[folio["id"]]
        elif description.startswith("Transfer from folio "):
            ins[folio["id"]] = -_money(line["total"])
        else:
            assert _method(description) in METHODS, description
    assert outs
    assert outs == ins


def _received(hotel: Hotel) -> Counter[str]:
    """Money received by method, net of refunds (transfers are not money received)."""
    by_method: Counter[str] = Counter()
    for _, line in hotel.lines("payment"):
        method = _method(line["description"])
        if method is not None:
            by_method[method] += _money(line["total"])  # type: ignore[assignment]
    return by_method


def test_payments_by_method_fall_in_the_documented_bands(hotel: Hotel) -> None:
    """docs/sandbox.md, Money: shares of the money received, by value."""
    received = _received(hotel)
    total = sum(received.values())
    share = {method: received[method] / total for method in METHODS}
    assert Decimal("0.50") <= share["card"] <= Decimal("0.75"), share
    assert Decimal("0.12") <= share["OTA virtual card"] <= Decimal("0.30"), share
    assert Decimal("0.03") <= share["cash"] <= Decimal("0.12"), share
    assert Decimal("0.05") <= share["bank transfer"] <= Decimal("0.25"), share


def _stays_lived(hotel: Hotel) -> list[dict[str, Any]]:
    return [room for r in hotel.reservations for room in r["rooms"]
            if room["status"] in ("checked_in", "checked_out")
            and START.isoformat() <= room["arrival"] < END.isoformat()]


def test_complimentary_and_house_use_rooms(hotel: Hotel) -> None:
    """Comp and house-use room nights as a share of room nights lived in, at no price."""
    nights: Counter[str] = Counter()
    for stay in _stays_lived(hotel):
        code = (stay.get("rate_plan") or {}).get("code", "")
        nights[code] += stay["nights"]
        if code in ("COMP", "HOUSE"):
            assert _money(stay["total"]) == ZERO
    total = sum(nights.values())
    assert Decimal("0.003") <= Decimal(nights["COMP"]) / total <= Decimal("0.02"), nights
    assert Decimal(nights["HOUSE"]) / total <= Decimal("0.005"), nights


def test_walk_ins_pay_more_cash_than_the_others(hotel: Hotel) -> None:
    cash: Counter[bool] = Counter()
    paid: Counter[bool] = Counter()
    for folio, line in hotel.lines("payment"):
        method = _method(line["description"])
        if line["description"].startswith("Payment: ") and method is not None:
            walk_in = hotel.reservation_of[folio["id"]]["channel"] == "walk_in"
            paid[walk_in] += 1
            cash[walk_in] += method == "cash"
    assert paid[True] > 20
    assert cash[True] / paid[True] > 2 * cash[False] / paid[False]


def test_city_ledger_folios_are_held_by_accounts_and_settled_after_their_terms(
        hotel: Hotel) -> None:
    """A city ledger folio is held by a company or agency, has no room line of its own, is
    suspended while it owes and closed (document issued) once the bank transfer came."""
    ar = [f for f in hotel.folios if f["description"].startswith("City ledger: ")]
    assert len(ar) > 100
    kinds = set()
    waited = []
    charges = ZERO
    for folio in ar:
        holder = hotel.api.get(f"/guests/{folio['guest_id']}").json()
        kinds.add(holder["kind"])
        assert folio["description"] == f"City ledger: {holder['display_name']}"
        assert all(line["type"] == "payment" for line in folio["lines"])
        transferred = -_money(folio["lines"][0]["total"])
        assert folio["lines"][0]["description"].startswith("Transfer from folio ")
        charges += transferred
        if folio["status"] == "suspended":
            assert _money(folio["balance"]) == transferred > 0
        else:
            assert folio["status"] == "closed"
            assert folio["document"]
            paid = folio["lines"][1]
            assert (paid["description"], _money(paid["total"])) == (
                "Payment: bank transfer", transferred)
            waited.append((date.fromisoformat(paid["posted_on"])
                           - date.fromisoformat(folio["lines"][0]["posted_on"])).days)
    assert kinds == {"company", "agency"}
    assert len(waited) > 30
    assert 20 <= sorted(waited)[len(waited) // 2] <= 50
    revenue = sum((_money(line["total"]) for _, line in hotel.lines("charge")), ZERO)
    assert Decimal("0.05") <= charges / revenue <= Decimal("0.25")


def test_departed_balances_stay_open_until_collected(hotel: Hotel) -> None:
    left = [f for f in hotel.folios if f["description"].startswith("Departed balance: ")]
    assert left
    for folio in left:
        assert folio["status"] in ("suspended", "closed")
        assert (folio["status"] == "suspended") == (_money(folio["balance"]) > 0)
        assert hotel.reservation_of[folio["id"]]["status"] == "checked_out"


def test_prepayments_cover_the_stay_and_group_deposits_a_fifth_to_a_third(
        hotel: Hotel) -> None:
    """A non-refundable stay is prepaid in full when booked; a group room's deposit is
    20-30% of its stay (read from the book ahead, where nothing else is posted yet)."""
    seen = Counter[str]()
    whole = 0
    for reservation in hotel.reservations:
        if reservation["arrival"] < (END + timedelta(days=30)).isoformat() or \
                reservation["status"] != "confirmed":
            continue
        if seen["prepaid"] > 40 and seen["group"] > 40:
            break
        detail = hotel.api.get(f"/reservations/{reservation['id']}").json()
        folios = hotel.api.get(f"/reservations/{reservation['id']}/folios").json()["data"]
        for folio, room in zip(folios, sorted(detail["rooms"], key=lambda r: r["id"]),
                               strict=True):
            if not folio["lines"] or room["status"] != "confirmed":
                continue
            (line,) = folio["lines"]
            share = _money(line["total"]) / _money(room["total"])
            if line["description"].startswith("Prepayment: "):
                assert room["rate_plan"]["code"] == "NREF"
                seen["prepaid"] += 1
                whole += share == 1  # not after a change of dates
            else:
                assert line["description"] == "Deposit: bank transfer"
                assert reservation["group_name"]
                assert Decimal("0.19") <= share <= Decimal("0.31"), share
                seen["group"] += 1
    assert seen["prepaid"] > 20, seen
    assert seen["group"] > 5, seen
    assert whole >= 0.85 * seen["prepaid"]


def test_rebates_and_reversals_are_negative_lines(hotel: Hotel) -> None:
    rebates = [line for _, line in hotel.lines("charge")
               if line["description"].startswith("Rebate: ")]
    reversals = [line for _, line in hotel.lines("charge") if line["reversal_of"] is not None]
    assert rebates
    assert reversals
    assert all(_money(line["total"]) < 0 and line["service_item_id"] is None for line in rebates)
    by_id = {line["id"]: line for _, line in hotel.lines("charge")}
    for line in reversals:
        original = by_id[line["reversal_of"]]
        assert _money(line["total"]) == -_money(original["total"])
        assert line["service_item_id"] == original["service_item_id"]


def test_terms_are_the_same_for_a_seed_and_change_with_it(hotel: Hotel) -> None:
    """Determinism per seed of who pays how (the whole database: test_simulator.py)."""
    conn = open_db(str(hotel.db_path))
    profile = load_hotel(conn, 1).profile
    conn.close()
    plans = plans_for(PARAMS.demand, profile, 31, START, START + timedelta(days=20))
    one = [terms_for(plan, PARAMS.money, 31, 1) for plan in plans]
    assert one == [terms_for(plan, PARAMS.money, 31, 1) for plan in plans]
    assert one != [terms_for(plan, PARAMS.money, 32, 1) for plan in plans]

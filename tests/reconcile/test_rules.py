"""Each rule of the reconciliation on hand-made stays (docs/reconciliation.md, Rules)."""

from __future__ import annotations

from decimal import Decimal

import polars as pl

from pipelines.recon.logic import (
    BreakfastRule,
    CityTaxPeriod,
    CityTaxRule,
    PropertyRules,
    RoomNightsRule,
    charge_key,
    expected_charges,
    idempotency_key,
    load_rules,
)
from pipelines.recon.logic.rules import breakfast, city_tax, room_nights

from .builders import BRACKETS, CHD, INF, ITEMS, TEEN, D, ledger, rows_of, stays

FAR = (D("2020-01-01"), D("2030-12-31"))


def test_city_tax_worked_example_of_domain_md() -> None:
    """domain.md, City tax: 2 adults + children aged 8 and 12, 12 nights, cap 10:
    3 taxable persons x 10 nights x 7.50 = 225 (children up to 11 exempt here)."""
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-13"), "brackets": f'{{"{CHD}":1,"{TEEN}":1}}'})
    got = city_tax(stay, ITEMS, BRACKETS, CityTaxRule(), *FAR).collect()
    assert got.height == 10
    assert got["business_date"].min() == D("2025-05-01")
    assert got["business_date"].max() == D("2025-05-10")
    assert set(got["quantity_milli"]) == {3000}
    assert set(got["unit_cents"]) == {750}
    assert got["expected_cents"].sum() == 22500
    assert set(got["item_id"]) == {8}
    assert set(got["source_ref"]) == {"rule:city_tax"}


def test_city_tax_configured_amount_cap_and_exempt_age() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-04"), "adults": 1, "brackets": f'{{"{CHD}":2}}'})
    rule = CityTaxRule(amount_per_person_night=Decimal("7.00"), nights_cap=2,
                       exempt_below_age=11)
    got = city_tax(stay, ITEMS, BRACKETS, rule, *FAR).collect()
    # CHD (3-11) is not wholly below 11: the two children pay; only two nights are taxed.
    assert rows_of(got, "business_date", "quantity_milli", "expected_cents") == [
        (D("2025-05-01"), 3000, 2100), (D("2025-05-02"), 3000, 2100)]


def _city(name: str, stars: str = "4") -> CityTaxRule:
    return load_rules().for_property("ANY", name, stars).city_tax


def test_florence_taxes_seven_nights_of_a_ten_night_stay() -> None:
    """domain.md, City tax: Florence caps at 7 nights. 2 adults, 10 nights from 2025-05-01
    at a 4-star hotel: nights 05-01 to 05-07 taxed, 2 x 7.00 = 14.00 each, 98.00 in all;
    nights 8 to 10 (05-08 to 05-10) owe nothing."""
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-11")})
    got = city_tax(stay, ITEMS, BRACKETS, _city("Firenze"), *FAR).collect()
    assert sorted(got["business_date"]) == [D(f"2025-05-0{d}") for d in range(1, 8)]
    assert set(got["expected_cents"]) == {1400}
    assert got["expected_cents"].sum() == 9800
    rome = city_tax(stay, ITEMS, BRACKETS, _city("Roma"), *FAR).collect()
    assert rome.height == 10  # Rome's cap is 10: all ten nights, 2 x 7.50


def test_rome_taxes_a_child_of_eleven_and_exempts_one_of_ten() -> None:
    """Rome exempts children up to 10. Brackets as a Rome hotel keeps them: 3-10 and 11-17.
    1 adult + a child of 11 (bracket 11-17): 2 taxed x 7.50 = 15.00. 1 adult + a child of
    10 (bracket 3-10): 1 x 7.50. Florence (under 12 exempt) with brackets 3-11 and 12-17:
    a child of 11 is exempt."""
    rome_brackets = pl.DataFrame({"property_id": [1, 1, 1], "age_bracket_id": [1, 2, 3],
                                  "age_to": [2, 10, 17]})
    rows = stays(
        {"reservation_room_id": 1, "arrival": D("2025-05-01"), "departure": D("2025-05-02"),
         "adults": 1, "brackets": '{"3":1}'},
        {"reservation_room_id": 2, "arrival": D("2025-05-01"), "departure": D("2025-05-02"),
         "adults": 1, "brackets": '{"2":1}'})
    got = city_tax(rows, ITEMS, rome_brackets, _city("Roma"), *FAR).collect()
    assert rows_of(got, "reservation_room_id", "quantity_milli", "expected_cents") == [
        (1, 2000, 1500), (2, 1000, 750)]
    # With the sandbox's brackets (CHD 3-11), a child of 11 is in CHD: Rome taxes it.
    chd = stays({"reservation_room_id": 3, "arrival": D("2025-05-01"),
                 "departure": D("2025-05-02"), "adults": 1, "brackets": f'{{"{CHD}":1}}'})
    assert city_tax(chd, ITEMS, BRACKETS, _city("Roma"), *FAR).collect()[
        "quantity_milli"].to_list() == [2000]
    assert city_tax(chd, ITEMS, BRACKETS, _city("Firenze"), *FAR).collect()[
        "quantity_milli"].to_list() == [1000]


def test_a_rate_change_applies_from_the_night_it_takes_effect() -> None:
    """Two periods: 7.50 from 2023-10-01, 8.00 (and a cap of 3) from 2025-05-03. A stay of
    5 nights from 2025-05-01, 1 adult: 05-01, 05-02 at 7.50; 05-03 (night index 2 < 3) at
    8.00; 05-04 and 05-05 are nights 4 and 5 of the stay, past the new cap of 3. Nights before
    the first period owe nothing: a stay of 2023-09-30 pays only its night of 10-01."""
    rule = CityTaxRule(periods=(
        CityTaxPeriod(valid_from=D("2023-10-01"), amount_per_person_night=Decimal("7.50"),
                      nights_cap=10, exempt_below_age=11),
        CityTaxPeriod(valid_from=D("2025-05-03"), amount_per_person_night=Decimal("8.00"),
                      nights_cap=3, exempt_below_age=11)))
    rows = stays(
        {"reservation_room_id": 1, "arrival": D("2025-05-01"), "departure": D("2025-05-06"),
         "adults": 1},
        {"reservation_room_id": 2, "arrival": D("2023-09-30"), "departure": D("2023-10-02"),
         "adults": 1})
    got = city_tax(rows, ITEMS, BRACKETS, rule, *FAR).collect()
    assert sorted(rows_of(got, "reservation_room_id", "business_date", "expected_cents")) == [
        (1, D("2025-05-01"), 750), (1, D("2025-05-02"), 750), (1, D("2025-05-03"), 800),
        (2, D("2023-10-01"), 750)]


def test_city_tax_only_lived_nights_inside_the_dates() -> None:
    rows = stays(
        {"reservation_room_id": 1, "arrival": D("2025-05-01"), "departure": D("2025-05-05"),
         "status": "checked_in"},
        {"reservation_room_id": 2, "arrival": D("2025-05-01"), "departure": D("2025-05-05"),
         "status": "cancelled"},
        {"reservation_room_id": 3, "arrival": D("2025-05-01"), "departure": D("2025-05-05"),
         "status": "confirmed"},
    )
    got = city_tax(rows, ITEMS, BRACKETS, CityTaxRule(), D("2025-05-02"),
                   D("2025-05-03")).collect()
    assert rows_of(got, "reservation_room_id", "business_date") == [
        (1, D("2025-05-02")), (1, D("2025-05-03"))]


def test_city_tax_unknown_bracket_counts_and_infants_are_exempt() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-02"), "brackets": f'{{"{INF}":1,"99":1}}'})
    got = city_tax(stay, ITEMS, BRACKETS, CityTaxRule(), *FAR).collect()
    assert got["quantity_milli"].to_list() == [3000]


def test_city_tax_off_and_price_from_the_item() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-02")})
    assert city_tax(stay, ITEMS, BRACKETS, CityTaxRule(enabled=False), *FAR).collect().is_empty()
    got = city_tax(stay, ITEMS, BRACKETS, CityTaxRule(), *FAR).collect()
    assert got["expected_cents"].to_list() == [1500]  # 2 x the item's 7.50


def test_city_tax_item_missing_leaves_the_item_unknown() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-02")})
    got = city_tax(stay, ITEMS, BRACKETS, CityTaxRule(item_code="TASSA"), *FAR).collect()
    assert got["item_id"].to_list() == [None]
    assert got["unit_cents"].to_list() == [None]


def test_breakfast_mornings_after_each_night_but_departure() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-04"), "rate_plan_code": "BB",
                  "brackets": f'{{"{INF}":1,"{CHD}":1}}'},
                 {"reservation_room_id": 2, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-04"), "rate_plan_code": "BAR"})
    got = breakfast(stay, ITEMS, BRACKETS, BreakfastRule(), *FAR).collect()
    # Infants eat free: 2 adults + 1 child; mornings of 05-02 and 05-03, not the departure.
    assert rows_of(got, "reservation_room_id", "business_date", "quantity_milli",
                   "expected_cents") == [(1, D("2025-05-02"), 3000, 4500),
                                         (1, D("2025-05-03"), 3000, 4500)]
    with_departure = breakfast(stay, ITEMS, BRACKETS, BreakfastRule(departure_morning=True),
                               *FAR).collect()
    assert with_departure["business_date"].max() == D("2025-05-04")
    other_plans = breakfast(stay, ITEMS, BRACKETS, BreakfastRule(rate_plans=("BAR",),
                                                                  unit_price=Decimal("12.00")),
                            *FAR).collect()
    assert rows_of(other_plans, "reservation_room_id", "expected_cents") == [
        (2, 2400), (2, 2400)]


def test_room_nights_split_evenly_rounding_on_the_last_night() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-04"), "total": Decimal("100.00")})
    got = room_nights(stay, ITEMS, RoomNightsRule(), *FAR).collect()
    assert rows_of(got, "business_date", "quantity_milli", "expected_cents") == [
        (D("2025-05-01"), 1000, 3333), (D("2025-05-02"), 1000, 3333),
        (D("2025-05-03"), 1000, 3334)]
    assert set(got["compare_amount"]) == {False}
    assert set(got["repost"]) == {False}
    assert set(room_nights(stay, ITEMS, RoomNightsRule(repost=True), *FAR)
               .collect()["repost"]) == {True}


def test_ledger_breakfast_replaces_the_package_rule_for_its_morning() -> None:
    stay = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-04"), "rate_plan_code": "BB"})
    pos = ledger({"ticket_id": "T-000001", "business_date": D("2025-05-02"),
                  "reservation_room_id": 1, "item_code": "BRK", "quantity": 2,
                  "unit_price": "15.00"})
    got = expected_charges(stays=stay, items=ITEMS, age_brackets=BRACKETS, ledger=pos,
                           rules=PropertyRules(), first=D("2025-05-01"), last=D("2025-05-03"))
    brk = got.filter(pl.col("item_code") == "BRK")
    assert rows_of(brk, "business_date", "source_ref") == [
        (D("2025-05-02"), "T-000001/1"), (D("2025-05-03"), "rule:breakfast")]
    assert got.filter(pl.col("item_code") == "CTAX").height == 3
    assert got.filter(pl.col("item_code") == "ROOM").height == 3


def test_ledger_lines_without_room_entry_or_outside_the_dates_are_not_expected() -> None:
    pos = ledger(
        {"ticket_id": "T-000001", "business_date": D("2025-05-02"), "reservation_room_id": 1,
         "item_code": "BAR", "quantity": 2, "unit_price": "8.00"},
        {"ticket_id": "T-000002", "business_date": D("2025-05-05"), "reservation_room_id": 1,
         "item_code": "BAR", "quantity": 1, "unit_price": "8.00"},
    ).vstack(ledger({"ticket_id": "T-000003", "business_date": D("2025-05-02"),
                     "reservation_room_id": 1, "item_code": "BAR", "unit_price": "8.00"})
             .with_columns(reservation_room_id=pl.lit(None, dtype=pl.Int64)))
    got = expected_charges(stays=stays(), items=ITEMS, age_brackets=BRACKETS, ledger=pos,
                           rules=PropertyRules(), first=D("2025-05-01"), last=D("2025-05-03"))
    assert rows_of(got, "source_ref", "description", "quantity_milli", "expected_cents") == [
        ("T-000001/1", "Bar [T-000001/1]", 2000, 1600)]


def test_keys_are_stable_and_name_what_the_charge_means() -> None:
    stay = stays({"reservation_room_id": 7, "arrival": D("2025-05-01"),
                  "departure": D("2025-05-02")})
    run = [expected_charges(stays=stay, items=ITEMS, age_brackets=BRACKETS, ledger=ledger(),
                            rules=PropertyRules(), first=D("2025-05-01"), last=D("2025-05-01"))
           for _ in range(2)]
    assert run[0].equals(run[1])
    ctax = run[0].filter(pl.col("item_code") == "CTAX").row(0, named=True)
    assert ctax["key"] == "1|7|2025-05-01|CTAX|rule:city_tax"
    assert ctax["key"] == charge_key(1, 7, D("2025-05-01"), "CTAX", "rule:city_tax")
    assert ctax["idempotency_key"] == idempotency_key(ctax["key"])
    assert ctax["idempotency_key"].startswith("recon:")
    assert len(ctax["idempotency_key"]) == 70
    assert run[0]["key"].n_unique() == run[0].height

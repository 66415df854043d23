"""Matching expected charges to folio lines and the statuses (docs/reconciliation.md)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import polars as pl

from pipelines.recon.logic import (
    PropertyRules,
    RoomNightsRule,
    postable,
    reconcile,
    summarize,
)

from .builders import BRACKETS, ITEMS, D, folios, ledger, lines, stays

DAY = D("2025-05-02")
NO_RULES = PropertyRules.model_validate({
    "city_tax": {"enabled": False}, "breakfast": {"enabled": False},
    "room_nights": {"enabled": False}})
STAY = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
              "departure": D("2025-05-04"), "status": "checked_in"})
OPEN = folios({"folio_id": 5, "reservation_id": 10})
NO_FOLIO_OF_ITS_OWN = ("no open folio for the room entry (none of the reservation's folios "
                       "is known to be its own)")


def bar(ticket: str, quantity: int = 2, day: date = DAY) -> dict[str, Any]:
    return {"ticket_id": ticket, "business_date": day, "reservation_room_id": 1,
            "item_code": "BAR", "quantity": quantity, "unit_price": "8.00"}


def run(pos: pl.DataFrame, folio_lines: pl.DataFrame, *, stay: pl.DataFrame = STAY,
        folio: pl.DataFrame = OPEN, rules: PropertyRules = NO_RULES) -> pl.DataFrame:
    return reconcile(stays=stay, items=ITEMS, age_brackets=BRACKETS, ledger=pos,
                     folios=folio, lines=folio_lines, rules=rules, first=DAY, last=DAY)


def status_of(results: pl.DataFrame) -> dict[str, str]:
    return dict(zip(results["source_ref"], results["status"], strict=True))


def test_pos_line_found_by_ticket_reference_even_without_room_entry() -> None:
    got = run(ledger(bar("T-000001")), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_id": 10, "item": "BAR",
         "posted_on": DAY, "quantity": 2, "total": "16.00",
         "description": "Bar [T-000001/1]"}))
    row = got.row(0, named=True)
    assert row["status"] == "matched"
    assert row["folio_line_id"] == 70
    assert row["folio_id"] == 5
    assert row["reason"] is None


def test_ticket_reference_with_another_amount_is_a_mismatch_with_its_reason() -> None:
    got = run(ledger(bar("T-000001")), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "BAR",
         "posted_on": DAY, "quantity": 2, "total": "14.00",
         "description": "Bar [T-000001/1]"}))
    row = got.row(0, named=True)
    assert row["status"] == "amount_mismatch"
    assert row["posted_cents"] == 1400
    assert row["reason"] == ("line 70 has quantity 2 and amount 14.00; expected quantity 2 "
                             "and amount 16.00")


def test_one_line_answers_one_charge_only() -> None:
    """Two identical tickets and one line without a reference: one matched, one missing."""
    got = run(ledger(bar("T-000001"), bar("T-000002")), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "BAR",
         "posted_on": DAY, "quantity": 2, "total": "16.00", "description": "Bar"}))
    assert sorted(got["status"]) == ["matched", "missing"]
    assert got["folio_line_id"].drop_nulls().to_list() == [70]


def test_line_of_another_date_room_or_item_does_not_answer() -> None:
    got = run(ledger(bar("T-000001")), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "BAR",
         "posted_on": D("2025-05-03"), "quantity": 2, "total": "16.00"},
        {"folio_line_id": 71, "folio_id": 5, "reservation_room_id": 2, "item": "BAR",
         "posted_on": DAY, "quantity": 2, "total": "16.00"},
        {"folio_line_id": 72, "folio_id": 5, "reservation_room_id": 1, "item": "RST",
         "posted_on": DAY, "quantity": 2, "total": "16.00"}))
    row = got.row(0, named=True)
    assert row["status"] == "missing"
    assert row["target_folio_id"] == 5


def test_reversed_line_is_gone_and_a_partial_reversal_is_a_mismatch() -> None:
    charge = {"folio_id": 5, "reservation_room_id": 1, "item": "BAR", "posted_on": DAY,
              "quantity": 2, "total": "16.00"}
    full = run(ledger(bar("T-000001")), lines(
        {**charge, "folio_line_id": 70},
        {**charge, "folio_line_id": 71, "total": "-16.00", "reversal_of": 70}))
    assert status_of(full) == {"T-000001/1": "missing"}
    partial = run(ledger(bar("T-000001")), lines(
        {**charge, "folio_line_id": 70},
        {**charge, "folio_line_id": 71, "total": "-8.00", "reversal_of": 70}))
    assert status_of(partial) == {"T-000001/1": "amount_mismatch"}
    assert partial["posted_cents"].to_list() == [800]


def test_payments_answer_nothing() -> None:
    got = run(ledger(bar("T-000001")), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "type": "payment",
         "posted_on": DAY, "quantity": 1, "total": "16.00",
         "description": "Card payment [T-000001/1]"}))
    assert status_of(got) == {"T-000001/1": "missing"}


def test_city_tax_matched_on_item_date_quantity_and_amount() -> None:
    rules = PropertyRules.model_validate({"breakfast": {"enabled": False},
                                          "room_nights": {"enabled": False}})
    got = run(ledger(), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "CTAX",
         "posted_on": DAY, "quantity": 2, "total": "15.00",
         "description": "City tax night 2025-05-02"}), rules=rules)
    assert status_of(got) == {"rule:city_tax": "matched"}
    wrong = run(ledger(), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "CTAX",
         "posted_on": DAY, "quantity": 1, "total": "7.50"}), rules=rules)
    assert status_of(wrong) == {"rule:city_tax": "amount_mismatch"}


def test_room_night_amount_is_not_compared_and_a_missing_one_is_reported_only() -> None:
    rules = PropertyRules.model_validate({"city_tax": {"enabled": False},
                                          "breakfast": {"enabled": False}})
    posted = run(ledger(), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "ROOM",
         "posted_on": DAY, "quantity": 1, "total": "123.45"}), rules=rules)
    assert status_of(posted) == {"rule:room_nights": "matched"}
    missing = run(ledger(), lines(), rules=rules)
    row = missing.row(0, named=True)
    assert row["status"] == "missing"
    assert row["reason"].startswith("reported only")
    assert postable(missing).is_empty()
    reposting = rules.model_copy(update={"room_nights": RoomNightsRule(repost=True)})
    assert postable(run(ledger(), lines(), rules=reposting)).height == 1


def test_closed_or_suspended_folio_blocks_with_the_reason() -> None:
    closed = folios({"folio_id": 5, "reservation_id": 10, "status": "closed"},
                    {"folio_id": 6, "reservation_id": 10, "status": "suspended"})
    got = run(ledger(bar("T-000001")), lines(), folio=closed)
    row = got.row(0, named=True)
    assert row["status"] == "blocked"
    assert row["reason"] == ("no open folio for the room entry "
                             "(folio 5 closed, folio 6 suspended)")
    assert postable(got).is_empty()
    none = run(ledger(bar("T-000001")), lines(), folio=folios())
    assert none["reason"].to_list() == [NO_FOLIO_OF_ITS_OWN]


def test_a_receivable_without_charges_is_not_the_room_entrys_folio() -> None:
    """A single-room reservation whose guest folio 5 (a night charged) is closed and whose
    balance went to a city ledger folio 6 (held by a company, suspended, no charge line:
    docs/sandbox.md, Money): a late bar ticket is blocked by the closed folio 5, not by 6."""
    held = folios({"folio_id": 5, "reservation_id": 10, "status": "closed"},
                  {"folio_id": 6, "reservation_id": 10, "status": "suspended"})
    night = lines({"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1,
                   "item": "ROOM", "posted_on": D("2025-05-01"), "total": "120.00",
                   "description": "Room 101 night 2025-05-01"})
    row = run(ledger(bar("T-000001")), night, folio=held).row(0, named=True)
    assert row["status"] == "blocked"
    assert row["reason_code"] == "folio_closed"
    assert row["reason"] == "no open folio for the room entry (folio 5 closed)"


def test_cancelled_room_unknown_room_and_unknown_item_are_blocked() -> None:
    cancelled = stays({"reservation_room_id": 1, "arrival": D("2025-05-01"),
                       "departure": D("2025-05-04"), "status": "cancelled"})
    got = run(ledger(bar("T-000001")), lines(), stay=cancelled)
    assert got["reason"].to_list() == ["the reservation room is cancelled"]
    unknown = run(ledger(bar("T-000001")), lines(), stay=stays())
    assert unknown["reason"].to_list() == [
        "room entry 1 is not in the warehouse (sync reservations)"]
    odd = ledger({**bar("T-000001"), "item_code": "SPA", "unit_price": "50.00"})
    item = run(odd, lines())
    assert item["status"].to_list() == ["blocked"]
    assert item["reason"].to_list() == ["item SPA is not an item of the property (GET /items)"]


def test_open_folio_of_the_room_entry_in_a_reservation_of_several_rooms() -> None:
    two = stays(
        {"reservation_room_id": 1, "reservation_id": 10, "arrival": D("2025-05-01"),
         "departure": D("2025-05-04"), "status": "checked_in"},
        {"reservation_room_id": 2, "reservation_id": 10, "arrival": D("2025-05-01"),
         "departure": D("2025-05-04"), "status": "checked_in", "room_code": "102"})
    both = folios({"folio_id": 5, "reservation_id": 10}, {"folio_id": 6, "reservation_id": 10})
    room_lines = lines(
        {"folio_line_id": 60, "folio_id": 6, "reservation_room_id": 1, "item": "ROOM",
         "posted_on": D("2025-05-01"), "total": "100.00"},
        {"folio_line_id": 50, "folio_id": 5, "reservation_room_id": 2, "item": "ROOM",
         "posted_on": D("2025-05-01"), "total": "100.00"})
    got = run(ledger(bar("T-000001")), room_lines, stay=two, folio=both)
    assert got["target_folio_id"].to_list() == [6]


def test_summary_counts_and_amounts_per_status() -> None:
    got = run(ledger(bar("T-000001"), bar("T-000002", quantity=1)), lines(
        {"folio_line_id": 70, "folio_id": 5, "reservation_room_id": 1, "item": "BAR",
         "posted_on": DAY, "quantity": 2, "total": "16.00",
         "description": "Bar [T-000001/1]"}))
    summary = summarize(got)
    assert summary["matched"] == (1, 1600)
    assert summary["missing"] == (1, 800)
    assert summary["posted"] == (0, 0)
    assert Decimal(sum(c for _, c in summary.values())) == 2400


def test_line_without_room_entry_counts_for_the_only_room_of_its_reservation() -> None:
    """A line whose room number no longer matches (a room move) or was empty is the only
    room entry's; in a reservation of several room entries it answers only by reference."""
    line = {"folio_line_id": 70, "folio_id": 5, "reservation_id": 10, "item": "BAR",
            "posted_on": DAY, "quantity": 2, "total": "16.00", "description": "Bar"}
    assert status_of(run(ledger(bar("T-000001")), lines(line))) == {"T-000001/1": "matched"}
    two = STAY.vstack(stays({"reservation_room_id": 2, "reservation_id": 10,
                             "arrival": D("2025-05-01"), "departure": D("2025-05-04")}))
    got = run(ledger(bar("T-000001")), lines(line), stay=two)
    # Unmatched, and folio 5 cannot be told to belong to room entry 1: a person decides.
    assert status_of(got) == {"T-000001/1": "blocked"}
    assert got["reason"].to_list() == [NO_FOLIO_OF_ITS_OWN]

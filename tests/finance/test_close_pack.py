"""`pmsw report close-pack` on a day built by hand (issue 48, item 2; docs/reconciliation.md,
Close pack): a tiny warehouse whose core tables hold six stays' folios as the sandbox's
cashier leaves them (docs/sandbox.md, Money), and every line of every section checked against
the figures computed here.

The property's business date is 2026-03-06: 2026-03-05 (D) is the last closed day. Prices
include VAT; net = gross / (1 + rate) rounded to the cent. The stays:

- R1 (folio 11, room 101): in house Mar 3-5, checks out on D; 110.00 a night (net 100.00) on
  Mar 3 and 4, breakfast 15.00 on Mar 4, parking 25.00 on D (22%: net 20.49, VAT 4.51). On D
  the room (220.00) goes to ACME's account, folio 12 (`City ledger: ACME S.p.A.`), and the
  guest pays the extras, 40.00 by card: folio 11 ends at 0, folio 12 at 220.00.
- R2 (folio 21, room 102): arrived Mar 4, in house; 132.00 a night (net 120.00), a card
  deposit of 132.00 on Mar 4; on D the night, breakfast 30.00 (net 27.27, VAT 2.73), a rebate
  of -13.20 (no item, 10%: net -12.00, VAT -1.20) and city tax 6.00 (0%): 154.80 owed.
- R3 (folio 31): arrives Mar 10; prepaid 300.00 by OTA virtual card on Mar 2, a 50.00
  deposit by bank transfer on D: -350.00, a deposit.
- R4 (folios 40, 41): left on Mar 2 owing its 80.00 night (moved to folio 41, `Departed
  balance`); paid by card on D.
- R5 (folios 50, 51): Sunway Tours' account took its 300.00 night on Feb 20; settled by
  bank transfer on D.
- R6 (folios 60, 61): Euroviaggi's account took 500.00 on Jan 20; still owed on D (44 days).

The POS ledger holds the tickets of the breakfasts and the parking (on their folios) and two
minibar tickets rung up after their folio was closed (R5's on Feb 19, R1's on D): the real
reconciliation (a dry run of Feb 1 to D, the POS tickets alone) leaves them on the worklist.
The marts of the tie-out (stay nights, revenue, fees, occupancy, mart.revenue_tieout) are
built by the real mart build over these core tables.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.marts import MartSettings, build_marts
from pipelines.recon import run_reconciliation
from pipelines.recon.logic import load_rules
from pipelines.warehouse import connect, writer
from tests.report_json import report_json

D = date(2026, 3, 5)
RUN = "hand-built"
AT = datetime(2026, 3, 6, 3, tzinfo=UTC)
ROOM, BRK, PARK, CTAX, MINI = 1, 2, 3, 4, 5


def day(month: int, dom: int) -> date:
    return date(2026, month, dom)


def utc(month: int, dom: int, hour: int = 0) -> datetime:
    return datetime(2026, month, dom, hour, tzinfo=UTC)


# folio_id, reservation_id, holder, description, status, issue date
FOLIOS = [
    (11, 101, "Anna Bianchi", "", "closed", D),
    (12, 101, "ACME S.p.A.", "City ledger: ACME S.p.A.", "suspended", None),
    (21, 102, "Marco Verdi", "", "open", None),
    (31, 103, "Sofia Neri", "", "open", None),
    (40, 104, "Anna Rossi", "", "closed", day(3, 2)),
    (41, 104, "Anna Rossi", "Departed balance: Anna Rossi", "closed", D),
    (50, 105, "Paul Smith", "", "closed", day(2, 20)),
    (51, 105, "Sunway Tours", "City ledger: Sunway Tours", "closed", D),
    (60, 106, "Hans Weber", "", "closed", day(1, 20)),
    (61, 106, "Euroviaggi Wholesale", "City ledger: Euroviaggi Wholesale", "suspended", None),
]
# folio_id, type, description, posted_on, item, tax_pct, total (= gross), net, room
LINES = [
    (11, "charge", "Accommodation", day(3, 3), ROOM, "10", "110.00", "100.00", "101"),
    (11, "charge", "Accommodation", day(3, 4), ROOM, "10", "110.00", "100.00", "101"),
    (11, "charge", "Breakfast [T-1/1]", day(3, 4), BRK, "10", "15.00", "13.64", "101"),
    (11, "charge", "Parking [T-2/1]", D, PARK, "22", "25.00", "20.49", "101"),
    (11, "payment", "Transfer to city ledger: ACME S.p.A. (folio 12)", D, None, "0", "220.00",
     "220.00", ""),
    (11, "payment", "Payment: card", D, None, "0", "40.00", "40.00", ""),
    (12, "payment", "Transfer from folio 11 (room 101)", D, None, "0", "-220.00", "-220.00",
     ""),
    (21, "charge", "Accommodation", day(3, 4), ROOM, "10", "132.00", "120.00", "102"),
    (21, "payment", "Deposit: card", day(3, 4), None, "0", "132.00", "132.00", ""),
    (21, "charge", "Accommodation", D, ROOM, "10", "132.00", "120.00", "102"),
    (21, "charge", "Breakfast [T-3/1]", D, BRK, "10", "30.00", "27.27", "102"),
    (21, "charge", "Rebate: goodwill (complaint)", D, None, "10", "-13.20", "-12.00", "102"),
    (21, "charge", "City tax", D, CTAX, "0", "6.00", "6.00", "102"),
    (31, "payment", "Prepayment: OTA virtual card", day(3, 2), None, "0", "300.00", "300.00",
     ""),
    (31, "payment", "Deposit: bank transfer", D, None, "0", "50.00", "50.00", ""),
    (40, "charge", "Accommodation", day(3, 1), ROOM, "10", "80.00", "72.73", "104"),
    (40, "payment", "Transfer to departed balance (folio 41)", day(3, 2), None, "0", "80.00",
     "80.00", ""),
    (41, "payment", "Transfer from folio 40 (room 104)", day(3, 2), None, "0", "-80.00",
     "-80.00", ""),
    (41, "payment", "Payment: card", D, None, "0", "80.00", "80.00", ""),
    (50, "charge", "Accommodation", day(2, 19), ROOM, "10", "300.00", "272.73", "105"),
    (50, "payment", "Transfer to city ledger: Sunway Tours (folio 51)", day(2, 20), None, "0",
     "300.00", "300.00", ""),
    (51, "payment", "Transfer from folio 50 (room 105)", day(2, 20), None, "0", "-300.00",
     "-300.00", ""),
    (51, "payment", "Payment: bank transfer", D, None, "0", "300.00", "300.00", ""),
    (60, "charge", "Accommodation", day(1, 19), ROOM, "10", "500.00", "454.55", "106"),
    (60, "payment", "Transfer to city ledger: Euroviaggi Wholesale (folio 61)", day(1, 20),
     None, "0", "500.00", "500.00", ""),
    (61, "payment", "Transfer from folio 60 (room 106)", day(1, 20), None, "0", "-500.00",
     "-500.00", ""),
]
# room entry (= reservation id * 10), status, arrival, departure, valid_from, valid_to
VERSIONS = [
    (101, "confirmed", day(3, 3), D, utc(2, 1), utc(3, 3, 12)),
    (101, "checked_in", day(3, 3), D, utc(3, 3, 12), utc(3, 5, 9)),
    (101, "checked_out", day(3, 3), D, utc(3, 5, 9), None),
    (102, "confirmed", day(3, 4), day(3, 7), utc(2, 1), utc(3, 4, 12)),
    (102, "checked_in", day(3, 4), day(3, 7), utc(3, 4, 12), None),
    (103, "confirmed", day(3, 10), day(3, 12), utc(2, 1), None),
    (104, "checked_out", day(3, 1), day(3, 2), utc(3, 2, 9), None),
    (105, "checked_out", day(2, 19), day(2, 20), utc(2, 20, 9), None),
    (106, "checked_out", day(1, 19), day(1, 20), utc(1, 20, 9), None),
]


# The rooms' current state (core.reservation_rooms: the last version above), with the room
# and the stay's total: reservation id, room, total.
STAYS = [(101, "101", "220.00"), (102, "102", "396.00"), (103, None, "350.00"),
         (104, "104", "80.00"), (105, "105", "300.00"), (106, "106", "500.00")]
# The POS's tickets (core.pos_ledger, the reconciliation's expected side): ticket, business
# date, reservation, room, item code, quantity, unit price. T-1 to T-3 reached their folios
# (the breakfasts and the parking above); T-8 and T-9 did not: each was rung up after its
# folio was closed (R5's minibar on Feb 19, the night before it left; R1's on D, after its
# check-out) and cannot be posted.
TICKETS = [("T-1", day(3, 4), 101, "101", "BRK", 1, "15.00"),
           ("T-2", D, 101, "101", "PARK", 1, "25.00"),
           ("T-3", D, 102, "102", "BRK", 1, "30.00"),
           ("T-8", day(2, 19), 105, "105", "MINI", 1, "4.50"),
           ("T-9", D, 101, "101", "MINI", 2, "4.50")]
# The rules the hand-built day is reconciled with: the POS tickets alone (the room nights
# and the city tax, which the stays here do not carry in full, left out).
POS_ONLY = ("default: {city_tax: {enabled: false}, breakfast: {enabled: false}, "
            "room_nights: {enabled: false}}")
REBILL = "bill the guest on a new folio (invoiced_separately) or write it off"
"""The worklist's action for a charge whose folio was closed (docs/reconciliation.md)."""
TIEOUT_MARTS = ["stay_nights", "revenue_daily", "room_fees", "occupancy_daily",
                "revenue_tieout"]


def build(path: Path) -> None:
    connect(path).close()
    with writer(path) as conn:
        conn.execute("INSERT INTO core.property (property_id, code, name, currency, timezone, "
                     "business_date, last_seen_run, fetched_at) VALUES (1, 'HAND01', 'Hand "
                     "Hotel', 'EUR', 'Europe/Rome', ?, ?, ?)", [day(3, 6), RUN, AT])
        for item_id, code, name, department, tax in (
                (ROOM, "ROOM", "Accommodation", "accommodation", "10"),
                (BRK, "BRK", "Breakfast", "food_beverage", "10"),
                (PARK, "PARK", "Parking", "other", "22"),
                (CTAX, "CTAX", "City tax", "city_tax", "0"),
                (MINI, "MINI", "Minibar", "food_beverage", "10")):
            conn.execute("INSERT INTO core.items (property_id, item_id, code, name, department, "
                         "kind, price, tax_pct, last_seen_run, fetched_at) VALUES "
                         "(1, ?, ?, ?, ?, 'service', 0, ?, ?, ?)",
                         [item_id, code, name, department, Decimal(tax), RUN, AT])
        for folio_id, reservation, holder, description, status, issued in FOLIOS:
            mine = [line for line in LINES if line[0] == folio_id]
            charges = sum((Decimal(x[6]) for x in mine if x[1] != "payment"), Decimal(0))
            payments = sum((Decimal(x[6]) for x in mine if x[1] == "payment"), Decimal(0))
            conn.execute(
                "INSERT INTO core.folios (property_id, folio_id, reservation_id, guest_name, "
                "description, status, document, issue_date, prices_include_vat, charges, "
                "payments, balance, last_seen_run, fetched_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, "
                "true, ?, ?, ?, ?, ?)",
                [folio_id, reservation, holder, description, status,
                 None if issued is None else f"2026/{folio_id:06d}", issued, charges, payments,
                 charges - payments, RUN, AT])
        for n, (folio_id, kind, text, posted, item, tax, total, net, room) in enumerate(
                LINES, start=1):
            reservation = next(f[1] for f in FOLIOS if f[0] == folio_id)
            conn.execute(
                "INSERT INTO core.folio_lines (property_id, folio_line_id, folio_id, "
                "reservation_id, reservation_room_id, type, description, posted_on, quantity, "
                "unit_price, discount, tax_pct, total, amount_gross, amount_net, room, "
                "service_item_id, last_seen_run, fetched_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, "
                "1, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)",
                [n, folio_id, reservation, reservation * 10 if room else None, kind, text,
                 posted, Decimal(total), Decimal(tax), Decimal(total), Decimal(total),
                 Decimal(net), room, item, RUN, AT])
        for n, (reservation, status, arrival, departure, start, end) in enumerate(VERSIONS):
            conn.execute(
                "INSERT INTO core.reservation_room_versions (property_id, reservation_room_id, "
                "reservation_id, valid_from, valid_to, version_hash, status, arrival, "
                "departure, nights, adults, brackets, children, room_type_id, room_type_code, "
                "room_code, total, reservation_type, created_at, first_seen_run) VALUES (1, ?, "
                "?, ?, ?, ?, ?, ?, ?, ?, 2, '[]', 0, 1, 'STD', ?, 0, 'individual', ?, ?)",
                [reservation * 10, reservation, start, end, f"v{n}", status, arrival,
                 departure, (departure - arrival).days,
                 next(room for r, room, _ in STAYS if r == reservation), utc(1, 1), RUN])
        for reservation, room, total in STAYS:
            status, arrival, departure, start = next(
                (v[1], v[2], v[3], v[4]) for v in reversed(VERSIONS) if v[0] == reservation)
            conn.execute(
                "INSERT INTO core.reservation_rooms (property_id, reservation_room_id, "
                "reservation_id, status, arrival, departure, nights, adults, brackets, "
                "children, room_type_id, room_type_code, room_id, room_code, discount_pct, "
                "total, updated_at, reservation_type, created_at, last_seen_run, fetched_at) "
                "VALUES (1, ?, ?, ?, ?, ?, ?, 2, '[]', 0, 1, 'STD', ?, ?, 0, ?, ?, "
                "'individual', ?, ?, ?)",
                [reservation * 10, reservation, status, arrival, departure,
                 (departure - arrival).days, None if room is None else int(room), room,
                 Decimal(total), start, utc(1, 1), RUN, AT])
        for room_id in (101, 102, 103, 104, 105, 106):
            conn.execute("INSERT INTO core.rooms (property_id, room_id, code, room_type_id, "
                         "extra_beds, housekeeping, sellable, last_seen_run, fetched_at) "
                         "VALUES (1, ?, ?, 1, 0, 'clean', true, ?, ?)",
                         [room_id, str(room_id), RUN, AT])
        for ticket, posted, reservation, room, code, quantity, price in TICKETS:
            conn.execute(
                "INSERT INTO core.pos_ledger (property_id, ticket_id, line, business_date, "
                "posted_at, reservation_id, reservation_room_id, room, item_code, quantity, "
                "unit_price, total, source_file) VALUES (1, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "'hand.csv')",
                [ticket, posted, utc(posted.month, posted.day, 20), reservation,
                 reservation * 10, room, code, quantity, Decimal(price),
                 quantity * Decimal(price)])
        build_marts(conn, 1, MartSettings(events=()), TIEOUT_MARTS)
    run_reconciliation(path, load_rules(text=POS_ONLY), first=day(2, 1), last=D)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("close-pack") / "hand.duckdb"
    build(path)
    return path


def pack(warehouse: Path, *args: str) -> dict[str, Any]:
    out: dict[str, Any] = report_json(warehouse, "close-pack", "--property", "HAND01",
                                      *args)["sections"]
    return out


def rows(section: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(r.values()) for r in section["rows"]]


def test_every_line_of_the_day(warehouse: Path) -> None:
    out = pack(warehouse, "--date", D.isoformat())
    assert list(out) == ["revenue", "vat", "payments", "roll_forward", "deposits",
                         "city_ledger", "tieout", "worklist"]
    # 1. charges posted on D: R2's night, breakfast, rebate and city tax, R1's parking.
    assert rows(out["revenue"]) == [
        ("accommodation", "ROOM", "Accommodation", 10, 1, 120, 12, 132),
        ("food_beverage", "BRK", "Breakfast", 10, 1, 27.27, 2.73, 30),
        ("other", "", "Rebate", 10, 1, -12, -1.2, -13.2),
        ("other", "PARK", "Parking", 22, 1, 20.49, 4.51, 25),
        ("city_tax", "CTAX", "City tax", 0, 1, 6, 0, 6)]
    # net 120 + 27.27 - 12 + 20.49 + 6 = 161.76; VAT 12 + 2.73 - 1.20 + 4.51 = 18.04
    assert out["revenue"]["total"] == {
        "department": "total charges (city tax included)", "item_code": "", "item": "",
        "vat_pct": "", "lines": 5, "net": 161.76, "vat": 18.04, "gross": 179.8}
    assert rows(out["vat"]) == [(0, 1, 6, 0, 6), (10, 3, 135.27, 13.53, 148.8),
                                (22, 1, 20.49, 4.51, 25)]
    # 2. money received on D: R1's extras 40 and R4's 80 by card, R3's deposit, Sunway's
    # settlement; the 220.00 moved to ACME is no money.
    assert rows(out["payments"]) == [
        ("bank transfer", "Deposit", "guest", 1, 50), ("bank transfer", "Payment", "city", 1, 300),
        ("card", "Payment", "guest", 2, 120)]
    assert out["payments"]["total"]["amount"] == 470
    # 3. end of Mar 4: guest 235.00 (folio 11) - 300.00 (R3) + 80.00 (R4) = 15.00; city
    # 300.00 + 500.00 = 800.00. Guest: 15 + 179.80 - 170 - 220 = -195.20 (R2 154.80, R3
    # -350); city: 800 - 300 + 220 = 720.00 (ACME 220, Euroviaggi 500).
    roll = {r[0].split(" (")[0]: r[1:] for r in rows(out["roll_forward"])}
    assert roll == {"opening balance": (15, 800, 815), "+ charges": (179.8, 0, 179.8),
                    "- payments": (170, 300, 470), "- transfers": (220, -220, 0),
                    "= closing balance": (-195.2, 720, 524.8),
                    f"ledger --date {D}": (-195.2, 720, 524.8), "difference": (0, 0, 0)}
    # 4. R3: 350.00 received, not arrived.
    assert rows(out["deposits"]) == [(31, 1, 103, "confirmed", "Sofia Neri", "2026-03-10",
                                      "2026-03-12", 350, 0, -350)]
    # 5. ACME's 220.00 transferred today (0-30 days), Euroviaggi's 500.00 of Jan 20 (44 days).
    assert rows(out["city_ledger"]) == [
        (12, 101, "ACME S.p.A.", "2026-03-05", "2026-03-05", 0, 220, 0, 0, 0, 220),
        (61, 106, "Euroviaggi Wholesale", "2026-01-20", "2026-01-20", 44, 0, 500, 0, 0, 500)]
    assert out["city_ledger"]["total"]["balance"] == 720
    # 6. the tie-out: the folio lines of D by department, rooms 120.00 (R2's night), F&B
    # 27.27, other 20.49 - 12.00 = 8.49, city tax 6.00; against the marts: R2's night of D,
    # lived, is the line posted for it (120.00, no fee); F&B and other by posting date are
    # the same lines. Every department ties, and the total leaves the city tax out.
    occupancy, revenue = "occupancy (stay date: nights + fees)", "revenue (posting date)"
    assert rows(out["tieout"]) == [
        ("accommodation", 120, 132, 120, 0, occupancy, 0, 0, 0, "ties to the cent"),
        ("food_beverage", 27.27, 30, 27.27, None, revenue, 0, 0, 0, "ties to the cent"),
        ("other", 8.49, 11.8, 8.49, None, revenue, 0, 0, 0, "ties to the cent"),
        ("city_tax", 6, 6, 6, None, f"{revenue}, not revenue", 0, 0, 0, "ties to the cent")]
    assert tuple(out["tieout"]["total"].values()) == (
        "total revenue", 155.76, 173.8, 155.76, 0, "", 0, 0, 0, "city tax apart")
    # 7. R1's minibar (T-9, 2 x 4.50) was rung up after folio 11 was closed on D: blocked,
    # held by the folio whose document was issued; R1 left on D, so it is 0 days old at the
    # close. T-2 and T-3 reached their folios and are not on the worklist.
    assert [r[1:] for r in rows(out["worklist"])] == [
        ("2026-03-05", "blocked", "folio_closed", "open", 11, 101, "101", "Anna Bianchi",
         "MINI", 9, "2026-03-05", 0, REBILL)]
    assert re.fullmatch("[0-9a-f]{12}", out["worklist"]["rows"][0]["item"])
    assert tuple(out["worklist"]["total"].values()) == (
        "total", 1, *[""] * 8, 9, "", "", "")


def test_the_roll_forward_closes_on_the_ledger_report(warehouse: Path) -> None:
    """The closing balance of each ledger equals `pmsw report ledger --date D` (--ledger city
    for the accounts receivable), folio by folio summed."""
    roll = {r[0]: r[1:] for r in rows(pack(warehouse, "--date", D.isoformat())["roll_forward"])}
    for which, column in (("guest", 0), ("city", 1)):
        ledger = report_json(warehouse, "ledger", "--property", "HAND01", "--date",
                             D.isoformat(), "--ledger", which)
        assert roll["= closing balance"][column] == ledger["total"]["balance"]
        categories = {r["folio_id"]: r["category"] for r in ledger["rows"]}
        assert categories == ({21: "in_house", 31: "deposit"} if which == "guest"
                              else {12: "city_ledger", 61: "city_ledger"})
        # Item 5: a folio's rooms are those its lines were posted to, else the room of its
        # stay of one room (ACME's and Euroviaggi's accounts hold only the transfer); R3
        # has no room yet.
        rooms = {r["folio_id"]: r["rooms"] for r in ledger["rows"]}
        assert rooms == ({21: "102", 31: ""} if which == "guest" else {12: "101", 61: "106"})


def test_a_stay_first_seen_after_the_date_is_placed_by_its_dates(warehouse: Path) -> None:
    """R6 and R5 were first seen checked out (their only version starts at the check-out, as
    a warehouse first synced after the stay has it): at the end of the night they lived they
    were in house, not stays to come; at the end of their departure day, departed. (Before:
    no version in force, so `future`, no arrival; a prepaid guest's credit a `deposit`.)"""
    def ledger(on: date) -> list[tuple[Any, ...]]:
        found = report_json(warehouse, "ledger", "--property", "HAND01", "--date", on.isoformat())
        return [(r["folio_id"], r["category"], r["reservation_status"], r["arrival"],
                 r["balance"]) for r in found["rows"]]

    assert ledger(day(1, 19)) == [(60, "in_house", "checked_in", "2026-01-19", 500)]
    assert ledger(day(2, 19)) == [(50, "in_house", "checked_in", "2026-02-19", 300)]
    # Mar 1: R4's night (80.00) in house; R3's prepayment comes on Mar 2
    assert ledger(day(3, 1)) == [(40, "in_house", "checked_in", "2026-03-01", 80)]


def test_a_cancelled_stays_credit_is_owed_back_not_a_deposit(warehouse: Path,
                                                             tmp_path: Path) -> None:
    """R7 (folio 70) paid a 100.00 card deposit on Feb 25 for Mar 20-22 and cancelled on
    Mar 3; on D the deposit is not yet refunded. The money is owed back to the guest, not
    held for a stay to come: `ledger --date D` says `cancelled`, the close pack's deposits
    ledger holds R3 alone, and the roll-forward still closes on the ledger (guest: -195.20 -
    100.00 = -295.20)."""
    path = tmp_path / "hand.duckdb"
    shutil.copy(warehouse, path)
    with writer(path) as conn:
        conn.execute("INSERT INTO core.folios (property_id, folio_id, reservation_id, "
                     "guest_name, description, status, prices_include_vat, charges, payments, "
                     "balance, last_seen_run, fetched_at) VALUES (1, 70, 107, 'Luca Gallo', "
                     "'', 'open', true, 0, 100, -100, ?, ?)", [RUN, AT])
        conn.execute("INSERT INTO core.folio_lines (property_id, folio_line_id, folio_id, "
                     "reservation_id, type, description, posted_on, quantity, unit_price, "
                     "discount, tax_pct, total, amount_gross, amount_net, room, last_seen_run, "
                     "fetched_at) VALUES (1, 99, 70, 107, 'payment', 'Deposit: card', ?, 1, "
                     "100, 0, 0, 100, 100, 100, '', ?, ?)", [day(2, 25), RUN, AT])
        for n, (status, start, end) in enumerate((("confirmed", utc(2, 24), utc(3, 3, 10)),
                                                  ("cancelled", utc(3, 3, 10), None))):
            conn.execute(
                "INSERT INTO core.reservation_room_versions (property_id, reservation_room_id, "
                "reservation_id, valid_from, valid_to, version_hash, status, arrival, "
                "departure, nights, adults, brackets, children, room_type_id, room_type_code, "
                "total, reservation_type, created_at, first_seen_run) VALUES (1, 1070, 107, ?, "
                "?, ?, ?, ?, ?, 2, 2, '[]', 0, 1, 'STD', 0, 'individual', ?, ?)",
                [start, end, f"r7-{n}", status, day(3, 20), day(3, 22), utc(2, 24), RUN])
        conn.execute("INSERT INTO core.reservations (property_id, reservation_id, arrival, "
                     "departure, nights, status, reservation_type, rooms_count, total, "
                     "created_at, updated_at, last_seen_run, fetched_at) VALUES (1, 107, ?, ?, "
                     "2, 'cancelled', 'individual', 1, 0, ?, ?, ?, ?)",
                     [day(3, 20), day(3, 22), utc(2, 24), utc(3, 3, 10), RUN, AT])
    for args in (("--date", D.isoformat()), ()):  # at the end of D, and as of the last sync
        found = report_json(path, "ledger", "--property", "HAND01", *args)
        seventy = [r for r in found["rows"] if r["folio_id"] == 70]
        assert [(r["category"], r["balance"]) for r in seventy] == [("cancelled", -100)], args
    out = pack(path, "--date", D.isoformat())
    assert [r["folio_id"] for r in out["deposits"]["rows"]] == [31]
    roll = {r[0].split(" (")[0]: r[1:] for r in rows(out["roll_forward"])}
    assert roll["opening balance"] == (-85, 800, 715)
    assert roll["= closing balance"] == roll[f"ledger --date {D}"] == (-295.2, 720, 424.8)
    # February took the deposit: a payment by card, on the guest ledger.
    assert rows(pack(path, "--month", "2026-02")["payments"]) == [
        ("card", "Deposit", "guest", 1, 100)]


def test_a_month_and_the_open_day_and_month(warehouse: Path) -> None:
    # February: folio 50's night (300.00) charged on the 19th and moved to Sunway on the 20th.
    roll = {r[0].split(" (")[0]: r[1:]
            for r in rows(pack(warehouse, "--month", "2026-02")["roll_forward"])}
    assert roll["opening balance"] == (0, 500, 500)
    assert roll["+ charges"] == (300, 0, 300)
    assert roll["- transfers"] == (300, -300, 0)
    assert roll["= closing balance"] == roll["ledger --date 2026-02-28"] == (0, 800, 800)
    february = pack(warehouse, "--month", "2026-02")
    # Folio 50's night of Feb 19 (net 272.73) is the night lived that date: it ties.
    assert rows(february["tieout"])[0][:4] + rows(february["tieout"])[0][6:] == (
        "accommodation", 272.73, 300, 272.73, 0, 0, 0, "ties to the cent")
    # R5's minibar of Feb 19 (T-8, 4.50) came after its folio was closed: on the month's
    # worklist, the stay departed on Feb 20, the charge 28 - 19 = 9 days old at the month's
    # close.
    assert [r[1:] for r in rows(february["worklist"])] == [
        ("2026-02-19", "blocked", "folio_closed", "open", 50, 105, "105", "Paul Smith", "MINI",
         4.5, "2026-02-20", 9, REBILL)]
    for args, what in ((("--date", "2026-03-06"), "--date 2026-03-06: business date"),
                       (("--month", "2026-03"), "--month 2026-03: the month")):
        result = CliRunner().invoke(main, ["report", "close-pack", "--warehouse",
                                           str(warehouse), "--property", "HAND01", *args])
        assert result.exit_code == 1
        assert result.stderr.startswith(f"Error: {what}")
        assert "is not closed" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_xlsx_one_sheet_per_section_and_csv_blocks(warehouse: Path, tmp_path: Path) -> None:
    """Read back with openpyxl (issue 48, item 4): one sheet per section, in order, each with
    its title (report, hotel, period, business date) and As-of line, the header bold and
    frozen with an autofilter over the rows, percentages as fractions with a % format, the
    rows and the total equal to the JSON's, the columns wide enough for what they show; the
    CSV a block per section whose first column names it."""
    out = pack(warehouse, "--date", D.isoformat())
    book_path = tmp_path / "close.xlsx"
    result = CliRunner().invoke(main, [
        "report", "close-pack", "--warehouse", str(warehouse), "--property", "HAND01",
        "--date", D.isoformat(), "--format", "xlsx", "--output", str(book_path)])
    assert result.exit_code == 0, result.output
    book = openpyxl.load_workbook(book_path)
    assert book.sheetnames == list(out)
    for name, section in out.items():
        sheet = book[name]
        assert sheet["A1"].value == section["report"]
        assert sheet["A1"].font.b
        assert str(sheet["A2"].value).startswith("As of")
        assert sheet.freeze_panes == "A5"
        cells = [list(r) for r in sheet.iter_rows(min_row=4, values_only=True)]
        assert cells[0] == section["columns"]
        assert all(sheet.cell(4, col).font.b for col in range(1, len(cells[0]) + 1))
        expected = section["rows"] + ([section["total"]] if section["total"] else [])
        assert len(cells) == 1 + len(expected), name
        for n, (got, want) in enumerate(zip(cells[1:], expected, strict=True), start=5):
            for col, (cell, value) in enumerate(zip(got, want.values(), strict=True), start=1):
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    assert isinstance(cell, (int, float)), (name, cell, value)
                    if cells[0][col - 1].endswith("_pct"):  # a fraction, shown as a %
                        assert "%" in sheet.cell(n, col).number_format
                        cell *= 100
                    assert round(cell, 2) == round(value, 2), (name, cell, value)
                elif isinstance(value, str) and len(value) == 10 and value[4] == "-":
                    assert cell.date().isoformat() == value
                else:
                    assert cell == (value if value != "" else None), (name, cell, value)
        if section["total"]:
            assert sheet.cell(4 + len(expected), 1).font.b  # the total row kept, bold
        for n in range(5, 5 + len(expected)):  # counts whole, amounts with two decimals
            for col, column in enumerate(cells[0], start=1):
                if sheet.cell(n, col).value is None or n - 5 == len(section["rows"]):
                    continue  # the total row's first cells hold its label and count
                if column in ("lines", "age_days"):
                    assert sheet.cell(n, col).number_format == "#,##0", (name, column)
                elif column in ("net", "vat", "gross", "amount", "balance"):
                    assert sheet.cell(n, col).number_format == "#,##0.00", (name, column)
        last = openpyxl.utils.get_column_letter(len(cells[0]))
        assert sheet.auto_filter.ref == f"A4:{last}{4 + len(section['rows'])}", name
        for col, column in enumerate(zip(*cells, strict=True), start=1):
            # each column as wide as its header and its texts (amounts with their two
            # decimals), within Excel's 60
            shown = [f"{v:,.2f}" if isinstance(v, float) else str(v) for v in column
                     if isinstance(v, (str, float))]
            width = sheet.column_dimensions[openpyxl.utils.get_column_letter(col)].width
            assert width >= min(max(map(len, shown)), 58) + 2, (name, column[0], width)
    text = CliRunner().invoke(main, [
        "report", "close-pack", "--warehouse", str(warehouse), "--property", "HAND01",
        "--date", D.isoformat(), "--format", "csv"]).stdout
    blocks = [list(csv.reader(io.StringIO(b))) for b in text.split("\n\n")]
    assert [b[0][1:] for b in blocks] == [s["columns"] for s in out.values()]
    assert [len(b) - 1 for b in blocks] == [len(s["rows"]) for s in out.values()]
    assert all(row[0] == name for b, name in zip(blocks, out, strict=True) for row in b[1:])
    assert blocks[3][1:] == [[
        "roll_forward", "opening balance (end of 2026-03-04)", "15.00", "800.00", "815.00"],
        ["roll_forward", "+ charges", "179.80", "0.00", "179.80"],
        ["roll_forward", "- payments", "170.00", "300.00", "470.00"],
        ["roll_forward", "- transfers (to the city ledger; on it, received from folios)",
         "220.00", "-220.00", "0.00"],
        ["roll_forward", "= closing balance", "-195.20", "720.00", "524.80"],
        ["roll_forward", "ledger --date 2026-03-05", "-195.20", "720.00", "524.80"],
        ["roll_forward", "difference", "0.00", "0.00", "0.00"]]

"""`pmsw report close-pack --month` on the demo warehouse (issue 48, item 2, Goal): at both
hotels, every figure of the last closed month recomputed here straight from the folio lines
(core.folio_lines with their folio and item), and the roll-forward of the guest and city
ledgers balancing to the cent on `pmsw report ledger --date` (docs/reconciliation.md, Close
pack). One end-to-end test: the demo warehouse is built once per session."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.report_json import report_json as cli

pytestmark = pytest.mark.timeout(600)  # the first reader of a session builds the demo

CODES = ("accommodation", "food_beverage", "other", "city_tax")
BUCKETS = ((30, "0_30"), (60, "31_60"), (90, "61_90"))
ZERO = Decimal("0.00")


def money(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def lines_of(warehouse: Path, code: str) -> tuple[date, list[dict[str, Any]]]:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        found = conn.execute(
            "SELECT p.business_date, l.folio_id, l.type, l.description, l.posted_on, l.tax_pct, "
            "l.total, l.amount_net, l.amount_gross, i.code, i.department, f.reservation_id, "
            "f.description AS folio_description FROM core.folio_lines l "
            "JOIN core.property p ON p.property_id = l.property_id "
            "JOIN core.folios f ON f.property_id = l.property_id AND f.folio_id = l.folio_id "
            "LEFT JOIN core.items i ON i.property_id = l.property_id "
            "AND i.item_id = l.service_item_id WHERE p.code = ?", [code])
        names = [c[0] for c in found.description or []]
        rows = [dict(zip(names, r, strict=True)) for r in found.fetchall()]
    assert rows, code
    return rows[0]["business_date"], rows


def is_city(line: dict[str, Any]) -> bool:
    """A company's or agency's account (docs/sandbox.md, Money: `City ledger: <name>`)."""
    return line["reservation_id"] is not None and (line["folio_description"] or "").startswith(
        "City ledger: ")


def is_transfer(line: dict[str, Any]) -> bool:
    return line["type"] == "payment" and (line["description"] or "").startswith("Transfer ")


def department(line: dict[str, Any]) -> str:
    if line["department"] in CODES:
        return str(line["department"])
    return "accommodation" if line["type"] == "accommodation" else "other"


def signed(line: dict[str, Any]) -> Decimal:
    """What a line adds to its folio's balance: charges less payments."""
    return -line["total"] if line["type"] == "payment" else line["total"]


def test_close_pack_of_a_closed_month_from_the_folio_lines(warehouse: Path) -> None:
    for code in ("ROMA01", "FIRE01"):
        business_date, lines = lines_of(warehouse, code)
        last = business_date.replace(day=1) - timedelta(days=1)
        first = last.replace(day=1)
        pack = cli(warehouse, "close-pack", "--property", code, "--month",
                   f"{first:%Y-%m}")["sections"]
        month = [x for x in lines if first <= x["posted_on"] <= last]

        revenue: dict[tuple[str, str, Decimal], list[Any]] = defaultdict(
            lambda: [0, ZERO, ZERO])
        for x in month:
            if x["type"] != "payment":
                acc = revenue[(department(x), x["code"] or "", money(x["tax_pct"]))]
                acc[0] += 1
                acc[1] += x["amount_net"]
                acc[2] += x["amount_gross"]
        got = {(r["department"], r["item_code"], money(r["vat_pct"])): [
            r["lines"], money(r["net"]), money(r["gross"])] for r in pack["revenue"]["rows"]}
        assert got == {k: [n, money(net), money(gross)]
                       for k, (n, net, gross) in revenue.items()}, code
        assert all(money(r["vat"]) == money(r["gross"]) - money(r["net"])
                   for r in pack["revenue"]["rows"])

        paid: dict[tuple[str, str, str], Decimal] = defaultdict(lambda: ZERO)
        for x in month:
            if x["type"] == "payment" and not is_transfer(x):
                text = x["description"] or ""
                kind, method = text.split(": ")[:2] if ": " in text else ("Payment", "unstated")
                paid[(method, kind, "city" if is_city(x) else "guest")] += x["total"]
        assert {(r["method"], r["kind"], r["ledger"]): money(r["amount"])
                for r in pack["payments"]["rows"]} == {k: money(v) for k, v in paid.items()}
        assert {k[0] for k in paid} <= {"card", "cash", "bank transfer", "OTA virtual card"}

        roll = {r["line"].split(" (")[0]: r for r in pack["roll_forward"]["rows"]}
        for column, city in (("guest_ledger", False), ("city_ledger", True)):
            mine = [x for x in lines if is_city(x) == city]
            opening = sum((signed(x) for x in mine if x["posted_on"] < first), ZERO)
            inside = [x for x in mine if first <= x["posted_on"] <= last]
            charges = sum((x["total"] for x in inside if x["type"] != "payment"), ZERO)
            payments = sum((x["total"] for x in inside
                            if x["type"] == "payment" and not is_transfer(x)), ZERO)
            transfers = sum((x["total"] for x in inside if is_transfer(x)), ZERO)
            closing = sum((signed(x) for x in mine if x["posted_on"] <= last), ZERO)
            assert opening + charges - payments - transfers == closing
            assert [money(roll[k][column]) for k in (
                "opening balance", "+ charges", "- payments", "- transfers",
                "= closing balance", f"ledger --date {last}", "difference")] == [
                money(v) for v in (opening, charges, payments, transfers, closing, closing, 0)
            ], (code, column)
            ledger = cli(warehouse, "ledger", "--property", code, "--date", last.isoformat(),
                         "--ledger", "city" if city else "guest")
            assert money((ledger["total"] or {"balance": 0})["balance"]) == money(closing)
        # every transfer's two sides on the same date: they cancel across the two ledgers
        assert money(roll["- transfers"]["both_ledgers"]) == 0

        balances: dict[int, Decimal] = defaultdict(lambda: ZERO)
        oldest: dict[int, date] = {}
        for x in lines:
            if x["posted_on"] <= last:
                balances[x["folio_id"]] += signed(x)
                oldest[x["folio_id"]] = min(oldest.get(x["folio_id"], x["posted_on"]),
                                            x["posted_on"])
        city_folios = {x["folio_id"] for x in lines if is_city(x)}
        owed = {f: b for f, b in balances.items() if f in city_folios and b != 0}
        assert owed, f"{code}: the demo's accounts should owe something at {last}"
        rows = pack["city_ledger"]["rows"]
        assert {r["folio_id"]: money(r["balance"]) for r in rows} == {
            f: money(b) for f, b in owed.items()}
        for r in rows:
            age = (last - oldest[r["folio_id"]]).days
            bucket = next((name for limit, name in BUCKETS if age <= limit), "over_90")
            assert r["age_days"] == age
            assert money(r[f"balance_{bucket}"]) == money(r["balance"])

        received: dict[int, Decimal] = defaultdict(lambda: ZERO)
        for x in lines:
            if x["posted_on"] <= last and x["type"] == "payment":
                received[x["folio_id"]] += x["total"]
        for r in pack["deposits"]["rows"]:
            assert r["folio_id"] not in city_folios
            assert r["reservation_status"] == "confirmed"  # not in house, departed, cancelled
            assert money(r["balance"]) < 0  # a credit held: a debit is no deposit
            assert money(r["received"]) == money(received[r["folio_id"]])
            assert money(r["balance"]) == money(balances[r["folio_id"]])

        net_by_department: dict[str, Decimal] = defaultdict(lambda: ZERO)
        for x in month:
            if x["type"] != "payment":
                net_by_department[department(x)] += x["amount_net"]
        assert {r["department"]: money(r["folio_lines_net"]) for r in pack["tieout"]["rows"]
                } == {c: money(net_by_department[c]) for c in CODES}
        for r in pack["worklist"]["rows"]:
            assert first.isoformat() <= r["business_date"] <= last.isoformat()
            assert r["action"]

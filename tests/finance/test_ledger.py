"""`pmsw report ledger` (issue 16, item 3): the open balances by folio equal the balances the
API reports, folio by folio, and the category view sums them by aging bucket."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from tests.report_json import report_json

from .conftest import World

pytestmark = pytest.mark.slow


def ledger(world: World, *args: str) -> dict[str, Any]:
    return report_json(world.warehouse, "ledger", *args)


def test_ledger_equals_the_api_balances_folio_by_folio(world: World) -> None:
    out = ledger(world)
    listed = {r["folio_id"]: r for r in out["rows"]}
    api: dict[int, tuple[Decimal, str]] = {}
    statuses: dict[int, str] = {}
    for reservation in world.client.iter_reservations(updated_since=None):
        statuses[reservation.id] = reservation.status.value
        in_house = any(room.status.value == "checked_in" for room in reservation.rooms)
        for folio in world.client.list_folios(reservation.id):
            # a company's or agency's account is the city ledger, apart (--ledger city)
            if folio.balance != 0 and not (folio.description or "").startswith(
                    "City ledger: "):
                api[folio.id] = (folio.balance, "in_house" if in_house else
                                 reservation.status.value)
    assert api, "the stretch should leave open balances"
    assert set(listed) == set(api)
    for folio_id, (balance, status) in api.items():
        row = listed[folio_id]
        assert Decimal(str(row["balance"])) == balance, folio_id
        assert Decimal(str(row["charges"])) - Decimal(str(row["payments"])) == balance
        expected = {"in_house": "in_house", "checked_out": "departed"}.get(status)
        if expected is None:  # a cancelled stay's balance, a credit too, is owed back
            # (or a fee owed): no deposit; not arrived, a credit balance is a deposit
            expected = "cancelled" if status == "cancelled" else (
                "deposit" if balance < 0 else "future")
        assert row["category"] == expected, (folio_id, status, balance)
        assert row["age_days"] is None or row["age_days"] >= 0
    assert Decimal(str(out["total"]["balance"])) == sum(b for b, _ in api.values())
    assert "in_house" in {r["category"] for r in out["rows"]}


def test_ledger_by_category_sums_the_folios_by_aging_bucket(world: World) -> None:
    folios = ledger(world)["rows"]
    by_category = ledger(world, "--by", "category")
    for row in by_category["rows"]:
        mine = [f for f in folios if f["category"] == row["category"]]
        assert row["folios"] == len(mine)
        for bucket in ("0_30", "31_60", "61_90", "over_90"):
            assert Decimal(str(row[f"balance_{bucket}"])) == sum(
                (Decimal(str(f["balance"])) for f in mine if f["aging_bucket"] == bucket),
                Decimal(0))
        assert Decimal(str(row["balance"])) == sum(Decimal(str(f["balance"])) for f in mine)
    assert by_category["total"]["folios"] == len(folios)


def test_a_past_date_ledger_equals_the_one_taken_that_day(world: World) -> None:
    """docs/reconciliation.md, Guest ledger: `--date D` rebuilds the ledger at the end of D
    from the landed history. Taken right after the night audit of D (nothing of the next
    day posted yet), the ledger of the last sync is that ledger; after two more days are
    lived and synced (payments, check-outs, new charges), `--date D` must give it back."""
    that_day = ledger(world)
    business_date = date.fromisoformat(that_day["report"].split("business date ")[1][:10])
    day = business_date - timedelta(days=1)
    answer = httpx.post(f"{world.sandbox.root_url}/_sandbox/advance", json={"days": 2},
                        timeout=600)
    assert answer.status_code == 200, answer.text
    world.sync()
    today = ledger(world)
    assert today["rows"] != that_day["rows"], "two days lived should move some balance"
    rebuilt = ledger(world, "--date", day.isoformat())
    assert f"the end of business date {day}" in rebuilt["report"]
    kept = ("category", "folio_id", "folio_number", "folio_status", "reservation_id",
            "rooms", "arrival", "departure", "charges", "payments", "balance",
            "oldest_posting")
    assert [{k: r[k] for k in kept} for r in rebuilt["rows"]] == [
        {k: r[k] for k in kept} for r in that_day["rows"]]
    # Aged at D, not at the business date that followed it: one day younger.
    assert [r["age_days"] for r in rebuilt["rows"]] == [
        r["age_days"] - 1 for r in that_day["rows"]]
    assert rebuilt["total"]["balance"] == that_day["total"]["balance"]


def test_a_folio_lists_its_own_rooms_and_the_open_day_is_refused(world: World) -> None:
    """Issue 48, item 5: the rooms of a folio are those its lines were posted to (the room
    of each line, as the API gives it), not every room of its reservation; `--date` of the
    open business date is not a closed day."""
    out = ledger(world)
    lines: dict[int, set[str]] = {}
    entries: dict[int, set[str]] = {}
    for reservation in world.client.iter_reservations(updated_since=None):
        entries[reservation.id] = {r.room.code for r in reservation.rooms if r.room}
        for folio in world.client.list_folios(reservation.id):
            lines[folio.id] = {line.room for line in folio.lines if line.room}
    assert out["rows"]
    for row in out["rows"]:
        own = lines.get(row["folio_id"], set())
        if own:
            assert set((row["rooms"] or "").split()) == own, row
        elif row["reservation_id"] is not None and len(entries[row["reservation_id"]]) == 1:
            assert row["rooms"] == next(iter(entries[row["reservation_id"]])), row
    business_date = out["report"].split("business date ")[1][:10]
    refused = CliRunner().invoke(main, ["report", "ledger", "--warehouse",
                                        str(world.warehouse), "--date", business_date])
    assert refused.exit_code == 1
    assert f"business date {business_date} of" in refused.stderr
    assert "is not closed" in refused.stderr

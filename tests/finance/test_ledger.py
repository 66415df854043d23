"""`pmsw report ledger` (issue 16, item 3): the open balances by folio equal the balances the
API reports, folio by folio, and the category view sums them by aging bucket."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from click.testing import CliRunner

from pipelines.cli import main

from .conftest import World


def ledger(world: World, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["report", "ledger", "--warehouse",
                                       str(world.warehouse), "--format", "json", *args])
    assert result.exit_code == 0, result.output + result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_ledger_equals_the_api_balances_folio_by_folio(world: World) -> None:
    out = ledger(world)
    listed = {r["folio_id"]: r for r in out["rows"]}
    api: dict[int, tuple[Decimal, str]] = {}
    statuses: dict[int, str] = {}
    for reservation in world.client.iter_reservations(updated_since=None):
        statuses[reservation.id] = reservation.status.value
        in_house = any(room.status.value == "checked_in" for room in reservation.rooms)
        for folio in world.client.list_folios(reservation.id):
            if folio.balance != 0:
                api[folio.id] = (folio.balance, "in_house" if in_house else
                                 reservation.status.value)
    assert api, "the stretch should leave open balances"
    assert set(listed) == set(api)
    for folio_id, (balance, status) in api.items():
        row = listed[folio_id]
        assert Decimal(str(row["balance"])) == balance, folio_id
        assert Decimal(str(row["charges"])) - Decimal(str(row["payments"])) == balance
        expected = {"in_house": "in_house", "checked_out": "departed"}.get(status)
        if expected is None:  # not arrived (or cancelled): a credit balance is a deposit
            expected = "deposit" if balance < 0 else (
                "cancelled" if status == "cancelled" else "future")
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

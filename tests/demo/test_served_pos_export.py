"""`pmsw sandbox serve --pos-export DIR`: days simulated through /_sandbox write the POS ledger
files of each simulated hotel, as the offline simulator does (docs/sandbox.md, "POS ledger").
The demo loads them with the `pos_ledger` stream."""

from __future__ import annotations

import csv
from datetime import UTC, datetime
from pathlib import Path

import httpx

from sandbox.clock import SimulatedClock
from tests.conftest import MakeSandbox


def test_served_simulation_exports_one_ledger_file_per_hotel_and_day(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    server = make_sandbox(clock=SimulatedClock(datetime(2026, 3, 2, 7, 0, tzinfo=UTC)),
                          admin=True, pos_export_dir=str(tmp_path))
    response = httpx.post(f"{server.root_url}/_sandbox/simulate", timeout=120,
                          json={"days": 2, "seed": 3, "property_ids": [1, 2]})
    assert response.status_code == 200, response.text
    names = sorted(p.name for p in tmp_path.glob("*.csv"))
    assert names == ["pos-FIRE01-2026-03-02.csv", "pos-FIRE01-2026-03-03.csv",
                     "pos-ROMA01-2026-03-02.csv", "pos-ROMA01-2026-03-03.csv"]
    with (tmp_path / "pos-ROMA01-2026-03-03.csv").open(newline="") as handle:
        header = next(csv.reader(handle))
    assert header[:3] == ["ticket_id", "line", "business_date"]

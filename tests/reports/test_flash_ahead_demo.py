"""`pmsw report flash-ahead` on the demo's warehouse says of each night ahead what the rest of
the warehouse says: rooms on the books, rooms available and occupancy as `pmsw report
occupancy` prints them for the same nights, arrivals and departures as mart.occupancy_daily
counts them; occupancy and ADR on the books are `occupancy`'s of the night."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.report_json import report_json
from tests.stored_rows import stored_rows


def _json(warehouse: Path, *args: str) -> dict[str, Any]:
    return report_json(warehouse, *args, "--property", "ROMA01")


def test_nights_ahead_agree_with_occupancy(warehouse: Path) -> None:
    ahead = _json(warehouse, "flash-ahead")["rows"]
    assert len(ahead) == 8
    first, last = ahead[0]["stay_date"], ahead[-1]["stay_date"]
    occupancy = {r["stay_date"]: r for r in _json(warehouse, "occupancy", "--from", first,
                                                  "--to", last)["rows"]}
    moves = {str(d): (a, b) for d, a, b in stored_rows(
        warehouse.with_suffix(".read.duckdb"), "SELECT stay_date, arrivals, departures FROM "
        "mart.occupancy_daily WHERE property_id = 1 AND stay_date BETWEEN ? AND ?", [first, last])}
    assert sum(r["arrivals"] for r in ahead) > 0
    for row in ahead:
        night = occupancy[row["stay_date"]]
        assert night["basis"] == "on the books"
        # on the books holds the complimentary rooms, rooms_sold does not (docs/kpi.md)
        assert row["rooms_otb"] >= night["rooms_sold"]
        assert row["rooms_available"] == night["rooms_available"]
        # one occupancy, one ADR: the books' figures are occupancy's of the night, the
        # complimentary rooms out of both (issue 46)
        assert (row["occupancy_otb_pct"], row["adr_otb_net"]) == (night["occupancy_pct"],
                                                                  night["adr_net"])
        assert (row["arrivals"], row["departures"]) == moves[row["stay_date"]]

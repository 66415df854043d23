"""History before the first sync, rebuilt from creation and cancellation times."""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.history import rebuild_before_first_sync, snapshot_ranges
from pipelines.marts.logic.otb import otb_snapshots

from .builders import d, ts, version, versions_frame

# entry 1 first seen confirmed at 03-05 10:00Z, made 03-01 10:00Z;
# entry 2 first seen cancelled at 03-06 10:00Z, made 03-02 10:00Z, stay.cancelled at 03-04 10:00Z
VERSIONS = versions_frame(
    version(
        reservation_room_id=1, valid_from=ts("2025-03-05T10:00"), created_at=ts("2025-03-01T10:00")
    ),
    version(
        reservation_room_id=2,
        status="cancelled",
        valid_from=ts("2025-03-06T10:00"),
        created_at=ts("2025-03-02T10:00"),
    ),
)
CANCELLATIONS = pl.DataFrame(
    {"property_id": [1], "reservation_room_id": [2], "cancelled_at": [ts("2025-03-04T10:00")]}
)


def _rebuilt(frame: pl.DataFrame) -> list[tuple[int, str, object, object]]:
    rows = frame.filter(pl.col("is_rebuilt")).sort("reservation_room_id")
    return [
        (r["reservation_room_id"], r["status"], r["valid_from"], r["valid_to"])
        for r in rows.iter_rows(named=True)
    ]


def test_rebuilt_versions_run_from_creation_to_first_sight_or_cancellation() -> None:
    out = rebuild_before_first_sync(VERSIONS, CANCELLATIONS)
    assert _rebuilt(out) == [
        (1, "confirmed", ts("2025-03-01T10:00"), ts("2025-03-05T10:00")),
        (2, "confirmed", ts("2025-03-02T10:00"), ts("2025-03-04T10:00")),
    ]
    assert out.height == 4


def test_without_the_event_the_cancellation_is_the_first_sight() -> None:
    out = rebuild_before_first_sync(VERSIONS)
    assert _rebuilt(out)[1] == (2, "confirmed", ts("2025-03-02T10:00"), ts("2025-03-06T10:00"))


def test_otb_over_the_rebuilt_history() -> None:
    rebuilt = rebuild_before_first_sync(VERSIONS, CANCELLATIONS)
    seen = pl.DataFrame(
        {"property_id": [1, 1], "business_date": [d("2025-03-06"), d("2025-03-07")]}
    )
    ranges = snapshot_ranges(seen, rebuilt)
    # first_observed: the first business date seen (03-06); snapshots before it are rebuilt.
    assert ranges.row(0) == (1, d("2025-03-01"), d("2025-03-07"), d("2025-03-06"))
    otb = otb_snapshots(rebuilt, ranges, horizon_days=10).filter(
        pl.col("stay_date") == d("2025-03-10")
    )
    # entry 1 from 03-01; entry 2 from 03-02 to its cancellation on 03-04 (last counts 03-03)
    assert otb.sort("snapshot_date")["rooms_otb"].to_list() == [1, 2, 2, 1, 1, 1, 1]
    assert otb.sort("snapshot_date")["is_rebuilt"].to_list() == [True] * 5 + [False] * 2

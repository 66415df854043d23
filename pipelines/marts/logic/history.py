"""History of room versions before the first sync, rebuilt from what is known.

core.reservation_room_versions starts at the first state the warehouse saw. Before that, a room
entry is assumed to have existed since the reservation's `created_at` in the state first seen;
a room first seen cancelled is assumed confirmed, with the same dates, type and total, from its
creation until its cancellation (`cancelled_at`: the stay.cancelled event, else the room's
valid_from). docs/kpi.md lists what such a rebuild cannot know.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.otb_changes import local_date
from pipelines.vocabulary import CANCELLED, DEFAULT_TIMEZONE, Frame, lazy

ENTRY = ["property_id", "reservation_room_id"]


def rebuild_before_first_sync(versions: Frame, cancellations: Frame | None = None) -> pl.DataFrame:
    """Versions plus one rebuilt version per room entry whose first version starts after its
    creation; every row gets `is_rebuilt`. cancellations: property_id, reservation_room_id,
    cancelled_at (no_shows.cancellations), optional."""
    lf = lazy(versions, "versions", [*ENTRY, "status", "created_at", "valid_from", "valid_to"])
    ts_type = lf.collect_schema()["valid_from"]
    first = lf.sort("valid_from").group_by(ENTRY).first()
    if cancellations is not None:
        cancelled = lazy(cancellations, "cancellations", [*ENTRY, "cancelled_at"]).select(
            *ENTRY, pl.col("cancelled_at").cast(ts_type)
        )
        first = first.join(cancelled, on=ENTRY, how="left")
    else:
        first = first.with_columns(cancelled_at=pl.lit(None, dtype=ts_type))
    known_cancel = pl.col("cancelled_at").fill_null(pl.col("valid_from"))
    was_cancelled = pl.col("status") == CANCELLED
    rebuilt_end = (
        pl.when(was_cancelled)
        .then(pl.min_horizontal(known_cancel, "valid_from"))
        .otherwise(pl.col("valid_from"))
    )
    rebuilt = (
        first.with_columns(valid_to=rebuilt_end)
        .with_columns(
            valid_from=pl.col("created_at").cast(ts_type),
            status=pl.when(was_cancelled).then(pl.lit("confirmed")).otherwise(pl.col("status")),
        )
        .filter(pl.col("created_at") < pl.col("valid_to"))
        .drop("cancelled_at")
        .with_columns(is_rebuilt=pl.lit(True))
    )
    return pl.concat(
        [lf.with_columns(is_rebuilt=pl.lit(False)), rebuilt], how="vertical_relaxed"
    ).sort([*ENTRY, "valid_from"]).collect()


def snapshot_ranges(
    business_dates: Frame, versions: Frame | None = None, timezone: str = DEFAULT_TIMEZONE
) -> pl.DataFrame:
    """property_id, first_snapshot, last_snapshot, first_observed: from the first to the last
    business date seen (business_dates: property_id, business_date), reaching back to the first
    local date any version starts on when `versions` (rebuilt ones included) is given.
    `first_observed` is the first business date seen (the first sync): snapshots before it are
    rebuilt from history (`is_rebuilt` in the marts), not observed."""
    seen = lazy(business_dates, "business_dates", ["property_id", "business_date"])
    ranges = seen.group_by("property_id").agg(
        first_snapshot=pl.col("business_date").min(), last_snapshot=pl.col("business_date").max(),
        first_observed=pl.col("business_date").min(),
    )
    if versions is not None:
        vl = lazy(versions, "versions", ["property_id", "valid_from"])
        starts = vl.group_by("property_id").agg(
            earliest=local_date("valid_from", timezone, vl.collect_schema()).min()
        )
        ranges = ranges.join(starts, on="property_id", how="left").select(
            "property_id",
            first_snapshot=pl.min_horizontal("first_snapshot", "earliest"),
            last_snapshot="last_snapshot",
            first_observed="first_observed",
        )
    return ranges.sort("property_id").collect()

"""mart.otb_snapshots: on the books at the end of each snapshot date, by stay date."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.marts.logic.money import DEFAULT_ACCOMMODATION_VAT_PCT, VatRate, from_cents
from pipelines.marts.logic.otb_changes import book_changes, cumulative_grid, version_nights
from pipelines.vocabulary import DEFAULT_TIMEZONE, Frame, lazy

HORIZON_DAYS = 365
RANGE_COLUMNS = ("property_id", "first_snapshot", "last_snapshot")


def observed_from(ranges: pl.LazyFrame) -> pl.LazyFrame:
    """property_id, first_observed (the first business date seen; null when not given)."""
    if "first_observed" in ranges.collect_schema().names():
        return ranges.select("property_id", "first_observed")
    return ranges.select("property_id", first_observed=pl.lit(None, dtype=pl.Date))


def from_start(ranges: pl.LazyFrame, start: date | None) -> pl.LazyFrame:
    """The ranges' snapshots from `start` on (all when None); a range left empty is dropped."""
    if start is None:
        return ranges
    return ranges.with_columns(
        first_snapshot=pl.max_horizontal("first_snapshot", pl.lit(start))
    ).filter(pl.col("first_snapshot") <= pl.col("last_snapshot"))


def staying_from(versions: Frame, start: date | None) -> Frame:
    """The versions with a night on or after `start` (all when None): a snapshot from `start`
    on holds no other stay date."""
    if start is None:
        return versions
    return lazy(versions, "versions", ["departure"]).filter(pl.col("departure") > start)


def otb_snapshots(
    versions: Frame,
    snapshot_ranges: Frame,
    timezone: str = DEFAULT_TIMEZONE,
    vat_pct: VatRate = DEFAULT_ACCOMMODATION_VAT_PCT,
    horizon_days: int = HORIZON_DAYS,
    start: date | None = None,
) -> pl.DataFrame:
    """Build mart.otb_snapshots.

    versions: core.reservation_room_versions (with history.rebuild_before_first_sync applied
    when history before the first sync is wanted). snapshot_ranges: property_id, first_snapshot,
    last_snapshot (every date between is a snapshot). One row per snapshot date S and stay date D
    in [S, S + horizon_days]: `rooms_otb` and `revenue_otb_net` (room nights and net room revenue
    of versions valid at the end of S, not cancelled, not in option), `rooms_option`, and
    `is_rebuilt`: S is before the range's `first_observed` (history.snapshot_ranges), so the
    books of S are rebuilt from history, not observed (false without that column).
    start: only the snapshots from that date on, each as the whole build has it (the changes
    before it are folded into its first snapshot)."""
    ranges = lazy(snapshot_ranges, "snapshot_ranges", RANGE_COLUMNS)
    changes = book_changes(version_nights(staying_from(versions, start), timezone, vat_pct))
    return (
        cumulative_grid(changes, from_start(ranges, start), horizon_days)
        .join(observed_from(ranges), on="property_id", how="left")
        .select(
            "property_id", "snapshot_date", "stay_date",
            rooms_otb=(pl.col("rooms_new") - pl.col("rooms_cancelled")).cast(pl.Int64),
            revenue_otb_net=from_cents(pl.col("revenue_cents")),
            rooms_option=pl.col("option_rooms").cast(pl.Int64),
            is_rebuilt=(pl.col("snapshot_date") < pl.col("first_observed")).fill_null(False),
        )
        .sort("property_id", "snapshot_date", "stay_date")
        .collect()
    )

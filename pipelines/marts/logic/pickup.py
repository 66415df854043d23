"""mart.pickup: OTB(S) - OTB(S - W) per stay date, with its new and cancelled parts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import polars as pl

from pipelines.marts.logic.money import DEFAULT_ACCOMMODATION_VAT_PCT, VatRate, from_cents
from pipelines.marts.logic.otb import (
    HORIZON_DAYS,
    RANGE_COLUMNS,
    from_start,
    observed_from,
    staying_from,
)
from pipelines.marts.logic.otb_changes import book_changes, cumulative_grid, version_nights
from pipelines.vocabulary import DEFAULT_TIMEZONE, Frame, lazy

WINDOWS = (1, 7, 14, 30)


def pickup(
    versions: Frame,
    snapshot_ranges: Frame,
    windows: Sequence[int] = WINDOWS,
    timezone: str = DEFAULT_TIMEZONE,
    vat_pct: VatRate = DEFAULT_ACCOMMODATION_VAT_PCT,
    horizon_days: int = HORIZON_DAYS,
    start: date | None = None,
) -> pl.DataFrame:
    """Build mart.pickup for as-of dates S in each snapshot range and stay dates D in
    [S, S + horizon_days]: over the window (S - W, S],
    `rooms_new` room nights that came onto the books, `rooms_cancelled` those that went off
    (cancelled, moved to other dates, turned back into an option), `rooms_net` = new - cancelled
    = OTB rooms(S) - OTB rooms(S - W), `revenue_net` = OTB revenue(S) - OTB revenue(S - W);
    `is_rebuilt`: S - W is before the range's `first_observed` and history before it was
    rebuilt (the range starts before `first_observed`): part of the window is not observed.
    Rows where all four are zero are left out (a missing row means no pickup).
    start: only the as-of dates from that date on, each as the whole build has it."""
    if not windows or min(windows) < 1:
        raise ValueError("windows must be positive numbers of days")
    widest = max(windows)
    ranges = lazy(snapshot_ranges, "snapshot_ranges", RANGE_COLUMNS)
    wide_ranges = from_start(ranges, start).with_columns(
        first_snapshot=pl.col("first_snapshot") - pl.duration(days=widest)
    )
    changes = book_changes(version_nights(staying_from(versions, start), timezone, vat_pct))
    # shift() below relies on the grid's order (property, stay date, snapshot date): join the
    # output bounds only after the shifts, since a join does not keep row order.
    grid = cumulative_grid(changes, wide_ranges, horizon_days + widest)
    bounds = ranges.select("property_id", "first_snapshot").join(
        from_start(ranges, start).select("property_id", output_from="first_snapshot"),
        on="property_id", how="inner").join(observed_from(ranges), on="property_id", how="left")
    in_output = (
        (pl.col("snapshot_date") >= pl.col("output_from"))
        & ((pl.col("stay_date") - pl.col("snapshot_date")).dt.total_days() <= horizon_days)
    )
    per_window = []
    group = ["property_id", "stay_date"]
    for window in sorted(set(windows)):
        new = pl.col("rooms_new") - pl.col("rooms_new").shift(window).over(group)
        cancelled = pl.col("rooms_cancelled") - pl.col("rooms_cancelled").shift(window).over(group)
        revenue = pl.col("revenue_cents") - pl.col("revenue_cents").shift(window).over(group)
        per_window.append(
            grid.with_columns(
                rooms_new=new, rooms_cancelled=cancelled, revenue_cents=revenue
            )
            .join(bounds, on="property_id", how="inner")
            .filter(in_output)
            .select(
                "property_id",
                as_of_date="snapshot_date",
                stay_date="stay_date",
                window_days=pl.lit(window, dtype=pl.Int32),
                rooms_new=pl.col("rooms_new").cast(pl.Int64),
                rooms_cancelled=pl.col("rooms_cancelled").cast(pl.Int64),
                rooms_net=(pl.col("rooms_new") - pl.col("rooms_cancelled")).cast(pl.Int64),
                revenue_cents="revenue_cents",
                is_rebuilt=((pl.col("snapshot_date") - pl.duration(days=window)
                             < pl.col("first_observed"))
                            & (pl.col("first_snapshot") < pl.col("first_observed")))
                .fill_null(False),
            )
            .filter(
                (pl.col("rooms_new") != 0)
                | (pl.col("rooms_cancelled") != 0)
                | (pl.col("revenue_cents") != 0)
            )
        )
    return (
        pl.concat(per_window)
        .with_columns(revenue_net=from_cents(pl.col("revenue_cents")))
        .drop("revenue_cents")
        .sort("property_id", "as_of_date", "window_days", "stay_date")
        .collect()
    )

"""What the snapshots of otb_snapshots, pickup and pace are computed from, one digest per day.

A row of these marts is a snapshot: the books at the end of a snapshot date S. A version is on
the books at the end of S when it started on local date S or before and has not ended by then
(otb_changes). So a snapshot depends only on the versions that started on S or before (what
they hold) and on which of them ended on S or before; on the snapshot range's first snapshot
and first observed date; on the settings; and on the code of the transforms. A mart's inputs
are summed up as one digest per day: the hashes of the versions starting that day, of those
ending that day, and a row for each snapshot day, with the rest (`salt`) folded into every day.
After a sync, the earliest day whose digest differs from the last build's (`first_changed`) is
the first snapshot that can differ: the snapshots before it are kept, and only those from it on
are computed and compared again (pipelines/marts/build.py). A change of VAT, time zone,
horizon, first snapshot or code changes every day's digest, and so rebuilds the whole mart.

A digest is a wrapping sum of row hashes: two days' inputs that differ but sum to the same
digest would keep a stale snapshot, a chance of about 2^-64 per day; any other difference only
rebuilds more than needed. polars' hash is stable within one polars version; another version
changes every digest, so the first build after an upgrade is whole.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date, timedelta
from functools import cache
from pathlib import Path

import polars as pl

from pipelines.marts.logic.otb_changes import VERSION_COLUMNS, local_date
from pipelines.vocabulary import Frame, lazy

SEED = 20_261_127
STARTED = ["reservation_room_id", "status", "arrival", "departure", "total", "valid_from"]
ENDED = ["reservation_room_id", "valid_from", "valid_to"]


@cache
def code_digest() -> str:
    """sha256 of the transforms' source: a fix to any of them rebuilds the snapshots whole."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def salt(values: Iterable[object]) -> int:
    """A 64-bit number of the settings and bounds every snapshot depends on, and the code."""
    text = "\x1f".join([code_digest(), *(repr(v) for v in values)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def day_digests(frame: pl.LazyFrame, day: str, columns: list[str]) -> pl.LazyFrame:
    """day, digest: the wrapping sum of the hashes of each day's rows over `columns`."""
    return frame.group_by(day).agg(
        digest=pl.struct(columns).hash(SEED).sum()).select(day=pl.col(day), digest="digest")


def summed(parts: Iterable[pl.LazyFrame]) -> pl.DataFrame:
    """The parts' digests summed per day, sorted by day."""
    return (pl.concat(list(parts), how="vertical").group_by("day").agg(pl.col("digest").sum())
            .sort("day").collect())


def salted(days: pl.DataFrame, values: Iterable[object]) -> pl.DataFrame:
    """`days` with `salt(values)` added to each digest."""
    return days.with_columns(digest=pl.col("digest") + pl.lit(salt(values), dtype=pl.UInt64))


def snapshot_days(snapshot_ranges: Frame) -> pl.LazyFrame:
    """day, digest 0: every snapshot date of the ranges, so that a new one is a change."""
    return (
        lazy(snapshot_ranges, "snapshot_ranges", ["first_snapshot", "last_snapshot"])
        .select(day=pl.date_ranges("first_snapshot", "last_snapshot", interval="1d"))
        .explode("day")
        .drop_nulls("day")
        .select("day", digest=pl.lit(0, dtype=pl.UInt64))
    )


def book_days(versions: Frame, snapshot_ranges: Frame, timezone: str) -> pl.DataFrame:
    """day, digest of otb_snapshots and pickup before their salt: the versions starting and
    ending each local date, and each snapshot date. Their salt (`salted`) holds the time zone,
    the VAT, the ranges' first snapshot and first observed date, and the mart's own settings.
    A version closed by a sync adds its end's day; its start's day keeps its digest."""
    lf = lazy(versions, "versions", VERSION_COLUMNS)
    schema = lf.collect_schema()
    dated = lf.with_columns(started=local_date("valid_from", timezone, schema),
                            ended=local_date("valid_to", timezone, schema))
    return summed([day_digests(dated, "started", STARTED),
                   day_digests(dated.drop_nulls("ended"), "ended", ENDED),
                   snapshot_days(snapshot_ranges)])


def pace_inputs(otb_inputs: pl.DataFrame, occupancy_daily: Frame,
                horizon_days: int, stly_days: int, calendar: Frame | None = None) -> pl.DataFrame:
    """day, digest of mart.pace, which reads the stored otb_snapshots and occupancy_daily.

    A pace row of snapshot S reads the snapshots S and S - stly_days (digests of days <= S:
    otb_snapshots' inputs as stored with its rows; None when not known, which makes every day
    they had a change) and the final actual of last year's night of its stay date, at most
    horizon_days after S: an actual of night X is dated R - horizon_days, R the first stay
    date whose last year's night is X. Without a calendar R = X + stly_days; with one
    (property_id, stay_date, ly_date of one property: pipelines.forecast.property_calendars),
    R is the first night whose ly_date is X (Christmas Day 2026 for Christmas Day 2025), or
    X + stly_days for a night no night of the calendar has as last year's."""
    actual = (
        lazy(occupancy_daily, "occupancy_daily",
             ["stay_date", "rooms_sold", "room_revenue_net", "is_actual"])
        .filter(pl.col("is_actual"))
    )
    back = pl.col("stay_date") + pl.duration(days=stly_days)
    if calendar is None:
        reader = back
    else:
        readers = (lazy(calendar, "calendar", ["stay_date", "ly_date"])
                   .group_by("ly_date").agg(reader=pl.col("stay_date").min()))
        actual = actual.join(readers, left_on="stay_date", right_on="ly_date", how="left")
        reader = pl.coalesce(pl.col("reader"), back)
    actual = actual.with_columns(day=reader - pl.duration(days=horizon_days))
    days = summed([otb_inputs.lazy().select(pl.col("day").cast(pl.Date),
                                            pl.col("digest").cast(pl.UInt64)),
                   day_digests(actual, "day", ["stay_date", "rooms_sold", "room_revenue_net"])])
    return salted(days, ["pace", horizon_days, stly_days])


def first_changed(stored: pl.DataFrame, current: pl.DataFrame) -> date | None:
    """The earliest day whose digest differs between the two, or that one of them lacks; None
    when they are equal."""
    joined = stored.join(current, on="day", how="full", coalesce=True, suffix="_now")
    differ = joined.filter(pl.col("digest").ne_missing(pl.col("digest_now")))
    return None if differ.is_empty() else differ["day"].min()  # type: ignore[return-value]


def rebuild_start(stored: pl.DataFrame | None, current: pl.DataFrame) -> date | None:
    """The first snapshot to compute again: None for all of them (nothing stored to keep, or
    the first day changed), the day after the last when nothing changed."""
    if stored is None or stored.is_empty() or current.is_empty():
        return None
    changed = first_changed(stored, current)
    if changed is None:
        last: date = current["day"].max()  # type: ignore[assignment]
        return last + timedelta(days=1)
    first: date = current["day"].min()  # type: ignore[assignment]
    return None if changed <= first else changed

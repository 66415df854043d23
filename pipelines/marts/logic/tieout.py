"""mart.revenue_tieout: room revenue tied to the folios, per property and business date.

For each date closed (before the business date) on which anything was posted or lived:
- `folio_accommodation_net`: the accommodation lines posted that date (core.folio_lines of
  department accommodation, reversals included, whether or not a room entry is known);
- `room_revenue_nights_net` and `room_revenue_fees_net`: mart.occupancy_daily's revenue of the
  nights sold and the fees (mart.room_fees) of that date;
- `difference_net` = folio - nights - fees;
- `shifted_net`: night charges posted that date but counted on another night, less those
  counted on this night but posted on another date (a line posted before arrival counts on
  the first night; one posted for a night to come counts on no lived night yet);
- `unexplained_net` = difference - shifted, and `reason` saying what explains a difference.
The asset check `revenue_tieout_has_no_unexplained_cent` fails on any unexplained cent.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.folio_revenue import revenue_lines
from pipelines.marts.logic.money import from_cents, to_cents
from pipelines.marts.logic.room_fees import NIGHT, accommodation_lines
from pipelines.vocabulary import ACCOMMODATION, Frame, lazy

SHIFTED = "night charges posted on another date than the night they pay"
UNEXPLAINED = "unexplained"


def _shifted(lines: Frame, items: Frame, rooms: Frame, stay_nights: Frame,
             bd: pl.LazyFrame) -> pl.LazyFrame:
    """Per property and date: cents of night charges posted that date and counted elsewhere,
    minus those counted that date and posted elsewhere (as stay_nights counts them)."""
    spans = (
        lazy(stay_nights, "stay_nights", ["property_id", "reservation_room_id", "stay_date"])
        .group_by("property_id", "reservation_room_id")
        .agg(first_night=pl.col("stay_date").min(), last_night=pl.col("stay_date").max())
    )
    night_lines = (
        accommodation_lines(lines, items, rooms)
        .filter(pl.col("kind") == NIGHT)
        .join(bd, on="property_id", how="inner")
        .filter(pl.col("posted_on") < pl.col("business_date"))
        .join(spans, on=["property_id", "reservation_room_id"], how="left")
        .with_columns(
            counted_on=pl.col("posted_on").clip(pl.col("first_night"), pl.col("last_night"))
        )
        .with_columns(
            counted_on=pl.when(pl.col("counted_on") < pl.col("business_date"))
            .then(pl.col("counted_on"))
            .otherwise(None)
        )
        .filter(pl.col("counted_on").is_null() | (pl.col("counted_on") != pl.col("posted_on")))
    )
    out = night_lines.select("property_id", date="posted_on", cents="net_cents")
    into = night_lines.drop_nulls("counted_on").select(
        "property_id", date="counted_on", cents=-pl.col("net_cents"))
    return pl.concat([out, into]).group_by("property_id", "date").agg(
        shifted=pl.col("cents").sum())


def revenue_tieout(lines: Frame, items: Frame, rooms: Frame, stay_nights: Frame,
                   occupancy_daily: Frame, properties: Frame) -> pl.DataFrame:
    """Build mart.revenue_tieout (module docstring). lines: core.folio_lines with the single
    room entries applied; rooms: room entries with `is_no_show`; stay_nights and
    occupancy_daily: the marts as built; properties: property_id, business_date."""
    bd = lazy(properties, "properties", ["property_id", "business_date"]).select(
        "property_id", "business_date")
    folio = (
        revenue_lines(lines, items)
        .filter(pl.col("department") == ACCOMMODATION)
        .group_by("property_id", pl.col("posted_on").alias("date"))
        .agg(folio=pl.col("net_cents").sum())
    )
    occ = lazy(occupancy_daily, "occupancy_daily",
               ["property_id", "stay_date", "room_revenue_nights_net", "room_revenue_fees_net"]
               ).select(
        "property_id", date="stay_date",
        nights=to_cents(pl.col("room_revenue_nights_net")),
        fees=to_cents(pl.col("room_revenue_fees_net")),
    )
    keys = ["property_id", "date"]
    difference = pl.col("folio") - pl.col("nights") - pl.col("fees")
    unexplained = difference - pl.col("shifted")
    return (
        folio.join(occ, on=keys, how="full", coalesce=True)
        .join(_shifted(lines, items, rooms, stay_nights, bd), on=keys, how="full",
              coalesce=True)
        .join(bd, on="property_id", how="inner")
        .filter(pl.col("date") < pl.col("business_date"))
        .with_columns(pl.col("folio", "nights", "fees", "shifted").fill_null(0))
        .filter((pl.col("folio") != 0) | (pl.col("nights") != 0) | (pl.col("fees") != 0)
                | (pl.col("shifted") != 0))
        .select(
            *keys,
            folio_accommodation_net=from_cents(pl.col("folio")),
            room_revenue_nights_net=from_cents(pl.col("nights")),
            room_revenue_fees_net=from_cents(pl.col("fees")),
            difference_net=from_cents(difference),
            shifted_net=from_cents(pl.col("shifted")),
            unexplained_net=from_cents(unexplained),
            reason=pl.when(unexplained != 0)
            .then(pl.lit(UNEXPLAINED))
            .when(difference != 0)
            .then(pl.lit(SHIFTED))
            .otherwise(None),
        )
        .sort(keys)
        .collect()
    )

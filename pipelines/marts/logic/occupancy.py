"""mart.occupancy_daily and mart.occupancy_by_room_type: supply, rooms sold, ADR, RevPAR.

Counts are by stay date (a room night). A room night is counted on the type of the assigned
room, or the booked type while no room is assigned (as the PMS's availability counts it).
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.folio_revenue import revenue_lines
from pipelines.marts.logic.money import from_cents, ratio_cents, to_cents
from pipelines.vocabulary import (
    HOUSE_USE_PLAN,
    NON_ROOM_REVENUE,
    ON_THE_BOOKS,
    OPTION,
    WALK_IN_CHANNEL,
    Frame,
    lazy,
)

NIGHT_COLUMNS = (
    "property_id", "reservation_room_id", "stay_date", "nights", "night_index", "status",
    "is_complimentary", "is_no_show", "room_type_id", "room_id", "persons",
    "room_revenue_net", "room_revenue_gross", "rate_plan_code", "channel",
)
COUNTS = ("rooms_sold", "rooms_complimentary", "rooms_house_use", "rooms_option", "arrivals",
          "departures", "persons", "no_shows", "walk_ins")


def _effective_type(nights: pl.LazyFrame, rooms: pl.LazyFrame) -> pl.LazyFrame:
    room_types = rooms.select("property_id", "room_id", assigned_type="room_type_id")
    return (
        nights.join(room_types, on=["property_id", "room_id"], how="left")
        .with_columns(room_type_id=pl.coalesce("assigned_type", "room_type_id"))
        .drop("assigned_type")
    )


def _night_measures(nights: pl.LazyFrame) -> pl.LazyFrame:
    """Per night: what it adds to each count (in house = on the books and not a no-show; a
    no-show and a walk-in count on the date of arrival, docs/kpi.md)."""
    in_house = pl.col("status").is_in(ON_THE_BOOKS) & ~pl.col("is_no_show")
    first = pl.col("night_index") == 0
    return nights.with_columns(
        date=pl.col("stay_date"),
        rooms_sold=(in_house & ~pl.col("is_complimentary")).cast(pl.Int64),
        rooms_complimentary=(in_house & pl.col("is_complimentary")).cast(pl.Int64),
        rooms_house_use=(in_house & pl.col("is_complimentary")
                         & (pl.col("rate_plan_code") == HOUSE_USE_PLAN).fill_null(False))
        .cast(pl.Int64),
        rooms_option=(pl.col("status") == OPTION).cast(pl.Int64),
        arrivals=(in_house & first).cast(pl.Int64),
        no_shows=(pl.col("is_no_show") & first).cast(pl.Int64),
        walk_ins=(in_house & first & (pl.col("channel") == WALK_IN_CHANNEL).fill_null(False))
        .cast(pl.Int64),
        departures=pl.lit(0, dtype=pl.Int64),
        persons=pl.when(in_house).then(pl.col("persons")).otherwise(0).cast(pl.Int64),
        room_net=pl.when(pl.col("status") == OPTION)
        .then(0)
        .otherwise(to_cents(pl.col("room_revenue_net"))),
        room_gross=pl.when(pl.col("status") == OPTION)
        .then(0)
        .otherwise(to_cents(pl.col("room_revenue_gross"))),
    )


def _departures(nights: pl.LazyFrame) -> pl.LazyFrame:
    """A room leaving on date D is counted on D (the morning after its last night)."""
    in_house = pl.col("status").is_in(ON_THE_BOOKS) & ~pl.col("is_no_show")
    return nights.filter(in_house & (pl.col("night_index") == pl.col("nights") - 1)).select(
        "property_id",
        "room_type_id",
        date=pl.col("stay_date") + pl.duration(days=1),
        departures=pl.lit(1, dtype=pl.Int64),
    )


def _supply(
    rooms: pl.LazyFrame, availability: pl.LazyFrame, dates: pl.LazyFrame
) -> pl.LazyFrame:
    """Per property, date and room type: rooms in the property (core.rooms, sellable or not),
    rooms the PMS sells and rooms out of order, from the availability read on that date (else
    the latest read before it), else from the sellable rooms list."""
    latest = (
        availability.filter(pl.col("snapshot_date") <= pl.col("stay_date"))
        .sort("snapshot_date")
        .group_by("property_id", pl.col("stay_date").alias("date"), "room_type_id")
        .agg(
            snap_available=pl.col("total").last().cast(pl.Int64),
            snap_ooo=pl.col("out_of_order").last().cast(pl.Int64),
        )
    )
    listed = (
        rooms.group_by("property_id", "room_type_id")
        .agg(listed=pl.col("sellable").sum().cast(pl.Int64), built=pl.len().cast(pl.Int64))
    )
    types = pl.concat(
        [
            rooms.select("property_id", "room_type_id"),
            availability.select("property_id", "room_type_id"),
        ]
    ).unique()
    return (
        dates.join(types, on="property_id", how="inner")
        .join(latest, on=["property_id", "date", "room_type_id"], how="left")
        .join(listed, on=["property_id", "room_type_id"], how="left")
        .select(
            "property_id", "date", "room_type_id",
            rooms_in_property=pl.coalesce("built", pl.lit(0, dtype=pl.Int64)),
            rooms_sellable=pl.coalesce("snap_available", "listed", pl.lit(0, dtype=pl.Int64)),
            rooms_out_of_order=pl.coalesce("snap_ooo", pl.lit(0, dtype=pl.Int64)),
        )
    )


def _dates(
    nights: pl.LazyFrame, availability: pl.LazyFrame, fees: pl.LazyFrame
) -> pl.LazyFrame:
    """Every date from the first to the last night, availability date or fee date of each
    property."""
    seen = pl.concat(
        [
            nights.select("property_id", date="stay_date"),
            nights.select("property_id", date=pl.col("stay_date") + pl.duration(days=1)),
            availability.select("property_id", date="stay_date"),
            fees.select("property_id", "date"),
        ]
    )
    return (
        seen.group_by("property_id")
        .agg(first=pl.col("date").min(), last=pl.col("date").max())
        .select("property_id", date=pl.date_ranges("first", "last", interval="1d"))
        .explode("date")
    )


def other_revenue_daily(revenue_daily: Frame) -> pl.DataFrame:
    """Net revenue other than rooms (food and beverage, other) per property and date, from
    mart.revenue_daily."""
    return (
        lazy(revenue_daily, "revenue_daily",
             ["property_id", "date", "department", "department_revenue_net"])
        .filter(pl.col("department").is_in(NON_ROOM_REVENUE))
        .group_by("property_id", "date")
        .agg(revenue_net=pl.col("department_revenue_net").sum().cast(pl.Decimal(18, 2)))
        .collect()
    )


def other_revenue_by_room_type(
    lines: Frame, items: Frame, stay_nights: Frame, rooms: Frame
) -> pl.DataFrame:
    """Net revenue other than rooms per property, date and room type: each line of a room
    entry counts on the posting date for the type its room has that night (clamped to the
    stay's nights). Lines of no room entry are left out here (they are in other_revenue_daily)."""
    nights = _effective_type(lazy(stay_nights, "stay_nights", NIGHT_COLUMNS), rooms.lazy())
    spans = nights.group_by("property_id", "reservation_room_id").agg(
        first_night=pl.col("stay_date").min(), last_night=pl.col("stay_date").max()
    )
    night_types = nights.select("property_id", "reservation_room_id", "stay_date", "room_type_id")
    return (
        revenue_lines(lines, items)
        .filter(pl.col("department").is_in(NON_ROOM_REVENUE))
        .join(spans, on=["property_id", "reservation_room_id"], how="inner")
        .with_columns(stay_date=pl.col("posted_on").clip("first_night", "last_night"))
        .join(night_types, on=["property_id", "reservation_room_id", "stay_date"], how="inner")
        .group_by("property_id", pl.col("posted_on").alias("date"), "room_type_id")
        .agg(revenue_net=from_cents(pl.col("net_cents").sum()))
        .collect()
    )


FEE_COLUMNS = ("property_id", "date", "room_type_id", "room_id", "fee_revenue_net",
               "fee_revenue_gross")


def _fees(fees: Frame | None, rooms: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """Fee cents (mart.room_fees) per keys, on the type of the entry's assigned room, else its
    booked type; by room type, fees of no room entry are left out (they are in the daily
    table)."""
    if fees is None:
        return pl.LazyFrame(
            schema={"property_id": pl.Int64, "date": pl.Date, "room_type_id": pl.Int64,
                    "fee_net": pl.Int64, "fee_gross": pl.Int64}).select(
            *keys, "fee_net", "fee_gross")
    lf = _effective_type(lazy(fees, "room_fees", FEE_COLUMNS), rooms)
    if "room_type_id" in keys:
        lf = lf.drop_nulls("room_type_id")
    return lf.group_by(keys).agg(
        fee_net=to_cents(pl.col("fee_revenue_net")).sum(),
        fee_gross=to_cents(pl.col("fee_revenue_gross")).sum(),
    )


def _occupancy(
    keys: list[str],
    stay_nights: Frame,
    rooms: Frame,
    availability: Frame,
    properties: Frame,
    other_revenue: Frame,
    fees: Frame | None,
) -> pl.DataFrame:
    room_lf = lazy(rooms, "rooms", ["property_id", "room_id", "room_type_id", "sellable"])
    nights = _effective_type(lazy(stay_nights, "stay_nights", NIGHT_COLUMNS), room_lf)
    avail = lazy(
        availability, "availability",
        ["property_id", "snapshot_date", "stay_date", "room_type_id", "total", "out_of_order"],
    )
    fee_sums = _fees(fees, room_lf, keys)
    supply = (
        _supply(room_lf, avail, _dates(nights, avail, fee_sums.select("property_id", "date")))
        .group_by(keys)
        .agg(pl.col("rooms_in_property", "rooms_sellable", "rooms_out_of_order").sum())
    )
    measures = pl.concat([_night_measures(nights), _departures(nights)], how="diagonal_relaxed")
    demand = measures.group_by(keys).agg(
        *[pl.col(c).fill_null(0).sum() for c in COUNTS],
        room_net=pl.col("room_net").fill_null(0).sum(),
        room_gross=pl.col("room_gross").fill_null(0).sum(),
    )
    other = lazy(other_revenue, "other_revenue", [*keys, "revenue_net"]).select(
        *keys, other_net=to_cents(pl.col("revenue_net"))
    )
    bd = lazy(properties, "properties", ["property_id", "business_date"]).select(
        "property_id", "business_date"
    )
    # STR and USALI supply: every room of the property, a room out of order included (only a
    # closure of six months or more, which the API does not report, would take it out).
    available = pl.col("rooms_in_property")
    net_available = pl.col("rooms_sellable") - pl.col("rooms_out_of_order")
    rooms_net = pl.col("room_net") + pl.col("fee_net")
    total_net = rooms_net + pl.col("other_net")
    return (
        supply.join(demand, on=keys, how="left")
        .join(fee_sums, on=keys, how="left")
        .join(other, on=keys, how="left")
        .join(bd, on="property_id", how="left")
        .with_columns(
            pl.col(*COUNTS, "room_net", "room_gross", "fee_net", "fee_gross", "other_net")
            .fill_null(0)
        )
        .select(
            *keys,
            rooms_in_property="rooms_in_property",
            rooms_sellable="rooms_sellable",
            rooms_available=available,
            rooms_out_of_order="rooms_out_of_order",
            rooms_available_net_ooo=net_available,
            rooms_sold="rooms_sold",
            rooms_complimentary="rooms_complimentary",
            rooms_house_use="rooms_house_use",
            rooms_option="rooms_option",
            occupancy_pct=_pct(pl.col("rooms_sold"), available),
            occupancy_net_ooo_pct=_pct(pl.col("rooms_sold"), net_available),
            room_revenue_nights_net=from_cents(pl.col("room_net")),
            room_revenue_fees_net=from_cents(pl.col("fee_net")),
            room_revenue_net=from_cents(rooms_net),
            room_revenue_gross=from_cents(pl.col("room_gross") + pl.col("fee_gross")),
            adr_net=ratio_cents(pl.col("room_net"), pl.col("rooms_sold")),
            adr_incl_fees_net=ratio_cents(rooms_net, pl.col("rooms_sold")),
            revpar_net=ratio_cents(rooms_net, available),
            total_revenue_net=from_cents(total_net),
            trevpar_net=ratio_cents(total_net, available),
            arrivals="arrivals",
            departures="departures",
            persons="persons",
            rooms_in_house=pl.col("rooms_sold") + pl.col("rooms_complimentary"),
            no_shows="no_shows",
            walk_ins="walk_ins",
            is_actual=(pl.col("date") < pl.col("business_date")).fill_null(False),
        )
        .sort(keys)
        .rename({"date": "stay_date"})
        .collect()
    )


def _pct(part: pl.Expr, whole: pl.Expr) -> pl.Expr:
    """part / whole * 100, two decimals (half away from zero); null when whole is 0."""
    return (
        pl.when(whole > 0)
        .then((part * 100 / whole).round(2, mode="half_away_from_zero"))
        .otherwise(None)
    )


def occupancy_daily(
    stay_nights: Frame, rooms: Frame, availability: Frame, properties: Frame,
    other_revenue: Frame, fees: Frame | None = None,
) -> pl.DataFrame:
    """Build mart.occupancy_daily (keys property_id, stay_date).

    stay_nights: mart.stay_nights; rooms: core.rooms; availability: core.availability;
    properties: property_id, business_date; other_revenue: other_revenue_daily(...);
    fees: mart.room_fees (None: no fee)."""
    return _occupancy(
        ["property_id", "date"], stay_nights, rooms, availability, properties, other_revenue,
        fees,
    )


def occupancy_by_room_type(
    stay_nights: Frame, rooms: Frame, availability: Frame, properties: Frame,
    other_revenue: Frame, fees: Frame | None = None,
) -> pl.DataFrame:
    """Build mart.occupancy_by_room_type (keys property_id, stay_date, room_type_id);
    other_revenue: other_revenue_by_room_type(...); fees: mart.room_fees."""
    return _occupancy(
        ["property_id", "date", "room_type_id"],
        stay_nights, rooms, availability, properties, other_revenue, fees,
    )

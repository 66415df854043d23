"""Benchmark: otb_snapshots, pickup and occupancy_daily, polars transforms vs DuckDB SQL.

Builds a synthetic history (hotels x years; default 100 x 3, about 10 million room-night
versions), computes the three marts with pipelines.marts.logic and with the same definitions
written directly in DuckDB SQL, checks both give the same totals, and prints seconds, the ratio
polars / duckdb and the peak memory of the process (resource.getrusage).

    .venv/bin/python benchmarks/bench_marts.py --quick     # a quick run: 2 hotels x 1 year
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import polars as pl

from pipelines.marts.logic.occupancy import occupancy_daily
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pickup import pickup
from pipelines.marts.logic.stay_nights import stay_nights

ROOMS_PER_HOTEL = 80
START = date(2023, 1, 1)
TZ = "Europe/Rome"
HORIZON = 365
WINDOWS = (1, 7, 14, 30)


def _u(seed: int, modulo: int) -> pl.Expr:
    """A pseudo-random integer in [0, modulo) per booking, from a hash of its id."""
    return (pl.col("booking_id").hash(seed) % modulo).cast(pl.Int64)


def synthetic_versions(hotels: int, years: int) -> pl.DataFrame:
    days = 365 * years
    per_hotel = ROOMS_PER_HOTEL * days * 75 // 100 * 10 // 25  # 75% occupancy, ~2.5 nights
    bookings = (
        pl.DataFrame({"booking_id": pl.int_range(hotels * per_hotel, eager=True)})
        .with_columns(
            property_id=pl.col("booking_id") // per_hotel + 1,
            arrival=pl.lit(START) + pl.duration(days=_u(1, days)),
            nights=1 + _u(2, 4),
            lead=(_u(3, 120) * _u(4, 120)) // 120,
            hour=_u(5, 24),
            price_cents=10_000 + _u(6, 20_000),
            has_change=_u(7, 10) < 3,
            cancelled=_u(8, 100) < 25,
        )
        .with_columns(
            departure=pl.col("arrival") + pl.duration(days=pl.col("nights")),
            created=(pl.col("arrival").cast(pl.Datetime("us")) - pl.duration(days=pl.col("lead"))
                     + pl.duration(hours=pl.col("hour"))).dt.replace_time_zone("UTC"),
            total_cents=pl.col("price_cents") * pl.col("nights"),
        )
        .with_columns(
            change_at=pl.col("created") + pl.duration(hours=pl.col("lead") * 7 + 1),
            cancel_at=pl.col("created") + pl.duration(hours=pl.col("lead") * 17 + 2),
        )
    )
    null_ts = pl.lit(None, dtype=pl.Datetime("us", "UTC"))
    first_end = (
        pl.when(pl.col("has_change")).then(pl.col("change_at"))
        .when(pl.col("cancelled")).then(pl.col("cancel_at")).otherwise(null_ts)
    )
    cancel_end = pl.when(pl.col("cancelled")).then(pl.col("cancel_at")).otherwise(null_ts)
    common: list[str | pl.Expr] = ["property_id",
                                   pl.col("booking_id").alias("reservation_room_id"),
                                   "arrival", "departure"]
    v1 = bookings.select(*common, status=pl.lit("confirmed"), total_cents="total_cents",
                         valid_from="created", valid_to=first_end)
    v2 = bookings.filter("has_change").select(
        *common, status=pl.lit("confirmed"), total_cents=pl.col("total_cents") * 11 // 10,
        valid_from="change_at", valid_to=cancel_end,
    )
    v3 = bookings.filter("cancelled").select(
        *common, status=pl.lit("cancelled"), total_cents="total_cents",
        valid_from="cancel_at", valid_to=null_ts,
    )
    return pl.concat([v1, v2, v3]).with_columns(
        total=(pl.col("total_cents").cast(pl.Decimal(20, 2)) / 100).cast(pl.Decimal(12, 2))
    ).drop("total_cents")


def current_rooms(versions: pl.DataFrame) -> pl.DataFrame:
    return versions.filter(pl.col("valid_to").is_null()).select(
        "property_id", reservation_id="reservation_room_id",
        reservation_room_id="reservation_room_id",
        status="status", arrival="arrival", departure="departure",
        room_type_id=pl.lit(1, dtype=pl.Int64), room_id=pl.lit(None, dtype=pl.Int64),
        room_code=pl.lit(None, dtype=pl.String), rate_plan_id=pl.lit(1, dtype=pl.Int64),
        rate_plan_code=pl.lit("BAR"),
        channel=pl.lit("web"), source=pl.lit("direct"), market=pl.lit("leisure"),
        adults=pl.lit(2, dtype=pl.Int64), children=pl.lit(0, dtype=pl.Int64),
        persons=pl.lit(2, dtype=pl.Int64), total="total", is_no_show=pl.lit(False),
    )


class Inputs(NamedTuple):
    """What the marts' transforms read beside the versions (no folio line, item, availability
    or other revenue), and the hotels' capacity the forecast reads."""

    ranges: pl.DataFrame
    props: pl.DataFrame
    room_list: pl.DataFrame
    lines: pl.DataFrame
    items: pl.DataFrame
    availability: pl.DataFrame
    other: pl.DataFrame
    capacity: pl.DataFrame


def inputs(hotels: int, days: int, today: date = START) -> Inputs:
    """The inputs of `hotels` 80-room hotels snapshotted from START for `days` days, their
    business date `today`."""
    ids = pl.DataFrame({"property_id": list(range(1, hotels + 1))})
    return Inputs(
        ids.with_columns(first_snapshot=pl.lit(START),
                         last_snapshot=pl.lit(START + timedelta(days=days - 1))),
        ids.with_columns(business_date=pl.lit(today)),
        ids.join(pl.DataFrame({"room_id": list(range(1, ROOMS_PER_HOTEL + 1))}), how="cross")
        .with_columns(room_type_id=pl.lit(1, dtype=pl.Int64), sellable=pl.lit(True)),
        pl.DataFrame(schema={
            "property_id": pl.Int64, "folio_line_id": pl.Int64, "reservation_id": pl.Int64,
            "reservation_room_id": pl.Int64, "type": pl.String, "posted_on": pl.Date,
            "service_item_id": pl.Int64, "amount_gross": pl.Decimal(12, 2),
            "amount_net": pl.Decimal(12, 2)}),
        pl.DataFrame(schema={"property_id": pl.Int64, "item_id": pl.Int64,
                             "department": pl.String}),
        pl.DataFrame(schema={
            "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
            "room_type_id": pl.Int64, "total": pl.Int64, "out_of_order": pl.Int64}),
        pl.DataFrame(schema={"property_id": pl.Int64, "date": pl.Date,
                             "revenue_net": pl.Decimal(18, 2)}),
        ids.with_columns(rooms=pl.lit(ROOMS_PER_HOTEL, dtype=pl.Int64),
                         rooms_available=pl.lit(ROOMS_PER_HOTEL, dtype=pl.Int64)))


def occupancy(rooms: pl.DataFrame, given: Inputs) -> pl.DataFrame:
    """mart.occupancy_daily of the room entries `rooms` (`current_rooms`), through
    mart.stay_nights."""
    nights = stay_nights(rooms, given.props, given.lines, given.items)
    return occupancy_daily(nights, given.room_list, given.availability, given.props,
                           given.other)


def to_duckdb(con: duckdb.DuckDBPyConnection, **frames: pl.DataFrame) -> None:
    """Each frame as a table of `con` of its name (through parquet: no pyarrow needed)."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, frame in frames.items():
            path = Path(tmp) / f"{name}.parquet"
            frame.write_parquet(path)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{path}')")


SQL_CHANGES = f"""
CREATE OR REPLACE TEMP TABLE vn AS
WITH v AS (
  SELECT property_id, reservation_room_id, status, arrival, departure,
         CAST(round(total * 100) AS BIGINT) AS total_cents,
         CAST(timezone('{TZ}', valid_from) AS DATE) AS snap_from,
         CAST(timezone('{TZ}', valid_to) AS DATE) AS snap_to,
         datediff('day', arrival, departure) AS nights
  FROM versions
  WHERE status IN ('confirmed', 'checked_in', 'checked_out', 'option')
), n AS (
  SELECT v.*, CAST(unnest(generate_series(arrival, departure - 1, INTERVAL 1 DAY)) AS DATE)
         AS stay_date
  FROM v WHERE snap_to IS NULL OR snap_to > snap_from
), s AS (
  SELECT *, (2 * total_cents + nights) // (2 * nights) AS per_night FROM n
), g AS (
  SELECT *, CASE WHEN datediff('day', arrival, stay_date) = nights - 1
                 THEN total_cents - per_night * (nights - 1) ELSE per_night END AS gross
  FROM s
)
SELECT property_id, reservation_room_id, stay_date, snap_from, snap_to,
       status = 'option' AS is_option, (2 * gross * 10000 + 11000) // 22000 AS net_cents
FROM g;

CREATE OR REPLACE TEMP TABLE changes AS
WITH books AS (SELECT * FROM vn WHERE NOT is_option),
marked AS (
  SELECT *, coalesce(snap_from <> lag(snap_to) OVER w, true) AS starts
  FROM books WINDOW w AS (PARTITION BY property_id, reservation_room_id, stay_date
                          ORDER BY snap_from)
), spans AS (
  SELECT property_id, reservation_room_id, stay_date, span,
         min(snap_from) AS span_start,
         CASE WHEN count(*) = count(snap_to) THEN max(snap_to) END AS span_end
  FROM (SELECT *, sum(CAST(starts AS INT)) OVER (PARTITION BY property_id, reservation_room_id,
               stay_date ORDER BY snap_from) AS span FROM marked)
  GROUP BY ALL
), parts AS (
  SELECT property_id, stay_date, span_start AS change_date, 1 AS rn, 0 AS rc, 0 AS rev, 0 AS opt
  FROM spans
  UNION ALL SELECT property_id, stay_date, span_end, 0, 1, 0, 0 FROM spans
            WHERE span_end IS NOT NULL
  UNION ALL SELECT property_id, stay_date, snap_from, 0, 0, net_cents, 0 FROM books
  UNION ALL SELECT property_id, stay_date, snap_to, 0, 0, -net_cents, 0 FROM books
            WHERE snap_to IS NOT NULL
  UNION ALL SELECT property_id, stay_date, snap_from, 0, 0, 0, 1 FROM vn WHERE is_option
  UNION ALL SELECT property_id, stay_date, snap_to, 0, 0, 0, -1 FROM vn
            WHERE is_option AND snap_to IS NOT NULL
)
SELECT property_id, stay_date, change_date, sum(rn) AS rooms_new, sum(rc) AS rooms_cancelled,
       sum(rev) AS revenue_cents, sum(opt) AS option_rooms
FROM parts GROUP BY ALL;
"""


def sql_grid(ahead: int, widen: int) -> str:
    """Cumulative sums of the changes on the dense (snapshot, stay date) grid."""
    return f"""
WITH r AS (SELECT property_id, first_snapshot - {widen} AS first_snapshot, last_snapshot
           FROM ranges),
grid AS (
  SELECT r.property_id, CAST(s AS DATE) AS snapshot_date,
         CAST(s AS DATE) + CAST(o AS INTEGER) AS stay_date
  FROM r, unnest(generate_series(r.first_snapshot, r.last_snapshot, INTERVAL 1 DAY)) t(s),
       range(0, {ahead + 1}) o(o)
), clipped AS (
  SELECT c.*, r.last_snapshot,
         greatest(c.change_date, c.stay_date - CAST({ahead} AS INTEGER), r.first_snapshot)
           AS snapshot_date
  FROM changes c JOIN r USING (property_id)
), folded AS (
  SELECT property_id, stay_date, snapshot_date,
         sum(rooms_new) AS rooms_new, sum(rooms_cancelled) AS rooms_cancelled,
         sum(revenue_cents) AS revenue_cents, sum(option_rooms) AS option_rooms
  FROM clipped
  WHERE snapshot_date <= stay_date AND snapshot_date <= last_snapshot
  GROUP BY ALL
)
SELECT g.property_id, g.snapshot_date, g.stay_date,
  sum(coalesce(rooms_new, 0)) OVER w AS rooms_new,
  sum(coalesce(rooms_cancelled, 0)) OVER w AS rooms_cancelled,
  sum(coalesce(revenue_cents, 0)) OVER w AS revenue_cents,
  sum(coalesce(option_rooms, 0)) OVER w AS option_rooms
FROM grid g LEFT JOIN folded f USING (property_id, snapshot_date, stay_date)
WINDOW w AS (PARTITION BY g.property_id, g.stay_date ORDER BY g.snapshot_date
             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
"""


SQL_OTB = f"""
CREATE OR REPLACE TEMP TABLE otb AS
SELECT property_id, snapshot_date, stay_date, rooms_new - rooms_cancelled AS rooms_otb,
       CAST(revenue_cents AS DECIMAL(38, 0)) * 0.01 AS revenue_otb_net, option_rooms AS rooms_option
FROM ({sql_grid(HORIZON, 0)});
"""


def sql_pickup() -> str:
    widest = max(WINDOWS)
    per_window = " UNION ALL ".join(
        f"""SELECT property_id, snapshot_date AS as_of_date, stay_date, {w} AS window_days,
               rooms_new - lag(rooms_new, {w}) OVER w AS rooms_new,
               rooms_cancelled - lag(rooms_cancelled, {w}) OVER w AS rooms_cancelled,
               revenue_cents - lag(revenue_cents, {w}) OVER w AS revenue_cents
            FROM cum WINDOW w AS (PARTITION BY property_id, stay_date ORDER BY snapshot_date)"""
        for w in WINDOWS
    )
    return f"""
CREATE OR REPLACE TEMP TABLE cum AS {sql_grid(HORIZON + widest, widest)};
CREATE OR REPLACE TEMP TABLE pickup AS
SELECT p.property_id, as_of_date, stay_date, window_days, rooms_new, rooms_cancelled,
       rooms_new - rooms_cancelled AS rooms_net,
       CAST(revenue_cents AS DECIMAL(38, 0)) * 0.01 AS revenue_net
FROM ({per_window}) p JOIN ranges r ON r.property_id = p.property_id
WHERE as_of_date >= r.first_snapshot AND datediff('day', as_of_date, stay_date) <= {HORIZON}
  AND (rooms_new <> 0 OR rooms_cancelled <> 0 OR revenue_cents <> 0);
"""


SQL_OCCUPANCY = f"""
CREATE OR REPLACE TEMP TABLE occ AS
WITH cur AS (
  SELECT property_id, reservation_room_id, status, arrival, departure,
         CAST(round(total * 100) AS BIGINT) AS total_cents,
         datediff('day', arrival, departure) AS nights
  FROM versions WHERE valid_to IS NULL
), n AS (
  SELECT cur.*, CAST(unnest(generate_series(arrival, departure - 1, INTERVAL 1 DAY)) AS DATE)
         AS stay_date FROM cur
), g AS (
  SELECT *, CASE WHEN datediff('day', arrival, stay_date) = nights - 1
    THEN total_cents - (2 * total_cents + nights) // (2 * nights) * (nights - 1)
    ELSE (2 * total_cents + nights) // (2 * nights) END AS gross
  FROM n
), night AS (
  SELECT property_id, stay_date, status, total_cents,
         CASE WHEN status = 'cancelled' THEN 0 ELSE gross END AS gross,
         CASE WHEN status = 'cancelled' THEN 0 ELSE (2 * gross * 10000 + 11000) // 22000 END
           AS net
  FROM g
), demand AS (
  SELECT property_id, stay_date,
         count(*) FILTER (WHERE status IN ('confirmed', 'checked_in', 'checked_out')
                          AND total_cents > 0) AS rooms_sold,
         sum(net) FILTER (WHERE status <> 'option') AS net
  FROM night GROUP BY ALL
), dates AS (
  SELECT property_id, CAST(unnest(generate_series(min(stay_date), max(stay_date) + 1,
         INTERVAL 1 DAY)) AS DATE) AS stay_date FROM night GROUP BY property_id
)
SELECT d.property_id, d.stay_date, {ROOMS_PER_HOTEL} AS rooms_available,
       coalesce(rooms_sold, 0) AS rooms_sold,
       round(coalesce(rooms_sold, 0) * 100.0 / {ROOMS_PER_HOTEL}, 2) AS occupancy_pct,
       CAST(coalesce(net, 0) AS DECIMAL(38, 0)) * 0.01 AS room_revenue_net,
       CASE WHEN rooms_sold > 0 THEN (2 * net + rooms_sold) // (2 * rooms_sold) END AS adr_cents
FROM dates d LEFT JOIN demand USING (property_id, stay_date);
"""


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(label: str, run: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - began
    print(f"  {label:<28} {seconds:8.2f} s   peak RSS so far {peak_mib():9.0f} MiB")
    return seconds, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=100)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="2 hotels x 1 year (seconds), whatever --hotels/--years say")
    args = parser.parse_args()
    if args.quick:
        args.hotels, args.years = 2, 1

    versions = synthetic_versions(args.hotels, args.years)
    nights = versions.select(
        (pl.col("departure") - pl.col("arrival")).dt.total_days().sum()
    ).item()
    given = inputs(args.hotels, 365 * args.years)
    rooms = current_rooms(versions)
    print(f"{args.hotels} hotels x {args.years} years: {versions.height:,} versions, "
          f"{nights:,} room-night versions")

    print("polars transforms")
    t_otb, otb = timed("otb_snapshots", lambda: otb_snapshots(versions, given.ranges, TZ))
    t_pu, pu = timed("pickup", lambda: pickup(versions, given.ranges, WINDOWS, TZ))
    t_occ, occ = timed("stay_nights + occupancy", lambda: occupancy(rooms, given))
    polars_s = t_otb + t_pu + t_occ
    polars_peak = peak_mib()

    print("duckdb SQL")
    con = duckdb.connect()
    to_duckdb(con, versions=versions, ranges=given.ranges)
    d_changes, _ = timed("changes (shared)", lambda: con.execute(SQL_CHANGES))
    d_otb, _ = timed("otb_snapshots", lambda: con.execute(SQL_OTB))
    d_pu, _ = timed("pickup", lambda: con.execute(sql_pickup()))
    d_occ, _ = timed("occupancy", lambda: con.execute(SQL_OCCUPANCY))
    duck_s = d_changes + d_otb + d_pu + d_occ

    def same(label: str, polars_total: object, sql: str) -> None:
        row = con.execute(sql).fetchone()
        duck_total = row[0] if row else None
        verdict = "same" if Decimal(str(polars_total)) == Decimal(str(duck_total)) else "DIFFERENT"
        print(f"  {label:<28} polars {polars_total}  duckdb {duck_total}  {verdict}")

    print("cross-check")
    same("otb rows", otb.height, "SELECT count(*) FROM otb")
    same("otb room nights", otb["rooms_otb"].sum(), "SELECT sum(rooms_otb) FROM otb")
    same("otb revenue_net", otb["revenue_otb_net"].sum(), "SELECT sum(revenue_otb_net) FROM otb")
    same("pickup rows", pu.height, "SELECT count(*) FROM pickup")
    same("pickup rooms_net", pu["rooms_net"].sum(), "SELECT sum(rooms_net) FROM pickup")
    same("pickup revenue_net", pu["revenue_net"].sum(), "SELECT sum(revenue_net) FROM pickup")
    same("occupancy rooms_sold", occ["rooms_sold"].sum(), "SELECT sum(rooms_sold) FROM occ")
    same("occupancy room_revenue_net", occ["room_revenue_net"].sum(),
         "SELECT sum(room_revenue_net) FROM occ")

    print(f"total: polars {polars_s:.2f} s, duckdb {duck_s:.2f} s, "
          f"ratio polars/duckdb {polars_s / duck_s:.2f}")
    print(f"peak RSS: after polars {polars_peak:.0f} MiB, after duckdb {peak_mib():.0f} MiB "
          f"(one process; duckdb's figure includes the polars phase)")


if __name__ == "__main__":
    main()

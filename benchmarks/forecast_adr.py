"""How well the forecast prices the rooms still to come: the room revenue of each night at
h days out, with its rooms taken as they ended (so only the ADR is judged), under three rules
for the ADR of the rooms still to come (docs/forecast.md, "Band, revenue, ADR and occupancy"):

- `curve`: the net ADR the curve nights ended with (the `lookback_weeks` nights of D's weekday
  ending h rounded up to a week before D), the rule before 2026-11-28: the baseline;
- `season`: `curve` x the season's move a year earlier, the final ADR of the same weekday's
  nights around D - 364 (ending 4 weeks after it, or at D - 364 when that night is not over
  by the as-of date) over that of the curve nights a year earlier (ending at their last one -
  364): the marts' rule since 2026-11-28;
- `trailing`: the same with the nights ending at D - 364 (the marts' rule at a5e794a for an
  hour: its window lags the season by a month);
- `pickup_season`: the curve nights' revenue picked up from h days out over their rooms picked
  up, x the same move (tried, not taken: the columns `pickup/season min` and `max` give the
  range of its ADR over `season`'s, wide close to arrival, where a few rooms' net pickup
  divides the revenue the books' rates moved by).

Revenue = the books' revenue + (final rooms - rooms on the books) x that ADR (the final rooms
x the books' ADR when the books end lower); scored over the last 91 nights realized: WAPE and
bias in % of their room revenue, and `season`'s WAPE as a ratio to `curve`'s. The rules are
SQL over mart.otb_snapshots, independent of the marts' polars; the line `marts` compares
`season` with `pickup_adr` of pipelines.transforms.forecast.method_forecasts on the same
nights (largest difference in cents).

    python -m benchmarks.forecast_adr --warehouse /tmp/seeds/seed-1/warehouse.read.duckdb
"""

from __future__ import annotations

import argparse

import duckdb
import polars as pl

from pipelines.transforms import forecast as fx
from pipelines.warehouse.frames import query_frame

HORIZONS = (1, 3, 7, 14, 30, 60, 90, 180)

RULES = """
WITH o AS (SELECT property_id, snapshot_date, stay_date, rooms_otb,
                  CAST(revenue_otb_net AS DOUBLE) AS revenue_otb
           FROM mart.otb_snapshots WHERE property_id = $pid),
f AS (SELECT property_id, stay_date AS night, rooms_otb AS final, revenue_otb AS final_revenue
      FROM o WHERE snapshot_date = stay_date),
adr AS (SELECT night, sum(final_revenue) OVER w / nullif(sum(final) OVER w, 0) AS adr
        FROM f WINDOW w AS (PARTITION BY dayofweek(night) ORDER BY night
                            RANGE BETWEEN INTERVAL (7 * $weeks - 1) DAYS PRECEDING
                            AND CURRENT ROW)),
curve AS (SELECT o.stay_date AS night, datediff('day', o.snapshot_date, o.stay_date) AS h,
            sum(f.final_revenue - o.revenue_otb) OVER w
            / nullif(sum(f.final - o.rooms_otb) OVER w, 0) AS pickup_adr
          FROM o JOIN f ON f.night = o.stay_date
          WHERE datediff('day', o.snapshot_date, o.stay_date) IN $horizons
          WINDOW w AS (PARTITION BY datediff('day', o.snapshot_date, o.stay_date),
                       dayofweek(o.stay_date) ORDER BY o.stay_date
                       RANGE BETWEEN INTERVAL (7 * $weeks - 1) DAYS PRECEDING
                       AND CURRENT ROW)),
x AS (SELECT o.snapshot_date AS as_of_date, o.stay_date AS d,
        datediff('day', o.snapshot_date, o.stay_date) AS h, o.rooms_otb AS otb, o.revenue_otb,
        f.final, f.final_revenue,
        o.stay_date - CAST(7 * (datediff('day', o.snapshot_date, o.stay_date) // 7 + 1)
                           AS INTEGER) AS ref
      FROM o JOIN f ON f.night = o.stay_date
      WHERE datediff('day', o.snapshot_date, o.stay_date) IN $horizons
        AND o.stay_date > (SELECT max(night) FROM f) - 91),
y AS (SELECT x.*, r.adr AS curve_adr, c.pickup_adr,
        CASE WHEN x.h < 364 AND lr.adr > 0 THEN coalesce(ly.adr / lr.adr, 1) ELSE 1 END AS move,
        CASE WHEN x.h < 364 AND lr.adr > 0 THEN coalesce(lt.adr / lr.adr, 1) ELSE 1
        END AS move_trailing
      FROM x
      LEFT JOIN adr r ON r.night = x.ref
      LEFT JOIN curve c ON c.night = x.ref AND c.h = x.h
      LEFT JOIN adr ly ON ly.night = x.d - CASE WHEN x.h < 364 - 7 * ($weeks // 2)
                                                THEN 364 - 7 * ($weeks // 2) ELSE 364 END
      LEFT JOIN adr lt ON lt.night = x.d - 364
      LEFT JOIN adr lr ON lr.night = x.ref - 364)
SELECT as_of_date, d AS stay_date, h, otb, revenue_otb, final, final_revenue,
       coalesce(curve_adr, revenue_otb / nullif(otb, 0)) AS adr_curve,
       coalesce(curve_adr * move, revenue_otb / nullif(otb, 0)) AS adr_season,
       coalesce(curve_adr * move_trailing, revenue_otb / nullif(otb, 0)) AS adr_trailing,
       coalesce(pickup_adr * move, revenue_otb / nullif(otb, 0)) AS adr_pickup_season,
       curve_adr * move AS pickup_adr_sql
FROM y
"""


def _revenue(adr: str) -> pl.Expr:
    otb, final = pl.col("otb"), pl.col("final")
    return (pl.when(final >= otb)
            .then(pl.col("revenue_otb") + (final - otb) * pl.col(adr).fill_null(0.0))
            .otherwise(final * pl.col("revenue_otb") / otb))


def _number(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True)
    args = parser.parse_args()
    settings = fx.ForecastSettings()
    con = duckdb.connect(args.warehouse, read_only=True)
    codes = dict(con.sql("SELECT property_id, code FROM core.property ORDER BY 1").fetchall())
    print("hotel   h  nights  curve WAPE  season WAPE  trailing WAPE  pickup_season WAPE  "
          "season/curve  bias curve  bias season  bias pickup_season  pickup/season min  max")
    for pid, code in codes.items():
        nights = query_frame(con, RULES.replace("$horizons", str(HORIZONS)),
                             {"pid": pid, "weeks": settings.lookback_weeks})
        scored = nights.with_columns(
            err_curve=_revenue("adr_curve") - pl.col("final_revenue"),
            err_season=_revenue("adr_season") - pl.col("final_revenue"),
            err_trailing=_revenue("adr_trailing") - pl.col("final_revenue"),
            err_pickup_season=_revenue("adr_pickup_season") - pl.col("final_revenue"))
        for h in HORIZONS:
            at = scored.filter(pl.col("h") == h)
            total = float(at["final_revenue"].sum())
            wape = {r: 100 * float(at[f"err_{r}"].abs().sum()) / total
                    for r in ("curve", "season", "trailing", "pickup_season")}
            bias = {r: 100 * float(at[f"err_{r}"].sum()) / total
                    for r in ("curve", "season", "pickup_season")}
            ratio = at["adr_pickup_season"] / at["adr_season"]
            print(f"{code}  {h:>3}  {at.height:>6}  {wape['curve']:>10.2f}  "
                  f"{wape['season']:>11.2f}  {wape['trailing']:>13.2f}  "
                  f"{wape['pickup_season']:>18.2f}  "
                  f"{wape['season'] / wape['curve']:>12.2f}  {bias['curve']:>10.2f}  "
                  f"{bias['season']:>11.2f}  {bias['pickup_season']:>19.2f}  "
                  f"{_number(ratio.min()):>17.2f}  {_number(ratio.max()):>4.2f}")
        otb = query_frame(con, "SELECT property_id, snapshot_date, stay_date, rooms_otb, "
                          "revenue_otb_net FROM mart.otb_snapshots WHERE property_id = ?",
                          [pid])
        rooms = query_frame(con, "SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT "
                            "AS rooms FROM core.rooms WHERE property_id = ? GROUP BY 1", [pid])
        as_of = nights.select(pl.lit(pid).cast(pl.Int64).alias("property_id"),
                              "as_of_date").unique()
        marts = fx.method_forecasts(otb, rooms, as_of, HORIZONS, settings).select(
            "as_of_date", "stay_date", "pickup_adr")
        both = nights.join(marts, on=["as_of_date", "stay_date"], how="inner").filter(
            pl.col("pickup_adr_sql").is_not_null() | pl.col("pickup_adr").is_not_null())
        gap = (both["pickup_adr_sql"] - both["pickup_adr"]).abs().max()
        cents = 100 * _number(gap)
        print(f"{code}  marts: {both.height} nights, |pickup_adr - season's SQL| at most "
              f"{cents:.1g} cents")


if __name__ == "__main__":
    main()

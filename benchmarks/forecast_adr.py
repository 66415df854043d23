"""How well the forecast prices the rooms still to come: the room revenue of each night at
h days out, with its rooms taken as they ended (so only the ADR is judged), under the rules
for the ADR of the rooms still to come (docs/forecast.md, "Band, revenue, ADR and occupancy"):

- `curve`: the net ADR the curve nights ended with (the `lookback_weeks` nights of D's weekday
  ending h rounded up to a week before D), the rule before a5e794a: the baseline;
- `season`: `curve` x the season's move a year earlier, the final ADR of the same weekday's
  nights around D - 364 (ending 4 weeks after it, or at D - 364 when that night is not over
  by the as-of date) over that of the curve nights a year earlier (ending at their last one -
  364): the marts' rule from abc3e07 to 2026-11-28's second change;
- `season_premium`: `season` x the late premium (below);
- `month_no_premium`: last year's final ADR of D's weekday in D's calendar month (a complete
  month, over before the as-of date's month began) x the ADR's change on a year (`curve` over
  the curve nights a year earlier; x 1 without them); `season` without that month;
- `month`: `month_no_premium` x the late premium: the marts' rule since. The late premium is
  the net ADR of the rooms picked up from h days out over the final ADR, pooled over the
  nights of every weekday of the 7 x `lookback_weeks` days ending at the curve nights' last
  (1 when they picked up no room or no revenue): rates rise as a hotel fills, so the rooms
  still to come pay more than the night's average.

Revenue = the books' revenue + (final rooms - rooms on the books) x that ADR (the final rooms
x the books' ADR when the books end lower); scored over the last 91 nights realized: WAPE and
bias in % of their room revenue. The rules are SQL over mart.otb_snapshots, independent of
the marts' polars; the line `marts` compares `month` with `pickup_adr` of
pipelines.forecast.logic.methods.method_forecasts on the same nights (largest difference in
cents).

    python -m benchmarks.forecast_adr --warehouse /tmp/seeds/seed-{1,2,3}/warehouse.read.duckdb
"""

from __future__ import annotations

import argparse

import duckdb
import polars as pl

from pipelines.forecast.logic import methods as fx
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
pool AS (SELECT o.stay_date AS night, datediff('day', o.snapshot_date, o.stay_date) AS h,
           sum(f.final - o.rooms_otb) OVER w AS picked,
           sum(f.final_revenue - o.revenue_otb) OVER w
           / nullif(sum(f.final - o.rooms_otb) OVER w, 0)
           / (sum(f.final_revenue) OVER w / nullif(sum(f.final) OVER w, 0)) AS premium
         FROM o JOIN f ON f.night = o.stay_date
         WHERE datediff('day', o.snapshot_date, o.stay_date) IN $horizons
         WINDOW w AS (PARTITION BY datediff('day', o.snapshot_date, o.stay_date)
                      ORDER BY o.stay_date
                      RANGE BETWEEN INTERVAL (7 * $weeks - 1) DAYS PRECEDING AND CURRENT ROW)),
whole AS (SELECT date_trunc('month', night) AS month FROM f GROUP BY 1
          HAVING count(*) = day(last_day(month)) AND min(final) > 0),
mw AS (SELECT date_trunc('month', night) + INTERVAL 1 YEAR AS month, dayofweek(night) AS wd,
         sum(final_revenue) / sum(final) AS adr
       FROM f WHERE date_trunc('month', night) IN (SELECT month FROM whole) GROUP BY ALL),
x AS (SELECT o.snapshot_date AS as_of_date, o.stay_date AS d,
        datediff('day', o.snapshot_date, o.stay_date) AS h, o.rooms_otb AS otb, o.revenue_otb,
        f.final, f.final_revenue,
        o.stay_date - CAST(7 * (datediff('day', o.snapshot_date, o.stay_date) // 7 + 1)
                           AS INTEGER) AS ref
      FROM o JOIN f ON f.night = o.stay_date
      WHERE datediff('day', o.snapshot_date, o.stay_date) IN $horizons
        AND o.stay_date > (SELECT max(night) FROM f) - 91),
y AS (SELECT x.*, r.adr AS curve_adr, m.adr AS ly_month_adr,
        CASE WHEN x.h < 364 AND lr.adr > 0 THEN coalesce(ly.adr / lr.adr, 1) ELSE 1 END AS move,
        CASE WHEN x.h < 364 AND lr.adr > 0 THEN r.adr / lr.adr END AS year_on_year,
        CASE WHEN p.picked > 0 AND p.premium > 0 THEN p.premium ELSE 1 END AS premium
      FROM x
      LEFT JOIN adr r ON r.night = x.ref
      LEFT JOIN pool p ON p.night = x.ref AND p.h = x.h
      LEFT JOIN adr ly ON ly.night = x.d - CASE WHEN x.h < 364 - 7 * ($weeks // 2)
                                                THEN 364 - 7 * ($weeks // 2) ELSE 364 END
      LEFT JOIN adr lr ON lr.night = x.ref - 364
      LEFT JOIN mw m ON m.month = date_trunc('month', x.d) AND m.wd = dayofweek(x.d)
        AND date_trunc('month', x.d) - INTERVAL 1 YEAR < date_trunc('month', x.as_of_date)),
z AS (SELECT *, CASE WHEN ly_month_adr IS NOT NULL
                     THEN ly_month_adr * coalesce(year_on_year, 1)
                     ELSE curve_adr * move END AS month_adr
      FROM y)
SELECT as_of_date, d AS stay_date, h, otb, revenue_otb, final, final_revenue, premium,
       coalesce(curve_adr, revenue_otb / nullif(otb, 0)) AS adr_curve,
       coalesce(curve_adr * move, revenue_otb / nullif(otb, 0)) AS adr_season,
       coalesce(curve_adr * move * premium, revenue_otb / nullif(otb, 0)) AS adr_season_premium,
       coalesce(month_adr, revenue_otb / nullif(otb, 0)) AS adr_month_no_premium,
       coalesce(month_adr * premium, revenue_otb / nullif(otb, 0)) AS adr_month,
       month_adr * premium AS pickup_adr_sql
FROM z
"""
RULES_SHOWN = ("curve", "season", "season_premium", "month_no_premium", "month")


def _revenue(adr: str) -> pl.Expr:
    otb, final = pl.col("otb"), pl.col("final")
    return (pl.when(final >= otb)
            .then(pl.col("revenue_otb") + (final - otb) * pl.col(adr).fill_null(0.0))
            .otherwise(final * pl.col("revenue_otb") / otb))


def _number(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else float("nan")


def score(con: duckdb.DuckDBPyConnection, pid: int, code: str,
          settings: fx.ForecastSettings) -> tuple[list[dict[str, object]], float]:
    """Per horizon and rule: WAPE and bias in % of the room revenue, with the late premium's
    range and mean; and the largest difference between the marts' pickup_adr and `month`'s
    SQL, in cents."""
    nights = query_frame(con, RULES.replace("$horizons", str(HORIZONS)),
                         {"pid": pid, "weeks": settings.lookback_weeks})
    scored = nights.with_columns(**{f"err_{r}": _revenue(f"adr_{r}") - pl.col("final_revenue")
                                    for r in RULES_SHOWN})
    rows: list[dict[str, object]] = []
    for h in HORIZONS:
        at = scored.filter(pl.col("h") == h)
        total = float(at["final_revenue"].sum())
        row: dict[str, object] = {"hotel": code, "h": h, "nights": at.height,
                                  "premium_min": _number(at["premium"].min()),
                                  "premium_max": _number(at["premium"].max()),
                                  "premium_mean": _number(at["premium"].mean())}
        for r in RULES_SHOWN:
            row[f"{r}_wape"] = 100 * float(at[f"err_{r}"].abs().sum()) / total
            row[f"{r}_bias"] = 100 * float(at[f"err_{r}"].sum()) / total
        rows.append(row)
    otb = query_frame(con, "SELECT property_id, snapshot_date, stay_date, rooms_otb, "
                      "revenue_otb_net FROM mart.otb_snapshots WHERE property_id = ?", [pid])
    rooms = query_frame(con, "SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT "
                        "AS rooms FROM core.rooms WHERE property_id = ? GROUP BY 1", [pid])
    as_of = nights.select(pl.lit(pid).cast(pl.Int64).alias("property_id"), "as_of_date").unique()
    marts = fx.method_forecasts(otb, rooms, as_of, HORIZONS, settings).select(
        "as_of_date", "stay_date", "pickup_adr")
    both = nights.join(marts, on=["as_of_date", "stay_date"], how="inner").filter(
        pl.col("pickup_adr_sql").is_not_null() | pl.col("pickup_adr").is_not_null())
    return rows, 100 * _number((both["pickup_adr_sql"] - both["pickup_adr"]).abs().max())


def markdown(table: pl.DataFrame) -> str:
    """WAPE % / bias % per hotel, horizon and rule, and the late premium's range and mean."""
    lines = ["| hotel | h | " + " | ".join(f"`{r}`" for r in RULES_SHOWN)
             + " | premium: lowest | highest | mean |",
             "|---|---:|" + "---:|" * (len(RULES_SHOWN) + 3)]
    for r in table.iter_rows(named=True):
        cells = [f"{r[f'{rule}_wape']:.2f} / {r[f'{rule}_bias']:+.2f}" for rule in RULES_SHOWN]
        lines.append(f"| {r['hotel']} | {r['h']} | " + " | ".join(cells)
                     + f" | {r['premium_min']:.2f} | {r['premium_max']:.2f} | "
                     f"{r['premium_mean']:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True, nargs="+",
                        help="one or more warehouses (draws of the demo): each, then the mean")
    args = parser.parse_args()
    settings = fx.ForecastSettings()
    tables = []
    for path in args.warehouse:
        con = duckdb.connect(path, read_only=True)
        try:
            codes = dict(con.sql("SELECT property_id, code FROM core.property ORDER BY 1")
                         .fetchall())
            rows: list[dict[str, object]] = []
            for pid, code in codes.items():
                scored, cents = score(con, pid, code, settings)
                rows += scored
                print(f"{path} {code}: the marts' pickup_adr differs from `month`'s SQL by at "
                      f"most {cents:.1g} cents")
        finally:
            con.close()
        table = pl.DataFrame(rows)
        tables.append(table)
        print(f"\n{path}: WAPE % / bias % of the room revenue by rule\n")
        print(markdown(table) + "\n")
    if len(tables) > 1:
        mean = pl.concat(tables).group_by("hotel", "h", maintain_order=True).agg(
            pl.col("^.*_(wape|bias)$").mean(), pl.col("premium_min").min(),
            pl.col("premium_max").max(), pl.col("premium_mean").mean())
        print(f"Mean of the {len(tables)} warehouses (premium: lowest and highest of all)\n")
        print(markdown(mean))


if __name__ == "__main__":
    main()

"""Issue 17 experiment: combine the methods instead of choosing one, checked on a period before
the scored one.

    python -m benchmarks.forecast_choice_rules --warehouse data/warehouse.read.duckdb

The marts chose, per property, as-of date S and horizon, the one method with the lowest WAPE
on the nights realized in the 91 days before S (pipelines/forecast/logic/methods.py, `choices`;
since 727c1e7 `season_books`' WAPE counts a fifth lower, which this experiment predates).
Forecast combination is the textbook alternative. Each rule below reads only the WAPE of each
method over the `window` days before S (91 or 182), from the marts' own `recent_scores`:

- `best`: the marts' rule before the switch margin (the lowest WAPE);
- `within10`: the mean of the methods within 10 % of the lowest WAPE;
- `top2`, `top3`: the mean of the 2 or 3 lowest;
- `inv2`: every method weighted by 1 / WAPE^2.

Each rule is scored like `mart.forecast_accuracy` (WAPE over the forecasts of the nights
realized, at each horizon) on two periods: `test`, the last 91 nights (the nights of
docs/forecast.md's table), and `earlier`, the 91 nights before them. A rule picked because it
wins on `test` alone is fitted on the period being scored; one that wins on both is not.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import duckdb
import polars as pl

from pipelines.forecast.logic import methods as f

KEY = ["property_id", "as_of_date", "stay_date", "horizon_days"]
PERIOD_DAYS = 91
SHOWN_HORIZONS = (7, 14, 30, 60)


def method_errors(otb: pl.DataFrame, capacity: pl.DataFrame) -> pl.DataFrame:
    """The backtest's rows of every method (as `backtest`, without the chosen one)."""
    settings = f.ForecastSettings()
    forecasts = f.method_forecasts(otb, capacity, f._as_of_dates(otb), f.HORIZONS, settings)
    return (f._long(forecasts).drop_nulls("rooms_forecast")
            .join(f._realized(otb), on=["property_id", "stay_date"], how="inner")
            .rename({"days_before": "horizon_days"}))


def combined(errors: pl.DataFrame, wape: pl.DataFrame, window: int) -> pl.DataFrame:
    """The forecast of each rule: KEY, rooms_actual, rule, rooms_forecast."""
    rows = (errors.join(wape.drop("rank"),
                        on=["property_id", "as_of_date", "horizon_days", "method"])
            .filter(pl.col("wape").is_not_null())
            .with_columns(rank=pl.col("wape").rank("ordinal").over(KEY)))
    forecast, weight = pl.col("rooms_forecast"), 1 / pl.col("wape") ** 2
    return (
        rows.group_by(KEY).agg(
            rooms_actual=pl.col("rooms_actual").first(),
            best=forecast.filter(pl.col("rank") == 1).first(),
            within10=forecast.filter(pl.col("wape") <= pl.col("wape").min() * 1.10).mean(),
            top2=forecast.filter(pl.col("rank") <= 2).mean(),
            top3=forecast.filter(pl.col("rank") <= 3).mean(),
            inv2=(forecast * weight).sum() / weight.sum(),
        )
        .unpivot(index=[*KEY, "rooms_actual"], variable_name="rule",
                 value_name="rooms_forecast")
        .with_columns(rule=pl.col("rule") + f" ({window} d)")
    )


def scores(rows: pl.DataFrame) -> pl.DataFrame:
    """WAPE % per property, period, horizon and rule."""
    last = rows.group_by("property_id").agg(last=pl.col("stay_date").max())
    age = (pl.col("last") - pl.col("stay_date")).dt.total_days()
    period = (pl.when(age < PERIOD_DAYS).then(pl.lit("test"))
              .when(age < 2 * PERIOD_DAYS).then(pl.lit("earlier")))
    error = (pl.col("rooms_forecast") - pl.col("rooms_actual")).abs()
    return (rows.join(last, on="property_id").with_columns(period=period)
            .drop_nulls("period")
            .group_by("property_id", "period", "horizon_days", "rule")
            .agg(wape=(error.sum() / pl.col("rooms_actual").sum() * 100).round(2)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True)
    args = parser.parse_args(argv)
    conn = duckdb.connect(args.warehouse, read_only=True)
    try:
        otb = pl.DataFrame(conn.execute(
            "SELECT property_id, snapshot_date, stay_date, rooms_otb, "
            "revenue_otb_net::DOUBLE AS revenue_otb_net FROM mart.otb_snapshots").fetchnumpy())
        capacity = pl.DataFrame(conn.execute(
            "SELECT property_id, count(*) FILTER (WHERE sellable) AS rooms FROM core.rooms "
            "GROUP BY 1").fetchnumpy())
        codes = dict(conn.execute("SELECT property_id, code FROM core.property").fetchall())
    finally:
        conn.close()
    errors = method_errors(otb, capacity)
    as_of = f._as_of_dates(otb)
    rows = pl.concat([combined(errors, f.recent_scores(errors, as_of, replace(
        f.ForecastSettings(), choice_days=w)).collect(), w) for w in (91, 182)])
    singles = errors.select(*KEY, "rooms_actual", rule="method",
                            rooms_forecast="rooms_forecast")
    table = scores(pl.concat([rows, singles], how="vertical_relaxed"))
    columns = [(p, period) for p in sorted(codes) for period in ("earlier", "test")]
    for horizon in SHOWN_HORIZONS:
        print(f"\nhorizon {horizon} days: WAPE %")
        print("| rule | " + " | ".join(f"{codes[p]} {period}" for p, period in columns) + " |")
        print("|---|" + "---:|" * len(columns))
        at = table.filter(pl.col("horizon_days") == horizon)
        for rule in sorted(at["rule"].unique()):
            cells = []
            for p, period in columns:
                hit = at.filter((pl.col("rule") == rule) & (pl.col("property_id") == p)
                                & (pl.col("period") == period))["wape"]
                cells.append("" if hit.is_empty() or hit[0] is None else f"{hit[0]:.2f}")
            print(f"| {rule} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

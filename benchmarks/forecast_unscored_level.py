"""Issue 17: which method forecasts best while `last_year_season` has a forecast but no score.

    python -m benchmarks.forecast_unscored_level --warehouse W [W ...]

In the months after a history's first complete month turns a year old, `last_year_season`
forecasts the nights ahead (their month a year back is complete) but not the recent nights
the choice scores on (theirs is not): it has no WAPE, and the choice takes the best of the
methods scored, the pickup methods. This replays every method at the backtest's horizons as
of every snapshot date of each warehouse (pipelines/transforms/forecast.py, `method_forecasts`
and `recent_scores`, nothing after the as-of date read) and keeps the forecasts made as of the
dates where `last_year_season` had a value and no WAPE. Per hotel and horizon: how many such
forecasts, the choice without the rule (`level_from_days` beyond every horizon) and each
method's WAPE % over them, pooled over the warehouses given. docs/forecast.md, "The choice",
reads this table to set `ForecastSettings.level_from_days`.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from benchmarks.forecast_accuracy_table import pooled_main
from pipelines.transforms import forecast as fx

SHOWN = ("additive_pickup", "multiplicative_pickup", "last_year_pickup", "last_year", "blend",
         fx.LEVEL_METHOD)


def unscored_rows(otb: pl.DataFrame, rooms: pl.DataFrame) -> pl.DataFrame:
    """Every method's errors as of the dates where last_year_season had a value and no WAPE,
    with the method chosen without the rule: property_id, horizon_days, method,
    rooms_forecast, rooms_actual, chosen_method."""
    settings = replace(fx.ForecastSettings(), level_from_days=max(fx.HORIZONS) + 1)
    as_of = fx._as_of_dates(otb)
    errors = fx._errors(fx.method_forecasts(otb, rooms, as_of, fx.HORIZONS, settings), otb)
    by = ["property_id", "as_of_date", "horizon_days"]
    unscored = (fx.recent_scores(errors, as_of, settings)
                .filter(pl.col("method") == fx.LEVEL_METHOD, pl.col("wape").is_null())
                .select(by).collect())
    with_level = errors.filter(pl.col("method") == fx.LEVEL_METHOD).select(*by, "stay_date")
    return (errors.join(unscored, on=by).join(with_level, on=[*by, "stay_date"])
            .join(fx.choices(errors, as_of, settings), on=by))


def table(rows: pl.DataFrame, codes: dict[int, str]) -> str:
    error = (pl.col("rooms_forecast") - pl.col("rooms_actual")).abs()
    wape = (rows.group_by("property_id", "horizon_days", "method")
            .agg(wape=error.sum() / pl.col("rooms_actual").sum() * 100))
    level = rows.filter(pl.col("method") == fx.LEVEL_METHOD)
    usual = (level.group_by("property_id", "horizon_days", "chosen_method").len()
             .sort("len", descending=True)
             .group_by("property_id", "horizon_days", maintain_order=True)
             .agg(chosen=pl.col("chosen_method").first(), forecasts=pl.col("len").sum()))
    lines = ["| hotel | horizon | forecasts | usually chosen without the rule | "
             + " | ".join(SHOWN) + " |", "|---|---:|---:|---|" + "---:|" * len(SHOWN)]
    for r in usual.sort("property_id", "horizon_days").iter_rows(named=True):
        cells = dict(wape.filter(property_id=r["property_id"], horizon_days=r["horizon_days"])
                     .select("method", "wape").iter_rows())
        shown = [f"{cells[m]:.2f}" if m in cells else "-" for m in SHOWN]
        lines.append(f"| {codes[r['property_id']]} | {r['horizon_days']} | {r['forecasts']} | "
                     f"{r['chosen']} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


def main() -> None:
    pooled_main(__doc__.splitlines()[0], unscored_rows, table)

if __name__ == "__main__":
    main()

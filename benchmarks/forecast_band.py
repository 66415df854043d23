"""Issue 17: how often the forecast's 80 % band held the night, by the band's two rules.

    python -m benchmarks.forecast_band --warehouse W [W ...]

Replays the backtest of the marts (pipelines/forecast/logic/methods.py: `scored_forecasts`,
`choices`, `_pick`, each as-of date reading only what was known then) and, over the chosen
forecasts of the last 91 nights realized (the nights of mart.forecast_accuracy), counts the
nights whose actual rooms fell inside each band, bounds included:

- `errors`: the band the marts ship, the forecast plus the 10th / 90th percentiles of the
  chosen method's errors (actual - forecast) at the horizon on the nights realized in the 91
  days before the as-of date (the curve spread where it has none);
- `curve`: the band before it, the forecast plus the spread of the curve nights' remaining
  pickup around their mean.

Per hotel and horizon, pooled over the warehouses given: the nights, each band's share
inside, below and above it, and its mean width in rooms. A band of 10th to 90th percentiles
should hold about 80 % of the nights, with about 10 % on each side.
"""

from __future__ import annotations

import polars as pl

from benchmarks.forecast_accuracy_table import pooled_main
from pipelines.forecast.logic import methods as fx

BANDS = ("errors", "curve")


def chosen_nights(otb: pl.DataFrame, rooms: pl.DataFrame) -> pl.DataFrame:
    """One property's chosen forecasts of the scored nights with both bands: property_id,
    horizon_days, rooms_actual, errors_low/high, curve_low/high."""
    settings = fx.ForecastSettings()
    scored = fx.scored_forecasts(otb, rooms, settings)
    errors = fx._errors(scored, otb)
    picked = fx._pick(scored, fx.choices(errors, fx._as_of_dates(otb), settings)).join(
        fx._realized(otb), on=["property_id", "stay_date"], how="inner")
    last = picked["stay_date"].max()
    forecast, cap = pl.col("rooms_forecast"), pl.col("cap").cast(pl.Float64)
    return (
        picked.filter(pl.col("stay_date") > pl.lit(last) - pl.duration(days=settings.backtest_days))
        .select("property_id", "horizon_days", "rooms_actual",
                errors_low="rooms_low", errors_high="rooms_high",
                curve_low=pl.min_horizontal(forecast, (forecast + pl.col("spread_low")
                                                       .fill_null(0.0)).clip(0.0, cap)),
                curve_high=pl.max_horizontal(forecast, (forecast + pl.col("spread_high")
                                                        .fill_null(0.0)).clip(0.0, cap)))
    )


def table(nights: pl.DataFrame, codes: dict[int, str]) -> str:
    actual = pl.col("rooms_actual")
    shares = []
    for band in BANDS:
        low, high = pl.col(f"{band}_low"), pl.col(f"{band}_high")
        shares += [(actual.is_between(low, high).mean() * 100).alias(f"{band}_inside"),
                   ((actual < low).mean() * 100).alias(f"{band}_below"),
                   ((actual > high).mean() * 100).alias(f"{band}_above"),
                   (high - low).mean().alias(f"{band}_width")]
    rows = (nights.group_by("property_id", "horizon_days")
            .agg(pl.len().alias("nights"), *shares).sort("property_id", "horizon_days"))
    head = " | ".join(f"{band}: {what}" for band in BANDS
                      for what in ("inside %", "below %", "above %", "width"))
    lines = [f"| hotel | horizon | nights | {head} |", "|---|---:|---:|" + "---:|" * 8]
    for r in rows.iter_rows(named=True):
        cells = " | ".join(f"{r[f'{band}_{what}']:.1f}" for band in BANDS
                           for what in ("inside", "below", "above", "width"))
        lines.append(f"| {codes[r['property_id']]} | {r['horizon_days']} | {r['nights']} | "
                     f"{cells} |")
    return "\n".join(lines)


def main() -> None:
    pooled_main(__doc__.splitlines()[0], chosen_nights, table)

if __name__ == "__main__":
    main()

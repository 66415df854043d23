"""Benchmark: the forecast (mart.forecast_daily) and its rolling-origin backtest
(mart.forecast_accuracy) beside the marts they read, in the same process.

The synthetic history of benchmarks/bench_marts.py (80-room hotels; default 1 and 10 hotels x
3 years, each size in its own process): otb_snapshots + pickup + pace are timed as "the marts",
then the forecast as the marts' build makes it (the backtest's forecasts once, then
forecast_daily, backtest and accuracy from them); prints both, the ratio forecast / marts and
the peak memory of the process (resource.getrusage), and the WAPE at 30 days as a multiple of
the history's floor: the WAPE of its level (`synthetic_level`, what the generator's
definition expects each night to end at, which no forecast reads) on the same nights.
`--growth`: one hotel at 1, 2, 3 and 5 years of history, each in its own process.

    .venv/bin/python -m benchmarks.bench_forecast --quick       # 1 hotel x 1 year, seconds
    .venv/bin/python -m benchmarks.bench_forecast --hotels 10 --years 3
    .venv/bin/python -m benchmarks.bench_forecast --growth
"""

from __future__ import annotations

import argparse
from datetime import timedelta

import polars as pl

from benchmarks import bench_marts as bm
from benchmarks.by_years import each_in_own_process
from pipelines.forecast.logic.methods import (
    CHOSEN,
    accuracy,
    backtest,
    forecast_daily,
    scored_forecasts,
)
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import pace
from pipelines.marts.logic.pickup import pickup


def synthetic_level(days: int) -> float:
    """The rooms each night of bench_marts' synthetic history is expected to end at, from its
    definition: a hotel's `per_hotel` bookings arrive uniformly over `days` days, stay 1-4
    nights uniformly (a night is covered by the arrivals of that day and the 3 before it with
    chance 4/4, 3/4, 2/4, 1/4: 2.5 nights) and a quarter of them cancel; so per_hotel / days x
    0.75 x 2.5 rooms every night from the fourth day on (45 for 80 rooms)."""
    per_hotel = bm.ROOMS_PER_HOTEL * days * 75 // 100 * 10 // 25
    return per_hotel / days * 0.75 * 2.5


def run(hotels: int, years: int) -> None:
    versions = bm.synthetic_versions(hotels, years)
    days = 365 * years
    given = bm.inputs(hotels, days)
    print(f"{hotels} hotels x {years} years: {versions.height:,} versions")
    print("marts")
    t_otb, otb = bm.timed("otb_snapshots", lambda: otb_snapshots(versions, given.ranges, bm.TZ))
    t_pu, _ = bm.timed("pickup", lambda: pickup(versions, given.ranges, bm.WINDOWS, bm.TZ))
    t_pace, _ = bm.timed("pace", lambda: pace(otb))
    marts_s = t_otb + t_pu + t_pace
    print(f"  {otb.height:,} otb_snapshots rows")
    print("forecast")
    t_sc, scored = bm.timed("the backtest's forecasts",
                            lambda: scored_forecasts(otb, given.capacity))
    t_fc, daily = bm.timed("forecast_daily",
                           lambda: forecast_daily(otb, given.capacity, scored=scored))
    t_bt, errors = bm.timed("backtest", lambda: backtest(otb, given.capacity, scored=scored))
    nights = pl.date_range(bm.START, bm.START + timedelta(days=days - 1), eager=True)
    levels = pl.DataFrame({"property_id": list(range(1, hotels + 1))}).join(
        pl.DataFrame({"stay_date": nights}), how="cross").with_columns(
        rooms_level=pl.lit(synthetic_level(days)))
    t_acc, table = bm.timed("accuracy", lambda: accuracy(errors, levels=levels))
    forecast_s = t_sc + t_fc + t_bt + t_acc
    print(f"  {scored.height:,} backtest forecasts, {daily.height:,} forecast rows, "
          f"{errors.height:,} backtest errors")
    at30 = table.filter(pl.col("horizon_days") == 30).group_by(
        "method").agg(pl.col("wape_pct").mean().round(2),
                      (pl.col("wape_pct") / pl.col("floor_wape_pct")).mean().round(2)
                      .alias("x_floor"),
                      pl.col("floor_wape_pct").mean().round(2)).sort("method")
    print("mean WAPE % at 30 days over the hotels, and as a multiple of the floor: " + ", ".join(
        f"{m} {w} ({x} x)" for m, w, x, _ in at30.iter_rows()) + f" ({CHOSEN}: the choice)")
    print("floor (the WAPE of the level, "
          f"{synthetic_level(days):.1f} rooms a night, on the same nights) % at 30 days: "
          + ", ".join(f"{m} {f}" for m, _, _, f in at30.iter_rows()))
    print(f"total: marts {marts_s:.2f} s, forecast {forecast_s:.2f} s, "
          f"ratio forecast/marts {forecast_s / marts_s:.2f}, peak RSS {bm.peak_mib():.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, help="one size only (default: 1 and 10)")
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="1 hotel x 1 year (seconds), whatever --hotels/--years say")
    parser.add_argument("--growth", action="store_true",
                        help="1 hotel at 1, 2, 3 and 5 years of history")
    args = parser.parse_args()
    if args.quick:
        run(1, 1)
    elif args.hotels is not None:
        run(args.hotels, args.years)
    else:
        each_in_own_process("benchmarks.bench_forecast", [(1, y) for y in (1, 2, 3, 5)]
                            if args.growth else [(1, args.years), (10, args.years)])


if __name__ == "__main__":
    main()

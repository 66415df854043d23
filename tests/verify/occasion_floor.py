"""Study: the forecast's WAPE against the simulator's floor on the weeks of the holidays and
events (issue 49 item 5: "at 30 days ... including the weeks of Christmas, Easter and the
simulator's events").

For each warehouse given (a demo's, as tests/verify/band_replay.py reads it: the hotels'
events from DIR/demo/events.yaml, the simulator's) and each hotel, replays the forecast in
use 30 days before each night (pipelines/forecast/logic/, every as-of date of the history)
and scores it against the night's end on the nights of the **weeks of the events** (Monday
to Sunday, each week holding a night of an event of the events file: Christmas, Easter, the
fairs...) whose level had a year back (`last_year_season` had a value 30 days before),
beside the simulator's level of the same nights (core.sandbox_levels). Prints per hotel (and
pooled over the warehouses) the nights, the WAPE, the floor's, their ratio with a 90 %
interval by the delete-a-week jackknife (docs/forecast.md, "How sure the figures are"), and
the same on the events' own nights; `--by-occasion` each occurrence's errors. `one_year`: the
ratio of the **one-year-luck bound** (the simulator's level of the night x its occasion's
effect learned from last year's finals over last year's levels, pooled over the occasion's
nights as occasions.py pools; the level alone on the other nights; at most the hotel's
rooms): what a method that learns an effect from one past year reaches at best, with its
interval; `all_years` the same bound with the luck pooled over the nights of every past
occurrence the history holds (`occasions.past_occurrences`). `--since DATE` scores the nights
from DATE on only (those with two past occurrences in a longer history).

    uv run --locked --no-sync python -m tests.verify.occasion_floor DIR/warehouse.duckdb ...
"""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import (
    ForecastSettings,
    _as_of_dates,
    _errors,
    _pick,
    _realized,
    choices,
    method_forecasts,
)
from pipelines.forecast.logic.occasions import past_occurrences
from pipelines.forecast.logic.skill import Z_90
from pipelines.marts import read
from tests.verify.band_replay import _calendar, _inputs

HORIZON = 30
"""Issue 49's horizon of the WAPE goal."""


def nights(path: Path, settings: ForecastSettings) -> pl.DataFrame:
    """Per hotel and realized night with a level a year back: hotel, stay_date, event
    (null on the other nights of its week), occasion, week (its Monday), in_event_week,
    rooms_forecast (in use HORIZON days before), method, rooms_actual, rooms_level, rooms_one_year
    (the one-year-luck bound), rooms_all_years (the bound with every past year's luck)."""
    con, otb, rooms, codes, events = _inputs(path)
    parts = []
    with con:
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            as_of = _as_of_dates(o)
            forecasts = method_forecasts(o, capacity, as_of, [HORIZON], settings, calendar)
            picked = _pick(forecasts, choices(_errors(forecasts, o), as_of, settings))
            week = pl.col("stay_date").dt.truncate("1w")
            level = read.sandbox_levels(con, pid)
            parts.append(
                picked.filter(pl.col("last_year_season").is_not_null())
                .join(_realized(o), on=["property_id", "stay_date"], how="inner")
                .join(level, on=["property_id", "stay_date"], how="inner")
                .join(calendar.select("property_id", "stay_date", "event", "occasion"),
                      on=["property_id", "stay_date"], how="left")
                .pipe(luck_bounds, calendar,
                      _realized(o).join(level, on=["property_id", "stay_date"]), capacity)
                .with_columns(week=week)
                .with_columns(in_event_week=pl.col("event").is_not_null().any().over("week"))
                .select("stay_date", "event", "occasion", "week", "in_event_week",
                        "rooms_forecast", "method", "rooms_actual", "rooms_level",
                        "rooms_one_year", "rooms_all_years",
                        hotel=pl.lit(f"{path.parent.name} {code}"),
                        code=pl.lit(code)))
    return pl.concat(parts)


def luck_bounds(rows: pl.DataFrame, calendar: pl.DataFrame, past: pl.DataFrame,
                rooms: pl.DataFrame) -> pl.DataFrame:
    """rows (property_id, occasion, rooms_level, ...) with rooms_one_year and rooms_all_years:
    the level x the luck of the occasion's last occurrence, and of every past occurrence (sum
    of rooms_actual over sum of rooms_level of `past`, property_id, stay_date, rooms_actual,
    rooms_level, over the nights aligned with the occasion's by name: the calendar's ly_date,
    and for every past occurrence those of `occasions.past_occurrences`; 1 without), at most
    the hotel's rooms (property_id, rooms)."""
    occasions = calendar.lazy().filter("ly_by_name", pl.col("occasion").is_not_null()).select(
        "property_id", "ly_date", "occasion")
    nights = (past_occurrences(occasions).collect()
              .rename({"ly_date": "stay_date"})
              .join(past, on=["property_id", "stay_date"], how="inner"))
    last = pl.col("years_back") == 1
    lucks = nights.group_by("property_id", "occasion").agg(
        one=pl.when(last.any()).then(pl.col("rooms_actual").filter(last).sum()
                                     / pl.col("rooms_level").filter(last).sum()),
        every=pl.col("rooms_actual").sum() / pl.col("rooms_level").sum())

    def bound(luck: str) -> pl.Expr:
        return (pl.col("rooms_level") * pl.col(luck).fill_null(1.0)).clip(
            upper_bound=pl.col("rooms"))

    return (rows.join(lucks, on=["property_id", "occasion"], how="left")
            .join(rooms.select("property_id", "rooms"), on="property_id", how="left")
            .with_columns(rooms_one_year=bound("one"), rooms_all_years=bound("every"))
            .drop("one", "every", "rooms"))


def ratio(scored: pl.DataFrame, by: list[str], forecast: str = "rooms_forecast") -> pl.DataFrame:
    """Per `by`: nights, weeks, WAPE % of `forecast`, the floor's WAPE %, their ratio and its
    90 % interval by the delete-a-week jackknife (theta_i without week i; none below 4 weeks)."""
    weeks = scored.group_by(list(dict.fromkeys([*by, "hotel", "week"]))).agg(
        n=pl.len(), a=(pl.col(forecast) - pl.col("rooms_actual")).abs().sum(),
        f=(pl.col("rooms_level") - pl.col("rooms_actual")).abs().sum(),
        actual=pl.col("rooms_actual").sum(),
        bias=(pl.col(forecast) - pl.col("rooms_actual")).sum())
    a, f = pl.col("a").sum().over(by), pl.col("f").sum().over(by)
    left_out = weeks.with_columns(k=pl.len().over(by),
                                  theta_i=(a - pl.col("a")) / (f - pl.col("f")))
    se = ((pl.col("k").first() - 1) / pl.col("k").first()
          * ((pl.col("theta_i") - pl.col("theta_i").mean()) ** 2).sum()).sqrt()
    theta = pl.col("a").sum() / pl.col("f").sum()
    ok = pl.col("k").first() >= 4
    return (
        left_out.group_by(by)
        .agg(nights=pl.col("n").sum(), weeks=pl.len(),
             wape_pct=(pl.col("a").sum() / pl.col("actual").sum() * 100).round(2),
             floor_wape_pct=(pl.col("f").sum() / pl.col("actual").sum() * 100).round(2),
             ratio=theta.round(2), low=pl.when(ok).then(theta - Z_90 * se).round(2),
             high=pl.when(ok).then(theta + Z_90 * se).round(2),
             bias_pct=(pl.col("bias").sum() / pl.col("actual").sum() * 100).round(1))
        .sort(by)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--by-occasion", action="store_true",
                        help="also each occurrence's nights, errors and methods")
    parser.add_argument("--no-pooling", action="store_true",
                        help="each night its own effect (ForecastSettings.pool_occasions)")
    parser.add_argument("--since", type=date.fromisoformat, metavar="YYYY-MM-DD",
                        help="score the nights from this date on only")
    args = parser.parse_args()
    settings = ForecastSettings(pool_occasions=not args.no_pooling)
    scored = pl.concat([nights(p, settings) for p in args.warehouses])
    if args.since is not None:
        scored = scored.filter(pl.col("stay_date") >= args.since)
    first = scored["stay_date"].min()
    if not isinstance(first, date):
        raise SystemExit("no night realized with a level a year back (a year of history)")
    sets = {"every night": scored, "weeks of the events": scored.filter("in_event_week"),
            "the events' nights": scored.filter(pl.col("event").is_not_null())}
    with pl.Config(tbl_rows=200, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, fmt_str_lengths=50, tbl_width_chars=220):
        for name, part in sets.items():
            print(f"{name}, {HORIZON} days out, nights from {first} to "
                  f"{scored['stay_date'].max()}:")
            tables = [pl.concat([ratio(part, ["hotel"], column), ratio(part, ["code"], column)
                                 .rename({"code": "hotel"})
                                 .with_columns(hotel="all " + pl.col("hotel"))])
                      for column in ("rooms_forecast", "rooms_one_year", "rooms_all_years")]
            print(tables[0].with_columns(**{name: t["ratio"].cast(pl.String) + " ["
                                            + t["low"].cast(pl.String) + ", "
                                            + t["high"].cast(pl.String) + "]"
                                            for name, t in (("one_year", tables[1]),
                                                            ("all_years", tables[2]))}))
        if args.by_occasion:
            print(scored.filter(pl.col("occasion").is_not_null())
                  .group_by("hotel", "occasion")
                  .agg(nights=pl.len(), first=pl.col("stay_date").min(),
                       actual=pl.col("rooms_actual").sum(),
                       forecast=pl.col("rooms_forecast").sum().round(1),
                       level=pl.col("rooms_level").sum().round(1),
                       abs_error=(pl.col("rooms_forecast") - pl.col("rooms_actual")).abs().sum()
                       .round(1),
                       floor_abs=(pl.col("rooms_level") - pl.col("rooms_actual")).abs().sum()
                       .round(1),
                       methods=pl.col("method").unique().sort().str.join(","))
                  .sort("hotel", "first"))


if __name__ == "__main__":
    main()

"""Study (one-off, issue 49 item 5, session 39): what FIRE01 loses on the weeks of its events,
and rules tried for it, against the simulator's floor at 30 days (tests/verify/occasion_floor.py),
on several warehouses; kept in git history, not in the tree (docs/forecast-history.md, "The
events' weeks at Florence").

    python -m tests.verify.occasion_study VARIANT DIR/warehouse.duckdb ...

VARIANT:
- `base`: the code as it is (ForecastSettings());
- `oracle`: a bound, not a candidate: last year's occasion nights' finals replaced by the
  simulator's level of those nights (core.sandbox_levels) in the effect, no luck in it;
- `ahead`, `ahead3`, `ahead20`, `ahead_half`: on an event's night, where the books 30 days out
  say more than last year's on the aligned night 30 days before it (by a room, by 3, by 20 %),
  the forecast is at least last_year_pickup (`ahead_half`: at least the mean of the two);
- `widen`, `after`, `around`: the nights around each event of events.yaml aligned with last
  year's (bridge days): the event a night longer on each side, or a night after (before) it
  as an occasion of its own;
- `near05`, `near10`: a night of last year's occasion that ended within 5 / 10 % of a full
  night counts as full in its effect (the forecast of an occasion at the cap sits below it
  when last year's nights ended a room short: luck below full passes, above it is cut).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from pathlib import Path

import duckdb
import polars as pl

import pipelines.forecast.logic.methods as methods
from pipelines.forecast import Event
from pipelines.forecast.logic import occasions
from pipelines.forecast.logic.methods import (
    ForecastSettings,
    _as_of_dates,
    _errors,
    _pick,
    _realized,
    choices,
    method_forecasts,
)
from pipelines.marts import read
from tests.verify.band_replay import _calendar, _inputs
from tests.verify.occasion_floor import HORIZON, ratio

ORIGINAL = occasions.occasion_effects
Effects = Callable[..., pl.LazyFrame]


def _oracle(path: Path) -> Effects:
    con = duckdb.connect(str(path), read_only=True)
    level = con.sql("SELECT property_id::BIGINT AS property_id, stay_date, rooms_level "
                    "FROM core.sandbox_levels").pl().lazy()
    con.close()

    def effects(occasion_nights: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                shape: pl.LazyFrame, finals: pl.LazyFrame, pooled: bool,
                full_share: float | None) -> pl.LazyFrame:
        occ = occasion_nights.select("property_id", stay_date="ly_date").unique().with_columns(
            occ=pl.lit(True))
        known = (finals.join(level, on=["property_id", "stay_date"], how="left")
                 .join(occ, on=["property_id", "stay_date"], how="left")
                 .with_columns(final_rooms=pl.when(pl.col("occ").fill_null(False)
                                                   & pl.col("rooms_level").is_not_null())
                               .then(pl.col("rooms_level"))
                               .otherwise(pl.col("final_rooms").cast(pl.Float64)))
                 .drop("rooms_level", "occ"))
        return ORIGINAL(occasion_nights, key_months, levels, shape, known, pooled, full_share)
    return effects


def _near_full(tolerance: float) -> Effects:
    def effects(occasion_nights: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                shape: pl.LazyFrame, finals: pl.LazyFrame, pooled: bool,
                full_share: float | None) -> pl.LazyFrame:
        assert pooled
        assert full_share is not None
        by = ["property_id", "key_month", "occasion"]
        rows = (
            key_months.unique().join(occasion_nights.unique(), on="property_id", how="inner")
            .with_columns(month=pl.col("ly_date").dt.truncate("1mo"),
                          weekday=pl.col("ly_date").dt.weekday())
            .filter(pl.col("month") < pl.col("key_month"))
            .join(finals.select("property_id", ly_date="stay_date", final="final_rooms"),
                  on=["property_id", "ly_date"], how="inner")
            .join(levels.select("property_id", "month", "month_mean"),
                  on=["property_id", "month"], how="inner")
            .join(shape.select("property_id", "key_month", "weekday", "weekday_factor"),
                  on=["property_id", "key_month", "weekday"], how="left")
            .select("property_id", "key_month", "occasion", "ly_date",
                    final=pl.col("final").cast(pl.Float64),
                    level=pl.col("month_mean") * pl.col("weekday_factor").fill_null(1.0))
            .join(occasions.full_levels(finals, key_months, full_share),
                  on=["property_id", "key_month"], how="left")
            .with_columns(final=pl.when(pl.col("final") >= (1 - tolerance) * pl.col("full"))
                          .then(pl.max_horizontal("final", "full")).otherwise("final"))
        )
        return occasions._saturated(rows, by).select(
            "property_id", "key_month", "occasion", "ly_date", "full",
            event_effect=pl.col("effect").clip(*occasions.EVENT_CLIP).round(9))
    return effects


def _bridges(events: tuple[Event, ...], mode: str) -> tuple[Event, ...]:
    out: list[Event] = []
    for e in events:
        if mode == "widen":
            out.append(e.model_copy(update={"offset_days": e.offset_days - 1,
                                            "nights": e.nights + 2}))
            continue
        out.append(e)
        out.append(e.model_copy(update={"name": f"{e.name} (after)",
                                        "offset_days": e.offset_days + e.nights, "nights": 1}))
        if mode == "around":
            out.append(e.model_copy(update={"name": f"{e.name} (before)",
                                            "offset_days": e.offset_days - 1, "nights": 1}))
    return tuple(out)


def _ahead(more: pl.Expr, half: bool = False) -> pl.Expr:
    """The forecast of an event's night, at least last_year_pickup where `more` (the books
    ahead of last year's on the aligned night at the same horizon)."""
    forecast, pickup = pl.col("rooms_forecast"), pl.col("last_year_pickup")
    floor = (forecast + pickup) / 2 if half else pickup
    return pl.when(pl.col("event").is_not_null() & more).then(
        pl.max_horizontal(forecast, floor)).otherwise(forecast).clip(upper_bound=pl.col("cap"))


LY_OTB = pl.col("last_year") - (pl.col("last_year_pickup") - pl.col("rooms_otb"))
AHEAD = {"ahead": _ahead(pl.col("rooms_otb") > LY_OTB),
         "ahead3": _ahead(pl.col("rooms_otb") >= LY_OTB + 3),
         "ahead20": _ahead(pl.col("rooms_otb") >= 1.2 * LY_OTB),
         "ahead_half": _ahead(pl.col("rooms_otb") > LY_OTB, half=True)}
VARIANTS = ("base", "oracle", *AHEAD, "widen", "after", "around", "near05", "near10")


def nights(path: Path, variant: str) -> pl.DataFrame:
    """occasion_floor.nights under `variant`: the events' weeks and nights from the demo's
    own events file whatever the variant forecasts with."""
    settings = ForecastSettings()
    methods.occasion_effects = (_oracle(path) if variant == "oracle"
                                else _near_full(int(variant[4:]) / 100)
                                if variant.startswith("near") else ORIGINAL)
    con, otb, rooms, codes, events = _inputs(path)
    parts = []
    try:
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            forecast_with = (_calendar(con, pid, o, _bridges(events, variant))
                             if variant in ("widen", "after", "around") else calendar)
            as_of = _as_of_dates(o)
            forecasts = method_forecasts(o, rooms.filter(pl.col("property_id") == pid), as_of,
                                         [HORIZON], settings, forecast_with)
            picked = _pick(forecasts, choices(_errors(forecasts, o), as_of, settings)).join(
                forecasts.select("property_id", "as_of_date", "stay_date", "last_year",
                                 "last_year_pickup"),
                on=["property_id", "as_of_date", "stay_date"], how="left")
            scored = (
                picked.filter(pl.col("last_year_season").is_not_null())
                .join(_realized(o), on=["property_id", "stay_date"], how="inner")
                .join(read.sandbox_levels(con, pid), on=["property_id", "stay_date"],
                      how="inner")
                .join(calendar.select("property_id", "stay_date", "event"),
                      on=["property_id", "stay_date"], how="left")
                .with_columns(week=pl.col("stay_date").dt.truncate("1w"))
                .with_columns(in_event_week=pl.col("event").is_not_null().any().over("week"))
            )
            if variant in AHEAD:
                scored = scored.with_columns(rooms_forecast=AHEAD[variant])
            parts.append(scored.select(
                "stay_date", "event", "week", "in_event_week", "rooms_forecast",
                "rooms_actual", "rooms_level", hotel=pl.lit(f"{path.parent.name} {code}"),
                code=pl.lit(code)))
    finally:
        con.close()
    return pl.concat(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=VARIANTS)
    parser.add_argument("warehouses", nargs="+", type=Path)
    args = parser.parse_args()
    scored = pl.concat([nights(p, args.variant) for p in args.warehouses])
    first = scored["stay_date"].min()
    assert isinstance(first, date)
    sets = {"every night": scored, "weeks of the events": scored.filter("in_event_week"),
            "the events' nights": scored.filter(pl.col("event").is_not_null())}
    for name, part in sets.items():
        table = pl.concat([ratio(part, ["hotel"]), ratio(part, ["code"]).rename(
            {"code": "hotel"}).with_columns(hotel="all " + pl.col("hotel"))])
        print(f"{args.variant}: {name} ({first} to {scored['stay_date'].max()}): " + "; ".join(
            f"{r['hotel']} {r['ratio']} [{r['low']}, {r['high']}] bias {r['bias_pct']} %"
            for r in table.to_dicts()))


if __name__ == "__main__":
    main()

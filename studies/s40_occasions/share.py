"""s40 study: both hotels in one forecast call; variant 'share' averages a shared occasion's
effect over the hotels that have it (same key_month, same occasion name)."""
import sys
from pathlib import Path

import polars as pl

import pipelines.forecast.logic.methods as methods
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


def shared(weight: float):
    def effects(*args, **kw):
        e = ORIGINAL(*args, **kw)
        per = e.group_by("property_id", "key_month", "occasion").agg(
            eff=pl.col("event_effect").first(), n=pl.len())
        other = per.rename({"property_id": "other", "eff": "o_eff", "n": "o_n"})
        mean = (per.join(other, on=["key_month", "occasion"], how="inner")
                .filter(pl.col("other") != pl.col("property_id"))
                .group_by("property_id", "key_month", "occasion")
                .agg(o=(pl.col("o_eff") * pl.col("o_n")).sum() / pl.col("o_n").sum()))
        return e.join(mean, on=["property_id", "key_month", "occasion"], how="left").with_columns(
            event_effect=pl.when(pl.col("o").is_null()).then(pl.col("event_effect"))
            .otherwise((1 - weight) * pl.col("event_effect") + weight * pl.col("o"))).drop("o")
    return effects


def nights(path: Path, settings: ForecastSettings) -> pl.DataFrame:
    con, otb, rooms, codes, events = _inputs(path)
    try:
        calendar = pl.concat([_calendar(con, pid, otb.filter(pl.col("property_id") == pid), events)
                              for pid in sorted(codes)])
        as_of = _as_of_dates(otb)
        forecasts = method_forecasts(otb, rooms, as_of, [HORIZON], settings, calendar)
        picked = _pick(forecasts, choices(_errors(forecasts, otb), as_of, settings))
        level = pl.concat([read.sandbox_levels(con, pid) for pid in sorted(codes)])
        code = pl.col("property_id").replace_strict(codes, return_dtype=pl.String)
        return (picked.filter(pl.col("last_year_season").is_not_null())
                .join(_realized(otb), on=["property_id", "stay_date"], how="inner")
                .join(level, on=["property_id", "stay_date"], how="inner")
                .join(calendar.select("property_id", "stay_date", "event", "occasion"),
                      on=["property_id", "stay_date"], how="left")
                .with_columns(week=pl.col("stay_date").dt.truncate("1w"))
                .with_columns(in_event_week=pl.col("event").is_not_null().any()
                              .over("property_id", "week"))
                .select("stay_date", "event", "occasion", "week", "in_event_week",
                        "rooms_forecast", "rooms_actual", "rooms_level",
                        hotel=pl.lit(path.parent.name + " ") + code, code=code))
    finally:
        con.close()


variant = sys.argv[1]
if variant.startswith("share"):
    methods.occasion_effects = shared(float(variant[5:] or 0.5))
scored = pl.concat([nights(Path(p), ForecastSettings()) for p in sys.argv[2:]])
out = []
for name, part in {"every": scored, "weeks": scored.filter("in_event_week"),
                   "nights": scored.filter(pl.col("event").is_not_null())}.items():
    out.append(ratio(part, ["code"]).select(pl.lit(name).alias("set"), "code", "wape_pct",
                                             "floor_wape_pct", "ratio", "low", "high"))
with pl.Config(tbl_rows=50, tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
    print(variant, [Path(p).parent.name for p in sys.argv[2:]])
    print(pl.concat(out))

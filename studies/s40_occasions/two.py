"""s40 study: the one-year-luck bound when a shared occasion's luck is pooled over the
warehouse's hotels (both hotels' last-year nights of the same occasion name)."""
import sys
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import ForecastSettings, _realized
from pipelines.marts import read
from tests.verify.band_replay import _calendar, _inputs
from tests.verify.occasion_floor import nights, ratio

parts = []
for p in map(Path, sys.argv[1:]):
    scored = nights(p, ForecastSettings())
    con, otb, rooms, codes, events = _inputs(p)
    cal = pl.concat([_calendar(con, pid, otb.filter(pl.col("property_id") == pid), events)
                     for pid in sorted(codes)])
    past = pl.concat([_realized(otb.filter(pl.col("property_id") == pid))
                      .join(read.sandbox_levels(con, pid), on=["property_id", "stay_date"])
                      for pid in sorted(codes)])
    con.close()
    luck = (cal.filter("ly_by_name", pl.col("occasion").is_not_null())
            .select("property_id", "occasion", stay_date="ly_date").unique()
            .join(past, on=["property_id", "stay_date"], how="inner")
            .group_by("occasion")
            .agg(luck2=pl.col("rooms_actual").sum() / pl.col("rooms_level").sum()))
    code_rooms = rooms.with_columns(
        code=pl.col("property_id").replace_strict(codes, return_dtype=pl.String))
    parts.append(scored.join(luck, on="occasion", how="left")
                 .join(code_rooms.select("code", "rooms"), on="code")
                 .with_columns(rooms_two=(pl.col("rooms_level") * pl.col("luck2").fill_null(1.0))
                               .clip(upper_bound=pl.col("rooms"))))
scored = pl.concat(parts)
with pl.Config(tbl_rows=50, tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
    sets = {"every": scored, "weeks": scored.filter("in_event_week"),
            "nights": scored.filter(pl.col("event").is_not_null())}
    for name, part in sets.items():
        for col in ("rooms_forecast", "rooms_one_year", "rooms_two"):
            print(name, col)
            print(ratio(part, ["code"], col).select("code", "wape_pct", "floor_wape_pct",
                                                     "ratio", "low", "high"))

"""Study (one-off, issue 49 item 5, session 37): estimates of an event's effect on the weeks of
the events, against the simulator's floor (docs/forecast-history.md, "The weeks of the events
against the floor"). Kept in git history only.

    python -m tests.verify.occasion_study levels SANDBOX.sqlite DIR/warehouse.duckdb
    python -m tests.verify.occasion_study measure VARIANT DIR/warehouse.duckdb ...

`levels` writes core.sandbox_levels of a demo that stopped before storing them (the tuning
draws of seeds 1 and 5 crashed at their daily syncs), computed as GET /_sandbox/levels does
from the demo's own sandbox database (a scratch copy of the warehouse: it writes past the
writer). `measure` prints tests.verify.occasion_floor's ratios for a variant: `base`,
`oracle` (the effect's numerator the simulator's level of last year's nights: no luck in it),
`shrink` (empirical Bayes toward 1: weight tau^2 / (tau^2 + v), v the noise of the
occasion's ratio measured on the ordinary nights of the 12 months before, tau^2 the occasions'
spread beyond it), `shrink=T` (tau fixed), or `setting=value,...` of ForecastSettings.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines.forecast.logic import methods
from pipelines.forecast.logic.methods import ForecastSettings
from pipelines.forecast.logic.occasions import EVENT_CLIP
from sandbox.settings import stored_demand
from sandbox.simulator.demand_book import night_levels
from sandbox.simulator.hotel import load_hotel
from sandbox.simulator.params import SimParams
from tests.verify.occasion_floor import nights, ratio

ORIGINAL = methods.occasion_effects


def store_levels(sandbox: Path, warehouse: Path) -> None:
    conn = sqlite3.connect(sandbox)
    conn.row_factory = sqlite3.Row
    seed, _ = stored_demand(conn)
    assert seed is not None
    con = duckdb.connect(str(warehouse))
    rows = []
    for (pid,) in con.sql("SELECT property_id FROM core.property ORDER BY 1").fetchall():
        profile = load_hotel(conn, pid).profile
        levels = night_levels(SimParams().demand, profile, seed, date(2025, 2, 16),
                              date(2027, 1, 3))
        rows += [(pid, night, round(rooms, 6), seed) for night, rooms in levels.items()]
    con.executemany("INSERT INTO core.sandbox_levels (property_id, stay_date, rooms_level, seed, "
                    "fetched_at) VALUES (?, ?, ?, ?, now())", rows)
    con.close()


def oracle(path: Path) -> Callable[..., pl.LazyFrame]:
    con = duckdb.connect(str(path), read_only=True)
    level = con.sql("SELECT property_id::BIGINT AS property_id, stay_date, rooms_level "
                    "FROM core.sandbox_levels").pl().lazy()
    con.close()

    def effects(occasions: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                shape: pl.LazyFrame, finals: pl.LazyFrame, pooled: bool) -> pl.LazyFrame:
        known = finals.join(level, on=["property_id", "stay_date"], how="left").with_columns(
            final_rooms=pl.coalesce("rooms_level", "final_rooms")).drop("rooms_level")
        return ORIGINAL(occasions, key_months, levels, shape, known, pooled)
    return effects


def shrunk(spread: float | None) -> Callable[..., pl.LazyFrame]:
    def effects(occasions: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                shape: pl.LazyFrame, finals: pl.LazyFrame, pooled: bool) -> pl.LazyFrame:
        keys = key_months.unique()
        final = finals.select("property_id", "stay_date",
                              final=pl.col("final_rooms").cast(pl.Float64))

        def leveled(rows: pl.LazyFrame, night: str) -> pl.LazyFrame:
            return (
                rows.with_columns(month=pl.col(night).dt.truncate("1mo"),
                                  weekday=pl.col(night).dt.weekday())
                .join(levels, on=["property_id", "month"], how="inner")
                .join(shape.select("property_id", "key_month", "weekday", "weekday_factor"),
                      on=["property_id", "key_month", "weekday"], how="left")
                .with_columns(level=pl.col("month_mean")
                              * pl.col("weekday_factor").fill_null(1.0)))

        by = ["property_id", "key_month", "occasion"]
        rows = leveled(keys.join(occasions.unique(), on="property_id").join(
            final.rename({"stay_date": "ly_date"}), on=["property_id", "ly_date"]), "ly_date"
        ).filter(pl.col("month") < pl.col("key_month"))
        total = pl.col("level").sum().over(by)
        rows = rows.with_columns(final=pl.col("final").sum().over(by), level=total,
                                 share2=(pl.col("level") ** 2).sum().over(by) / total ** 2)
        ordinary = leveled(keys.join(final.join(
            occasions.select("property_id", stay_date="ly_date"),
            on=["property_id", "stay_date"], how="anti"), on="property_id"), "stay_date"
        ).filter(pl.col("month") < pl.col("key_month"),
                 pl.col("month") >= pl.col("key_month").dt.offset_by("-12mo"))
        noise = ordinary.group_by("property_id", "key_month").agg(
            noise=((pl.col("final") - pl.col("level")) ** 2).sum()
            / (pl.col("level") ** 2).sum())
        rows = rows.join(noise, on=["property_id", "key_month"], how="left").with_columns(
            raw=(pl.col("final") / pl.col("level")).clip(*EVENT_CLIP),
            var=pl.col("noise") * pl.col("share2"))
        if spread is None:
            per = rows.group_by(*by).agg(pl.col("raw").first(), pl.col("var").first())
            rows = rows.join(per.group_by("property_id", "key_month").agg(
                tau2=((pl.col("raw") - 1) ** 2 - pl.col("var")).mean().clip(lower_bound=0.0)),
                on=["property_id", "key_month"], how="left")
        else:
            rows = rows.with_columns(tau2=pl.lit(spread ** 2))
        weight = (pl.col("tau2") / (pl.col("tau2") + pl.col("var"))).fill_nan(1.0).fill_null(1.0)
        return rows.select("property_id", "key_month", "occasion", "ly_date",
                           event_effect=(1 + weight * (pl.col("raw") - 1)).round(9))
    return effects


def measure(variant: str, paths: list[Path]) -> None:
    settings = ForecastSettings()
    if "=" in variant and not variant.startswith("shrink"):
        fields: dict[str, Any] = {k: int(v) for k, v in
                                  (part.split("=") for part in variant.split(","))}
        settings = ForecastSettings(**fields)
    parts = []
    for path in paths:
        if variant == "oracle":
            methods.occasion_effects = oracle(path)
        elif variant.startswith("shrink"):
            methods.occasion_effects = shrunk(float(variant[7:]) if "=" in variant else None)
        parts.append(nights(path, settings))
    methods.occasion_effects = ORIGINAL
    scored = pl.concat(parts)
    with pl.Config(tbl_rows=50, tbl_hide_dataframe_shape=True, tbl_width_chars=200):
        for name, part in {"every night": scored,
                           "weeks of the events": scored.filter("in_event_week"),
                           "the events' nights": scored.filter(pl.col("event").is_not_null())
                           }.items():
            print(variant, name)
            print(ratio(part, ["code"]))


if __name__ == "__main__":
    if sys.argv[1] == "levels":
        store_levels(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        measure(sys.argv[2], [Path(p) for p in sys.argv[3:]])

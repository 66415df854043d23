"""Study (one-off, issue 49 item 5): rules for the level of the events' nights, against the
simulator's floor at 30 days (tests/verify/occasion_floor.py), on several warehouses.

    python -m tests.verify.occasion_study VARIANT DIR/warehouse.duckdb ... [--save FILE]

VARIANT: `before` (no full night: the effect a ratio, the rule of 49c07ff), `full80` /
`full90` / `full95` (an occasion's effect saturated at the 0.8 / 0.9 / 0.95 quantile of the
year's finals: `ForecastSettings.full_share`, 0.9 kept). Measured at 49c07ff with a variant
`all90` (every night's level capped at the full night too): no better than `full90`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import ForecastSettings
from tests.verify.occasion_floor import nights, ratio

VARIANTS = {
    "before": ForecastSettings(full_share=None),
    "full80": ForecastSettings(full_share=0.8),
    "full90": ForecastSettings(full_share=0.9),
    "full95": ForecastSettings(full_share=0.95),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--save", type=Path, help="the scored nights, as parquet")
    args = parser.parse_args()
    scored = pl.concat([nights(p, VARIANTS[args.variant]) for p in args.warehouses])
    if args.save:
        scored.write_parquet(args.save)
    sets = {"every night": scored, "weeks of the events": scored.filter("in_event_week"),
            "the events' nights": scored.filter(pl.col("event").is_not_null())}
    with pl.Config(tbl_rows=200, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, tbl_width_chars=220):
        for name, part in sets.items():
            print(f"{args.variant}: {name}")
            print(pl.concat([ratio(part, ["hotel"]),
                             ratio(part, ["code"]).rename({"code": "hotel"})
                             .with_columns(hotel="all " + pl.col("hotel"))]))


if __name__ == "__main__":
    main()

"""s40 study: occasion_floor's ratios under ForecastSettings variants."""
import sys
from dataclasses import replace
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import ForecastSettings
from tests.verify.occasion_floor import nights, ratio

variant = sys.argv[1]
paths = [Path(p) for p in sys.argv[2:]]
base = ForecastSettings()
settings = {"base": base, "shrink": replace(base, shrink_occasions=True)}[variant]
scored = pl.concat([nights(p, settings) for p in paths])
out = []
for name, part in {"every": scored, "weeks": scored.filter("in_event_week"),
                   "nights": scored.filter(pl.col("event").is_not_null())}.items():
    r = ratio(part, ["code"])
    out.append(r.select(pl.lit(name).alias("set"), "code", "wape_pct", "floor_wape_pct",
                        "ratio", "low", "high"))
with pl.Config(tbl_rows=50, tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
    print(variant, [p.parent.name for p in paths])
    print(pl.concat(out))

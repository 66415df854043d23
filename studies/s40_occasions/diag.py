"""s40 study: each occasion's effect as of December 2026, plain and shrunk toward 1."""
import sys
from pathlib import Path

import polars as pl

from pipelines.forecast.logic import occasions as occ
from pipelines.forecast.logic.methods import _finals, _occasions, _otb, _season
from tests.verify.band_replay import _calendar, _inputs

path = Path(sys.argv[1])
con, otb, rooms, codes, events = _inputs(path)
for pid, code in sorted(codes.items()):
    o = _otb(otb.filter(pl.col("property_id") == pid)).collect().lazy()
    finals = _finals(o).collect().lazy()
    cal = _calendar(con, pid, otb.filter(pl.col("property_id") == pid), events)
    levels, shape = _season(finals)
    km = pl.select(property_id=pl.lit(pid).cast(finals.collect_schema()["property_id"]),
                   key_month=pl.date(2026, 12, 1)).lazy()
    occs = _occasions(cal, finals.collect_schema()["property_id"])
    noise = occ._night_noise(occs, km, levels, shape, finals).collect()
    a = occ.occasion_effects(occs, km, levels, shape, finals, True, 0.9).collect()
    b = occ.occasion_effects(occs, km, levels, shape, finals, True, 0.9, shrink=True).collect()
    t = (a.join(b.select("occasion", "ly_date", shrunk="event_effect"),
                on=["occasion", "ly_date"])
         .group_by("occasion").agg(n=pl.len(), first=pl.col("ly_date").min(),
                                   e=pl.col("event_effect").first(),
                                   s=pl.col("shrunk").first(), full=pl.col("full").first())
         .sort("first"))
    print(code, noise)
    with pl.Config(tbl_rows=80):
        print(t)

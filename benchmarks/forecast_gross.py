"""Issue 17 experiment: move the level toward the *gross* bookings instead of the net books.

Revenue management systems forecast gross demand and cancellations apart. The simulator draws
each night's bookings until those that will stay reach the night's target, so the bookings
that will still cancel are drawn from the same demand, and the rooms ever booked for a night
by S (rooms_gross: the net books plus what was cancelled or moved off since, from
benchmarks.otb_split.gross_otb) are a larger count of that demand than the net books, so
possibly a less noisy one. As of S, for night D = S + h, with L = last_year_season(S, D):

    g = sum gross(D' - h, D') / sum final(D')      over the training nights D'
    w = least-squares slope through the origin of final(D') - L' on gross(D' - h, D') / g - L'
    gross_reg = clip(L + w x (gross(S, D) / g - L), 0, cap)

`net_reg` is the same with the net books: `season_books` as the marts make it (per horizon,
the training nights of the 182 days before S, at least 28). Nothing is fitted on a scored night.
"""

from __future__ import annotations

import numpy as np
import polars as pl

NAMES = ("net_reg", "gross_reg")


def with_gross(every: pl.DataFrame, gross: pl.DataFrame) -> pl.DataFrame:
    """every (method_forecasts + realized) with rooms_gross as of S (gross: gross_otb)."""
    out = every.join(gross.select("property_id", pl.col("snapshot_date").alias("as_of_date"),
                                  "stay_date", "rooms_gross",
                                  rooms_otb_check="rooms_otb"),
                     on=["property_id", "as_of_date", "stay_date"], how="left")
    assert out.filter(pl.col("rooms_otb_check") != pl.col("rooms_otb")).is_empty()
    return out.drop("rooms_otb_check")


def variants(rows: pl.DataFrame, scored: pl.DataFrame, window: int = 182,
             min_nights: int = 28) -> dict[str, list[float]]:
    """rows: every night of horizon h with its level; scored: the nights scored. One list of
    forecasts per name of NAMES in scored's order, and `dev_gross` (gross(S, D) / g - L, for
    forecast_transient.oracle)."""
    r = rows.sort("stay_date")
    stay = np.array(r["stay_date"].to_list(), dtype="datetime64[D]")
    level = r["last_year_season"].to_numpy().astype(float)
    final = r["rooms_actual"].to_numpy().astype(float)
    books = {"net_reg": ("rooms_otb", r["rooms_otb"].to_numpy().astype(float)),
             "gross_reg": ("rooms_gross", r["rooms_gross"].to_numpy().astype(float))}
    out: dict[str, list[float]] = {name: [] for name in (*NAMES, "dev_gross")}
    for row in scored.iter_rows(named=True):
        s = np.datetime64(row["as_of_date"], "D")
        m = (stay < s) & (stay >= s - np.timedelta64(window, "D"))
        lvl, cap = float(row["last_year_season"]), float(row["cap"])
        if m.sum() < min_nights:
            for name in NAMES:
                out[name].append(lvl)
            out["dev_gross"].append(0.0)
            continue
        resid = final[m] - level[m]
        for name, (column, values) in books.items():
            share = values[m].sum() / final[m].sum()
            dev_train = values[m] / share - level[m]
            denom = float(dev_train @ dev_train)
            w = float(np.clip((dev_train @ resid) / denom, 0, 1)) if denom > 0 else 0.0
            dev = float(row[column]) / share - lvl
            out[name].append(min(max(lvl + w * dev, 0.0), cap))
            if name == "gross_reg":
                out["dev_gross"].append(dev)
    return out

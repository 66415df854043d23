"""Do learned models earn their place? And how low can a 30-day forecast go on the demo hotels?

On a warehouse the demo made (`pmsw demo --days 560 --daily-syncs 7`), over the nights the
backtest scores (the last 91 realized), WAPE % by horizon of:

- `last_year_season` and `last_year`, as the marts score them (pipelines/forecast/logic/methods.py);
- `least_squares`: final ~ last_year_season + rooms on the books + 1, refit for every as-of
  date S on the nights of the 182 days before S at the same horizon (numpy, no new library);
- `hist_gbr`: scikit-learn's HistGradientBoostingRegressor on days before, weekday, rooms on
  the books, last_year, last_year_season, additive_pickup and last year's remaining pickup,
  all horizons pooled, refit for each calendar month of S on the nights realized in the year
  before the month's first day (only when scikit-learn is importable: it is no dependency,
  run with `uv run --with scikit-learn python -m benchmarks.forecast_models ...`);
- `floor_level`: the simulator's own target of each night without the night's own noise
  (month x weekday x events x trend, from its parameters and seed, which no forecast reads),
  and `floor_night`: with it. Needs the demo's sandbox database (--sandbox).

With `--gross`: the level moved toward the gross bookings (cancelled ones kept) and toward the
net books, each weight fitted on the nights before S (benchmarks/forecast_gross.py).

With `--transient` (and `--no-models` to skip the two above): the level moved toward the books
with the group rooms apart, and toward all the books, each weight fitted several ways on the
nights before S (benchmarks/forecast_transient.py; the books split by benchmarks/otb_split.py).
The `oracle_*` columns are not methods: the one fixed weight best on the scored nights
themselves, to show how much any weight could gain.

Nothing here is fitted on a scored night: every model of as-of date S reads nights before S.

    python -m benchmarks.forecast_models --warehouse data/warehouse.read.duckdb \\
        --sandbox data/demo/sandbox.sqlite
"""

from __future__ import annotations

import argparse
import sqlite3
from datetime import date, timedelta
from typing import Any

import duckdb
import numpy as np
import polars as pl

from benchmarks import forecast_gross as fg
from benchmarks import forecast_transient as ft
from benchmarks.otb_split import classes_firm, gross_otb, split_otb
from pipelines.forecast.logic import methods as fx

HORIZONS = (7, 14, 30, 60, 90)
ORDER = ("tr_bin", "tr_eb", "tr_ebr", "tr_eb2", "tr_reg", "tr_l1",
         "tr_w0.1", "tr_w0.2", "tr2_reg", "firm_reg",
         "all_w0.1", "all_bin", "all_eb", "all_reg", "all_l1")
GBR_FEATURES = ["days_before", "weekday", "rooms_otb", "last_year", "last_year_season",
                "additive_pickup", "ly_remaining"]


def _wape(frame: pl.DataFrame, column: str) -> float:
    err = (frame[column] - frame["rooms_actual"]).abs().sum()
    return round(float(err) / float(frame["rooms_actual"].sum()) * 100, 2)


def _least_squares(rows: pl.DataFrame, scored: pl.DataFrame) -> pl.Series:
    out = []
    for row in scored.iter_rows(named=True):
        s = row["as_of_date"]
        train = rows.filter(pl.col("stay_date") < s, pl.col("stay_date") >= s - timedelta(days=182))
        a = np.column_stack([train["last_year_season"].to_numpy(), train["rooms_otb"].to_numpy(),
                             np.ones(train.height)])
        coef = np.linalg.lstsq(a, train["rooms_actual"].to_numpy().astype(float), rcond=None)[0]
        out.append(float(coef @ np.array([row["last_year_season"], row["rooms_otb"], 1.0])))
    return pl.Series(out).clip(0, None)


def _matrix(frame: pl.DataFrame) -> Any:
    return frame.select(GBR_FEATURES).cast(pl.Float64).fill_null(-1.0).to_numpy()


def _hist_gbr(every: pl.DataFrame, scored: pl.DataFrame) -> pl.Series | None:
    try:
        from sklearn.ensemble import HistGradientBoostingRegressor  # type: ignore[import-not-found]
    except ImportError:
        return None
    out = scored.with_columns(pl.lit(None, dtype=pl.Float64).alias("hist_gbr"),
                              row=pl.int_range(pl.len()))
    parts = []
    for (month,), group in out.group_by(["month"], maintain_order=True):
        train = every.filter(pl.col("stay_date") < month,
                             pl.col("stay_date") >= pl.lit(month).dt.offset_by("-1y"))
        model = HistGradientBoostingRegressor(max_iter=200, learning_rate=0.05, random_state=0)
        model.fit(_matrix(train), train["rooms_actual"].to_numpy().astype(float))
        # predicted beside some training rows: scikit-learn's threads fail on a few rows
        x = np.vstack([_matrix(group), _matrix(train)[:64]])
        parts.append(group.with_columns(hist_gbr=pl.Series(model.predict(x)[:group.height])))
    return pl.concat(parts).sort("row")["hist_gbr"].clip(0, None)


def night_floors(sandbox: str, pid: int, nights: list[date]) -> tuple[pl.Series, pl.Series]:
    """The simulator's target rooms of each night of `nights` at property `pid`, from the
    parameters and seed its database holds: without the night's own noise (the level) and
    with it."""
    from sandbox.settings import stored_demand
    from sandbox.simulator.demand_book import night_targets
    from sandbox.simulator.hotel import load_hotel
    from sandbox.simulator.params import DemandParams

    conn = sqlite3.connect(f"file:{sandbox}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    seed, _ = stored_demand(conn)
    profile = load_hotel(conn, pid).profile
    months = sorted({(d.year, d.month) for d in nights})
    series = []
    for noise in (0.0, DemandParams().night_noise):
        params = DemandParams(night_noise=noise)
        target: dict[date, float] = {}
        for year, month in months:
            target.update(night_targets(params, profile, seed or 0, year, month))
        series.append(pl.Series([target[d] for d in nights]))
    return series[0], series[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True, help="the demo's read copy")
    parser.add_argument("--sandbox", help="the demo's sandbox.sqlite (for the floors)")
    parser.add_argument("--transient", action="store_true",
                        help="add the transient-books variants (benchmarks/forecast_transient.py)")
    parser.add_argument("--gross", action="store_true",
                        help="add the level moved toward the gross bookings "
                             "(benchmarks/forecast_gross.py)")
    parser.add_argument("--window", type=int, default=182,
                        help="training nights of the transient and gross variants: days before S")
    parser.add_argument("--weekday-share", action="store_true",
                        help="p_h of the transient variants from the same weekday's nights")
    parser.add_argument("--offset", type=int, default=0,
                        help="score the 91 nights ending this many days before the last "
                             "realized ones (a window the issue's figures do not score)")
    parser.add_argument("--no-models", action="store_true",
                        help="skip least_squares and hist_gbr")
    args = parser.parse_args()
    con = duckdb.connect(args.warehouse, read_only=True)
    otb = con.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, revenue_otb_net "
                  "FROM mart.otb_snapshots").pl()
    codes = dict(con.sql("SELECT property_id, code FROM core.property").fetchall())
    rooms = con.sql("SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT AS rooms "
                    "FROM core.rooms GROUP BY 1").pl()
    settings = fx.ForecastSettings()
    table: list[tuple[str, int, dict[str, float]]] = []
    for pid in sorted(codes):
        o = otb.filter(pl.col("property_id") == pid)
        cap = rooms.filter(pl.col("property_id") == pid)
        every = (
            fx.method_forecasts(o, cap, fx._as_of_dates(o), fx.HORIZONS, settings)
            .join(fx._realized(o), on=["property_id", "stay_date"])
            .with_columns(weekday=pl.col("stay_date").dt.weekday(),
                          ly_remaining=pl.col("last_year_pickup") - pl.col("rooms_otb"),
                          month=pl.col("as_of_date").dt.truncate("1mo"))
        )
        if args.transient:
            every = ft.with_split(every, split_otb(con, pid, classes_firm()))
        if args.gross:
            every = fg.with_gross(every, gross_otb(con, pid))
        last = o["snapshot_date"].max()
        print(f"{codes[pid]}: WAPE % of the last {settings.backtest_days} nights realized")
        for h in HORIZONS:
            rows = every.filter(pl.col("days_before") == h)
            first = last - timedelta(days=settings.backtest_days + args.offset)
            scored = rows.filter(pl.col("stay_date") >= first,
                                 pl.col("stay_date") < last - timedelta(days=args.offset)
                                 ).drop_nulls(
                "last_year_season").sort("stay_date")
            if scored.is_empty():
                continue
            cells = {"last_year": _wape(scored, "last_year"),
                     "last_year_season": _wape(scored, "last_year_season")}
            if not args.no_models:
                scored = scored.with_columns(least_squares=_least_squares(
                    rows.drop_nulls("last_year_season"), scored))
                cells["least_squares"] = _wape(scored, "least_squares")
                gbr = _hist_gbr(every, scored)
                if gbr is not None:
                    cells["hist_gbr"] = _wape(scored.with_columns(hist_gbr=gbr), "hist_gbr")
            if args.transient:
                made = ft.variants(rows.drop_nulls("last_year_season"), scored, args.window,
                                   args.weekday_share)
                weights = {k: made.pop(k) for k in ("w_bin", "w_reg", "w_l1", "p_t", "dev_t",
                                                    "dev_a")}
                scored = scored.with_columns(**{k: pl.Series(v) for k, v in made.items()})
                for k in ORDER:
                    cells[k] = _wape(scored, k)
                for name, dev in (("oracle_tr", weights["dev_t"]),
                                  ("oracle_all", weights["dev_a"])):
                    w, wape = ft.oracle(scored, dev)
                    cells[name] = wape
                    cells[name + "_w"] = w
                print(f"  h={h:>2} mean w_bin {np.nanmean(weights['w_bin']):.3f} w_reg "
                      f"{np.nanmean(weights['w_reg']):.3f} w_l1 {np.nanmean(weights['w_l1']):.3f} "
                      f"p_t {np.nanmean(weights['p_t']):.3f}")
            if args.gross:
                made = fg.variants(rows.drop_nulls("last_year_season"), scored, args.window)
                dev_gross = made.pop("dev_gross")
                scored = scored.with_columns(**{k: pl.Series(v) for k, v in made.items()})
                for k in fg.NAMES:
                    cells[k] = _wape(scored, k)
                w, wape = ft.oracle(scored, dev_gross)
                cells["oracle_gross"] = wape
                cells["oracle_gross_w"] = w
            if args.sandbox:
                level, night = night_floors(args.sandbox, pid, scored["stay_date"].to_list())
                floors = scored.with_columns(floor_level=level, floor_night=night)
                cells["floor_level"] = _wape(floors, "floor_level")
                cells["floor_night"] = _wape(floors, "floor_night")
            print(f"  h={h:>2} nights={scored.height}  " + "  ".join(
                f"{k} {v:.2f}" for k, v in cells.items()))
            table.append((codes[pid], h, cells))
    if table:
        names = list(table[0][2])
        print("\n| hotel | h | " + " | ".join(names) + " |")
        print("|---|---:|" + "---:|" * len(names))
        for code, h, cells in table:
            print(f"| {code} | {h} | " + " | ".join(f"{cells.get(k, float('nan')):.2f}"
                                                    for k in names) + " |")


if __name__ == "__main__":
    main()

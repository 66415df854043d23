"""Study (one-off, issue 49 item 2): rules for the month's band beyond the current month.

    python -m tests.verify.month_band_study prepare DIR/warehouse.duckdb ... --days 364
    python -m tests.verify.month_band_study measure DIR/warehouse.duckdb ...

`prepare` replays each warehouse's forecasts in use (every as-of date of its history) and the
forecasts of the as-of dates measured, into DIR/study/*.parquet; `measure` reads them and
prints, per rule and months ahead, the % of (as-of date, month) whose rooms still to come
ended inside the month's band, per draw and pooled, with the distinct hotel-months behind it.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import (
    HORIZONS,
    ForecastSettings,
    _errors,
    _in_use_errors,
    _pick,
    _realized,
    choices,
    method_forecasts,
    scored_forecasts,
)
from pipelines.forecast.logic.month_band import _horizon
from tests.verify.band_replay import MONTHS_AHEAD, _calendar, _inputs

ALL = ForecastSettings(backtest_days=1200)
"""scored_days beyond any demo's history: every as-of date replayed."""


def prepare(path: Path, days: int, step: int) -> None:
    con, otb, rooms, codes, events = _inputs(path)
    out = path.parent / "study"
    out.mkdir(exist_ok=True)
    cal, picks, reals = [], [], []
    try:
        for pid in sorted(codes):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            scored = scored_forecasts(o, capacity, ALL, calendar)
            errors = _errors(scored, o)
            in_use = _pick(scored, choices(errors, scored.select("property_id", "as_of_date")
                                           .unique(), ALL))
            cal.append(_in_use_errors(in_use, o).join(
                in_use.select("property_id", "stay_date", "as_of_date",
                              horizon_days="days_before", method="method"),
                on=["property_id", "stay_date", "horizon_days"]))
            last = o["snapshot_date"].max()
            assert isinstance(last, date)
            dates = [last - timedelta(days=k) for k in range(1, days, step)]
            wanted = pl.DataFrame({"property_id": [pid] * len(dates), "as_of_date": dates},
                                  schema={"property_id": pl.Int64, "as_of_date": pl.Date})
            ahead = list(range(MONTHS_AHEAD * 31 + 31))
            picks.append(_pick(method_forecasts(o, capacity, wanted, ahead, ALL, calendar),
                               choices(errors, wanted, ALL))
                         .select("property_id", "as_of_date", "stay_date", "days_before",
                                 "rooms_forecast", "cap", "method"))
            reals.append(_realized(o))
            print(path, pid, "done", flush=True)
    finally:
        con.close()
    pl.concat(cal).write_parquet(out / "calibration.parquet")
    pl.concat(picks).write_parquet(out / "picked.parquet")
    pl.concat(reals).write_parquet(out / "realized.parquet")


Window = Callable[[date, date, int], list[date]]
"""(as-of date, the month's first night ahead, the span in days) -> the window starts."""


def recent(band_days: int) -> Window:
    def starts(as_of: date, first: date, span: int) -> list[date]:
        start = as_of - timedelta(days=band_days)
        return [start + timedelta(days=i) for i in range(band_days - span)]
    return starts


def with_last_year(band_days: int, reach: int) -> Window:
    """The recent windows and those starting within `reach` days of the month's first
    night a year back (364 days: the same weekdays)."""
    def starts(as_of: date, first: date, span: int) -> list[date]:
        back = first - timedelta(days=364)
        near = [back + timedelta(days=i) for i in range(-reach, reach + 1)]
        return sorted(set(recent(band_days)(as_of, first, span))
                      | {s for s in near if s + timedelta(days=span) < as_of})
    return starts


def bands(picked: pl.DataFrame, calibration: pl.DataFrame, window: Window,
          interval: Callable[[int], tuple[float, float]], scale: bool,
          least: int = 28) -> pl.DataFrame:
    miss: dict[tuple[int, int], dict[date, tuple[float, float]]] = defaultdict(dict)
    for pid, night, horizon, forecast, actual in calibration.select(
            "property_id", "stay_date", "horizon_days", "rooms_forecast",
            "rooms_actual").iter_rows():
        miss[int(pid), int(horizon)][night] = (float(actual) - float(forecast),
                                               float(forecast))
    months: dict[tuple[int, date, date], list[tuple[date, int, float, float]]] = \
        defaultdict(list)
    for pid, as_of, night, days_before, forecast, cap in picked.select(
            "property_id", "as_of_date", "stay_date", "days_before", "rooms_forecast",
            "cap").iter_rows():
        months[int(pid), as_of, night.replace(day=1)].append(
            (night, _horizon(int(days_before), HORIZONS), float(forecast), float(cap)))
    rows = []
    for (pid, as_of, month), ahead in sorted(months.items()):
        ahead.sort()
        first = ahead[0][0]
        span = (ahead[-1][0] - first).days
        forecast = sum(f for _, _, f, _ in ahead)
        sums = []
        for start in window(as_of, first, span):
            cells = [miss[pid, horizon].get(start + (night - first))
                     for night, horizon, _, _ in ahead]
            if any(c is None or start + (night - first) >= as_of
                   for c, (night, _, _, _) in zip(cells, ahead, strict=True)):
                continue
            total = sum(c[0] for c in cells if c is not None)
            level = sum(c[1] for c in cells if c is not None)
            if scale:
                if level <= 0:
                    continue
                total *= forecast / level
            sums.append(total)
        n = len(sums)
        lo, hi = interval((month.year - as_of.year) * 12 + month.month - as_of.month)
        k_low, k_high = math.floor((n + 1) * lo), math.ceil((n + 1) * hi)
        if n < least or k_low < 1 or k_high > n:
            continue
        ordered = sorted(sums)
        limit = sum(c for _, _, _, c in ahead)
        low = min(forecast, max(0.0, forecast + ordered[k_low - 1]))
        high = max(forecast, min(limit, forecast + ordered[k_high - 1]))
        rows.append((pid, as_of, month, low, high))
    return pl.DataFrame(rows, orient="row", schema={
        "property_id": pl.Int64, "as_of_date": pl.Date, "month": pl.Date,
        "month_rooms_low": pl.Float64, "month_rooms_high": pl.Float64})


def outcomes(picked: pl.DataFrame, realized: pl.DataFrame) -> pl.DataFrame:
    month = pl.col("stay_date").dt.truncate("1mo")
    return (
        picked.join(realized, on=["property_id", "stay_date"], how="left")
        .group_by("property_id", "as_of_date", month.alias("month"))
        .agg(nights=pl.len(), realized=pl.col("rooms_actual").is_not_null().sum(),
             actual=pl.col("rooms_actual").sum(), last_night=pl.col("stay_date").max())
        .filter(pl.col("last_night") == pl.col("month").dt.month_end(),
                pl.col("realized") == pl.col("nights"))
        .select("property_id", "as_of_date", "month", "actual")
    )


def measure(paths: list[Path], rules: dict[str, tuple[Window, Callable[[int], tuple[float,
                                                                                   float]],
                                                       bool]]) -> pl.DataFrame:
    rows = []
    for path in paths:
        study = path.parent / "study"
        calibration = pl.read_parquet(study / "calibration.parquet")
        picked = pl.read_parquet(study / "picked.parquet")
        ended = outcomes(picked, pl.read_parquet(study / "realized.parquet"))
        for name, (window, interval, scale) in rules.items():
            b = bands(picked, calibration, window, interval, scale)
            rows.append(ended.join(b, on=["property_id", "as_of_date", "month"]).select(
                "property_id", "as_of_date", "month", rule=pl.lit(name),
                draw=pl.lit(path.parent.name),
                ahead=(pl.col("month").dt.year() - pl.col("as_of_date").dt.year()) * 12
                + pl.col("month").dt.month().cast(pl.Int32)
                - pl.col("as_of_date").dt.month().cast(pl.Int32),
                inside=pl.col("actual").is_between(pl.col("month_rooms_low"),
                                                   pl.col("month_rooms_high")),
                width=pl.col("month_rooms_high") - pl.col("month_rooms_low")))
    return pl.concat(rows).filter(pl.col("ahead") <= MONTHS_AHEAD)


def table(cases: pl.DataFrame) -> pl.DataFrame:
    hm = pl.struct("draw", "property_id", "month")
    pooled = cases.group_by("rule", "ahead").agg(
        cases=pl.len(), months=hm.n_unique(), inside=(pl.col("inside").mean() * 100).round(1),
        width=pl.col("width").mean().round(1))
    per = cases.group_by("rule", "ahead", "draw").agg(
        x=(pl.col("inside").mean() * 100).round(1)).sort("draw").group_by("rule", "ahead").agg(
        per_draw=pl.col("x").cast(pl.String).str.join(" / "))
    return pooled.join(per, on=["rule", "ahead"]).sort("rule", "ahead")


def by_ahead(now: int, later: int) -> Window:
    def starts(as_of: date, first: date, span: int) -> list[date]:
        same = (first.year, first.month) == (as_of.year, as_of.month)
        return recent(now if same else later)(as_of, first, span)
    return starts


RULES = {
    "now (91 d)": (recent(91), lambda a: (0.1, 0.9), False),
    "91 / 120 d": (by_ahead(91, 120), lambda a: (0.1, 0.9), False),
    "91 / 136 d": (by_ahead(91, 136), lambda a: (0.1, 0.9), False),
    "91 / 150 d": (by_ahead(91, 150), lambda a: (0.1, 0.9), False),
    "91 / 182 d": (by_ahead(91, 182), lambda a: (0.1, 0.9), False),
}


def floor(cases: pl.DataFrame, rule: str, draws: int = 2000, seed: int = 1) -> None:
    """The spread of the measured % for a band that truly holds 80 %, on the cases' own
    structure (which hotel-month each case is, per months ahead): each case inside when
    |sqrt(rho) Z_month + sqrt(1 - rho) e_case| < z_0.9, Z and e standard normal; rho 1: the
    as-of dates of a month all agree (independent months only), rho from the cases: the
    intra-class correlation of inside within a hotel-month (ANOVA estimator)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    z90 = 1.2815516
    own = cases.filter(rule=rule).with_columns(
        cluster=pl.struct("draw", "property_id", "month").rank("dense").over("ahead"))
    for ahead in range(MONTHS_AHEAD + 1):
        part = own.filter(ahead=ahead)
        sizes = part.group_by("cluster").agg(m=pl.len(), x=pl.col("inside").sum())
        k, n = sizes.height, part.height
        if part.height < 2:
            continue
        p = part["inside"].mean()
        assert isinstance(p, float)
        m0 = (n - (sizes["m"] ** 2).sum() / n) / (k - 1)
        msb = float(((sizes["x"] / sizes["m"] - p) ** 2 * sizes["m"]).sum()) / (k - 1)
        msw = float((sizes["x"] - sizes["x"] ** 2 / sizes["m"]).sum()) / (n - k)
        denominator = msb + (m0 - 1) * msw
        icc = (msb - msw) / denominator if denominator > 0 else 1.0
        cluster = part["cluster"].to_numpy() - 1
        out = []
        for rho in (1.0, max(0.0, icc)):
            zm = rng.standard_normal((draws, k))
            e = rng.standard_normal((draws, n))
            z = np.sqrt(rho) * zm[:, cluster] + np.sqrt(1 - rho) * e
            pct = (np.abs(z) < z90).mean(axis=1) * 100
            out.append(f"rho {rho:.2f}: SD {pct.std():.1f}, 5-95 % "
                       f"{np.percentile(pct, 5):.1f}-{np.percentile(pct, 95):.1f}")
        print(f"ahead {ahead}: {n} cases, {k} hotel-months, measured {p * 100:.1f} %, "
              f"ICC {icc:.2f}; binomial on the months SD {math.sqrt(0.16 / k) * 100:.1f}; "
              + "; ".join(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("prepare", "measure", "floor"))
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--days", type=int, default=200)
    parser.add_argument("--step", type=int, default=2)
    args = parser.parse_args()
    if args.what == "prepare":
        for path in args.warehouses:
            prepare(path, args.days, args.step)
        return
    if args.what == "floor":
        floor(pl.read_parquet(args.warehouses[0].parent / "study" / "cases.parquet"),
              "now (91 d)")
        return
    cases = measure(args.warehouses, RULES)
    cases.write_parquet(args.warehouses[0].parent / "study" / "cases.parquet")
    with pl.Config(tbl_rows=100, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, fmt_str_lengths=60, tbl_width_chars=200):
        print(table(cases))


if __name__ == "__main__":
    main()

"""Forecast methods and backtest (pipelines/transforms/forecast.py) on hand-made snapshots.

The hand-built history (capacity 10 rooms, lookback of 2 weeks, rooms at 100.00 on the
books, finals at 120.00 a room; every (snapshot, stay date) not listed below holds 0 rooms):

    night (Wed)   final   on the books 2 days before
    2026-03-04      8       5  (snapshot 03-02)   -> remaining pickup 3
    2026-03-11      9       8  (snapshot 03-09)   -> remaining pickup 1
    night (Tue)   final   on the books 1 day before
    2026-03-03     10       8  (snapshot 03-02)   -> 2
    2026-03-10     10       6  (snapshot 03-09)   -> 4
    a year back:  2025-03-19 (Wed) final 7, on the books 5 at 2025-03-17 (2 days before)

As of Monday 2026-03-16:
- Wed 03-18 (h = 2), 4 rooms on the books. The curves: the Wednesdays before 03-16 at h = 2,
  the last two: 03-11 and 03-04. Additive: 4 + (3 + 1) / 2 = 6. Multiplicative:
  4 x (8 + 9) / (5 + 8) = 68 / 13. Last year (03-18 - 364 = 2025-03-19): 7; last year's
  pickup: 4 + 7 - 5 = 6; the blend (6 + 7) / 2 = 6.5. Revenue: 400.00 on the books + 2 more
  rooms at the curves' ADR (960 + 1080) / 17 = 120.00 -> 640.00, ADR 106.67, occupancy 60 %.
- Tue 03-17 (h = 1), 9 on the books: additive 9 + (2 + 4) / 2 = 12 > capacity 10: 10 (11
  when the hotel overbooks by one room).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.transforms.forecast import (
    CHOSEN,
    HORIZONS,
    METHODS,
    ForecastSettings,
    accuracy,
    backtest,
    forecast_daily,
    method_forecasts,
)

D = date.fromisoformat
CAPACITY = pl.DataFrame({"property_id": [1], "rooms": [10]})
SETTINGS = ForecastSettings(lookback_weeks=2, horizon_days=20)
FINAL_ADR = 120.0

CELLS: dict[tuple[str, str], int] = {
    # (snapshot, stay date): rooms on the books
    ("2026-03-04", "2026-03-04"): 8, ("2026-03-02", "2026-03-04"): 5,
    ("2026-03-11", "2026-03-11"): 9, ("2026-03-09", "2026-03-11"): 8,
    ("2026-03-03", "2026-03-03"): 10, ("2026-03-02", "2026-03-03"): 8,
    ("2026-03-10", "2026-03-10"): 10, ("2026-03-09", "2026-03-10"): 6,
    ("2026-03-16", "2026-03-18"): 4, ("2026-03-16", "2026-03-17"): 9,
}
LAST_YEAR = [("2025-03-19", "2025-03-19", 7), ("2025-03-17", "2025-03-19", 5)]


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def hand_built() -> pl.DataFrame:
    """Dense snapshots 03-01..03-16 x 20 nights ahead, plus the two rows of a year back."""
    rows = []
    for snap in _days(D("2026-03-01"), D("2026-03-16")):
        for stay in _days(snap, snap + timedelta(days=20)):
            rooms = CELLS.get((snap.isoformat(), stay.isoformat()), 0)
            rate = FINAL_ADR if snap == stay else 100.0
            rows.append((1, snap, stay, rooms, rooms * rate))
    for snap_text, stay_text, ly_rooms in LAST_YEAR:
        rows.append((1, D(snap_text), D(stay_text), ly_rooms, ly_rooms * 100.0))
    return pl.DataFrame(rows, orient="row", schema={
        "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
        "rooms_otb": pl.Int64, "revenue_otb_net": pl.Float64})


def _at(frame: pl.DataFrame, stay: str) -> dict[str, object]:
    rows = frame.filter(pl.col("stay_date") == D(stay)).to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_each_method_by_hand() -> None:
    as_of = pl.DataFrame({"property_id": [1], "as_of_date": [D("2026-03-16")]})
    got = method_forecasts(hand_built(), CAPACITY, as_of, [1, 2], SETTINGS)
    wed = _at(got, "2026-03-18")
    assert wed["rooms_otb"] == 4
    assert wed["additive_pickup"] == pytest.approx(6.0)
    assert wed["multiplicative_pickup"] == pytest.approx(68 / 13)
    assert wed["last_year"] == pytest.approx(7.0)
    assert wed["last_year_pickup"] == pytest.approx(6.0)
    assert wed["blend"] == pytest.approx((6.0 + 7.0) / 2)
    assert wed["pickup_adr"] == pytest.approx(120.0)
    tue = _at(got, "2026-03-17")
    assert tue["additive_pickup"] == pytest.approx(10.0)  # 12, capped at capacity
    assert tue["last_year"] is None  # nothing a year back for 2025-03-18

    overbooking = ForecastSettings(lookback_weeks=2, horizon_days=20, overbooking_rooms=1)
    tue = _at(method_forecasts(hand_built(), CAPACITY, as_of, [1], overbooking), "2026-03-17")
    assert tue["additive_pickup"] == pytest.approx(11.0)


def test_forecast_daily_by_hand() -> None:
    """Too little history to score the methods: the additive pickup is chosen."""
    daily = forecast_daily(hand_built(), CAPACITY, D("2026-03-16"), SETTINGS)
    assert daily["stay_date"].min() == D("2026-03-16")
    assert daily.height == 21
    wed = _at(daily, "2026-03-18")
    assert wed["method"] == "additive_pickup"
    assert wed["rooms_forecast"] == pytest.approx(6.0)
    assert wed["room_revenue_forecast_net"] == pytest.approx(640.0)
    assert wed["adr_forecast_net"] == pytest.approx(106.67)
    assert wed["occupancy_forecast_pct"] == pytest.approx(60.0)
    # the band: 10th and 90th percentiles of the pickups 3 and 1 (1.2 and 2.8) around 6
    assert (wed["rooms_low"], wed["rooms_high"]) == (pytest.approx(5.2), pytest.approx(6.8))
    tue = _at(daily, "2026-03-17")
    assert tue["rooms_forecast"] == pytest.approx(10.0)
    assert tue["rooms_high"] == pytest.approx(10.0)
    assert tue["rooms_limit"] == 10
    assert (daily["rooms_high"] <= daily["rooms_limit"]).all()


# -- a longer random history: leakage and the backtest's shape ------------------------------

START, DAYS, AHEAD = D("2024-01-01"), 460, 100


def random_history(seed: int = 7) -> pl.DataFrame:
    rng = random.Random(seed)
    final = {day: 30 + 15 * (day.weekday() >= 4) + rng.randint(-6, 6)
             for day in _days(START, START + timedelta(days=DAYS + AHEAD))}
    rows = []
    for snap in _days(START, START + timedelta(days=DAYS - 1)):
        for h in range(AHEAD + 1):
            stay = snap + timedelta(days=h)
            share = max(0.0, 1 - h / 50) ** 1.5
            rooms = round(final[stay] * share) - (rng.random() < 0.1)
            rooms = max(rooms, 0)
            rows.append((1, snap, stay, rooms, rooms * 100.0))
    return pl.DataFrame(rows, orient="row", schema={
        "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
        "rooms_otb": pl.Int64, "revenue_otb_net": pl.Float64})


def _scrambled_after(otb: pl.DataFrame, as_of: date) -> pl.DataFrame:
    """Every row of a snapshot after `as_of` gets other rooms and revenue."""
    after = pl.col("snapshot_date") > as_of
    return otb.with_columns(
        rooms_otb=pl.when(after).then((pl.col("rooms_otb") * 3 + 5) % 50)
        .otherwise(pl.col("rooms_otb")),
        revenue_otb_net=pl.when(after).then(pl.col("revenue_otb_net") * 2 + 1)
        .otherwise(pl.col("revenue_otb_net")))


@pytest.fixture(scope="module")
def history() -> pl.DataFrame:
    return random_history()


def test_no_leakage(history: pl.DataFrame) -> None:
    as_of = START + timedelta(days=400)
    changed = _scrambled_after(history, as_of)
    assert not changed.equals(history)
    settings = ForecastSettings(horizon_days=AHEAD)
    frames = [(forecast_daily(h, CAPACITY.with_columns(rooms=pl.lit(60)), as_of, settings),
               backtest(h, CAPACITY.with_columns(rooms=pl.lit(60)), settings)
               .filter(pl.col("as_of_date") == as_of)
               .select("stay_date", "horizon_days", "method", "rooms_forecast"),
               method_forecasts(h, CAPACITY.with_columns(rooms=pl.lit(60)),
                                pl.DataFrame({"property_id": [1], "as_of_date": [as_of]}),
                                None, settings))
              for h in (history, changed)]
    (daily, scored, methods), (daily2, scored2, methods2) = frames
    assert daily.height == AHEAD + 1
    assert daily.equals(daily2)
    assert methods.equals(methods2)
    # the backtest keeps the as-of date's forecasts whatever happened after it
    assert scored.sort("horizon_days", "method").equals(scored2.sort("horizon_days", "method"))
    assert scored.height > 0


def test_backtest_scores_every_method_and_horizon(history: pl.DataFrame) -> None:
    capacity = CAPACITY.with_columns(rooms=pl.lit(60))
    settings = ForecastSettings(horizon_days=AHEAD)
    errors = backtest(history, capacity, settings)
    table = accuracy(errors, settings)
    assert set(table["method"]) == {*METHODS, CHOSEN}
    assert set(table["horizon_days"]) == set(HORIZONS)
    chosen = table.filter(method=CHOSEN)
    # each horizon scored on the 91 nights realized last: one as-of date per night
    assert chosen["forecasts"].to_list() == [91] * len(HORIZONS)
    last = START + timedelta(days=DAYS - 1)
    assert history["snapshot_date"].max() == last
    assert errors["stay_date"].max() == last - timedelta(days=1)
    # WAPE recomputed from the errors, by hand, for one cell
    cell = errors.filter(method="additive_pickup", horizon_days=30).filter(
        pl.col("stay_date") > last - timedelta(days=92))
    abs_sum = float((cell["rooms_forecast"] - cell["rooms_actual"]).abs().sum())
    wape = abs_sum / float(cell["rooms_actual"].sum()) * 100
    got = table.filter(method="additive_pickup", horizon_days=30)["wape_pct"].item()
    assert got == pytest.approx(round(wape, 2))
    # on this history the pickup methods beat the same night last year at 30 days
    ly = table.filter(method="last_year", horizon_days=30)["wape_pct"].item()
    assert chosen.filter(horizon_days=30)["wape_pct"].item() < ly


# -- last_year_season by hand ----------------------------------------------------------------


def season_history() -> pl.DataFrame:
    """Finals (the rooms of each night at its end) of four months, nothing else before the
    as-of date 2026-04-10 (Friday), capacity 100:

        March 2025   every night 20
        April 2025   every night 50 but Tuesday 1 April: 0 (a night without a room: no level)
        May 2025     30, Saturdays 60 (the 3rd, 10th, 17th, 24th and 31st)
        March 2026   every night 22
    """
    def rooms(night: date) -> int:
        if night.month == 3:
            return 20 if night.year == 2025 else 22
        if night.month == 4:
            return 0 if night.day == 1 else 50
        return 60 if night.weekday() == 5 else 30

    rows = [(1, night, night, rooms(night), 0.0)
            for first, last in (("2025-03-01", "2025-05-31"), ("2026-03-01", "2026-03-31"))
            for night in _days(D(first), D(last))]
    rows += [(1, D("2026-04-10"), D(stay), 5, 0.0)
             for stay in ("2026-04-22", "2026-05-06", "2026-05-09")]
    return pl.DataFrame(rows, orient="row", schema={
        "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
        "rooms_otb": pl.Int64, "revenue_otb_net": pl.Float64})


def test_last_year_season_by_hand() -> None:
    """As of 2026-04-10 (its month April 2026; the months before it are over):

    - level of May 2026's nights: May 2025's mean, (26 x 30 + 5 x 60) / 31 = 1080 / 31;
    - trend: of January-March 2026 only March has its year-earlier month: 22 / 20 = 1.1;
    - weekday factors over April 2025 - March 2026: April 2025 has a night at 0, so only May
      2025 and March 2026 count. May 2025: a Wednesday is 30 / (1080 / 31) = 930 / 1080 of the
      month, a Saturday 60 / (1080 / 31) = 1860 / 1080; March 2026 (flat): 1. Wednesdays: 4 in
      May 2025, 4 in March 2026 -> (4 x 930 / 1080 + 4) / 8 = 2010 / 2160. Saturdays: 5 and 4
      -> (5 x 1860 / 1080 + 4) / 9 = 13620 / 9720.
    - Wednesday 2026-05-06: 1080 / 31 x 2010 / 2160 x 1.1 = 1105.5 / 31 = 35.66;
      Saturday 2026-05-09: 1080 / 31 x 13620 / 9720 x 1.1 = 14982 / 279 = 53.70;
      Wednesday 2026-04-22: none (April 2025 is no level).
    """
    capacity = CAPACITY.with_columns(rooms=pl.lit(100))
    as_of = pl.DataFrame({"property_id": [1], "as_of_date": [D("2026-04-10")]})
    got = method_forecasts(season_history(), capacity, as_of, [12, 26, 29])
    assert _at(got, "2026-05-06")["last_year_season"] == pytest.approx(1105.5 / 31)
    assert _at(got, "2026-05-09")["last_year_season"] == pytest.approx(14982 / 279)
    # a year back from Wednesday 22 April 2026 is April 2025, with a night at 0: no level
    assert _at(got, "2026-04-22")["last_year_season"] is None

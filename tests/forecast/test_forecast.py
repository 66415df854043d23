"""Forecast methods and backtest (pipelines/forecast/logic/methods.py) on hand-made snapshots.

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
  rooms at the curves' ADR (960 + 1080) / 17 = 120.00 (no final a year before the curve
  nights: no season's move, x 1) x the late premium: the nights of the 2 weeks ending at
  03-11 picked up from 2 days out 10 + 3 + 10 + 1 = 24 rooms (03-03, 03-04, 03-10, 03-11)
  for 1200 + 460 + 1200 + 280 = 3140.00, 130.83 a room, over their final ADR 4440 / 37 =
  120.00: 120.00 x 3140 / 24 / 120 = 130.83 -> 661.67, ADR 110.28, occupancy 60 %.
- Tue 03-17 (h = 1), 9 on the books: additive 9 + (2 + 4) / 2 = 12 > capacity 10: 10 (11
  when the hotel overbooks by one room).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast.logic.methods import (
    CHOSEN,
    HORIZONS,
    METHODS,
    ForecastSettings,
    _pick,
    accuracy,
    backtest,
    choices,
    forecast_daily,
    method_forecasts,
    scored_days,
    scored_forecasts,
)

from .conftest import as_of_dates, hotel_of, night_of, otb, scored

D = date.fromisoformat
CAPACITY = hotel_of(10)
SETTINGS = ForecastSettings(lookback_weeks=2, horizon_days=20)
MAR_16 = as_of_dates(D("2026-03-16"))
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
    return otb(rows)


def test_each_method_by_hand() -> None:
    got = method_forecasts(hand_built(), CAPACITY, MAR_16, [1, 2], SETTINGS)
    wed = night_of(got, D("2026-03-18"))
    assert wed["rooms_otb"] == 4
    assert wed["additive_pickup"] == pytest.approx(6.0)
    assert wed["multiplicative_pickup"] == pytest.approx(68 / 13)
    assert wed["last_year"] == pytest.approx(7.0)
    assert wed["last_year_pickup"] == pytest.approx(6.0)
    assert wed["blend"] == pytest.approx((6.0 + 7.0) / 2)
    assert wed["pickup_adr"] == pytest.approx(3140 / 24)
    tue = night_of(got, D("2026-03-17"))
    assert tue["additive_pickup"] == pytest.approx(10.0)  # 12, capped at capacity
    assert tue["last_year"] is None  # nothing a year back for 2025-03-18

    overbooking = ForecastSettings(lookback_weeks=2, horizon_days=20, overbooking_rooms=1)
    tue = night_of(method_forecasts(hand_built(), CAPACITY, MAR_16, [1], overbooking),
                   D("2026-03-17"))
    assert tue["additive_pickup"] == pytest.approx(11.0)


def test_forecast_occupancy_divides_by_every_room_not_the_sellable_ones() -> None:
    """Occupancy has one supply (docs/kpi.md, STR / USALI): every room of the property. Two of
    12 rooms out of sale bound what can be sold (capacity 10), not the denominator: the 6.0
    rooms forecast of Wednesday are 6 / 12 = 50.00 %, not 6 / 10."""
    capacity = CAPACITY.with_columns(rooms_available=pl.lit(12))
    wed = night_of(forecast_daily(hand_built(), capacity, D("2026-03-16"), SETTINGS),
                   D("2026-03-18"))
    assert wed["rooms_forecast"] == pytest.approx(6.0)
    assert wed["capacity"] == 10
    assert wed["occupancy_forecast_pct"] == pytest.approx(50.0)


def test_forecast_daily_by_hand() -> None:
    """Too little history to score the methods: the additive pickup is chosen."""
    daily = forecast_daily(hand_built(), CAPACITY, D("2026-03-16"), SETTINGS)
    assert daily["stay_date"].min() == D("2026-03-16")
    assert daily.height == 21
    wed = night_of(daily, D("2026-03-18"))
    assert wed["method"] == "additive_pickup"
    assert wed["rooms_forecast"] == pytest.approx(6.0)
    assert wed["room_revenue_forecast_net"] == pytest.approx(661.67)
    assert wed["adr_forecast_net"] == pytest.approx(110.28)
    assert wed["occupancy_forecast_pct"] == pytest.approx(60.0)
    # the band: 10th and 90th percentiles of the pickups 3 and 1 (1.2 and 2.8) around 6
    assert (wed["rooms_low"], wed["rooms_high"]) == (pytest.approx(5.2), pytest.approx(6.8))
    tue = night_of(daily, D("2026-03-17"))
    assert tue["rooms_forecast"] == pytest.approx(10.0)
    assert tue["rooms_high"] == pytest.approx(10.0)
    assert tue["rooms_limit"] == 10
    assert (daily["rooms_high"] <= daily["rooms_limit"]).all()


def test_nights_before_the_first_night_sold_are_no_history() -> None:
    """mart.otb_snapshots begins with the first booking made, months before the first night
    the hotel sold (bookings taken before its history begins): the nights before that one
    are empty in the snapshots, and they are not nights of 0 rooms. Here the hand-built
    history without its year-back rows, and the snapshots' grid of February 2026 all empty
    (nights 02-01 .. 03-02, before the first room sold on 03-03), plus night 2025-03-19 empty
    (a year back from Wed 03-18). As of 03-16, Wed 03-18 (h = 2):
    - no last year, no last year's pickup, no blend (2025-03-19 is before the first night
      sold: no figure, not 0);
    - with a lookback of 3 weeks, the curves are still the Wednesdays 03-11 and 03-04:
      4 + (3 + 1) / 2 = 6 (not 4 + (3 + 1 + 0) / 3 with the empty 02-25)."""
    ly_dates = {D(s) for s, _, _ in LAST_YEAR}
    grid = hand_built().filter(~pl.col("snapshot_date").is_in(ly_dates))
    empty = [(1, snap, stay, 0, 0.0) for snap in _days(D("2026-02-01"), D("2026-02-28"))
             for stay in _days(snap, snap + timedelta(days=20))]
    empty += [(1, D("2025-03-17"), D("2025-03-19"), 0, 0.0),
              (1, D("2025-03-19"), D("2025-03-19"), 0, 0.0)]
    snapshots = pl.concat([otb(empty), grid])
    three_weeks = ForecastSettings(lookback_weeks=3, horizon_days=20)
    wed = night_of(method_forecasts(snapshots, CAPACITY, MAR_16, [2], three_weeks),
                   D("2026-03-18"))
    assert (wed["last_year"], wed["last_year_pickup"], wed["blend"]) == (None, None, None)
    assert wed["additive_pickup"] == pytest.approx(6.0)
    assert wed["multiplicative_pickup"] == pytest.approx(68 / 13)
    # and no backtest scores an empty night before the first night sold
    scored = backtest(snapshots, CAPACITY, SETTINGS)
    assert scored["stay_date"].min() == D("2026-03-03")


def test_the_adr_still_to_come_moves_with_last_years_season() -> None:
    """With last year's Wednesdays 2025-03-12 (5 rooms at 80.00) and 2025-03-26 (3 at 100.00)
    too, and nothing on Wed 03-18's books as of 03-16 (with its 4 rooms at 100.00 they would
    price the rooms still to come: 100.00 x the books premium, 3140 / 24 / 100, = 130.83,
    test_each_method_by_hand). Night 03-18's season a year earlier: the two Wednesdays
    (lookback_weeks) around 03-18 - 364 = 2025-03-19, ending a week (7 x 2 // 2 days) after
    it: 2025-03-19 and 03-26, (700 + 300) / (7 + 3) = 100.00. The curve nights a year
    earlier, ending at their last one (03-11) - 364 = 2025-03-12: 03-12 and 03-05 (no
    final): 400 / 5 = 80.00. March 2025 is not a complete month, so the rooms still to come
    of Wed 03-18 are at 120.00 x 100.00 / 80.00 = 150.00, x the late premium 3140 / 24 / 120
    (the module's docstring) = 163.54: the additive pickup's 0 + (3 + 1) / 2 = 2 rooms, 2 x
    163.54 = 327.08."""
    extra = otb([(1, D("2025-03-12"), D("2025-03-12"), 5, 400.0),
                  (1, D("2025-03-26"), D("2025-03-26"), 3, 300.0)])
    empty = (pl.col("snapshot_date") == D("2026-03-16")) & (pl.col("stay_date") == D("2026-03-18"))
    history = pl.concat([hand_built(), extra]).with_columns(
        rooms_otb=pl.when(empty).then(0).otherwise(pl.col("rooms_otb")),
        revenue_otb_net=pl.when(empty).then(0.0).otherwise(pl.col("revenue_otb_net")))
    wed = night_of(method_forecasts(history, CAPACITY, MAR_16, [2], SETTINGS), D("2026-03-18"))
    assert wed["pickup_adr"] == pytest.approx(150.0 * 3140 / 24 / 120)
    wed = night_of(forecast_daily(history, CAPACITY, D("2026-03-16"), SETTINGS), D("2026-03-18"))
    assert (wed["rooms_forecast"], wed["room_revenue_forecast_net"], wed["adr_forecast_net"]) \
        == (pytest.approx(2.0), pytest.approx(327.08), pytest.approx(163.54))


def _priced_history(april_2025_complete: bool = True, booked: bool = True) -> pl.DataFrame:
    """Night Wed 2026-04-15 as of 2026-04-01 (h = 14), 3 rooms on the books at 100.00 (none
    when not `booked`), and:

    - April 2025, a complete month of 4 rooms a night: its Wednesdays 04-02 and 04-09 at 70.00
      a room, 04-16, 04-23 and 04-30 at 90.00, the other nights at 50.00;
    - the curve nights (the 2 Wednesdays ending at 04-15 - 21 = 03-25): 03-18 and 03-25, each
      6 rooms at 96.00 in the end, 2 rooms at 80.00 on the books 14 days before;
    - the curve nights a year earlier (ending at 03-25 - 364 = 2025-03-26): 2025-03-19 and
      03-26, 5 rooms at 80.00 each."""
    rows: list[tuple[int, date, date, int, float]] = []
    for night in _days(D("2025-04-01"), D("2025-04-30")):
        if night == D("2025-04-05") and not april_2025_complete:
            continue
        rate = 50.0 if night.weekday() != 2 else 70.0 if night.day < 15 else 90.0
        rows.append((1, night, night, 4, 4 * rate))
    for night in ("2025-03-19", "2025-03-26"):
        rows.append((1, D(night), D(night), 5, 400.0))
    for night in ("2026-03-18", "2026-03-25"):
        rows.append((1, D(night), D(night), 6, 576.0))
        rows.append((1, D(night) - timedelta(days=14), D(night), 2, 160.0))
    rows.append((1, D("2026-04-01"), D("2026-04-15"), 3 * booked, 300.0 * booked))
    return otb(rows)


def test_the_adr_still_to_come_by_hand() -> None:
    """The rooms still to come of Wed 2026-04-15 (h = 14), at last year's ADR of April's
    Wednesdays, (2 x 280 + 3 x 360) / 20 = 82.00, x the ADR's change on a year: the curve
    nights' 96.00 over the same nights a year earlier's 80.00 = 1.2, x the late premium: the
    nights of the 2 weeks ending at 03-25 with books 14 days before (03-18 and 03-25) picked
    up 8 rooms for 2 x (576 - 160) = 832.00, 104.00 a room, over their final ADR of 96.00 =
    13 / 12. 82 x 1.2 x 13 / 12 = 106.60. Without a complete April 2025 (a night missing):
    the ADR on the night's books, 100.00, x the books premium: the same nights' 104.00 a
    room picked up over the 2 x 160 / 4 = 80.00 on their books 14 days before, = 130.00.
    Without April 2025 and with nothing on the books: the curve nights' ADR moved by the
    season a year earlier, the 2 Wednesdays around 2025-04-16 (ending 7 days after it) at
    90.00 over the curve nights a year earlier's 80.00: 96 x 90 / 80 x 13 / 12 = 117.00."""
    as_of = as_of_dates(D("2026-04-01"))
    for complete, booked, adr in ((True, True, 106.60), (False, True, 130.00),
                                  (False, False, 117.00)):
        history = _priced_history(complete, booked)
        night = night_of(method_forecasts(history, CAPACITY, as_of, [14], SETTINGS),
                         D("2026-04-15"))
        assert night["pickup_adr"] == pytest.approx(adr)
    # last_year_season, chosen at 14 days while it has no WAPE (level_from_days): April 2025's
    # 4 rooms a night, 3 on the books and 1 to come: 300.00 + 106.60
    night = night_of(forecast_daily(_priced_history(), CAPACITY, D("2026-04-01"), SETTINGS),
                     D("2026-04-15"))
    assert (night["method"], night["rooms_forecast"], night["room_revenue_forecast_net"]) \
        == ("last_year_season", pytest.approx(4.0), pytest.approx(406.60))
    # below level_from_days the additive pickup (the only other method with history): 3 + 4
    # rooms; 300.00 + 4 x 106.60
    night = night_of(forecast_daily(_priced_history(), CAPACITY, D("2026-04-01"),
                                    replace(SETTINGS, level_from_days=15)), D("2026-04-15"))
    assert (night["method"], night["rooms_forecast"], night["room_revenue_forecast_net"]) \
        == ("additive_pickup", pytest.approx(7.0), pytest.approx(726.40))


# -- a longer random history: leakage and the backtest's shape ------------------------------

START, DAYS, AHEAD = D("2024-01-01"), 460, 100


def random_history(seed: int = 7, days: int = DAYS) -> pl.DataFrame:
    rng = random.Random(seed)
    final = {day: 30 + 15 * (day.weekday() >= 4) + rng.randint(-6, 6)
             for day in _days(START, START + timedelta(days=days + AHEAD))}
    rows = []
    for snap in _days(START, START + timedelta(days=days - 1)):
        for h in range(AHEAD + 1):
            stay = snap + timedelta(days=h)
            share = max(0.0, 1 - h / 50) ** 1.5
            rooms = round(final[stay] * share) - (rng.random() < 0.1)
            rooms = max(rooms, 0)
            rows.append((1, snap, stay, rooms, rooms * 100.0))
    return otb(rows)


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
    """What happened after the as-of date S (later snapshots, so the future nights' finals
    and the errors of every forecast realized after S) changes no forecast made as of S:
    not the forecast, not its band, not the method chosen, in forecast_daily and in the
    backtest; only the backtest's rooms_actual (the night's outcome) may differ."""
    as_of = START + timedelta(days=400)
    changed = _scrambled_after(history, as_of)
    later = pl.col("snapshot_date") > as_of
    assert history.filter(~later).equals(changed.filter(~later))
    assert not history.filter(later).equals(changed.filter(later))
    settings = ForecastSettings(horizon_days=AHEAD)
    frames = [(forecast_daily(h, hotel_of(60), as_of, settings),
               backtest(h, hotel_of(60), settings).filter(pl.col("as_of_date") == as_of)
               .sort("stay_date", "horizon_days", "method"),
               method_forecasts(h, hotel_of(60),
                                as_of_dates(as_of),
                                None, settings))
              for h in (history, changed)]
    (daily, scored, methods), (daily2, scored2, methods2) = frames
    assert daily.height == AHEAD + 1
    assert daily["rooms_low"].is_not_null().all()
    assert daily["rooms_high"].is_not_null().all()
    assert daily.equals(daily2)  # every column: rooms, band, revenue, ADR, occupancy, method
    assert methods.equals(methods2)
    # the backtest's forecasts as of S, every method and the chosen one with its band
    assert scored.height > 0
    assert scored.columns == scored2.columns
    made_as_of = [c for c in scored.columns if c != "rooms_actual"]
    assert scored.select(made_as_of).equals(scored2.select(made_as_of))
    chosen = scored.filter(method=CHOSEN)
    assert chosen.height > 0
    assert chosen["rooms_low"].is_not_null().all()
    # and the scrambled future did reach the backtest: its actuals differ
    assert not scored["rooms_actual"].equals(scored2["rooms_actual"])
    # every method has forecasts to compare (season_books from a year and a month of history)
    for method in METHODS:
        assert methods[method].is_not_null().any(), method
    assert set(scored["method"]) == {*METHODS, CHOSEN}


def test_backtest_scores_every_method_and_horizon(history: pl.DataFrame) -> None:
    capacity = hotel_of(60)
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
    # on the same 91 nights, better than last year is the WAPEs' relative difference, inside
    # its interval (tests/forecast/test_forecast_skill.py works the interval out by hand)
    row = chosen.filter(horizon_days=30).row(0, named=True)
    assert row["better_than_last_year_pct"] == pytest.approx(
        (ly - row["wape_pct"]) / ly * 100, abs=0.1)
    assert (row["better_than_last_year_low_pct"] < row["better_than_last_year_pct"]
            < row["better_than_last_year_high_pct"])


def test_a_build_reads_only_the_as_of_dates_and_nights_its_marts_need() -> None:
    """The backtest's forecasts start `scored_days` before the last snapshot, and each as-of
    date reads the snapshots of the nights its own methods read (docs/forecast.md, "What a
    build reads"). On two years of history the as-of dates leave out its first year, and the
    nights whose snapshots they read its first half-year (besides last year's books and the
    finals); the marts equal those computed from the forecasts of every as-of date, and those
    from the backtest's forecasts computed once for both (pipelines/marts/build.py)."""
    history = random_history(days=730)
    capacity = hotel_of(60)
    settings = ForecastSettings(horizon_days=AHEAD)
    first, last = history["snapshot_date"].min(), history["snapshot_date"].max()
    scored = scored_forecasts(history, capacity, settings)
    assert scored["as_of_date"].min() == last - timedelta(days=scored_days(settings))
    every = method_forecasts(history, capacity, history.select(
        "property_id", as_of_date="snapshot_date").unique(), HORIZONS, settings)
    assert every["as_of_date"].min() == first
    assert every.filter(pl.col("as_of_date") >= scored["as_of_date"].min()).equals(scored)
    errors = backtest(history, capacity, settings)
    assert errors.equals(backtest(history, capacity, settings, scored=every))
    assert errors.equals(backtest(history, capacity, settings, scored=scored))
    assert errors["stay_date"].min() == last - timedelta(days=settings.backtest_days)
    daily = forecast_daily(history, capacity, settings=settings)
    assert daily.height == AHEAD + 1
    assert forecast_daily(history, capacity, settings=settings, scored=every).equals(daily)
    assert forecast_daily(history, capacity, settings=settings, scored=scored).equals(daily)
    # scored as of the last snapshot would score an earlier as-of date on nights after it
    with pytest.raises(ValueError, match="as_of_date"):
        forecast_daily(history, capacity, START + timedelta(days=400), settings, scored=scored)
    # forecast_daily's own forecasts 0..AHEAD days out, as of the last snapshot alone and
    # beside the first (which makes the read start at the first day)
    alone = method_forecasts(history, capacity, pl.DataFrame(
        {"property_id": [1], "as_of_date": [last]}), None, settings)
    beside_first = method_forecasts(history, capacity, pl.DataFrame(
        {"property_id": [1, 1], "as_of_date": [first, last]}), None, settings)
    assert alone.height == AHEAD + 1
    assert alone.equals(beside_first.filter(pl.col("as_of_date") == last))


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
    return otb(rows)


S = D("2026-06-01")
AT_S = as_of_dates(S)
WINDOW = [S - timedelta(days=n) for n in range(10, 0, -1)]
"""The choice's and the band's as-of date S and the 10 nights S - 10 .. S - 1."""


def _night_errors(method: str, nights: dict[date, float], horizon: int = 30) -> pl.DataFrame:
    """Forecasts at `horizon` days of nights that ended with 10 rooms, off by the given rooms."""
    return scored(method, list(nights), [10.0 + error for error in nights.values()], 10, horizon)


def _unforecast(s: date, days_before: list[int], cap: int) -> pl.DataFrame:
    """`method_forecasts`' rows as of `s`, one a night `days_before` out (the k-th of them
    on S + its days + k: two nights may be as far out), 5 rooms on the books, the rooms limit
    `cap`, no method's value, the curve nights' spread -2 to +3 rooms."""
    n = len(days_before)
    return pl.DataFrame({
        "property_id": [1] * n, "as_of_date": [s] * n,
        "stay_date": [s + timedelta(days=d + k) for k, d in enumerate(days_before)],
        "days_before": days_before, "rooms_otb": [5] * n, "cap": [cap] * n,
        **{m: [None] * n for m in METHODS}, "spread_low": [-2.0] * n, "spread_high": [3.0] * n,
    }, schema_overrides={**dict.fromkeys(METHODS, pl.Float64), "as_of_date": pl.Date,
                         "stay_date": pl.Date, "days_before": pl.Int64})


def test_the_choice_by_hand() -> None:
    """As of S = 2026-06-01, the choice at 30 days reads the nights realized in
    [S - 91, S - 1] (docs/forecast.md, "The choice"). On the 10 nights S - 10 .. S - 1, each
    ending with 10 rooms: additive_pickup off by 1 room on nine of them (WAPE 9 / 100 = 9 %),
    season_books off by 1 on nine and by 2 on one (11 %); last_year_season off by 3 on the 30
    nights S - 30 .. S - 1 (30 %, past its first 28: no longer chosen for want of nights of
    its own); last_year exact on 3 nights only (fewer than min_scored = 7: no WAPE, never
    chosen). additive_pickup's 50-room misses of S - 92 (before the window) and of S (not over
    by S) count for nothing.
    The lowest WAPE is additive_pickup's 9 %. With a switch margin of 0.2, season_books
    (the preferred method) counts 11 x 0.8 = 8.8 % and is kept; with 0.15, 9.35 %, not."""
    errors = pl.concat([
        _night_errors("additive_pickup", {**dict.fromkeys(WINDOW, 1.0), WINDOW[0]: 0.0,
                                          S - timedelta(days=92): 50.0, S: 50.0}),
        _night_errors("season_books", {**dict.fromkeys(WINDOW, 1.0), WINDOW[0]: 2.0}),
        _night_errors("last_year_season",
                      dict.fromkeys([S - timedelta(days=n) for n in range(30, 0, -1)], 3.0)),
        _night_errors("last_year", dict.fromkeys(WINDOW[-3:], 0.0)),
    ])
    as_of = as_of_dates(S, D("2026-01-01"))

    def chosen(margin: float, at: date = S) -> str:
        table = choices(errors, as_of, ForecastSettings(switch_margin=margin))
        value: str = table.filter(as_of_date=at, horizon_days=30)["chosen_method"].item()
        return value

    assert chosen(0.0) == "additive_pickup"
    assert chosen(0.15) == "additive_pickup"
    assert chosen(0.2) == "season_books"
    # no method with a WAPE of its own (no night realized in the 91 days before): at 30 days
    # the level (test_the_level_while_it_has_no_wape), else the first
    assert chosen(0.2, D("2026-01-01")) == "last_year_season"
    assert choices(errors, as_of, ForecastSettings(level_from_days=31)).filter(
        as_of_date=D("2026-01-01"), horizon_days=30)["chosen_method"].item() == METHODS[0]
    with pytest.raises(ValueError, match="switch_margin"):
        ForecastSettings(switch_margin=1.5)
    with pytest.raises(ValueError, match="preferred_method: 'oracle'"):
        ForecastSettings(preferred_method="oracle")


def test_the_level_while_it_has_no_wape() -> None:
    """docs/forecast.md, "The choice": from level_from_days (14) on, last_year_season is
    chosen while it has fewer than level_min_nights (28) nights scored of its own. As of
    S = 2026-06-01, additive_pickup is off by 1 room on the 10 nights S - 10 .. S - 1 at 7 and
    at 30 days (10 %); last_year_season has forecast 3 of them, exactly (fewer than
    min_scored = 7: no WAPE).
    At 30 days it is chosen, not the scored 10 %; at 7 days (below 14) additive_pickup is.
    With a WAPE of 10 nights, however poor (off by 3 on all 10: 30 %), it is still chosen: 10
    is fewer than 28. Off by 3 on the 28 nights S - 28 .. S - 1 (30 %), the lowest wins; on
    27 of them, not yet."""
    pickup = dict.fromkeys(WINDOW, 1.0)
    unscored = pl.concat([
        _night_errors("additive_pickup", pickup, 30), _night_errors("additive_pickup", pickup, 7),
        _night_errors("last_year_season", dict.fromkeys(WINDOW[-3:], 0.0), 30),
        _night_errors("last_year_season", dict.fromkeys(WINDOW[-3:], 0.0), 7),
    ])

    def chosen(errors: pl.DataFrame, horizon: int) -> str:
        value: str = choices(errors, AT_S).filter(horizon_days=horizon)["chosen_method"].item()
        return value

    assert chosen(unscored, 30) == "last_year_season"
    assert chosen(unscored, 14) == "last_year_season"  # no night at all: no WAPE either
    assert chosen(unscored, 7) == "additive_pickup"
    def level_off_by_3(nights: int) -> pl.DataFrame:
        return pl.concat([_night_errors("additive_pickup", pickup, 30), _night_errors(
            "last_year_season",
            dict.fromkeys([S - timedelta(days=n) for n in range(nights, 0, -1)], 3.0), 30)])

    assert chosen(level_off_by_3(10), 30) == "last_year_season"
    assert chosen(level_off_by_3(27), 30) == "last_year_season"
    assert chosen(level_off_by_3(28), 30) == "additive_pickup"


def test_the_band_from_the_chosen_methods_errors_by_hand() -> None:
    """docs/forecast.md, "Band, revenue, ADR and occupancy". As of S = 2026-06-01,
    additive_pickup forecast the 10 nights S - 10 .. S - 1 at 7 days, each ending with 10
    rooms, missing by actual - forecast = -1, 0, 1, ..., 8. Its band is the 10th and 90th
    percentiles of those misses (linear between the sorted ones): -1 + 0.1 x 9 = -0.1 and
    -1 + 0.9 x 9 = 7.1. A night 5 days out forecast 20 rooms by it: 19.9 to 27.1. A night
    whose chosen method has no value takes the first fallback with one, and with it the
    curve nights' spread: 12 + (-2, +3) = 10 to 15; capped at the rooms limit 30."""
    misses = {night: 1.0 - n for n, night in enumerate(WINDOW)}  # forecast - 10 rooms
    errors = _night_errors("additive_pickup", misses, horizon=7)
    chosen = choices(errors, AT_S).filter(horizon_days=7)
    assert chosen.select("chosen_method", "error_low", "error_high").row(0) == (
        "additive_pickup", pytest.approx(-0.1), pytest.approx(7.1))
    nights = _unforecast(S, [5, 6, 7], cap=30).with_columns(
        additive_pickup=pl.Series([20.0, None, 29.0]), blend=pl.Series([None, 12.0, None]))
    picked = _pick(nights, chosen).sort("stay_date")
    assert picked.select("method", "rooms_forecast", "rooms_low", "rooms_high").rows() == [
        ("additive_pickup", pytest.approx(20.0), pytest.approx(19.9), pytest.approx(27.1)),
        ("blend", pytest.approx(12.0), pytest.approx(10.0), pytest.approx(15.0)),
        ("additive_pickup", pytest.approx(29.0), pytest.approx(28.9), pytest.approx(30.0)),
    ]


def test_far_out_a_year_back_before_the_pickup() -> None:
    """docs/forecast.md, "The choice": when the chosen method has no value for a night, a
    horizon further ahead than the curve nights reach back (7 x lookback_weeks = 56 days: the
    60 and 90 days of the choice) falls back to last_year_season, then last_year, before the
    pickup methods; a nearer one to additive_pickup first. As of S = 2026-06-01 no method
    has a night scored, so from 14 days out the level is chosen (while it has no WAPE); it
    has no value on these nights (no last year's month). Each night: additive_pickup 50
    rooms (the season of its curve nights), blend 40, last_year 30.

    - 30 days out (the choice at 30, 30 <= 56): additive_pickup, 50;
    - 31 and 90 days out (the choice at 60 and 90): last_year, 30;
    - 90 days out without last_year: the pickup again, 50;
    - with lookback_weeks 4 (28 days) the night 30 days out is far too: last_year, 30."""
    nights = _unforecast(S, [30, 31, 90, 90], cap=80).with_columns(
        additive_pickup=pl.lit(50.0), blend=pl.lit(40.0),
        last_year=pl.Series([30.0, 30.0, 30.0, None]))
    unscored = _night_errors("additive_pickup", {S - timedelta(days=200): 1.0})

    def picked(settings: ForecastSettings) -> list[tuple[str, float]]:
        chosen = choices(unscored, AT_S, settings)
        assert set(chosen["chosen_method"].to_list()) >= {"last_year_season"}
        rows: list[tuple[str, float]] = _pick(nights, chosen).sort("stay_date").select(
            "method", "rooms_forecast").rows()
        return rows

    assert picked(ForecastSettings()) == [("additive_pickup", 50.0), ("last_year", 30.0),
                                          ("last_year", 30.0), ("additive_pickup", 50.0)]
    assert picked(ForecastSettings(lookback_weeks=4))[0] == ("last_year", 30.0)


def test_band_coverage_by_hand() -> None:
    """mart.forecast_accuracy.band_coverage_pct: the share of the chosen method's nights whose
    actual rooms fell inside its band, bounds included. Four nights ending with 10 rooms,
    bands 9-11 (inside), 10.5-12 (above it: out), 8-10 (on the bound: inside), 7-9 (out):
    50 %. The methods' own rows have no band: no coverage."""
    nights = [D("2026-03-25") + timedelta(days=n) for n in range(4)]
    rows = scored(CHOSEN, nights, [10.0, 11.0, 9.0, 8.0], 10, 7, [9.0, 10.5, 8.0, 7.0],
                  [11.0, 12.0, 10.0, 9.0])
    methods = rows.with_columns(method=pl.lit("last_year"),
                                rooms_low=pl.lit(None, dtype=pl.Float64),
                                rooms_high=pl.lit(None, dtype=pl.Float64))
    table = accuracy(pl.concat([rows, methods]))
    assert table.filter(method=CHOSEN)["band_coverage_pct"].item() == pytest.approx(50.0)
    assert table.filter(method="last_year")["band_coverage_pct"].item() is None


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
    capacity = hotel_of(100)
    as_of = as_of_dates(D("2026-04-10"))
    got = method_forecasts(season_history(), capacity, as_of, [12, 26, 29])
    assert night_of(got, D("2026-05-06"))["last_year_season"] == pytest.approx(1105.5 / 31)
    assert night_of(got, D("2026-05-09"))["last_year_season"] == pytest.approx(14982 / 279)
    # a year back from Wednesday 22 April 2026 is April 2025, with a night at 0: no level
    assert night_of(got, D("2026-04-22"))["last_year_season"] is None


# -- season_books by hand ----------------------------------------------------------------------


def books_history() -> pl.DataFrame:
    """Capacity 30. Every night of March 2025 ended with 20 rooms (a flat month: weekday factor
    1; no month of 2025 has its year-earlier month: trend 1), so last_year_season is 20 for
    every night of March 2026 as of any date of March 2026. The nights of March 2026 (h = 2):

        night D'   on the books at D' - 2   final
        03-06          10                     24
        03-07          12                     20
        03-08           8                     16
        03-09          10                     20
        03-10          11                     26
    and on the books at 03-10 for 03-12: 13; at 03-11 for 03-13: 20.
    """
    rows = [(1, night, night, 20) for night in _days(D("2025-03-01"), D("2025-03-31"))]
    books = {"2026-03-06": (10, 24), "2026-03-07": (12, 20), "2026-03-08": (8, 16),
             "2026-03-09": (10, 20), "2026-03-10": (11, 26)}
    for night_text, (booked, final) in books.items():
        night = D(night_text)
        rows += [(1, night - timedelta(days=2), night, booked), (1, night, night, final)]
    rows += [(1, D("2026-03-10"), D("2026-03-12"), 13), (1, D("2026-03-11"), D("2026-03-13"), 20)]
    return otb((*r, 0.0) for r in rows)


BOOKS_SETTINGS = ForecastSettings(books_window_days=4, books_min_nights=3)


def test_season_books_by_hand() -> None:
    """A window of 4 nights, at least 3 (L = L' = 20 throughout; h = 2):

    - as of 03-10, Thursday 03-12: training nights 03-06 .. 03-09. p = (10 + 12 + 8 + 10) /
      (24 + 20 + 16 + 20) = 40 / 80 = 0.5; dev' = otb' / p - 20 = 0, 4, -4, 0; resid' =
      final' - 20 = 4, 0, -4, 0; w = (0 + 0 + 16 + 0) / (0 + 16 + 16 + 0) = 0.5. The books
      say 13 / 0.5 = 26: 20 + 0.5 x (26 - 20) = 23.
    - as of 03-11, Friday 03-13: training nights 03-07 .. 03-10 (03-06 leaves the window).
      p = (12 + 8 + 10 + 11) / (20 + 16 + 20 + 26) = 41 / 82 = 0.5; dev' = 4, -4, 0, 2;
      resid' = 0, -4, 0, 6; w = (0 + 16 + 0 + 12) / (16 + 16 + 0 + 4) = 28 / 36 = 7 / 9.
      The books say 20 / 0.5 = 40: 20 + 7 / 9 x 20 = 35.56, above the 30 rooms: 30.
    """
    capacity = hotel_of(30)
    as_of = as_of_dates(D("2026-03-10"), D("2026-03-11"))
    got = method_forecasts(books_history(), capacity, as_of, [2], BOOKS_SETTINGS)
    thu, fri = night_of(got, D("2026-03-12")), night_of(got, D("2026-03-13"))
    assert thu["last_year_season"] == pytest.approx(20.0)
    assert thu["season_books"] == pytest.approx(23.0)
    assert fri["last_year_season"] == pytest.approx(20.0)
    assert fri["cap"] == 30
    assert fri["season_books"] == pytest.approx(30.0)  # 35.56, clipped to the hotel
    with_room = method_forecasts(books_history(), hotel_of(40), as_of,
                                 [2], BOOKS_SETTINGS)
    assert night_of(with_room, D("2026-03-13"))["season_books"] == pytest.approx(20 + 7 / 9 * 20)


def test_season_books_needs_its_training_nights() -> None:
    """Fewer training nights than books_min_nights: null, the level still there."""
    capacity = hotel_of(30)
    as_of = as_of_dates(D("2026-03-10"))
    for settings in (ForecastSettings(),  # 4 nights < 28
                     ForecastSettings(books_window_days=4, books_min_nights=5),
                     # 03-07 .. 03-09 only: 3 nights < 4
                     ForecastSettings(books_window_days=3, books_min_nights=4)):
        thu = night_of(method_forecasts(books_history(), capacity, as_of, [2], settings),
                       D("2026-03-12"))
        assert thu["last_year_season"] == pytest.approx(20.0)
        assert thu["season_books"] is None


def test_season_books_is_its_definition(history: pl.DataFrame) -> None:
    """The running sums against the definition, night by night, on the random history: for
    every as-of date S of the last 40 and h of HORIZONS, the training nights D' (S - 182 <=
    D' < S, realized, with a level of their own as of D' - h) give p and w as written in the
    module docstring; season_books = clip(L + w (OTB / p - L))."""
    capacity = hotel_of(60)
    every = method_forecasts(history, capacity, history.select(
        "property_id", as_of_date="snapshot_date").unique(), HORIZONS)
    finals = dict(history.filter(pl.col("snapshot_date") == pl.col("stay_date"))
                  .select("stay_date", "rooms_otb").iter_rows())
    by_h: dict[int, list[tuple[date, int, int, float]]] = {}
    for r in every.drop_nulls("last_year_season").sort("stay_date").iter_rows(named=True):
        if r["stay_date"] in finals:
            by_h.setdefault(r["days_before"], []).append(
                (r["stay_date"], r["rooms_otb"], finals[r["stay_date"]], r["last_year_season"]))
    last = history["snapshot_date"].max()
    checked = nulls = 0
    for r in every.filter(pl.col("as_of_date") > last - timedelta(days=40)).iter_rows(named=True):
        s, h = r["as_of_date"], r["days_before"]
        train = [t for t in by_h.get(h, []) if s - timedelta(days=182) <= t[0] < s]
        # 50 days and more out, this history has no room on the books: p = 0
        if len(train) < 28 or r["last_year_season"] is None or sum(t[1] for t in train) == 0:
            assert r["season_books"] is None
            nulls += 1
            continue
        p = sum(t[1] for t in train) / sum(t[2] for t in train)
        dev = [t[1] / p - t[3] for t in train]
        resid = [t[2] - t[3] for t in train]
        w = min(max(sum(d * e for d, e in zip(dev, resid, strict=True))
                    / sum(d * d for d in dev), 0.0), 1.0)
        level = r["last_year_season"]
        want = min(max(level + w * (r["rooms_otb"] / p - level), 0.0), r["cap"])
        assert r["season_books"] == pytest.approx(want, abs=1e-6)
        checked += 1
    assert checked > 100
    assert nulls > 0

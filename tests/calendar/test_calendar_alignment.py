"""The forecast and the pace read last year's night from the calendar (pipelines.forecast.calendar):
Christmas with Christmas. Worked by hand on a December a year back (docs/forecast.md,
"Holidays and events"; docs/calendar.md).

December 2025: every night ended with 40 rooms but Christmas Day, Thursday 25 December, with
20. Its mean is (30 x 40 + 20) / 31 = 1220 / 31; it is the only complete month, so it alone
makes the weekday factors as of 1 December 2026 (trend 1: no month has its year-earlier one).
Thursdays 4, 11, 18, 25: (3 x 40 + 20) x 31 / 1220 / 4 = 4340 / 4880; Fridays 5, 12, 19, 26:
160 x 31 / 1220 / 4 = 4960 / 4880.

Christmas Day 2026 is a Friday, 24 days after 1 December (5 rooms on the books then):
- 364 days back is Friday 26 December 2025 (40 rooms; 10 on its books 24 days before);
- by the calendar it is Christmas Day 2025 (20 rooms; 8 on its books on 1 December 2025).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast import (
    Event,
    Fixed,
    ForecastSettings,
    NthWeekday,
    Place,
    calendar_nights,
    forecast_daily,
)
from pipelines.forecast.logic.methods import method_forecasts
from pipelines.forecast.logic.occasions import (
    full_levels,
    occasion_effects,
    past_occurrences,
)
from pipelines.marts.logic.pace import pace
from tests.forecast.conftest import as_of_dates, hotel_of, otb

D = date.fromisoformat
CHRISTMAS = D("2026-12-25")
CAPACITY = hotel_of(60)
AS_OF = as_of_dates(D("2026-12-01"))


def history() -> pl.DataFrame:
    first = D("2025-12-01")
    rows = [(first + timedelta(days=n),) * 2 + (20 if n == 24 else 40,) for n in range(31)]
    rows += [(D("2025-12-01"), D("2025-12-25"), 8), (D("2025-12-02"), D("2025-12-26"), 10),
             (D("2026-12-01"), CHRISTMAS, 5),
             # a night of November 2026 (an incomplete month: no level, no weekday factor)
             (D("2026-11-30"), D("2026-11-30"), 40)]
    return books(rows)


def books(rows: list[tuple[date, date, int]]) -> pl.DataFrame:
    return otb((1, *r, 0.0) for r in rows)


def calendar(first: date = D("2026-12-01"), last: date = D("2026-12-31"),
             events: Sequence[Event] = ()) -> pl.DataFrame:
    return calendar_nights(first, last, Place("IT", "RM"), events).select(
        pl.lit(1, dtype=pl.Int64).alias("property_id"), pl.all())


def night_of(frame: pl.DataFrame, night: date = CHRISTMAS) -> dict[str, object]:
    """The one row of `frame` of `night` (default Christmas Day 2026)."""
    rows = frame.filter(pl.col("stay_date") == night).to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_the_forecast_compares_christmas_with_christmas() -> None:
    before = night_of(method_forecasts(history(), CAPACITY, AS_OF, [24]))
    after = night_of(method_forecasts(history(), CAPACITY, AS_OF, [24], calendar=calendar()))
    # last_year: 26 December 2025, 40 rooms; by the calendar Christmas Day 2025, 20
    assert before["last_year"] == 40
    assert after["last_year"] == 20
    # last_year_pickup: 5 on the books + what last year's night picked up from 24 days out
    assert before["last_year_pickup"] == 5 + 40 - 10
    assert after["last_year_pickup"] == 5 + 20 - 8
    # last_year_season: December 2025's mean x Friday's factor = 1220 / 31 x 4960 / 4880 = 40;
    # x Christmas 2025's effect, 20 over its level (1220 / 31 x 4340 / 4880 = 35): 40 x 4 / 7
    assert before["last_year_season"] == pytest.approx(40)
    assert after["last_year_season"] == pytest.approx(40 * 20 / 35)
    # an ordinary night keeps its level: Wednesday 30 December 2026 has Wednesday 31
    # December 2025's, whatever the calendar
    wednesday = [30]
    plain = method_forecasts(history(), CAPACITY, AS_OF, wednesday)
    aligned = method_forecasts(history(), CAPACITY, AS_OF, wednesday, calendar=calendar())
    assert plain["last_year_season"].to_list() == aligned["last_year_season"].to_list()


def test_the_pace_compares_christmas_with_christmas() -> None:
    occupancy = pl.DataFrame({"property_id": [1, 1], "stay_date": [D("2025-12-25"),
                                                                   D("2025-12-26")],
                              "rooms_sold": [19, 39], "room_revenue_net": [1900.0, 3900.0],
                              "is_actual": [True, True]})
    before = pace(history(), occupancy).filter(pl.col("days_before") == 24)
    after = pace(history(), occupancy, calendar=calendar()).filter(pl.col("days_before") == 24)
    assert night_of(before)["stly_rooms_otb"] == 10
    assert night_of(before)["ly_actual_rooms_sold"] == 39
    assert night_of(after)["stly_rooms_otb"] == 8
    assert night_of(after)["ly_actual_rooms_sold"] == 19
    assert night_of(after)["rooms_otb"] == 5


def test_an_events_effect_is_pooled_over_its_nights() -> None:
    """The event "Christmas" (24 and 25 December, two nights): December 2025 ended with 40
    rooms a night but Wednesday 24 (20) and Thursday 25 (30). Its mean is (29 x 40 + 50) / 31
    = 1210 / 31; the Wednesdays 3 .. 31 sum 4 x 40 + 20 = 180 rooms over 5 nights, the
    Thursdays 4 .. 25 3 x 40 + 30 = 150 over 4, the Fridays 160 over 4, so last year's levels
    are 1210 / 31 x 180 x 31 / 1210 / 5 = 36 (24th) and 150 / 4 = 37.5 (25th), and this
    year's (Thursday 24, Friday 25) 37.5 and 40. The effect of Christmas 2025 pooled over its
    two nights: (20 + 30) / (36 + 37.5) = 100 / 147; each night alone: 20 / 36 and 30 / 37.5."""
    first = D("2025-12-01")
    ended = {24: 20, 25: 30}
    rows = [(first + timedelta(days=n),) * 2 + (ended.get(n + 1, 40),) for n in range(31)]
    rows += [(D("2026-12-01"), D("2026-12-24"), 5), (D("2026-12-01"), CHRISTMAS, 5),
             (D("2026-11-30"), D("2026-11-30"), 40)]  # makes December 2026 a key month
    snapshots = books(rows)
    cal = calendar(events=[Event(name="Christmas", fixed=Fixed(month=12, day=24), nights=2)])
    assert cal.filter(pl.col("stay_date").is_in([D("2026-12-24"), CHRISTMAS]))[
        "occasion"].to_list() == ["Christmas 2026", "Christmas 2026"]

    def season(settings: ForecastSettings) -> list[float]:
        return method_forecasts(snapshots, CAPACITY, AS_OF, [23, 24], settings,
                                calendar=cal)["last_year_season"].to_list()

    assert season(ForecastSettings()) == pytest.approx([37.5 * 100 / 147, 40 * 100 / 147])
    assert season(ForecastSettings(pool_occasions=False)) == pytest.approx(
        [37.5 * 20 / 36, 40 * 30 / 37.5])


def test_an_occasion_that_fills_the_hotel_stops_at_a_full_night() -> None:
    """Christmas 2025 (Wednesday 24 and Thursday 25 December) ended with 50 and 44 rooms, over
    levels of 40 (December's mean 40 x Wednesday's factor 1) and 32 (x Thursday's 0.8). The
    365 nights before December 2026 ended with 40 rooms but 61 with 50 (the 24th, June and
    September 2026) and the 25th with 44: sorted, the 328th (the 0.9 quantile, lower:
    floor(0.9 x 364) = 327 counted from 0) is 50, the full night. A ratio of the sums, 94 / 72,
    would take Wednesday's level to 52.2, above it; so Wednesday is full (50) and Thursday
    sells the rest: m = (94 - 50) / 32 = 1.375 (40 x 1.375 = 55, full; 32 x 1.375 = 44).
    Had both nights ended full (50 and 50), every night is full: m = 100 / (2 x 32)."""
    key = D("2026-12-01")
    nights = [D("2025-12-01") + timedelta(days=n) for n in range(365)]
    full_months = {(2026, 6), (2026, 9)}

    def finals(christmas: tuple[int, int]) -> pl.LazyFrame:
        ended = {D("2025-12-24"): christmas[0], D("2025-12-25"): christmas[1]}
        return pl.LazyFrame({
            "property_id": [1] * 365, "stay_date": nights,
            "final_rooms": [ended.get(d, 50 if (d.year, d.month) in full_months else 40)
                            for d in nights]})

    occasions = pl.LazyFrame({"property_id": [1, 1],
                              "ly_date": [D("2025-12-24"), D("2025-12-25")],
                              "occasion": ["Christmas 2026"] * 2})
    key_months = pl.LazyFrame({"property_id": [1], "key_month": [key]})
    levels = pl.LazyFrame({"property_id": [1], "month": [D("2025-12-01")],
                           "month_mean": [40.0]})
    shape = pl.LazyFrame({"property_id": [1, 1], "key_month": [key, key], "weekday": [3, 4],
                          "weekday_factor": [1.0, 0.8]})

    def effects(christmas: tuple[int, int], share: float | None) -> pl.DataFrame:
        return occasion_effects(occasions, key_months, levels, shape, finals(christmas),
                                pooled=True, full_share=share).collect().sort("ly_date")

    assert full_levels(finals((50, 44)), key_months, 0.9).collect()["full"].to_list() == [50]
    plain = effects((50, 44), None)
    assert plain["event_effect"].to_list() == pytest.approx([94 / 72] * 2)
    assert plain["full"].to_list() == [None, None]
    saturated = effects((50, 44), 0.9)
    assert saturated["event_effect"].to_list() == pytest.approx([1.375] * 2)
    assert saturated["full"].to_list() == [50, 50]
    assert effects((50, 50), 0.9)["event_effect"].to_list() == pytest.approx([100 / 64] * 2)


def test_an_occasion_learns_from_every_past_occurrence() -> None:
    """The Fair (two nights from 14 October) two years running before October 2026, pooled.

    Fair 2025 (Tuesday 14, Wednesday 15 October) ended 50 and 50 rooms; October 2025's mean is
    42 and as of October 2026 (the key month) Wednesday's factor 1.1, Tuesday's 1: levels 42 and
    46.2. Fair 2024 (Monday 14, Tuesday 15) ended 31 and 40; October 2024's mean 32, and as of
    October 2025 (its own year's key month) Monday's factor 0.75, Tuesday's 1: levels 24, 32.
    Fair 2023 is before the history (no finals): two past occurrences.
    - A ratio of the sums: 171 / 144.2.
    - Full nights: the 365 nights before October 2025 are 271 of 30, one of 31 and 93 of 40
      (June to August 2025 and the Fair's Tuesday): the 328th sorted is 40; before October 2026,
      271 of 42 and 94 of 50: 50. The nights fill, as m grows, at full / level: Wednesday 2025
      (50 / 46.2), Tuesday 2025 (50 / 42), Tuesday 2024 (40 / 32), Monday 2024 (40 / 24). With
      the first three full (50 + 50 + 40), Monday sells the rest: m = (171 - 140) / 24 = 31 / 24
      (Tuesday 2024 at 32 x 31 / 24 = 41.3, above its 40; Monday 31, below). Had 2024 been read
      with 2026's full night (50), Tuesday 2024 would not fill: (171 - 100) / 56."""
    key = D("2026-10-01")
    fair = Event(name="Fair", fixed=Fixed(month=10, day=14), nights=2)
    cal = calendar_nights(D("2024-10-01"), D("2026-10-31"), None, [fair]).select(
        pl.lit(1, dtype=pl.Int64).alias("property_id"), pl.all())
    occasions = cal.lazy().filter("ly_by_name").select("property_id", "ly_date", "occasion")
    ended = {D("2024-10-14"): 31, D("2024-10-15"): 40, D("2025-10-14"): 50, D("2025-10-15"): 50}
    nights = [D("2024-10-01") + timedelta(days=n) for n in range(730)]

    def final(night: date) -> int:
        summer = (night.month in (6, 7, 8))
        if night < D("2025-10-01"):
            return ended.get(night, 40 if summer else 30)
        return ended.get(night, 50 if summer else 42)

    finals = pl.LazyFrame({"property_id": [1] * 730, "stay_date": nights,
                           "final_rooms": [final(d) for d in nights]})
    levels = pl.LazyFrame({"property_id": [1, 1], "month": [D("2024-10-01"), D("2025-10-01")],
                           "month_mean": [32.0, 42.0]})
    shape = pl.LazyFrame({"property_id": [1] * 4,
                          "key_month": [key, key, D("2025-10-01"), D("2025-10-01")],
                          "weekday": [2, 3, 1, 2], "weekday_factor": [1.0, 1.1, 0.75, 1.0]})

    def effects(share: float | None) -> pl.DataFrame:
        return occasion_effects(occasions, pl.LazyFrame({"property_id": [1], "key_month": [key]}),
                                levels, shape, finals, pooled=True, full_share=share
                                ).collect().filter(occasion="Fair 2026").sort("ly_date")

    assert past_occurrences(occasions).filter(occasion="Fair 2026").sort("ly_date").collect()[
        "years_back"].to_list() == [3, 3, 2, 2, 1, 1]
    plain = effects(None)
    assert plain["ly_date"].to_list() == [D("2025-10-14"), D("2025-10-15")]
    assert plain["event_effect"].to_list() == pytest.approx([171 / 144.2] * 2)
    saturated = effects(0.9)
    assert saturated["full"].to_list() == [50, 50]
    assert saturated["event_effect"].to_list() == pytest.approx([31 / 24] * 2)


def test_a_forecast_above_a_full_night_stops_there() -> None:
    """End to end (`forecast_daily`, the chosen forecast): the hotel's Gala, the second
    Saturday of December, one night, ended full a year ago and would be forecast above full.

    Finals: September to November 2025 40 rooms a night; December 2025 to May 2026 40 but the
    Gala, Saturday 13 December 2025, 48; June to August 2026 48; September to November 2026 44.
    As of Tuesday 1 December 2026 (5 rooms on the books of Saturday 12 December 2026, the Gala,
    11 days out: last_year_season, chosen from 14 days out while it has no WAPE):
    - full: the 365 nights before December 2026 are 181 of 40, 91 of 44 and 93 of 48; the
      0.9 quantile (the lower, the 328th of 365 sorted) is 48;
    - the trend: September to November 2026 over the same months of 2025, 44 / 40 = 1.1;
    - the Gala's level a year ago, L = December 2025's mean x Saturday's factor, and this
      year's the same L x 1.1: the same month a year back, the same weekday;
    - the Gala 2025 ended full (48), so its effect fills it: 48 / L;
    - the forecast: L x 1.1 x 48 / L = 52.8 rooms, above a full night: it stops at 48. A plain
      ratio (`full_share` None) leaves it at 52.8, below the 60 rooms."""
    gala = Event(name="Gala", nth_weekday=NthWeekday(month=12, weekday="saturday", n=2))
    assert gala.nights_of(2025) == [D("2025-12-13")]
    assert gala.nights_of(2026) == [D("2026-12-12")]

    def ended(night: date) -> int:
        if night == D("2025-12-13") or D("2026-06-01") <= night < D("2026-09-01"):
            return 48
        return 44 if night >= D("2026-09-01") else 40

    nights = [D("2025-09-01") + timedelta(days=n) for n in range(456)]
    assert nights[-1] == D("2026-11-30")
    rows = [(night, night, ended(night)) for night in nights]
    rows.append((D("2026-12-01"), D("2026-12-12"), 5))
    snapshots = books(rows)
    cal = calendar(nights[0], D("2027-12-31"), [gala])
    assert cal.filter(pl.col("stay_date") == D("2026-12-12"))["ly_date"].to_list() == [
        D("2025-12-13")]

    def the_gala(settings: ForecastSettings) -> dict[str, object]:
        return night_of(forecast_daily(snapshots, CAPACITY, settings=settings, calendar=cal),
                         D("2026-12-12"))

    capped = the_gala(ForecastSettings())
    assert (capped["as_of_date"], capped["days_before"]) == (D("2026-12-01"), 11)
    assert capped["method"] == "last_year_season"
    assert capped["rooms_forecast"] == pytest.approx(48)
    plain = the_gala(ForecastSettings(full_share=None))
    assert plain["method"] == "last_year_season"
    assert plain["rooms_forecast"] == pytest.approx(52.8)

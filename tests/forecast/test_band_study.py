"""The tables of tests/verify/band_replay.py (docs/forecast.md, "How often the band holds"),
worked by hand: the coverage of the last 91 nights, the spread of runs of 91 nights, and the
month's band by months ahead; and tests/verify/occasion_floor.py's WAPE against the floor
with its delete-a-week interval, and its one-year-luck bound."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest

from tests.verify.band_replay import demo_events, months_table, nights_table
from tests.verify.occasion_floor import luck_bounds, ratio

FIRST = date(2026, 1, 1)


def test_the_nights_table_by_hand() -> None:
    """92 nights of one hotel at 1 day, each band 2 rooms wide; nights 1 and 83..91 fell
    outside (10 of 92). The last 91 nights (2..92) hold 9 outside: 82 / 91 = 90.1 %. The two
    runs of 91 nights: 1..91 with 10 outside (81 / 91 = 89.0 %) and 2..92 with 9 (90.1 %); SD
    of the two (n - 1): |90.11 - 89.01| / sqrt(2) = 0.78. Another hotel's nights stay apart:
    its runs are its own."""
    outside = {1, *range(83, 92)}
    nights = pl.DataFrame({
        "horizon_days": [1] * 92,
        "stay_date": [FIRST + timedelta(days=n - 1) for n in range(1, 93)],
        "hotel": ["w13 ROMA01"] * 92,
        "inside": [n not in outside for n in range(1, 93)],
        "width": [2.0] * 92,
    })
    other = nights.with_columns(hotel=pl.lit("w14 ROMA01"), inside=pl.lit(True))
    row = nights_table(nights).row(0, named=True)
    assert row == {"horizon_days": 1, "nights": 91, "inside_pct": 90.1, "width_rooms": 2.0,
                   "runs": 2, "run_low": 89.0, "run_high": 90.1, "run_sd": 0.8}
    both = nights_table(pl.concat([nights, other])).row(0, named=True)
    assert (both["nights"], both["runs"], both["run_low"], both["run_high"]) == (
        182, 4, 89.0, 100.0)
    assert both["inside_pct"] == pytest.approx(round((82 + 91) / 182 * 100, 1))


def test_the_months_table_by_hand() -> None:
    """Three as-of dates of one hotel: its own month inside twice of three (66.7 %, two
    months behind them), the next month inside once (100 %); a month four ahead is left out."""
    months = pl.DataFrame({
        "hotel": ["w13 ROMA01"] * 5,
        "as_of_date": [date(2026, 3, 30), date(2026, 3, 31), date(2026, 4, 2),
                       date(2026, 3, 30), date(2026, 3, 30)],
        "month": [date(2026, 3, 1), date(2026, 3, 1), date(2026, 4, 1), date(2026, 4, 1),
                  date(2026, 7, 1)],
        "ahead": [0, 0, 0, 1, 4],
        "inside": [True, False, True, True, False],
        "width": [10.0, 20.0, 30.0, 40.0, 50.0],
    })
    assert months_table(months).rows() == [(0, 3, 2, 66.7, 20.0), (1, 1, 1, 100.0, 40.0)]


def test_the_ratio_to_the_floor_by_hand() -> None:
    """Four weeks of one night each, 40 rooms actual: the forecast 2, 4, 6, 8 rooms high
    (WAPE 20 / 160 = 12.5 %, bias +12.5 %), the level 2, 2, 2, 4 off (6.25 %): 2.00 x. Left
    out one week at a time: 18 / 8, 16 / 8, 14 / 8, 12 / 6 = 2.25, 2, 1.75, 2 (mean 2); SE =
    sqrt(3 / 4 x 0.125) = 0.306, the interval 2 -+ 1.645 x 0.306: 1.50 to 2.50. Three
    weeks: no interval."""
    weeks = [FIRST + timedelta(days=7 * k) for k in range(4)]
    scored = pl.DataFrame({
        "hotel": ["w13 ROMA01"] * 4, "week": weeks, "stay_date": weeks,
        "rooms_actual": [40.0] * 4, "rooms_forecast": [42.0, 44.0, 46.0, 48.0],
        "rooms_level": [38.0, 42.0, 38.0, 44.0]})
    assert ratio(scored, ["hotel"]).row(0, named=True) == {
        "hotel": "w13 ROMA01", "nights": 4, "weeks": 4, "wape_pct": 12.5,
        "floor_wape_pct": 6.25, "ratio": 2.0, "low": 1.5, "high": 2.5, "bias_pct": 12.5}
    assert ratio(scored.head(3), ["hotel"]).select("ratio", "low", "high").row(0) == (
        2.0, None, None)


def test_the_luck_bounds_by_hand() -> None:
    """Easter 2027's two nights are aligned by name with 16 and 17 April 2026, which ended at
    44 and 50 rooms on levels of 40 and 40: luck 94 / 80 = 1.175. Its nights of level 40 and
    48 get 47 and 56.4, the second cut at the hotel's 50 rooms; a night without an occasion
    keeps its level (30); last year's ordinary night (60 on 40) lends nothing. Easter 2026's
    nights were aligned with 17 and 18 April 2025, which ended at 36 and 40 on 40 and 40:
    every past occurrence's luck is (94 + 76) / 160 = 1.0625, 42.5 and 51 cut at 50."""
    nights = [date(2027, 4, 1), date(2027, 4, 2), date(2027, 4, 3)]
    calendar = pl.DataFrame({
        "property_id": [1] * 5, "stay_date": [*nights, date(2026, 4, 16), date(2026, 4, 17)],
        "ly_date": [date(2026, 4, 16), date(2026, 4, 17), date(2026, 4, 4),
                    date(2025, 4, 17), date(2025, 4, 18)],
        "ly_by_name": [True, True, False, True, True],
        "occasion": ["Easter 2027", "Easter 2027", None, "Easter 2026", "Easter 2026"]})
    past = pl.DataFrame({
        "property_id": [1] * 5,
        "stay_date": [date(2026, 4, 16), date(2026, 4, 17), date(2026, 4, 4),
                      date(2025, 4, 17), date(2025, 4, 18)],
        "rooms_actual": [44, 50, 60, 36, 40], "rooms_level": [40.0] * 5})
    rows = calendar.head(3).select("property_id", "stay_date", "occasion").with_columns(
        rooms_level=pl.Series([40.0, 48.0, 30.0]))
    got = luck_bounds(rows, calendar, past, pl.DataFrame({"property_id": [1], "rooms": [50]}))
    assert got["rooms_one_year"].to_list() == pytest.approx([47.0, 50.0, 30.0])
    assert got["rooms_all_years"].to_list() == pytest.approx([42.5, 50.0, 30.0])


def test_a_warehouse_copied_without_its_demo_folder_is_refused(tmp_path: Path) -> None:
    """Read with no events file, every night would be an ordinary night and the events' weeks
    empty: the studies refuse rather than measure another study."""
    (tmp_path / "warehouse.duckdb").touch()
    with pytest.raises(SystemExit, match=r"demo/events\.yaml: missing"):
        demo_events(tmp_path / "warehouse.duckdb")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "events.yaml").write_text("events: []\n", encoding="utf-8")
    assert demo_events(tmp_path / "warehouse.duckdb") == []

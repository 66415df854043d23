"""An alert is a stretch of nights (pipelines/forecast/logic/stretches.py, docs/alerts.md).

Nights alerted as of 1 Dec 2026 at one hotel, by hand:
- pace_below_stly 3, 4, 5 Dec (books 7, 5, 9 against STLY 10, 10, 12; -30 %, -50 %, -25 %)
  and 8 Dec (6 against 10): 3-5 Dec is one alert of 3 nights, 21 rooms against 32, 11 behind,
  21 / 32 - 1 = -34.375 % (-0.3438), its furthest behind 4 Dec; 8 Dec is another (6 and 7
  Dec are not alerted);
- pickup_spike 4 Dec (z 4.5) and 5 Dec (z 6.0): one alert of 2 nights beside the pace one
  (another kind), its strongest 5 Dec, value 6.0;
- over_capacity 30 Dec - 2 Jan (books 41, 42, 40, 39 against a limit of 40): one alert over
  the year's end, 4 nights, the furthest over 31 Dec (42, 2 above).
"""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from pipelines.forecast import alert_stretches
from pipelines.forecast.logic.stretches import span

AS_OF = date(2026, 12, 1)
PACE, SPIKE, OVER = "pace_below_stly", "pickup_spike", "over_capacity"


def _nights() -> pl.DataFrame:
    rows = [  # stay_date, alert, value, threshold, rooms_otb, stly_rooms_otb
        (date(2026, 12, 3), PACE, -0.3, -0.2, 7, 10),
        (date(2026, 12, 4), PACE, -0.5, -0.2, 5, 10),
        (date(2026, 12, 5), PACE, -0.25, -0.2, 9, 12),
        (date(2026, 12, 8), PACE, -0.4, -0.2, 6, 10),
        (date(2026, 12, 4), SPIKE, 4.5, 4.0, 20, 15),
        (date(2026, 12, 5), SPIKE, 6.0, 4.0, 22, 15),
        (date(2026, 12, 30), OVER, 41.0, 40.0, 41, 30),
        (date(2026, 12, 31), OVER, 42.0, 40.0, 42, 30),
        (date(2027, 1, 1), OVER, 40.0, 40.0, 40, 30),
        (date(2027, 1, 2), OVER, 39.0, 40.0, 39, 30),
    ]
    return pl.DataFrame(
        [(1, AS_OF, d, kind, v, t, f"night {d:%d %b} {kind}", otb, stly)
         for d, kind, v, t, otb, stly in rows], orient="row",
        schema=["property_id", "as_of_date", "stay_date", "alert", "value", "threshold",
                "message", "rooms_otb", "stly_rooms_otb"])


def test_consecutive_nights_of_one_kind_are_one_alert() -> None:
    got = alert_stretches(_nights())
    found = [(r["alert"], r["first_night"], r["last_night"], r["alert_nights"])
             for r in got.to_dicts()]

    assert found == [
        (PACE, date(2026, 12, 3), date(2026, 12, 5), 3),
        (SPIKE, date(2026, 12, 4), date(2026, 12, 5), 2),
        (PACE, date(2026, 12, 8), date(2026, 12, 8), 1),
        (OVER, date(2026, 12, 30), date(2027, 1, 2), 4),
    ]


def test_a_pace_alert_sums_its_nights_and_says_so() -> None:
    by = {(r["alert"], r["first_night"]): r for r in alert_stretches(_nights()).to_dicts()}
    pace = by[(PACE, date(2026, 12, 3))]

    assert (pace["rooms_otb"], pace["stly_rooms_otb"]) == (21, 32)
    assert pace["value"] == pytest.approx(round(21 / 32 - 1, 4))
    assert pace["threshold"] == -0.2
    assert pace["message"] == (
        "pace below last year 3-5 Dec 2026, 3 nights: 21 rooms on the books against 32 at the "
        "same time last year, 11 rooms (34.4%) behind; the furthest behind 4 Dec 2026: "
        f"night 04 Dec {PACE}")
    alone = by[(PACE, date(2026, 12, 8))]
    assert alone["value"] == pytest.approx(-0.4)
    assert alone["message"] == f"pace below last year 8 Dec 2026, 1 night: night 08 Dec {PACE}"


def test_other_kinds_take_the_night_furthest_past_the_threshold() -> None:
    by = {(r["alert"], r["first_night"]): r for r in alert_stretches(_nights()).to_dicts()}
    spike, over = by[(SPIKE, date(2026, 12, 4))], by[(OVER, date(2026, 12, 30))]

    assert (spike["value"], spike["threshold"]) == (6.0, 4.0)
    assert spike["message"] == ("pickup spike 4-5 Dec 2026, 2 nights; the strongest 5 Dec "
                                f"2026: night 05 Dec {SPIKE}")
    assert (over["value"], over["threshold"]) == (42.0, 40.0)
    assert over["message"].startswith(
        "heading over capacity 30 Dec 2026 - 2 Jan 2027, 4 nights; the furthest over 31 Dec "
        "2026: ")


def test_a_stretch_is_per_as_of_date_and_property() -> None:
    """The same nights alerted as of two dates, or at two hotels, are separate alerts."""
    nights = _nights().filter(pl.col("alert") == SPIKE)
    other = pl.concat([nights, nights.with_columns(as_of_date=pl.lit(date(2026, 12, 2))),
                       nights.with_columns(property_id=pl.lit(2, dtype=pl.Int64))])

    assert alert_stretches(other)["alert_nights"].to_list() == [2, 2, 2]


def test_a_night_without_pace_keeps_the_worst_nights_share() -> None:
    nights = _nights().with_columns(
        stly_rooms_otb=pl.when(pl.col("stay_date") == date(2026, 12, 4))
        .then(None).otherwise(pl.col("stly_rooms_otb")))
    pace = alert_stretches(nights).to_dicts()[0]

    assert (pace["rooms_otb"], pace["stly_rooms_otb"], pace["value"]) == (21, None, -0.5)
    assert pace["message"].startswith("pace below last year 3-5 Dec 2026, 3 nights; the ")


def test_a_span_in_words() -> None:
    assert span(date(2026, 12, 3), date(2026, 12, 9)) == "3-9 Dec 2026"
    assert span(date(2026, 11, 28), date(2026, 12, 2)) == "28 Nov - 2 Dec 2026"
    assert span(date(2026, 12, 5), date(2026, 12, 5)) == "5 Dec 2026"


def test_missing_columns_are_named() -> None:
    with pytest.raises(ValueError, match=r"alerts lacks column.*stly_rooms_otb"):
        alert_stretches(_nights().drop("stly_rooms_otb"))

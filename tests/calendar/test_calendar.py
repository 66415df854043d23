"""pipelines.forecast.calendar: date rules, the events file, holidays and last year's aligned night.
Figures from the calendar itself (docs/calendar.md): Easter Sunday 2025-04-20, 2026-04-05,
2027-03-28; 1 March 2026 is a Sunday, 25 December 2025 a Thursday and 2026 a Friday."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest

from pipelines.forecast import (
    CalendarError,
    Event,
    Fixed,
    FromEaster,
    NthWeekday,
    Place,
    calendar_nights,
    events_file,
    load_events,
    nth_weekday,
    property_calendars,
)

D = date.fromisoformat
ROME = Place("IT", "RM")


def test_rules_move_with_the_year() -> None:
    assert FromEaster(days=0).on(2025) == D("2025-04-20")
    assert FromEaster(days=0).on(2026) == D("2026-04-05")
    assert FromEaster(days=-3).on(2027) == D("2027-03-25")  # Holy Thursday
    # 1 March 2026 is a Sunday: the third Sunday is the 15th; 31 May 2026 is a Sunday, so
    # the last Monday of May is the 25th
    assert NthWeekday(month=3, weekday="sunday", n=3).on(2026) == D("2026-03-15")
    assert NthWeekday(month=5, weekday="monday", n=-1).on(2026) == D("2026-05-25")
    assert Fixed(month=2, day=29).on(2026) == D("2026-02-28")
    assert Fixed(month=2, day=29).on(2028) == D("2028-02-29")
    with pytest.raises(ValueError, match="no 5th friday"):
        nth_weekday(2026, 2, 4, 5)


def test_christmas_with_christmas_easter_with_easter() -> None:
    events = [Event(name="Christmas Eve", fixed=Fixed(month=12, day=24)),
              Event(name="Easter", easter=FromEaster(days=-3), nights=4),
              Event(name="New Year", fixed=Fixed(month=12, day=30), nights=3)]
    cal = calendar_nights(D("2026-12-22"), D("2027-01-02"), ROME, events)
    night = {r["stay_date"]: r for r in cal.iter_rows(named=True)}
    assert night[D("2026-12-25")]["holiday"] == "Christmas Day"
    assert night[D("2026-12-25")]["ly_date"] == D("2025-12-25")  # not 2025-12-26
    assert night[D("2026-12-24")]["event"] == "Christmas Eve"
    assert night[D("2026-12-24")]["ly_date"] == D("2025-12-24")
    assert night[D("2026-12-26")]["holiday"] == "Saint Stephen's Day"
    # an ordinary night: 364 days back, the same weekday
    assert night[D("2026-12-23")]["ly_date"] == D("2025-12-24")
    assert night[D("2026-12-23")]["ly_by_name"] is False
    # the New Year occurrence of 2026 runs 30 Dec 2026 - 1 Jan 2027: its third night is
    # compared with the third night of 2025's, 1 January 2026
    assert night[D("2027-01-01")]["ly_date"] == D("2026-01-01")
    assert night[D("2027-01-01")]["event"] == "New Year"
    assert night[D("2027-01-02")]["ly_date"] == D("2026-01-03")
    easter = calendar_nights(D("2026-04-01"), D("2026-04-07"), ROME, events)
    by = dict(zip(easter["stay_date"], easter["ly_date"], strict=True))
    assert by[D("2026-04-05")] == D("2025-04-20")  # Easter Sunday with Easter Sunday
    assert by[D("2026-04-02")] == D("2025-04-17")  # the event's first night, Holy Thursday
    assert by[D("2026-04-06")] == D("2025-04-21")  # Easter Monday
    assert by[D("2026-04-01")] == D("2025-04-02")


def test_city_holidays_follow_the_province() -> None:
    rome = calendar_nights(D("2026-06-24"), D("2026-06-29"), ROME)
    florence = calendar_nights(D("2026-06-24"), D("2026-06-29"), Place("IT", "FI"))
    assert rome.filter(rome["holiday"].is_not_null())["stay_date"].to_list() == [
        D("2026-06-29")]  # Saints Peter and Paul, Rome's patrons
    assert florence.filter(florence["holiday"].is_not_null())["stay_date"].to_list() == [
        D("2026-06-24")]  # Saint John the Baptist, Florence's
    with pytest.raises(CalendarError, match="country 'XX'"):
        calendar_nights(D("2026-01-01"), D("2026-01-02"), Place("XX"))


def test_property_calendars_give_each_hotel_its_events() -> None:
    props = pl.DataFrame({"property_id": [1, 2], "code": ["ROMA01", "FIRE01"],
                          "country": ["IT", "IT"], "province": ["RM", "FI"]})
    fair = Event(name="Pitti Uomo", nth_weekday=NthWeekday(month=1, weekday="tuesday", n=2),
                 offset_days=-1, nights=4, properties=("FIRE01",))
    cal = property_calendars(props, D("2027-01-10"), D("2027-01-16"), [fair])
    # the second Tuesday of January 2027 is the 12th: nights Monday 11 to Thursday 14,
    # aligned with Monday 12 to Thursday 15 January 2026 (second Tuesday the 13th)
    pitti = cal.filter(pl.col("event") == "Pitti Uomo")
    assert pitti["property_id"].unique().to_list() == [2]
    assert pitti["stay_date"].to_list() == [D(f"2027-01-{d}") for d in (11, 12, 13, 14)]
    assert pitti["ly_date"].to_list() == [D(f"2026-01-{d}") for d in (12, 13, 14, 15)]
    assert cal.filter(pl.col("property_id") == 1)["event"].null_count() == 7


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "events.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_events_file(tmp_path: Path) -> None:
    path = write(tmp_path, """
events:
  - name: Rome Marathon
    nth_weekday: {month: 3, weekday: sunday, n: 3}
    offset_days: -2
    nights: 2
    properties: [ROMA01]
  - name: Christmas Eve
    fixed: {month: 12, day: 24}
""")
    events = load_events(path)
    assert [e.name for e in events] == ["Rome Marathon", "Christmas Eve"]
    assert events[0].nights_of(2026) == [D("2026-03-13"), D("2026-03-14")]
    assert events[0].concerns("roma01")
    assert not events[0].concerns("FIRE01")
    assert events[1].concerns("FIRE01")
    assert load_events(tmp_path / "none.yaml") == []
    assert events_file(tmp_path / "properties.yaml") == tmp_path / "events.yaml"


@pytest.mark.parametrize(("text", "message"), [
    ("events:\n  - name: Fair\n", "events[0]: give exactly one date rule of fixed, easter, "
     "nth_weekday"),
    ("events:\n  - name: Fair\n    fixed: {month: 1, day: 2}\n    easter: {days: 3}\n",
     "events[0]: give exactly one date rule of fixed, easter, nth_weekday (got fixed, easter)"),
    ("events:\n  - name: Fair\n    fixed: {month: 13, day: 2}\n",
     "events[0].fixed.month: Input should be less than or equal to 12"),
    ("events:\n  - name: Fair\n    fixed: {month: 4, day: 31}\n",
     "events[0].fixed: day is out of range for month"),
    ("events:\n  - name: Fair\n    nth_weekday: {month: 4, weekday: fri, n: 2}\n",
     "events[0].nth_weekday.weekday: Input should be 'monday'"),
    ("events:\n  - name: Fair\n    easter: {days: 1}\n    nights: 0\n",
     "events[0].nights: Input should be greater than or equal to 1"),
    ("events:\n  - name: Fair\n    easter: {days: 1}\n    when: soon\n",
     "events[0].when: Extra inputs are not permitted"),
    ("events:\n  - {name: Fair, easter: {days: 1}}\n  - {name: fair, easter: {days: 2}}\n",
     "file: event name 'fair' appears twice"),
    ("events: [\n", "not valid YAML at line 2"),
])
def test_a_bad_events_file_is_one_line_naming_the_field(tmp_path: Path, text: str,
                                                       message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CalendarError) as caught:
        load_events(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)

"""The dated events of demand (sandbox/simulator/demand_calendar.py), by known dates."""

from __future__ import annotations

from datetime import date

from sandbox.simulator.demand_calendar import EVENTS, easter, event_factor, nth_weekday


def test_easter_sundays() -> None:
    assert [easter(y) for y in (2024, 2025, 2026, 2027)] == [
        date(2024, 3, 31), date(2025, 4, 20), date(2026, 4, 5), date(2027, 3, 28)]


def test_nth_weekday() -> None:
    assert nth_weekday(2025, 1, 1, 2) == date(2025, 1, 14)  # second Tuesday
    assert nth_weekday(2025, 5, 6, 3) == date(2025, 5, 18)  # third Sunday


def test_events_by_city_and_night() -> None:
    # Pitti Uomo, 14-17 January 2025: its buyers' nights are Monday 13 to Thursday 16.
    assert event_factor(EVENTS, "Firenze", date(2025, 1, 13)) == 1.40
    assert event_factor(EVENTS, "Firenze", date(2025, 1, 17)) == 1.0
    assert event_factor(EVENTS, "Roma", date(2025, 1, 14)) == 1.0
    # Easter Saturday in both cities; Christmas Eve sinks; New Year's Eve lifts.
    assert event_factor(EVENTS, "Roma", date(2026, 4, 4)) == 1.25
    assert event_factor(EVENTS, "Firenze", date(2025, 4, 19)) == 1.25
    assert event_factor(EVENTS, "Roma", date(2025, 12, 24)) == 0.70
    assert event_factor(EVENTS, "Firenze", date(2025, 12, 31)) == 1.35
    # Rome's marathon: the Friday and Saturday before the third Sunday of March (2025: 16th).
    assert event_factor(EVENTS, "Roma", date(2025, 3, 15)) == 1.20
    assert event_factor(EVENTS, "Firenze", date(2025, 3, 15)) == 1.0

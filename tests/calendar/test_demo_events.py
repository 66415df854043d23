"""The simulated hotels' events.yaml (`pmsw sandbox simulate --events-file`, which the demo
writes beside its properties file: sandbox/simulator/events_file.py) says the simulator's dated
events (sandbox/simulator/demand_calendar.py): read back through pipelines.forecast.calendar, each
event's nights are the nights the simulator lifts or sinks, in every city and year."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pipelines.forecast import load_events
from sandbox.simulator.demand_calendar import EVENTS, event_factors
from sandbox.simulator.events_file import write_events_file

CODES_OF_CITY = {"Roma": "ROMA01", "Firenze": "FIRE01"}


def test_the_demo_events_are_the_simulators(tmp_path: Path) -> None:
    path = tmp_path / "events.yaml"
    write_events_file(path, (1, 2))
    events = load_events(path)
    assert [e.name for e in events] == [e.name for e in EVENTS]
    for city, code in CODES_OF_CITY.items():
        for year in (2025, 2026, 2027):
            told = {night for e in events if e.concerns(code)
                    for occurrence in (year - 1, year) for night in e.nights_of(occurrence)
                    if night.year == year}
            assert told == set(event_factors(EVENTS, city, year)), (city, year)
    # by hand: Christmas Eve and Day in both cities; Pitti Uomo 2026 (second Tuesday of
    # January the 13th) the nights Monday 12 to Thursday 15, in Florence only
    christmas = next(e for e in events if e.name == "Christmas")
    assert christmas.nights_of(2026) == [date(2026, 12, 24), date(2026, 12, 25)]
    pitti = next(e for e in events if e.name == "Pitti Uomo (January)")
    assert pitti.nights_of(2026) == [date(2026, 1, d) for d in (12, 13, 14, 15)]
    assert pitti.properties == ("FIRE01",)
    # Rome alone: Florence's fairs are left out, the events of every city kept
    write_events_file(path, (1,))
    rome = [e.name for e in load_events(path)]
    assert "Pitti Uomo (January)" not in rome
    assert "Rome Marathon" in rome
    assert "Christmas" in rome

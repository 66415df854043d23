"""The demo hotels' events.yaml (pipelines/demo/events.py) says the simulator's dated events
(sandbox/simulator/demand_calendar.py): read back through pipelines.calendar, each event's
nights are the nights the simulator lifts or sinks, in every city and year."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pipelines.calendar import load_events
from pipelines.demo.events import CODES_OF_CITY, write_events_file
from sandbox.simulator.demand_calendar import EVENTS, event_factors


def test_the_demo_events_are_the_simulators(tmp_path: Path) -> None:
    path = tmp_path / "events.yaml"
    write_events_file(path)
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

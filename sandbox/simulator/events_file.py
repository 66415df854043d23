"""The simulated hotels' events file: the simulator's dated events (demand_calendar.py) as a
hotel's own events.yaml (docs/calendar.md), for `pmsw sandbox simulate --events-file` (the
demo writes it beside its properties file). A hotel knows its fairs and concerts; what each
does to its nights the forecast learns from the history (the factors are not written)."""

from __future__ import annotations

from pathlib import Path

import yaml

from ..seed import FLORENCE, ROME, SMALL
from .demand_calendar import EVENTS, DatedEvent, Rule

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SEEDED = {hotel.property_id: hotel for hotel in (ROME, FLORENCE, *SMALL)}


def _rule(rule: Rule) -> dict[str, object]:
    if rule.kind == "fixed":
        return {"fixed": {"month": rule.month, "day": rule.day}}
    if rule.kind == "easter":
        return {"easter": {"days": rule.day}}
    return {"nth_weekday": {"month": rule.month, "weekday": WEEKDAYS[rule.weekday],
                            "n": rule.n}}


def _entry(event: DatedEvent, codes_of_city: dict[str, list[str]]) -> dict[str, object]:
    entry: dict[str, object] = {"name": event.name, **_rule(event.rule)}
    if event.rule.offset_days:
        entry["offset_days"] = event.rule.offset_days
    if event.nights != 1:
        entry["nights"] = event.nights
    if event.cities:
        entry["properties"] = [code for city in event.cities
                               for code in codes_of_city.get(city, [])]
    return entry


def write_events_file(path: Path, property_ids: tuple[int, ...]) -> None:
    """The events of the seeded hotels `property_ids` as an events file at `path`: every
    event of their cities, each naming the hotels it concerns (a city's event none of them is
    in is left out)."""
    codes_of_city: dict[str, list[str]] = {}
    for hotel in (SEEDED[p] for p in property_ids if p in SEEDED):  # a group's: no city
        codes_of_city.setdefault(hotel.city, []).append(hotel.code)
    entries = [_entry(e, codes_of_city) for e in EVENTS
               if not e.cities or any(city in codes_of_city for city in e.cities)]
    path.write_text(yaml.safe_dump({"events": entries}, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")

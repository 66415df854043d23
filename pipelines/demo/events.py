"""The demo hotels' events file: the simulator's dated events (sandbox/simulator/
demand_calendar.py), written as the hotel's own events.yaml (docs/calendar.md) beside the
demo's properties file. A hotel knows its fairs and concerts; what each does to its nights
the forecast learns from the history (the factors are not written)."""

from __future__ import annotations

from pathlib import Path

import yaml

from sandbox.seed import FLORENCE, ROME
from sandbox.simulator.demand_calendar import EVENTS, DatedEvent, Rule

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
CODES_OF_CITY = {ROME.city: ROME.code, FLORENCE.city: FLORENCE.code}


def _rule(rule: Rule) -> dict[str, object]:
    if rule.kind == "fixed":
        return {"fixed": {"month": rule.month, "day": rule.day}}
    if rule.kind == "easter":
        return {"easter": {"days": rule.day}}
    return {"nth_weekday": {"month": rule.month, "weekday": WEEKDAYS[rule.weekday],
                            "n": rule.n}}


def _entry(event: DatedEvent) -> dict[str, object]:
    entry: dict[str, object] = {"name": event.name, **_rule(event.rule)}
    if event.rule.offset_days:
        entry["offset_days"] = event.rule.offset_days
    if event.nights != 1:
        entry["nights"] = event.nights
    if event.cities:
        entry["properties"] = [CODES_OF_CITY[city] for city in event.cities]
    return entry


def write_events_file(path: Path) -> None:
    """The simulator's events as an events file at `path`."""
    path.write_text(yaml.safe_dump({"events": [_entry(e) for e in EVENTS]}, sort_keys=False,
                                   allow_unicode=True), encoding="utf-8")

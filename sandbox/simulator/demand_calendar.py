"""Dated demand: holidays, fairs and concerts that lift or sink particular nights of a city.

Each event gives its nights in a year by a rule of the kinds a hotel's events file uses
(docs/calendar.md: a fixed date, days from Easter, "the second Tuesday of January", then an
offset and a number of nights), so events that move between years move here too: the same night
last year is a guide to this year's, not the answer. A night's demand is multiplied by the
factors of its events (demand_book.py then keeps the month at its occupancy target, so an
event takes rooms from the other nights of its month). Sources and choices: docs/sandbox.md,
Simulator, "Dated events".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Literal

from dateutil.easter import easter
from dateutil.relativedelta import relativedelta
from dateutil.relativedelta import weekday as weekday_of

ROME, FLORENCE = "Roma", "Firenze"


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1-based) `weekday` (Monday 0) of the month."""
    return date(year, month, 1) + relativedelta(weekday=weekday_of(weekday)(n))


@dataclass(frozen=True)
class Rule:
    """An event's first night, by one of the three rules of a hotel's events file
    (docs/calendar.md, `fixed` / `easter` / `nth_weekday`): a fixed month and day, days from
    Easter Sunday, or the n-th weekday (Monday 0) of a month; then `offset_days` from it."""

    kind: Literal["fixed", "easter", "nth_weekday"]
    month: int = 0
    day: int = 0
    """fixed: the day of the month; easter: days from Easter Sunday."""
    weekday: int = 0
    n: int = 0
    offset_days: int = 0

    def first_night(self, year: int) -> date:
        if self.kind == "fixed":
            first = date(year, self.month, self.day)
        elif self.kind == "easter":
            first = easter(year) + timedelta(days=self.day)
        else:
            first = nth_weekday(year, self.month, self.weekday, self.n)
        return first + timedelta(days=self.offset_days)


def fixed(month: int, day: int) -> Rule:
    return Rule("fixed", month=month, day=day)


def from_easter(days: int) -> Rule:
    return Rule("easter", day=days)


def nth(month: int, weekday: int, n: int, offset_days: int = 0) -> Rule:
    return Rule("nth_weekday", month=month, weekday=weekday, n=n, offset_days=offset_days)


SATURDAY, SUNDAY, TUESDAY = 5, 6, 1


@dataclass(frozen=True)
class DatedEvent:
    name: str
    factor: float
    """Demand of each night of the event relative to a night without it."""
    rule: Rule
    nights: int = 1
    """Nights from the rule's first night (they may run into the next year)."""
    cities: tuple[str, ...] = ()
    """Cities it concerns (none: every city)."""

    def nights_of(self, year: int) -> list[date]:
        """The nights of the event's occurrence of `year`."""
        first = self.rule.first_night(year)
        return [first + timedelta(days=n) for n in range(self.nights)]


EVENTS: tuple[DatedEvent, ...] = (
    DatedEvent("New Year", 1.35, fixed(12, 30), 3),
    DatedEvent("after Epiphany", 0.85, fixed(1, 7), 4),
    DatedEvent("Easter", 1.25, from_easter(-3), 4),
    DatedEvent("Easter Monday", 1.10, from_easter(1)),
    DatedEvent("Liberation Day", 1.12, fixed(4, 24), 2),
    DatedEvent("Labour Day", 1.12, fixed(4, 30), 2),
    DatedEvent("Ascension", 1.08, from_easter(39), 3),
    DatedEvent("Whitsun", 1.10, from_easter(48), 2),
    DatedEvent("Republic Day", 1.10, fixed(6, 1), 2),
    DatedEvent("Immaculate Conception", 1.15, fixed(12, 7), 2),
    DatedEvent("Christmas", 0.70, fixed(12, 24), 2),
    # the Friday and Saturday before the third Sunday of March
    DatedEvent("Rome Marathon", 1.20, nth(3, SUNDAY, 3, -2), 2, (ROME,)),
    # the 11 nights to the third Sunday of May
    DatedEvent("Internazionali d'Italia (tennis)", 1.08, nth(5, SUNDAY, 3, -11), 11, (ROME,)),
    # the Friday and Saturday nights of the 1st and 3rd weekends (by their Saturday) of July
    DatedEvent("summer concerts (first weekend)", 1.12, nth(7, SATURDAY, 1, -1), 2, (ROME,)),
    DatedEvent("summer concerts (third weekend)", 1.12, nth(7, SATURDAY, 3, -1), 2, (ROME,)),
    DatedEvent("Saints Peter and Paul", 1.05, fixed(6, 28), 2, (ROME,)),
    # Pitti Uomo runs Tuesday to Friday from the second Tuesday of January and of June: its
    # buyers sleep the nights Monday to Thursday
    DatedEvent("Pitti Uomo (January)", 1.40, nth(1, TUESDAY, 2, -1), 4, (FLORENCE,)),
    DatedEvent("Pitti Uomo (June)", 1.35, nth(6, TUESDAY, 2, -1), 4, (FLORENCE,)),
    DatedEvent("Firenze Rocks", 1.12, nth(6, SATURDAY, 3, -1), 2, (FLORENCE,)),
)


@lru_cache(maxsize=64)
def event_factors(events: tuple[DatedEvent, ...], city: str, year: int) -> dict[date, float]:
    """The nights of `year` some event of `city` touches, with the product of their factors."""
    factors: dict[date, float] = {}
    for event in events:
        if event.cities and city not in event.cities:
            continue
        for occurrence in (year - 1, year):
            for night in event.nights_of(occurrence):
                if night.year == year:
                    factors[night] = factors.get(night, 1.0) * event.factor
    return factors


def event_factor(events: tuple[DatedEvent, ...], city: str, night: date) -> float:
    return event_factors(events, city, night.year).get(night, 1.0)

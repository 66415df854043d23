"""Dated demand: holidays, fairs and concerts that lift or sink particular nights of a city.

Each event gives its nights in a year by a rule (Easter's date, "the second Tuesday of
January", a fixed date), so events that move between years move here too: the same night
last year is a guide to this year's, not the answer. A night's demand is multiplied by the
factors of its events (demand_book.py then keeps the month at its occupancy target, so an
event takes rooms from the other nights of its month). Sources and choices: docs/sandbox.md,
Simulator, "Dated events".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

ROME, FLORENCE = "Roma", "Firenze"


def easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian algorithm, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    m = (32 + 2 * e + 2 * i - h - k) % 7
    n = (a + 11 * h + 22 * m) // 451
    month, day = divmod(h + m - 7 * n + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1-based) `weekday` (Monday 0) of the month."""
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _span(first: date, nights: int) -> list[date]:
    return [first + timedelta(days=n) for n in range(nights)]


def _fixed(*month_days: tuple[int, int]) -> Callable[[int], list[date]]:
    return lambda year: [date(year, month, day) for month, day in month_days]


def _after_easter(offset: int, nights: int) -> Callable[[int], list[date]]:
    return lambda year: _span(easter(year) + timedelta(days=offset), nights)


def _pitti(month: int) -> Callable[[int], list[date]]:
    """Pitti Uomo runs Tuesday to Friday from the second Tuesday of January and of June: its
    buyers sleep the nights Monday to Thursday."""
    return lambda year: _span(nth_weekday(year, month, 1, 2) - timedelta(days=1), 4)


def _weekends(month: int, *which: int) -> Callable[[int], list[date]]:
    """The Friday and Saturday nights of the n-th weekends (by their Saturday) of a month."""
    return lambda year: [night for n in which
                         for night in _span(nth_weekday(year, month, 5, n) - timedelta(days=1), 2)]


@dataclass(frozen=True)
class DatedEvent:
    name: str
    factor: float
    """Demand of each night of the event relative to a night without it."""
    nights: Callable[[int], Iterable[date]]
    """The event's nights in a year."""
    cities: tuple[str, ...] = ()
    """Cities it concerns (none: every city)."""


EVENTS: tuple[DatedEvent, ...] = (
    DatedEvent("New Year", 1.35, _fixed((1, 1), (12, 30), (12, 31))),
    DatedEvent("after Epiphany", 0.85, lambda year: _span(date(year, 1, 7), 4)),
    DatedEvent("Easter", 1.25, _after_easter(-3, 4)),
    DatedEvent("Easter Monday", 1.10, _after_easter(1, 1)),
    DatedEvent("Liberation Day", 1.12, _fixed((4, 24), (4, 25))),
    DatedEvent("Labour Day", 1.12, _fixed((4, 30), (5, 1))),
    DatedEvent("Ascension", 1.08, _after_easter(39, 3)),
    DatedEvent("Whitsun", 1.10, _after_easter(48, 2)),
    DatedEvent("Republic Day", 1.10, _fixed((6, 1), (6, 2))),
    DatedEvent("Immaculate Conception", 1.15, _fixed((12, 7), (12, 8))),
    DatedEvent("Christmas", 0.70, _fixed((12, 24), (12, 25))),
    DatedEvent("Rome Marathon", 1.20,
               lambda year: _span(nth_weekday(year, 3, 6, 3) - timedelta(days=2), 2), (ROME,)),
    DatedEvent("Internazionali d'Italia (tennis)", 1.08,
               lambda year: _span(nth_weekday(year, 5, 6, 3) - timedelta(days=11), 11),
               (ROME,)),
    DatedEvent("summer concerts", 1.12, _weekends(7, 1, 3), (ROME,)),
    DatedEvent("Saints Peter and Paul", 1.05, _fixed((6, 28), (6, 29)), (ROME,)),
    DatedEvent("Pitti Uomo (January)", 1.40, _pitti(1), (FLORENCE,)),
    DatedEvent("Pitti Uomo (June)", 1.35, _pitti(6), (FLORENCE,)),
    DatedEvent("Firenze Rocks", 1.12, _weekends(6, 3), (FLORENCE,)),
)


@lru_cache(maxsize=64)
def event_factors(events: tuple[DatedEvent, ...], city: str, year: int) -> dict[date, float]:
    """The nights of `year` some event of `city` touches, with the product of their factors."""
    factors: dict[date, float] = {}
    for event in events:
        if event.cities and city not in event.cities:
            continue
        for night in event.nights(year):
            factors[night] = factors.get(night, 1.0) * event.factor
    return factors


def event_factor(events: tuple[DatedEvent, ...], city: str, night: date) -> float:
    return event_factors(events, city, night.year).get(night, 1.0)

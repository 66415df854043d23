"""Each night's public holiday and hotel event, and its same night last year aligned by them
(pure: polars out, no DuckDB, HTTP or Dagster; docs/calendar.md).

A night that is a holiday or an event is compared with last year's night of the same name and
place in it (Christmas Day with Christmas Day, Easter Sunday with Easter Sunday, a fair's
second night with its second night a year earlier); every other night with the night 364 days
back, the same weekday. An event's nights are numbered within its occurrence, so an event
over New Year (30 December to 1 January) stays one occurrence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

import polars as pl

from .events import CalendarError, Event

STLY_DAYS = 364
"""Nights with no holiday or event: the same weekday a year earlier."""
SCHEMA = {"stay_date": pl.Date, "holiday": pl.String, "event": pl.String, "ly_date": pl.Date,
          "ly_by_name": pl.Boolean, "occasion": pl.String}


@dataclass(frozen=True)
class Place:
    """Where the holidays are: an ISO 3166-1 country and its subdivision as the `holidays`
    library names it (Italy: the province, RM for Rome, FI for Florence), or none."""

    country: str
    subdivision: str | None = None


Key = tuple[str, int]
"""A named night: (name, its place within its occurrence, 0 first)."""


def _holidays(place: Place, years: range) -> dict[date, list[str]]:
    # imported when a calendar is made: the library is large (every country's calendar), and
    # a process that never makes one (a report, the CLI's start) should not pay for it
    import holidays

    try:
        found = holidays.country_holidays(place.country, subdiv=place.subdivision,
                                          years=list(years), language="en_US")
    except NotImplementedError:
        raise CalendarError(f"country {place.country!r}: the holidays library does not "
                            "know it") from None
    except ValueError as exc:
        raise CalendarError(f"country {place.country!r}, subdivision {place.subdivision!r}: "
                            f"{exc}") from None
    return {night: found.get_list(night) for night in found}


def _named(place: Place | None, events: Sequence[Event],
           years: range) -> tuple[dict[date, list[Key]], dict[tuple[Key, int], date],
                                  dict[date, list[str]], dict[date, list[str]]]:
    """Per night its keys; per (key, occurrence year) its night; the holidays' and the events'
    names per night."""
    keys: dict[date, list[Key]] = {}
    where: dict[tuple[Key, int], date] = {}
    holiday_names = _holidays(place, years) if place is not None else {}
    for night, names in holiday_names.items():
        for name in names:
            keys.setdefault(night, []).append((name, 0))
            where[((name, 0), night.year)] = night
    event_names: dict[date, list[str]] = {}
    for event in events:
        for year in years:
            for i, night in enumerate(event.nights_of(year)):
                keys.setdefault(night, []).insert(0, (event.name, i))
                where[((event.name, i), year)] = night
                event_names.setdefault(night, []).append(event.name)
    return keys, where, holiday_names, event_names


def _occurrence_year(key: Key, night: date, where: dict[tuple[Key, int], date]) -> int:
    """The year of the occurrence a night of `key` belongs to (an event may end in the next)."""
    for year in (night.year, night.year - 1):
        if where.get((key, year)) == night:
            return year
    return night.year


def calendar_nights(first: date, last: date, place: Place | None,
                    events: Sequence[Event] = ()) -> pl.DataFrame:
    """One row per night from `first` to `last`: stay_date, holiday (the public holidays'
    names, joined by '; ', null when none), event (the events'), ly_date (same night last
    year: the night of last year's occurrence of the night's first name that had one, events
    before holidays, else 364 days back), ly_by_name (ly_date came from a name) and occasion
    (that name and the year of its occurrence, "Christmas 2026": the nights of one occurrence
    share it; null when ly_date is 364 days back)."""
    if last < first:
        raise CalendarError(f"calendar: last night {last} is before the first {first}")
    years = range(first.year - 2, last.year + 2)
    keys, where, holiday_names, event_names = _named(place, events, years)
    rows: list[dict[str, object]] = []
    night = first
    while night <= last:
        ly, by_name, occasion = night - timedelta(days=STLY_DAYS), False, None
        for key in keys.get(night, []):
            year = _occurrence_year(key, night, where)
            before = where.get((key, year - 1))
            if before is not None:
                ly, by_name, occasion = before, True, f"{key[0]} {year}"
                break
        rows.append({"stay_date": night,
                     "holiday": "; ".join(holiday_names.get(night, [])) or None,
                     "event": "; ".join(event_names.get(night, [])) or None,
                     "ly_date": ly, "ly_by_name": by_name, "occasion": occasion})
        night += timedelta(days=1)
    return pl.DataFrame(rows, schema=SCHEMA)


def property_calendars(properties: pl.DataFrame, first: date, last: date,
                       events: Sequence[Event] = ()) -> pl.DataFrame:
    """calendar_nights of each property of `properties` (property_id, code, country,
    province: the holidays of the country and province, none without a country; the events
    that concern its code), with property_id first."""
    parts = []
    for row in properties.select("property_id", "code", "country", "province").iter_rows(
            named=True):
        place = None if not row["country"] else Place(row["country"], row["province"] or None)
        mine = [e for e in events if e.concerns(row["code"])]
        parts.append(calendar_nights(first, last, place, mine).select(
            pl.lit(row["property_id"], dtype=pl.Int64).alias("property_id"), pl.all()))
    if not parts:
        return pl.DataFrame(schema={"property_id": pl.Int64, **SCHEMA})
    return pl.concat(parts)

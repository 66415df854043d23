"""The calendar of each property: its public holidays (the `holidays` library, by country and
province), the hotel's own events (events.yaml) and each night's same night last year
aligned by them (docs/calendar.md)."""

from .events import (
    EVENTS_FILE_ENV,
    EVENTS_FILE_NAME,
    CalendarError,
    Event,
    events_file,
    load_events,
)
from .nights import STLY_DAYS, Place, calendar_nights, property_calendars
from .rules import Fixed, FromEaster, NthWeekday, nth_weekday

__all__ = ["EVENTS_FILE_ENV", "EVENTS_FILE_NAME", "STLY_DAYS", "CalendarError", "Event",
           "Fixed", "FromEaster", "NthWeekday", "Place", "calendar_nights", "events_file",
           "load_events", "nth_weekday", "property_calendars"]

"""Date rules that move with the year: a fixed date, an offset from Western Easter Sunday, the
n-th weekday of a month. A hotel's event gives its first night by one rule, then `offset_days`
and `nights` (docs/calendar.md)."""

from __future__ import annotations

from calendar import isleap
from datetime import date, timedelta
from typing import Annotated, Literal

from dateutil.easter import easter
from dateutil.relativedelta import relativedelta
from dateutil.relativedelta import weekday as weekday_of
from pydantic import BaseModel, ConfigDict, Field, model_validator

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Month = Annotated[int, Field(ge=1, le=12)]


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1 to 5) `weekday` (Monday 0) of the month, or the last when n is -1; a 5th
    the month does not have is an error."""
    if n == -1:
        return date(year, month, 1) + relativedelta(day=31, weekday=weekday_of(weekday)(-1))
    night = date(year, month, 1) + relativedelta(weekday=weekday_of(weekday)(n))
    if night.month != month:
        raise ValueError(f"{year}-{month:02d} has no {n}th {WEEKDAYS[weekday]}")
    return night


class Fixed(BaseModel):
    """The same month and day every year (a 29 February falls on the 28th in other years)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    month: Month
    day: Annotated[int, Field(ge=1, le=31)]

    @model_validator(mode="after")
    def _real_day(self) -> Fixed:
        date(2024, self.month, self.day)  # a leap year: raises on 31 April, 30 February
        return self

    def on(self, year: int) -> date:
        if (self.month, self.day) == (2, 29) and not isleap(year):
            return date(year, 2, 28)
        return date(year, self.month, self.day)


class FromEaster(BaseModel):
    """Days from Western Easter Sunday (-2 Good Friday, 1 Easter Monday, 49 Pentecost)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    days: Annotated[int, Field(ge=-70, le=70)]

    def on(self, year: int) -> date:
        return easter(year) + timedelta(days=self.days)


class NthWeekday(BaseModel):
    """The n-th weekday of a month: n 1 to 4, or -1 for the last (a 5th is not in every
    month)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    month: Month
    weekday: Weekday
    n: Literal[1, 2, 3, 4, -1]

    def on(self, year: int) -> date:
        return nth_weekday(year, self.month, WEEKDAYS.index(self.weekday), self.n)

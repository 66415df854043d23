"""The query parameters of a page's address, read into dates and choices: each bad value is
one line naming the parameter (HTTP 400). Every page's canonical address names its property
and its dates; a request that leaves them out is sent there (pipelines/app/server.py)."""

from __future__ import annotations

import calendar
from collections.abc import Mapping
from datetime import date

from .errors import PageError


def day(params: Mapping[str, str], name: str) -> date | None:
    """The parameter `name` as a date, or None when absent or empty."""
    value = params.get(name, "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PageError(400, f"{name}={value!r} is not a date: use YYYY-MM-DD, e.g. "
                             "2026-03-01") from None


def month(params: Mapping[str, str], name: str = "month") -> tuple[date, date] | None:
    """The parameter `name` (YYYY-MM) as its first and last day, or None when absent."""
    value = params.get(name, "").strip()
    if not value:
        return None
    try:
        year, mon = (int(part) for part in value.split("-"))
        first = date(year, mon, 1)
    except ValueError:
        raise PageError(400, f"{name}={value!r} is not a month: use YYYY-MM, e.g. "
                             "2026-08") from None
    return first, first.replace(day=calendar.monthrange(year, mon)[1])


def choice(params: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str:
    """The parameter `name`, one of `allowed` (the first when absent)."""
    value = params.get(name, "").strip() or allowed[0]
    if value not in allowed:
        raise PageError(400, f"{name}={value!r} is not one of {', '.join(allowed)}")
    return value


def span(first: date, last: date, longest: int) -> None:
    """from..to in order and at most `longest` days."""
    if first > last:
        raise PageError(400, f"from={first} is after to={last}")
    if (last - first).days + 1 > longest:
        raise PageError(400, f"from={first} to={last} is {(last - first).days + 1} days: "
                             f"a page shows at most {longest}")

"""The pages that show one report each (the flash, forecast accuracy and the controller's
desk): what each reads from its address, its canonical address (naming the property and the
dates, defaults filled in) and the report run, as `pmsw report` runs it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from pipelines.reports import SEGMENT_DIMENSIONS, PropertyRow

from . import params

WORKLIST_STATES = ("all", "open", "invoiced_separately", "credited", "written_off", "not_due")
"""The choices of `pmsw report worklist --state`."""


@dataclass(frozen=True)
class Ask:
    """A report to run and the address that asks for it."""

    report: str
    first: date | None
    last: date | None
    options: dict[str, Any] = field(default_factory=dict)
    address: dict[str, str] = field(default_factory=dict)
    """The query parameters beside `property` of the canonical address."""


def _closed(prop: PropertyRow) -> date:
    return prop.business_date - timedelta(days=1)


def _flash(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    day = params.day(q, "date") or _closed(prop)
    return Ask("flash", None, None, {"date": day}, {"date": day.isoformat()})


def _accuracy(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    return Ask("forecast-accuracy", None, None)


def _worklist(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    state = params.choice(q, "state", WORKLIST_STATES)
    first, last = params.day(q, "from"), params.day(q, "to")
    address = {"state": state, **({"from": first.isoformat()} if first else {}),
               **({"to": last.isoformat()} if last else {})}
    return Ask("worklist", first, last, {"state": state}, address)


def _tieout(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    month = params.month(q)
    if month is not None:
        return Ask("tieout", *month, address={"month": f"{month[0]:%Y-%m}"})
    day = params.day(q, "date") or _closed(prop)
    return Ask("tieout", day, day, address={"date": day.isoformat()})


def _ledger(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    by = params.choice(q, "by", ("folio", "category"))
    day = params.day(q, "date")
    return Ask("ledger", None, None, {"by": by, "date": day},
               {"by": by, **({"date": day.isoformat()} if day else {})})


def _city_tax(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    first, last = params.month(q) or params.month({"month": f"{_closed(prop):%Y-%m}"}) or (
        _closed(prop), _closed(prop))
    return Ask("city-tax", first, last, address={"month": f"{first:%Y-%m}"})


def _segments(q: Mapping[str, str], prop: PropertyRow) -> Ask:
    """A night (?date=, default the last closed one) or a month (?month=) by one dimension
    (?by=: channel, source, market, rate_plan, room_type): `pmsw report segments`."""
    by = params.choice(q, "by", SEGMENT_DIMENSIONS)
    month = params.month(q)
    if month is not None:
        return Ask("segments", *month, {"by": by}, {"by": by, "month": f"{month[0]:%Y-%m}"})
    day = params.day(q, "date") or _closed(prop)
    return Ask("segments", day, day, {"by": by}, {"by": by, "date": day.isoformat()})


@dataclass(frozen=True)
class Page:
    path: str
    title: str
    ask: Callable[[Mapping[str, str], PropertyRow], Ask]
    desk: bool
    """A page of the controller's desk (its table downloads as csv and xlsx)."""


PAGES: dict[str, Page] = {p.path: p for p in (
    Page("flash", "Flash", _flash, False),
    Page("forecast-accuracy", "Forecast accuracy", _accuracy, False),
    Page("segments", "By segment", _segments, False),
    Page("worklist", "Worklist", _worklist, True),
    Page("tieout", "Tie-out", _tieout, True),
    Page("ledger", "Guest ledger", _ledger, True),
    Page("city-tax", "City tax", _city_tax, True),
)}

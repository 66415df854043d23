"""The hotel's own events (fairs, concerts, conferences, the nights a holiday reaches beyond
its public day): a YAML file beside the properties file, validated whole, each bad entry a
one-line error naming its field (docs/calendar.md)."""

from __future__ import annotations

import os
from datetime import date, timedelta
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .rules import Fixed, FromEaster, NthWeekday

EVENTS_FILE_ENV = "PMSW_EVENTS_FILE"
EVENTS_FILE_NAME = "events.yaml"


class CalendarError(ValueError):
    """The events file cannot be read or says something invalid."""


class Event(BaseModel):
    """One event: its name, its first night by exactly one rule, then `offset_days` from it and
    `nights` nights; `properties` the PMS codes it concerns (none: every property)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=100)]
    fixed: Fixed | None = None
    easter: FromEaster | None = None
    nth_weekday: NthWeekday | None = None
    offset_days: Annotated[int, Field(ge=-30, le=30)] = 0
    nights: Annotated[int, Field(ge=1, le=31)] = 1
    properties: tuple[Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")], ...] = ()

    @model_validator(mode="after")
    def _one_rule(self) -> Event:
        given = [r for r in ("fixed", "easter", "nth_weekday") if getattr(self, r) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one date rule of fixed, easter, nth_weekday"
                             + (f" (got {', '.join(given)})" if given else ""))
        return self

    def concerns(self, code: str) -> bool:
        return not self.properties or code.lower() in {p.lower() for p in self.properties}

    def nights_of(self, year: int) -> list[date]:
        """The event's nights of its occurrence of `year` (they may run into the next)."""
        rule = self.fixed or self.easter or self.nth_weekday
        assert rule is not None
        first = rule.on(year) + timedelta(days=self.offset_days)
        return [first + timedelta(days=n) for n in range(self.nights)]


class EventsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    events: list[Event]

    @model_validator(mode="after")
    def _names_once(self) -> EventsFile:
        names = [e.name.lower() for e in self.events]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"event name {repeated[0]!r} appears twice: a name is what last "
                             "year's nights are matched by")
        return self


def events_file(properties_file: Path | None) -> Path:
    """`PMSW_EVENTS_FILE`, else events.yaml beside the properties file (or in the working
    directory without one)."""
    named = os.environ.get(EVENTS_FILE_ENV)
    if named:
        return Path(named)
    folder = properties_file.parent if properties_file is not None else Path()
    return folder / EVENTS_FILE_NAME


def load_events(path: Path) -> list[Event]:
    """The events of `path` (none when it does not exist). An invalid file raises
    CalendarError: one line naming the file and the field."""
    if not path.exists():
        return []
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if document is None:
            return []
        return list(EventsFile.model_validate(document).events)
    except UnicodeDecodeError as exc:
        raise CalendarError(f"{path}: not UTF-8 text (offset {exc.start})") from None
    except OSError as exc:
        raise CalendarError(f"{path}: cannot be read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = "" if mark is None else f" at line {mark.line + 1}"
        raise CalendarError(f"{path}: not valid YAML{where}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        raise CalendarError(f"{path}: {where.lstrip('.') or 'file'}: {message}") from None

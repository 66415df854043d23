"""Answers to models: a body that does not match is a ResponseValidationError naming the field.

Pydantic's own error (with the offending input in it) is never chained or shown: the field
path and pydantic's short message are enough to act on, and the input may hold personal data.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

from pipelines.api._exceptions import ResponseValidationError

T = TypeVar("T")


@cache
def _adapter(type_: Hashable) -> TypeAdapter[Any]:
    return TypeAdapter(cast(Any, type_))


def field_path(loc: tuple[int | str, ...]) -> str:
    """`('data', 3, 'rooms', 0, 'status')` -> `data[3].rooms[0].status`."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "body"


def _problems(type_: Hashable, data: Any) -> tuple[Any, list[tuple[str, str]]]:
    """(the parsed value, []) or (None, every (field, problem) found)."""
    try:
        return _adapter(type_).validate_python(data), []
    except ValidationError as exc:
        return None, [(field_path(tuple(err["loc"])), err["msg"]) for err in exc.errors()]


def _error(what: str, problems: list[tuple[str, str]], *, method: str, path: str,
           ) -> ResponseValidationError:
    field, problem = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return ResponseValidationError(
        f"{method} {path}: {what}: field {field}: {problem}{more}",
        method=method, path=path, field=field, errors=problems,
    )


def parse_as(type_: type[T], data: Any, *, method: str, path: str) -> T:
    value, problems = _problems(cast(Hashable, type_), data)
    if not problems:
        return cast(T, value)
    name = getattr(type_, "__name__", str(type_))
    raise _error(f"the answer does not match {name}", problems, method=method, path=path)


@dataclass(frozen=True)
class InvalidRecord:
    """One record of an answer that does not match its model, kept aside instead of raised
    (the sync quarantines it: docs/ingestion.md, "Quarantine").

    `payload` is the record as received (it may hold personal data: it is stored in the
    warehouse's quarantine table, never logged). `error` names the field, relative to the
    record (`arrival`, `rooms[0].status`).
    """

    record_id: int | None
    payload: Any
    error: ResponseValidationError


def record_id_of(data: Any) -> int | None:
    """The record's integer `id`, when it has one (None otherwise: it cannot be re-fetched)."""
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_record(type_: type[T], data: Any, *, method: str, path: str,
                 ) -> T | InvalidRecord:
    """One record: the model, or an InvalidRecord naming the first field at fault."""
    value, problems = _problems(cast(Hashable, type_), data)
    if not problems:
        return cast(T, value)
    name = getattr(type_, "__name__", str(type_))
    rid = record_id_of(data)
    what = f"record {rid}" if rid is not None else "a record without an id"
    return InvalidRecord(rid, data, _error(f"{what} does not match {name}", problems,
                                          method=method, path=path))

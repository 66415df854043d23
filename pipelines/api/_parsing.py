"""Answers to models: a body that does not match is a ResponseValidationError naming the field.

Pydantic's own error (with the offending input in it) is never chained or shown: the field
path and pydantic's short message are enough to act on, and the input may hold personal data.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

from ._exceptions import ResponseValidationError

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


def parse_as(type_: type[T], data: Any, *, method: str, path: str) -> T:
    try:
        return cast(T, _adapter(cast(Hashable, type_)).validate_python(data))
    except ValidationError as exc:
        problems = [(field_path(tuple(err["loc"])), err["msg"]) for err in exc.errors()]
    field, problem = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    name = getattr(type_, "__name__", str(type_))
    raise ResponseValidationError(
        f"{method} {path}: the answer does not match {name}: field {field}: {problem}{more}",
        method=method, path=path, field=field, errors=problems,
    )

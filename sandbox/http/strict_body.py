"""Request bodies are checked against the spec's JSON types, without coercion.

FastAPI validates a body after `json.loads`, in pydantic's lax mode: `"2"` becomes the int 2,
`"true"` or `1` a bool, `2.0` an int, `"2031-03-03T00:00:00"` a date. The spec types every field
(`int`, `bool`, `date` as YYYY-MM-DD), so the sandbox refuses such values with 400
`invalid_request` naming the field, as a strict PMS would. The check is pydantic's strict mode
on the raw JSON, where a date is still a `YYYY-MM-DD` string and an amount a number; it runs
as a dependency of every `/v1` route, before FastAPI's own (lax) validation of the body.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError

_ADAPTERS: dict[int, TypeAdapter[Any] | None] = {}


def _adapter(route: APIRoute) -> TypeAdapter[Any] | None:
    """The body's type of the route (one body parameter, not embedded), or None."""
    key = id(route)
    if key not in _ADAPTERS:
        params = route.dependant.body_params
        annotation = params[0].field_info.annotation if len(params) == 1 else None
        _ADAPTERS[key] = None if annotation is None else TypeAdapter(annotation)
    return _ADAPTERS[key]


def _is_json(request: Request) -> bool:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


async def strict_json_body(request: Request) -> None:
    """Dependency: refuse a JSON body whose values are not of the declared JSON types."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not _is_json(request):
        return
    adapter = _adapter(route)
    if adapter is None:
        return
    body = await request.body()
    if not body.strip():
        return
    try:
        adapter.validate_json(body, strict=True)
    except ValidationError as error:
        raise RequestValidationError(
            [{**detail, "loc": ("body", *detail["loc"])} for detail in error.errors()]
        ) from None

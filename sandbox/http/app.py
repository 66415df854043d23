"""The sandbox FastAPI application: API v1 under `/v1`, admin under `/_sandbox`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from models.errors import ErrorCode

from ..clock import Clock, WallClock
from ..db import open_db
from ..errors import ApiError
from ..seed import seed_if_empty
from ..settings import SandboxSettings
from .date_header import DateHeaderMiddleware
from .deps import Require, access
from .fault_middleware import FaultMiddleware
from .middleware import (
    IdempotencyMiddleware,
    MaintenanceMiddleware,
    RateLimitMiddleware,
    error_response,
)
from .routes import account, admin, availability, events, folios, guests, reservations, webhooks
from .routes.admin_folios import router as admin_folios_router
from .routes.admin_time import router as admin_time_router
from .state import ServerState
from .strict_body import strict_json_body
from .webhook_dispatcher import running_dispatcher

API_ROUTERS = (account, availability, reservations, guests, folios, events, webhooks)


def field_of(loc: tuple[Any, ...] | list[Any]) -> str:
    """`('body', 'rooms', 0, 'arrival')` -> `rooms[0].arrival`; `('query', 'page')` -> `page`."""
    parts = list(loc[1:]) if loc and loc[0] in ("body", "query", "path", "header") else list(loc)
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "body"


def _access_of_route(request: Request) -> None:
    """Run the route's key and scope checks (they raise ApiError).

    FastAPI reads and parses the body before it solves the dependencies, so without this a
    malformed body would answer 400 to a caller without a key (spec, Authentication 4-5:
    401/402/403 come first)."""
    route = request.scope.get("route")
    if isinstance(route, APIRoute):
        for dependency in route.dependant.dependencies:
            if isinstance(dependency.call, Require):
                access(request, dependency.call.scope)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    try:
        _access_of_route(request)
    except ApiError as refused:
        return error_response(refused)
    first = exc.errors()[0]
    field = field_of(tuple(first.get("loc", ())))
    if first.get("type") == "json_invalid":
        message, field = "the body is not valid JSON", "body"
    else:
        message = f"{field}: {first.get('msg', 'invalid')}"
    return error_response(ApiError(400, ErrorCode.INVALID_REQUEST, message, field=field))


async def _api_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404:
        error = ApiError(404, ErrorCode.NOT_FOUND, "no such endpoint")
    elif exc.status_code == 405:
        error = ApiError(405, ErrorCode.INVALID_REQUEST, "method not allowed on this endpoint")
    elif exc.status_code == 400:  # a body that cannot be parsed at all (not UTF-8, not JSON)
        error = ApiError(400, ErrorCode.INVALID_REQUEST, str(exc.detail), field="body")
    else:
        error = ApiError(exc.status_code, ErrorCode.INVALID_REQUEST, str(exc.detail))
    return error_response(error)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Background work of a running server: the webhook dispatcher."""
    state: ServerState = app.state.sandbox
    async with running_dispatcher(state) as dispatcher:
        state.dispatcher = dispatcher
        try:
            yield
        finally:
            state.dispatcher = None


def create_app(settings: SandboxSettings | None = None, clock: Clock | None = None) -> FastAPI:
    settings = settings or SandboxSettings()
    clock = clock or WallClock()
    conn = open_db(settings.db_path)
    seed_if_empty(conn, clock, settings.group)

    app = FastAPI(
        title="PMS API v1 (sandbox)",
        version="1.0",
        openapi_url="/v1/openapi.json",
        docs_url="/v1/docs",
        redoc_url=None,
        lifespan=_lifespan,
    )
    app.state.sandbox = ServerState(conn=conn, clock=clock, settings=settings)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    for module in API_ROUTERS:
        app.include_router(module.router, prefix="/v1", dependencies=[Depends(strict_json_body)])
    if settings.admin:
        app.include_router(admin.router)
        app.include_router(admin_folios_router, prefix="/_sandbox", include_in_schema=False)
        app.include_router(admin_time_router)
    app.add_middleware(IdempotencyMiddleware)
    app.add_middleware(MaintenanceMiddleware)
    app.add_middleware(RateLimitMiddleware)  # around maintenance: its 503 carries the headers
    app.add_middleware(FaultMiddleware)  # faults hit before anything else runs
    app.add_middleware(DateHeaderMiddleware)  # outermost: every answer carries the clock's Date
    return app

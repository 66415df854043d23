"""Fault injection: the outermost ASGI middleware, applying `state.faults` to API v1 calls.

Only `/v1` calls are faulted (never `/_sandbox`, never the OpenAPI document or the docs page).
Every call rolls the same number of dice from one `random.Random` seeded by `FaultConfig.seed`,
so a seeded run injects the same faults on the same calls. What was injected is counted per
kind in `state.fault_counts` (read by the tests and by GET /_sandbox/faults).

Dropping a connection: an ASGI application cannot close its socket, and uvicorn answers 500
when an application fails before it started its answer. It closes the connection without
writing anything more when the application fails after the answer was started, so the
middleware starts an answer the server refuses to write (a header value holding a line break,
refused by h11 and by httptools before any byte is written) and then fails with `InjectedDropError`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import NoReturn

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from models.errors import ErrorCode

from .faults import FaultConfig
from .middleware import is_api, server_state

_UNWRITABLE_HEADER = (b"x-sandbox-fault", b"drop\r\nconnection")


class InjectedDropError(Exception):
    """Raised to make the server close the connection; never a bug, so never logged."""


class _QuietInjectedDropErrors(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, InjectedDropError)


def _silence_server_log() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _QuietInjectedDropErrors) for f in logger.filters):
        logger.addFilter(_QuietInjectedDropErrors())


@dataclass(frozen=True)
class Dice:
    """The outcome of one call's roll: what to do before and after the app runs."""

    latency_s: float
    before: str | None  # drop_before, error_500, error_502, unavailable, rate_limited
    after: str | None  # drop_after, truncate


class FaultDice:
    """The seeded dice of one fault configuration, and the 429 burst in progress."""

    def __init__(self, config: FaultConfig) -> None:
        self.config = config
        self.random = random.Random(config.seed)
        self.burst_left = 0

    def roll(self) -> Dice:
        c = self.config
        # Always the same number of draws per call, so a seed replays exactly.
        draws = [self.random.random() for _ in range(8)]
        latency_ms = c.latency_ms + draws[0] * c.latency_jitter_ms
        before: str | None = None
        if self.burst_left > 0:
            self.burst_left -= 1
            before = "rate_limited"
        elif draws[1] < c.drop_before_rate:
            before = "drop_before"
        elif draws[2] < c.error_rate:
            before = "error_500" if draws[3] < 0.5 else "error_502"
        elif draws[4] < c.unavailable_rate:
            before = "unavailable"
        elif draws[5] < c.rate_limit_rate:
            self.burst_left = max(c.rate_limit_burst, 1) - 1
            before = "rate_limited"
        after: str | None = None
        if draws[6] < c.drop_after_rate:
            after = "drop_after"
        elif draws[7] < c.truncate_rate:
            after = "truncate"
        return Dice(latency_s=latency_ms / 1000, before=before, after=after)


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


def fault_response(kind: str, config: FaultConfig) -> Response:
    """The answer that replaces the call for an injected error `kind`."""
    retry_after = {"Retry-After": str(config.retry_after_seconds)}
    if kind == "error_500":
        return _error(500, "internal_error", "injected fault: internal server error")
    if kind == "error_502":
        # What a gateway in front of the service answers: HTML, not the API's JSON.
        return Response(b"<html><body><h1>502 Bad Gateway</h1></body></html>", status_code=502,
                        media_type="text/html")
    if kind == "unavailable":
        return _error(503, ErrorCode.MAINTENANCE.value,
                      "injected fault: service unavailable, retry after Retry-After", retry_after)
    assert kind == "rate_limited"
    return _error(429, ErrorCode.RATE_LIMITED.value,
                  "injected fault: too many calls, retry after Retry-After",
                  {**retry_after, "X-RateLimit-Remaining": "0"})


async def _drop(send: Send) -> NoReturn:
    try:
        await send({"type": "http.response.start", "status": 500,
                    "headers": [_UNWRITABLE_HEADER]})
    except Exception as exc:
        raise InjectedDropError("injected fault: connection dropped") from exc
    raise InjectedDropError("injected fault: connection dropped")


class FaultMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.dice: FaultDice | None = None
        _silence_server_log()

    def _dice_for(self, config: FaultConfig) -> FaultDice:
        # A new configuration (PUT /_sandbox/faults) starts new dice.
        if self.dice is None or self.dice.config is not config:
            self.dice = FaultDice(config)
        return self.dice

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_api(scope):
            await self.app(scope, receive, send)
            return
        state = server_state(scope)
        config = state.faults
        if not config.active:
            await self.app(scope, receive, send)
            return
        dice = self._dice_for(config).roll()
        counts = state.fault_counts
        if dice.latency_s > 0:
            counts["latency"] += 1
            await asyncio.sleep(dice.latency_s)
        if dice.before is not None:
            counts[dice.before] += 1
            if dice.before == "drop_before":
                await _drop(send)
            await fault_response(dice.before, config)(scope, receive, send)
            return
        if dice.after is None:
            await self.app(scope, receive, send)
            return

        starts: list[Message] = []
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                starts.append(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, capture)  # the work is done (and committed) here
        counts[dice.after] += 1
        if dice.after == "drop_after" or not starts:
            await _drop(send)
        start = starts[0]
        body = b"".join(chunks)
        headers = MutableHeaders(raw=list(start.get("headers", [])))
        headers["content-length"] = str(len(body))
        await send({"type": "http.response.start", "status": start["status"],
                    "headers": headers.raw})
        # Half the body under the full Content-Length, then the connection closes.
        await send({"type": "http.response.body", "body": body[: len(body) // 2],
                    "more_body": True})
        raise InjectedDropError("injected fault: body truncated")

"""ASGI middleware of the sandbox: maintenance gate, rate limit, and Idempotency-Key replay.

Order, outermost first: rate limit (429, X-RateLimit-* headers on every answer, the 503 of
maintenance included) -> maintenance (503) -> idempotency (replay or run once) -> routes.
Admin paths (`/_sandbox`) pass through untouched.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import timedelta
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from models.errors import ErrorCode

from ..db import one, ts
from ..errors import ApiError
from .auth import key_from_headers
from .deps import WRITE_METHODS
from .state import ServerState

API_PREFIX = "/v1"
UNMETERED = frozenset({"/v1/openapi.json", "/v1/docs", "/v1/docs/oauth2-redirect"})
IDEMPOTENCY_KEY_MAX = 200
IDEMPOTENCY_TTL = timedelta(hours=24)


def error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


def server_state(scope: Scope) -> ServerState:
    state: ServerState = scope["app"].state.sandbox
    return state


def is_api(scope: Scope) -> bool:
    if scope["type"] != "http":
        return False
    path: str = scope["path"]
    return path.startswith(API_PREFIX) and path not in UNMETERED


class MaintenanceMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_api(scope) and server_state(scope).maintenance:
            error = ApiError(503, ErrorCode.MAINTENANCE, "the service is under maintenance",
                             headers={"Retry-After": "30"})
            await error_response(error)(scope, receive, send)
            return
        await self.app(scope, receive, send)


class RateLimitMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_api(scope):
            await self.app(scope, receive, send)
            return
        api_key = key_from_headers(Headers(scope=scope)) or "(anonymous)"
        decision = server_state(scope).limiter.take(hashlib.sha256(api_key.encode()).hexdigest())
        rate_headers = {
            "X-RateLimit-Limit": str(decision.limit),
            "X-RateLimit-Remaining": str(decision.remaining),
        }
        if not decision.allowed:
            error = ApiError(429, ErrorCode.RATE_LIMITED, "too many calls: retry after Retry-After",
                             headers={**rate_headers, "Retry-After": str(decision.retry_after)})
            await error_response(error)(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in rate_headers.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    more = True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks)


class IdempotencyMiddleware:
    """Spec, Limits: a repeated key returns the first answer with `Idempotent-Replayed: true`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_api(scope) or scope["method"] not in WRITE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        idem_key = headers.get("idempotency-key")
        if idem_key is None:
            await self.app(scope, receive, send)
            return
        if not idem_key or len(idem_key) > IDEMPOTENCY_KEY_MAX:
            error = ApiError(400, ErrorCode.INVALID_REQUEST,
                             f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters",
                             field="Idempotency-Key")
            await error_response(error)(scope, receive, send)
            return
        state = server_state(scope)
        api_key = key_from_headers(headers)
        record = state.keys.of(state.conn, api_key)[0] if api_key else None
        if record is None or record.revoked:
            await self.app(scope, receive, send)  # authentication answers; nothing to remember
            return

        body = await _read_body(receive)
        body_hash = hashlib.sha256(
            b"\n".join([scope["method"].encode(), scope["path"].encode(), body])
        ).hexdigest()
        stored = await self._claim(state, record.key_id, idem_key, scope, body_hash)
        if stored is not None:
            await self._replay(stored, body_hash, scope, receive, send)
            return

        replay_sent = False

        async def replay_receive() -> Message:
            nonlocal replay_sent
            if replay_sent:
                return await receive()
            replay_sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        start: Message | None = None
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, replay_receive, capture)
        except BaseException:
            self._forget(state, record.key_id, idem_key)
            raise
        assert start is not None
        response_body = b"".join(chunks)
        status: int = start["status"]
        raw_headers: list[tuple[bytes, bytes]] = list(start.get("headers", []))
        if status >= 500:
            self._forget(state, record.key_id, idem_key)  # a server failure may be retried
        else:
            kept = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in raw_headers]
            state.conn.execute(
                "UPDATE idempotency SET status = ?, headers = ?, body = ? "
                "WHERE api_key_id = ? AND idem_key = ?",
                (status, json.dumps(kept), response_body, record.key_id, idem_key),
            )
        await send({"type": "http.response.start", "status": status, "headers": raw_headers})
        await send({"type": "http.response.body", "body": response_body})

    async def _claim(
        self, state: ServerState, key_id: int, idem_key: str, scope: Scope, body_hash: str
    ) -> Any:
        """Take the key for this request, or return the row of an earlier one (waiting while
        that one is still running)."""
        waited = 0.0
        while True:
            now = state.clock.now()
            row = one(state.conn,
                      "SELECT * FROM idempotency WHERE api_key_id = ? AND idem_key = ?",
                      key_id, idem_key)
            if row is not None and row["created_at"] < ts(now - IDEMPOTENCY_TTL):
                self._forget(state, key_id, idem_key)
                row = None
            if row is None:
                state.conn.execute(
                    "INSERT INTO idempotency (api_key_id, idem_key, method, path, body_hash, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (key_id, idem_key, scope["method"], scope["path"], body_hash, ts(now)),
                )
                return None
            if row["status"] is not None or row["body_hash"] != body_hash:
                return row
            if waited >= state.settings.idempotency_wait_seconds:
                return row
            await asyncio.sleep(0.02)
            waited += 0.02

    async def _replay(
        self, row: Any, body_hash: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if row["body_hash"] != body_hash:
            error = ApiError(422, ErrorCode.IDEMPOTENCY_MISMATCH,
                             "this Idempotency-Key was used with a different request",
                             field="Idempotency-Key")
            await error_response(error)(scope, receive, send)
            return
        if row["status"] is None:
            error = ApiError(409, ErrorCode.RULE_VIOLATION,
                             "a request with this Idempotency-Key is still running",
                             field="Idempotency-Key")
            await error_response(error)(scope, receive, send)
            return
        headers = [
            (name.encode("latin-1"), value.encode("latin-1"))
            for name, value in json.loads(row["headers"])
        ]
        headers.append((b"idempotent-replayed", b"true"))
        await send({"type": "http.response.start", "status": row["status"], "headers": headers})
        await send({"type": "http.response.body", "body": bytes(row["body"])})

    @staticmethod
    def _forget(state: ServerState, key_id: int, idem_key: str) -> None:
        state.conn.execute("DELETE FROM idempotency WHERE api_key_id = ? AND idem_key = ?",
                           (key_id, idem_key))

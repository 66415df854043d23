"""The HTTP `Date` header of every answer is the sandbox's clock (a PMS's server time is its
own clock): with a simulated clock, a client reading `Date` as the server's time (the
warehouse's `fetched_at`, the folio sweep of docs/ingestion.md) sees the simulated instant,
not the machine's. The servers run uvicorn with `date_header=False` so only this one is sent."""

from __future__ import annotations

from email.utils import format_datetime

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .state import ServerState


class DateHeaderMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state: ServerState = scope["app"].state.sandbox

        async def send_dated(message: Message) -> None:
            if message["type"] == "http.response.start":
                stamp = format_datetime(state.clock.now(), usegmt=True).encode("latin-1")
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"date"]
                message = {**message, "headers": [*headers, (b"date", stamp)]}
            await send(message)

        await self.app(scope, receive, send_dated)

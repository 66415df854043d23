"""Count the HTTP calls made to the PMS and read the server's time, through httpx event hooks
(the sync's meter).

Every attempt the client sends (retries included) passes the request hook; every answer the
response hook, which keeps the latest `Date` header: the PMS's clock, used as `fetched_at`.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from pipelines.api._tls import tls_context


class CallMeter:
    """Calls sent, answers received, and the server time of the latest answer (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.ok = 0
        self.server_time: datetime | None = None

    @property
    def errors(self) -> int:
        """Attempts that got no 2xx answer (retried or final)."""
        return self.calls - self.ok

    def on_request(self, request: httpx.Request) -> None:
        with self._lock:
            self.calls += 1

    def on_response(self, response: httpx.Response) -> None:
        stamp = _parse_date(response.headers.get("Date"))
        with self._lock:
            if response.status_code < 300:
                self.ok += 1
            if stamp is not None and (self.server_time is None or stamp > self.server_time):
                self.server_time = stamp

    def http_client(self, timeout: float = 30.0) -> httpx.Client:
        """An httpx client whose every attempt and answer passes through this meter."""
        return httpx.Client(
            timeout=timeout,
            verify=tls_context(),
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=64),
            headers={"User-Agent": "pms-warehouse-sync", "Accept": "application/json"},
            event_hooks={"request": [self.on_request], "response": [self.on_response]},
        )


def _parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)

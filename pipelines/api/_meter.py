"""Count the HTTP calls made to the PMS and read the server's time, through httpx event hooks
(the sync's meter; the reconciliation's apply counts its calls with `count_call`).

Every attempt the client sends (retries included) passes the request hook; every answer the
response hook, which keeps the latest `Date` header: the PMS's clock, used as `fetched_at`.

Test hook: with `PMSW_TEST_HOOKS=1` and `PMSW_TEST_KILL_AFTER_CALLS=N`, the process kills
itself with SIGKILL just before sending its call N + 1, counting the calls of every meter and
of the reconciliation's apply (`count_call`; the crash-and-rerun tests). Without
`PMSW_TEST_HOOKS` the variable is ignored.
"""

from __future__ import annotations

import os
import signal
import threading
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from pipelines.api._tls import tls_context

TEST_HOOKS_ENV = "PMSW_TEST_HOOKS"
KILL_AFTER_ENV = "PMSW_TEST_KILL_AFTER_CALLS"

_process_lock = threading.Lock()
_process_calls = 0
"""Calls of every meter of the process: the kill hook counts these."""


def _kill_after() -> int | None:
    if os.environ.get(TEST_HOOKS_ENV) != "1":
        return None
    value = os.environ.get(KILL_AFTER_ENV)
    return int(value) if value else None


def count_call() -> None:
    """Count one call of the process for the test kill hook (nothing else without it)."""
    global _process_calls
    limit = _kill_after()
    with _process_lock:
        if limit is not None and _process_calls >= limit:
            os.kill(os.getpid(), signal.SIGKILL)
        _process_calls += 1


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
        count_call()
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

"""The sandbox's clock: wall time by default, or simulated time that moves only when told.

Every timestamp the sandbox writes (created_at, updated_at, event times, idempotency expiry,
webhook retry schedules) reads `Clock.now()`; nothing in the domain calls `datetime.now()`.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current instant, timezone-aware UTC, to the second."""
        ...


class WallClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


class SimulatedClock:
    """A clock that stands still until `advance` or `set` moves it."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("start must be timezone-aware")
        self._now = start.astimezone(UTC).replace(microsecond=0)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta) -> datetime:
        if delta < timedelta(0):
            raise ValueError("a clock never goes back")
        with self._lock:
            self._now += delta
            return self._now

    def set(self, instant: datetime) -> None:
        with self._lock:
            if instant.astimezone(UTC) < self._now:
                raise ValueError("a clock never goes back")
            self._now = instant.astimezone(UTC).replace(microsecond=0)

"""Per-key token bucket: the spec's 600 calls per minute with a burst of 120.

Rate limiting measures real request rates, so it runs on the monotonic clock, not the
sandbox's (possibly simulated) business clock.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass


@dataclass
class Decision:
    allowed: bool
    limit: int
    remaining: int
    retry_after: int
    """Whole seconds until one call is allowed again (0 when allowed)."""


class RateLimiter:
    def __init__(self, rate_per_minute: int, burst: int) -> None:
        if rate_per_minute < 1 or burst < 1:
            raise ValueError("rate_per_minute and burst must be positive")
        self.rate_per_minute = rate_per_minute
        self.burst = burst
        self._per_second = rate_per_minute / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> Decision:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self._per_second)
            if tokens >= 1.0:
                tokens -= 1.0
                self._buckets[key] = (tokens, now)
                return Decision(True, self.rate_per_minute, int(tokens), 0)
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / self._per_second
            return Decision(False, self.rate_per_minute, 0, max(1, math.ceil(wait)))

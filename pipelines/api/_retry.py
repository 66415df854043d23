"""When a failed call is tried again, and after how long.

- 429 and 503 wait exactly `Retry-After` (spec, Limits and Errors); without the header they
  back off like any other 5xx.
- Other 5xx, connection errors (refused, dropped mid-answer), timeouts, and a 2xx whose body
  is cut short or is not JSON: capped exponential backoff with jitter.
- Anything else (400, 401, 402, 403, 404, 409, 422, 423) is an answer, never retried.

A write is retried only because it carries an Idempotency-Key that stays the same on every
attempt (the transport guarantees it): the server then runs it once and replays its answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

WAIT_RETRY_AFTER = frozenset({429, 503})


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 5
    """Attempts in all, the first included (1 = never retry)."""
    backoff_base: float = 0.5
    """Wait before the second attempt, doubled at each further one."""
    backoff_cap: float = 8.0
    jitter: float = 0.25
    """Share of the wait taken off at random, so clients that failed together spread out."""
    max_retry_after: float = 300.0
    """A Retry-After longer than this is not waited: the error is raised at once."""
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.backoff_base < 0 or self.backoff_cap < 0 or not 0 <= self.jitter <= 1:
            raise ValueError("backoff_base, backoff_cap must be >= 0 and jitter within [0, 1]")

    def backoff(self, attempt: int) -> float:
        """Wait after failed attempt number `attempt` (1-based)."""
        wait = min(self.backoff_cap, self.backoff_base * 2.0 ** (attempt - 1))
        return wait * (1 - self.jitter * self.rng.random())

    def wait_for_status(self, status: int, retry_after: float | None, attempt: int) -> float | None:
        """Seconds to wait before trying again after `status`, or None: do not retry."""
        if attempt >= self.max_attempts:
            return None
        if status in WAIT_RETRY_AFTER and retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        if status >= 500 or status in WAIT_RETRY_AFTER:
            return self.backoff(attempt)
        return None

    def wait_for_failure(self, attempt: int) -> float | None:
        """Seconds to wait after a connection error, a timeout or a broken 2xx body."""
        if attempt >= self.max_attempts:
            return None
        return self.backoff(attempt)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110, 10.2.3)."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return max(0.0, seconds)

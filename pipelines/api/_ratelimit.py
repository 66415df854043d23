"""Client-side token bucket: the spec's 600 calls per minute per key with a burst of 120.

The bucket is this process's estimate of the server's bucket for one key. Every call takes a
token before it is sent; a caller that finds none waits for the refill. Callers queue in
the order they asked: a token taken ahead of the refill is a debt that the caller sleeps off,
so a thread pool keeps exactly the allowed rate however many threads wait.

The estimate is corrected downward by the server's `X-RateLimit-Remaining` (another process
using the same key, a restarted client, a server that counts differently), never upward.
A few tokens (`margin`) are left unspent so that calls bunched by network jitter arrive at
a server bucket that still holds a token: that costs `margin` calls once, at the start.

One bucket is shared by every `PmsClient` of the process for the same base URL and key
(`shared_bucket`), so clients made in different places cannot together exceed the limit.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_RATE_PER_MINUTE = 600
DEFAULT_BURST = 120
DEFAULT_MARGIN = 3


@dataclass(frozen=True)
class Permit:
    """One token taken: `estimate` is what the bucket held after it, when the call was sent."""

    estimate: float
    waited: float


class TokenBucket:
    def __init__(
        self,
        rate_per_minute: int = DEFAULT_RATE_PER_MINUTE,
        burst: int = DEFAULT_BURST,
        *,
        margin: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate_per_minute < 1 or burst < 1:
            raise ValueError("rate_per_minute and burst must be at least 1")
        if margin is None:
            margin = default_margin(burst)
        if not 0 <= margin < burst:
            raise ValueError("margin must be at least 0 and smaller than burst")
        self.rate_per_minute = rate_per_minute
        self.burst = burst
        self.margin = margin
        self._per_second = rate_per_minute / 60.0
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._tokens = float(burst)
        self._updated = clock()
        self._paused_until = 0.0

    def __repr__(self) -> str:
        return (f"TokenBucket(rate_per_minute={self.rate_per_minute}, burst={self.burst}, "
                f"margin={self.margin})")

    def _refill(self, now: float) -> None:
        refilled = self._tokens + (now - self._updated) * self._per_second
        self._tokens = min(float(self.burst), refilled)
        self._updated = now

    def acquire(self) -> Permit:
        """Take one token, sleeping until the bucket (and any pause) allows the call."""
        with self._lock:
            now = self._clock()
            self._refill(now)
            self._tokens -= 1.0
            debt = self.margin - self._tokens  # tokens the refill must bring first
            wait = max(debt / self._per_second if debt > 0 else 0.0, self._paused_until - now)
            estimate = self._tokens + wait * self._per_second
        if wait > 0:
            self._sleep(wait)
        return Permit(estimate=estimate, waited=wait)

    def observe(self, permit: Permit, remaining: int) -> None:
        """Correct the estimate downward after the server said `remaining` for `permit`'s call.

        The server floors its count: taking `remaining` as its whole count errs on the safe
        side by less than one token, once (the estimate is never raised again).
        """
        excess = permit.estimate - remaining
        if excess <= 0:
            return
        with self._lock:
            self._refill(self._clock())
            self._tokens -= excess

    def pause(self, seconds: float) -> None:
        """Hold every caller for `seconds` (the server answered 429 with Retry-After)."""
        with self._lock:
            self._paused_until = max(self._paused_until, self._clock() + seconds)

    @property
    def tokens(self) -> float:
        with self._lock:
            self._refill(self._clock())
            return self._tokens


def default_margin(burst: int) -> int:
    """3 tokens, but never more than a tenth of a small burst."""
    return min(DEFAULT_MARGIN, burst // 10)


_shared: dict[tuple[str, str, int, int, int], TokenBucket] = {}
_shared_lock = threading.Lock()


def shared_bucket(
    base_url: str,
    api_key: str,
    rate_per_minute: int = DEFAULT_RATE_PER_MINUTE,
    burst: int = DEFAULT_BURST,
    margin: int | None = None,
) -> TokenBucket:
    """The process-wide bucket of (base URL, key); the key is held only as a hash."""
    key_hash = hashlib.sha256(api_key.encode("utf-8")).hexdigest()
    margin = default_margin(burst) if margin is None else margin
    ident = (base_url.rstrip("/"), key_hash, rate_per_minute, burst, margin)
    with _shared_lock:
        bucket = _shared.get(ident)
        if bucket is None:
            bucket = _shared[ident] = TokenBucket(rate_per_minute, burst, margin=margin)
        return bucket

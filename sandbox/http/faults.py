"""Fault injection settings of a sandbox server (off by default).

Shares are probabilities in [0, 1] applied to each API call (admin paths are never faulted).
The middleware that applies them lives in `fault_middleware.py`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FaultConfig:
    error_rate: float = 0.0
    """Share of calls answered 500 or 502 instead of being served."""
    unavailable_rate: float = 0.0
    """Share of calls answered 503 with `Retry-After: retry_after_seconds`."""
    rate_limit_rate: float = 0.0
    """Share of calls that start a burst of 429 answers (`rate_limit_burst` calls long)."""
    rate_limit_burst: int = 3
    retry_after_seconds: int = 1
    latency_ms: int = 0
    """Fixed latency added to every call."""
    latency_jitter_ms: int = 0
    """Random extra latency, uniform in [0, latency_jitter_ms]."""
    drop_before_rate: float = 0.0
    """Share of calls whose connection is dropped before the server does the work."""
    drop_after_rate: float = 0.0
    """Share of calls whose connection is dropped after the work is done (the answer is lost)."""
    truncate_rate: float = 0.0
    """Share of answers whose body is cut short."""
    seed: int | None = None
    """Seed of the fault dice, for repeatable runs."""

    @property
    def active(self) -> bool:
        return any((self.error_rate, self.unavailable_rate, self.rate_limit_rate,
                    self.latency_ms, self.latency_jitter_ms, self.drop_before_rate,
                    self.drop_after_rate, self.truncate_rate))

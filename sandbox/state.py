"""What one running sandbox holds: its database, its clock, its settings and its limiter."""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .clock import Clock
from .faults import FaultConfig
from .ratelimit import RateLimiter
from .settings import SandboxSettings

if TYPE_CHECKING:
    from .webhook_dispatcher import WebhookDispatcher


@dataclass
class SandboxState:
    conn: sqlite3.Connection
    clock: Clock
    settings: SandboxSettings
    limiter: RateLimiter = field(init=False)
    maintenance: bool = False
    faults: FaultConfig = field(default_factory=FaultConfig)
    fault_counts: Counter[str] = field(default_factory=Counter)
    """Faults injected so far, per kind (sandbox/middleware_faults.py)."""
    dispatcher: WebhookDispatcher | None = None
    """The webhook dispatcher while the server runs; `poke()` it after recording events."""

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.rate_per_minute, self.settings.burst)

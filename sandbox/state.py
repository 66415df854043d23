"""What one running sandbox holds: its database, its clock, its settings and its limiter."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from .clock import Clock
from .faults import FaultConfig
from .ratelimit import RateLimiter
from .settings import SandboxSettings


@dataclass
class SandboxState:
    conn: sqlite3.Connection
    clock: Clock
    settings: SandboxSettings
    limiter: RateLimiter = field(init=False)
    maintenance: bool = False
    faults: FaultConfig = field(default_factory=FaultConfig)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.rate_per_minute, self.settings.burst)

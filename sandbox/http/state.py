"""What one running server holds beyond its hotel: its limiter, switches and fault settings,
and the webhook dispatcher while it runs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..context import SandboxState
from .auth import KeyStanding
from .faults import FaultConfig
from .ratelimit import RateLimiter
from .webhook_dispatcher import WebhookDispatcher


@dataclass
class ServerState(SandboxState):
    limiter: RateLimiter = field(init=False)
    maintenance: bool = False
    faults: FaultConfig = field(default_factory=FaultConfig)
    fault_counts: Counter[str] = field(default_factory=Counter)
    """Faults injected so far, per kind (fault_middleware.py)."""
    dispatcher: WebhookDispatcher | None = None
    """The webhook dispatcher while the server runs; `poke()` it after recording events."""
    keys: KeyStanding = field(default_factory=KeyStanding)
    """The API keys and their accounts' standing, read again after any write (auth.py)."""

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.rate_per_minute, self.settings.burst)

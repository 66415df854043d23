"""How a sandbox server is configured when it starts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SandboxSettings:
    db_path: str = ":memory:"
    rate_per_minute: int = 600
    """Calls per minute per key (the spec's limit); tests lower or raise it."""
    burst: int = 120
    admin: bool = False
    """Serve the `/_sandbox` admin endpoints (clock, night audit, faults, switches, reset)."""
    allow_http_webhooks: bool = False
    """Accept plain-http webhook addresses on loopback (tests)."""
    webhook_timeout_seconds: float = 10.0
    """A webhook receiver that has not answered within this time has failed (spec: 10 s)."""
    idempotency_wait_seconds: float = 30.0
    """How long a repeat waits for the first request with the same Idempotency-Key."""
    pos_export_dir: str | None = None
    """Folder where days simulated through /_sandbox write their POS ledger CSV files."""

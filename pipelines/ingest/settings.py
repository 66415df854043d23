"""Settings of a sync (the same for Dagster and `pmsw sync`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from pipelines.api import RetryPolicy

AVAILABILITY_WINDOW = 62
"""GET /availability answers at most 62 nights per call (spec, Limits)."""


@dataclass(frozen=True)
class SyncSettings:
    overlap: timedelta = timedelta(minutes=5)
    """Reservations are read from the stored cursor minus this window (a commit may become
    visible after a later one; rows in the window are read again and merged)."""
    departed_days: int = 7
    """Folios of rooms that departed within this many days (of the business date) are re-read."""
    full_folio_refresh: bool = False
    """Re-read the folios of every reservation in the warehouse (closed folios stay final)."""
    concurrency: int = 8
    """Calls in flight when many folios or reservation details are fetched."""
    stay_guests: bool = True
    """Read the detail of each reservation landed (GET /reservations/{id}) for its guests."""
    availability_nights: int = 365
    chunk: int = 200
    """Reservations whose folios are landed per transaction."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    """Retries of each call (5 attempts, backoff from 0.5 s: docs/client.md)."""

    def __post_init__(self) -> None:
        if self.overlap < timedelta(0):
            raise ValueError("overlap must not be negative")
        if self.departed_days < 0:
            raise ValueError("departed_days must not be negative")
        if self.concurrency < 1 or self.chunk < 1 or self.availability_nights < 1:
            raise ValueError("concurrency, chunk and availability_nights must be positive")

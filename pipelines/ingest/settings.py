"""Settings of a sync: the same object for `pmsw sync`, the demo and Dagster (whose resource
`sync_settings` IS a SyncSettings, editable in the launchpad)."""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveInt

from pipelines.api import RetryPolicy

AVAILABILITY_WINDOW = 62
"""GET /availability answers at most 62 nights per call (spec, Limits)."""


class SyncSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    overlap_seconds: NonNegativeInt = 300
    """Reservations are read from the stored cursor minus this window (a commit may become
    visible after a later one; rows in the window are read again and merged)."""
    departed_days: NonNegativeInt = 7
    """Rooms checked out within this many days (of the business date) stay in the folio
    sweep, each read once within `folio_sweep_hours`, even when every folio of theirs is
    closed and settled: a late charge goes on a new folio, which neither the reservation nor
    the event log shows. Reservations cancelled longer ago than this leave the sweep."""
    late_charge_days: NonNegativeInt = 1
    """The late-charge window: rooms checked out within this many days (of the business date)
    have their folios re-read on every run until all of them are closed and settled (balance
    0). The spec refuses a check-out with an open balance, and the night audit of the
    departure date posts the outstanding charges and settles the departures; 1 keeps the
    departure's next business day, the desk's late charges. After the window an unsettled
    folio (a receivable on hold) is read by the sweep (docs/ingestion.md, Folios)."""
    full_folio_refresh: bool = False
    """Re-read the folios of every reservation in the warehouse (closed folios stay final)."""
    folio_sweep_hours: PositiveInt = 24
    """Every open folio outside the classes read on every run (changed, in house, departed) -
    the future book - is re-read at least once within this many hours of the PMS's clock, a
    rotating share per run (docs/ingestion.md, Folios)."""
    future_folios_daily: bool = True
    """The folios of stays not yet arrived (reservations `option` or `confirmed` holding an open
    folio: the future book) are read whole once per business date, by the first run that sees
    the date (the run after the night audit), not in the hourly sweep. A deposit or prepayment
    on a future stay changes no reservation (only a read of its folio shows it); read after the
    night audit, every line posted on the closed day is in the warehouse before that day's
    ledgers and close are read. False: the future book is in the rotating sweep, each folio
    within `folio_sweep_hours` (docs/ingestion.md, Folios)."""
    concurrency: PositiveInt = 8
    """Calls in flight when many folios or reservation details are fetched."""
    properties_at_once: PositiveInt = 20
    """Properties of one run synced at the same time, each bounded by its own key's limit;
    their landings take turns (docs/ingestion.md, "A hotel group")."""
    marts_at_once: PositiveInt = 2
    """Properties whose marts are built at the same time after the streams (at most
    properties_at_once). The builds are CPU work: one property's polars overlaps the other's
    Python and DuckDB steps; more than the machine's cores only adds memory (docs/ingestion.md,
    "A hotel group")."""
    stay_guests: bool = True
    """Read the detail of each reservation landed (GET /reservations/{id}) for its guests."""
    availability_nights: PositiveInt = 365
    chunk: PositiveInt = 200
    """Reservations whose folios are landed per transaction."""
    retry_attempts: PositiveInt = 5
    """Attempts of each call, the first included (docs/client.md)."""
    retry_backoff_seconds: float = 0.5
    """Wait before the second attempt, doubled at each further one (up to the cap)."""
    retry_backoff_cap_seconds: float = 8.0
    pos_ledger_dir: str | None = None
    """POS ledger folder of every property (overrides the properties file and
    PMS_POS_LEDGER_DIR)."""

    @property
    def overlap(self) -> timedelta:
        return timedelta(seconds=self.overlap_seconds)

    @property
    def folio_sweep(self) -> timedelta:
        return timedelta(hours=self.folio_sweep_hours)

    @property
    def retry(self) -> RetryPolicy:
        return RetryPolicy(max_attempts=self.retry_attempts,
                           backoff_base=self.retry_backoff_seconds,
                           backoff_cap=self.retry_backoff_cap_seconds)

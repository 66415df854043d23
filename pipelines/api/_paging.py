"""Paged reads that stay correct while the records change under them.

GET /reservations pages by offset (`page`, `page_size`) over one of four orders: `arrival`,
`arrival_desc`, `created_desc`, `updated_desc`. Between two page requests other clients
change reservations, and an offset read then sees the list shift:

- a record whose sort key changes moves. Under `updated_desc` every change moves it to the
  front (page 1, among the records of the same second, which the server orders by id): the
  reader has passed that page, so in this pass the record is missed;
- the records between a record's old and new places shift by one. Shifted towards the end,
  the reader meets one of them twice at the next page boundary; shifted towards the front
  (a record before the reader leaving the filtered set, or moving behind the reader), the
  reader skips one, which is worse: that record did not change and no later read finds it.

`ReservationStream` (the incremental read) sorts by `updated_desc` and filters only by
`updated_since`. Under that order and filter a change can only put a record at the front,
and a record never leaves the set (its `updated_at` only grows; reservations are never
deleted); new records also enter at the front. So the records the reader has not reached
yet can only shift *towards the end*, never past the reader: every record that did not change
during a pass is read in that pass (perhaps twice: de-duplicated by `(id, updated_at)`).
(A change within the same second as the version already read keeps `updated_at`: such a
version, same id and `updated_at` but other content, is yielded as well.)
The records that did change during the pass went to the front, with `updated_at` at least
the newest `updated_at` seen when the pass began (`top`). A further pass with
`updated_since = top` (less a second, as timestamps are whole seconds) reads exactly those;
it repeats until a pass is a single page (one answer is a consistent snapshot), finds nothing
new, or `max_passes` is reached. Then `cursor` (the last pass's `top`) is the point to resume
from: every version with `updated_at` before it has been yielded.

A walk with other filters (`walk_pages`) cannot promise that: a record leaving a filtered set
(a status change) shifts the unread ones past the reader. It defaults to `created_desc`, the
one order in which an existing record never moves (only new ones enter, at the front), and
de-duplicates by id.

With a quarantining fetch (`iter_reservations(quarantine=True)`), a record that does not
match the model does not stop the read: the page is validated record by record, the valid
ones are yielded and each invalid one is kept in `invalid`, so the caller can land the rest
and quarantine it (docs/ingestion.md, "Quarantine"). Only valid records count towards `top`
and the cursor.

`iter_event_log` follows `next_after` while `has_more`: event ids only grow, so an id cursor
is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from models.common import Page
from models.events import Event, EventBatch
from models.reservations import Reservation, ReservationPage
from pipelines.api._parsing import InvalidRecord

MAX_PAGE_SIZE = 200
TIMESTAMP_STEP = timedelta(seconds=1)

FetchPage = Callable[[dict[str, object]], ReservationPage]
"""Fetch one page of GET /reservations for these query parameters."""


class RecordPage(Page):
    """A page whose records are not validated yet (each is checked on its own)."""

    data: list[Any]


CheckedPage = tuple[ReservationPage, list[InvalidRecord]]
FetchCheckedPage = Callable[[dict[str, object]], CheckedPage]
"""Fetch one page, its valid records as a ReservationPage and the invalid ones aside."""


class ReservationStream:
    """Every reservation changed since `updated_since` (all when None), each version once."""

    def __init__(
        self,
        fetch: FetchCheckedPage,
        *,
        updated_since: datetime | None,
        overlap: timedelta,
        page_size: int = MAX_PAGE_SIZE,
        max_passes: int = 10,
    ) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page_size must be within 1..{MAX_PAGE_SIZE}")
        if overlap < timedelta(0):
            raise ValueError("overlap must not be negative")
        self._fetch = fetch
        self._since = updated_since - overlap if updated_since is not None else None
        self._page_size = page_size
        self._max_passes = max_passes
        self.invalid: list[InvalidRecord] = []
        """The records that did not validate, in the order met (only a quarantining fetch
        returns any; a record met twice is here twice)."""
        self.cursor: datetime | None = updated_since
        """After the iteration: resume the next incremental read from here."""
        self.passes = 0
        self.calls = 0
        self._reservations = self._read()

    def __iter__(self) -> ReservationStream:
        return self

    def __next__(self) -> Reservation:
        return next(self._reservations)

    def _read(self) -> Iterator[Reservation]:
        # A version is (id, updated_at); timestamps are whole seconds, so two changes within
        # one second share it: the content tells them apart, and the later one is yielded too.
        seen: dict[tuple[int, datetime], str] = {}
        since = self._since
        page_size = self._page_size
        while True:
            self.passes += 1
            top: datetime | None = None
            snapshot = False
            new = 0
            page = 1
            while True:
                params: dict[str, object] = {"sort": "updated_desc", "page": page,
                                             "page_size": page_size}
                if since is not None:
                    params["updated_since"] = since
                result = self._page(params)
                self.calls += 1
                if page == 1:
                    top = max((r.updated_at for r in result.data), default=None)
                    snapshot = result.pages <= 1
                for reservation in result.data:
                    version = (reservation.id, reservation.updated_at)
                    content = reservation.model_dump_json()
                    if seen.get(version) != content:
                        seen[version] = content
                        new += 1
                        yield reservation
                if not result.data or page >= result.pages:
                    break
                page += 1
            if top is not None and (self.cursor is None or top > self.cursor):
                self.cursor = top
            if top is None or snapshot or new == 0 or self.passes >= self._max_passes:
                return
            since = top - TIMESTAMP_STEP
            page_size = MAX_PAGE_SIZE  # the next pass is short: read it in as few calls as can be

    def _page(self, params: dict[str, object]) -> ReservationPage:
        page, invalid = self._fetch(params)
        self.invalid.extend(invalid)
        return page


def walk_pages(fetch: FetchPage, params: dict[str, object]) -> Iterator[Reservation]:
    """Every page of a filtered list, each reservation once (the first version met)."""
    seen: set[int] = set()
    page = 1
    while True:
        result = fetch({**params, "page": page})
        for reservation in result.data:
            if reservation.id not in seen:
                seen.add(reservation.id)
                yield reservation
        if not result.data or page >= result.pages:
            return
        page += 1


def iter_event_log(fetch: Callable[[int], EventBatch], after: int) -> Iterator[Event]:
    """Events after `after`, oldest first, batch after batch while the server has more."""
    while True:
        batch = fetch(after)
        yield from batch.data
        if not batch.has_more or batch.next_after <= after:
            return
        after = batch.next_after

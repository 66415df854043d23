"""The sweep's choice (pipelines.ingest.folios.choose_sweep; docs/ingestion.md, Folios),
played over days of runs on a book of open folios: each is read within the window whatever
the cadence, and an hourly run reads a share near book / (window - 1 h), not the book."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from pipelines.ingest.folios import choose_sweep

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
WINDOW = timedelta(hours=24)


def _play(book: list[int], times: list[datetime]) -> tuple[dict[int, list[datetime]], list[int]]:
    """Everything read at T0 (the initial load), then a run at each of `times`."""
    reads = {r: [T0] for r in book}
    last = dict.fromkeys(book, T0)
    previous = T0
    counts = []
    for now in times:
        chosen = choose_sweep(book, last, now=now, previous=previous, window=WINDOW)
        for r in chosen:
            reads[r].append(now)
            last[r] = now
        counts.append(len(chosen))
        previous = now
    return reads, counts


def _longest_unread(reads: dict[int, list[datetime]], end: datetime) -> timedelta:
    return max(max(b - a for a, b in pairwise([*at, end])) for at in reads.values())


def test_hourly_runs_read_each_folio_within_the_window_a_share_at_a_time() -> None:
    book = list(range(1, 1001))
    times = [T0 + timedelta(hours=h) for h in range(1, 24 * 4 + 1)]
    reads, counts = _play(book, times)
    assert _longest_unread(reads, times[-1]) <= WINDOW - timedelta(hours=1)
    # No burst when the initial load falls due: the share spreads it.
    assert max(counts) <= 2 * 1000 / 23
    assert counts[0] == 42  # ceil(1000 x 1 h / 24 h)
    steady = counts[48:]
    assert sum(steady) / len(steady) <= 1000 / 23 + 1
    assert sum(counts) < 1000 * 5  # against 96,000 reads had every run read the book


def test_irregular_runs_still_read_each_folio_within_the_window() -> None:
    book = list(range(1, 301))
    gaps = [1, 1, 0.25, 0.25, 3, 1, 1, 5, 0.5, 2, 1, 1, 1, 4, 1] * 6  # hours
    times, now = [], T0
    for gap in gaps:
        now += timedelta(hours=gap)
        times.append(now)
    reads, _ = _play(book, times)
    # The next gap is guessed from the last: a run after a gap longer than the one before can
    # find a folio late by the difference (here at most 5 h), never more; the share read on
    # every run keeps that rare (none, in this sequence: 23 h at most).
    assert _longest_unread(reads, times[-1]) <= WINDOW + timedelta(hours=5)
    late = [r for r, at in reads.items()
            if any(b - a > WINDOW for a, b in pairwise(at))]
    assert len(late) < len(book) / 10


def test_a_run_a_day_after_the_previous_reads_the_whole_book() -> None:
    book = [5, 3, 9]
    last = dict.fromkeys(book, T0)
    assert sorted(choose_sweep(book, last, now=T0 + WINDOW, previous=T0, window=WINDOW)) == [
        3, 5, 9]


def test_same_instant_reads_nothing_but_what_was_never_read() -> None:
    book = [1, 2, 3]
    last = {1: T0, 2: T0}
    assert choose_sweep(book, last, now=T0, previous=T0, window=WINDOW) == [3]


def test_no_previous_run_reads_the_whole_book() -> None:
    last = dict.fromkeys([1, 2], T0)
    assert choose_sweep([1, 2], last, now=T0, previous=None, window=WINDOW) == [1, 2]

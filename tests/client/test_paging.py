"""Paging (spec, Filters of GET /reservations: `updated_since`, `sort`, `page`, `page_size`;
Event log 1: `after` / `next_after`), while other clients keep changing the records."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from models import ReservationCreate, ReservationPatch
from models.reservations import Reservation
from pipelines.api import PmsClient
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient, booking


def create_many(pms: PmsClient, body: ReservationCreate, count: int) -> list[Reservation]:
    return [pms.create_reservation(body).reservation for _ in range(count)]


def test_the_walk_crosses_every_page_once(pms: PmsClient) -> None:
    made = create_many(pms, booking(pms), 7)
    every = list(pms.iter_reservations(page_size=2))
    assert sorted(r.id for r in every) == sorted(r.id for r in made)
    pms.cancel_reservation(made[0].id)
    confirmed = list(pms.iter_reservations(status="confirmed", page_size=2))
    assert sorted(r.id for r in confirmed) == sorted(r.id for r in made[1:])
    assert [r.id for r in confirmed] == sorted((r.id for r in confirmed), reverse=True)
    with pytest.raises(ValueError, match="updated_since takes no other filter"):
        pms.iter_reservations(updated_since=made[0].updated_at, status="confirmed")  # type: ignore[call-overload]


def test_the_incremental_read_starts_at_updated_since(pms: PmsClient) -> None:
    """Spec: `updated_since` matches a change of the head or of any room."""
    made = create_many(pms, booking(pms), 3)
    time.sleep(1.1)  # timestamps are whole seconds
    changed = pms.update_reservation(made[1].id, ReservationPatch(notes="changed"))
    stream = pms.iter_reservations(updated_since=changed.updated_at, overlap=timedelta(0))
    assert [r.id for r in stream] == [made[1].id]
    assert stream.cursor == changed.updated_at
    everything = pms.iter_reservations(updated_since=None)
    assert sorted(r.id for r in everything) == sorted(r.id for r in made)


def test_nothing_is_missed_or_read_twice_while_another_client_keeps_changing_records(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    """Pages of 3 under `updated_desc`; meanwhile another client changes reservations from
    the oldest on, so each change moves a record from the unread end to the page already
    read. The read must yield every reservation, no version twice, and its cursor must hand
    over to the next read every change it could not include."""
    pms = make_client(sandbox)
    writer = make_client(sandbox)
    start = pms.me().key.created_at - timedelta(seconds=1)
    made = create_many(pms, booking(pms), 24)
    oldest_first = [r.id for r in made]

    stop = threading.Event()
    changes = 0

    def keep_changing() -> None:
        nonlocal changes
        while not stop.is_set():
            reservation_id = oldest_first[changes % len(oldest_first)]
            writer.update_reservation(reservation_id, ReservationPatch(notes=f"change {changes}"))
            changes += 1
            time.sleep(0.004)

    thread = threading.Thread(target=keep_changing)
    thread.start()
    try:
        stream = pms.iter_reservations(updated_since=start, page_size=3)
        first_read: list[Reservation] = []
        for reservation in stream:
            first_read.append(reservation)
            time.sleep(0.015)  # a slow consumer: pages are fetched as it asks
        changes_during_read = changes
    finally:
        stop.set()
        thread.join()

    assert changes_during_read >= 5  # the list really moved under the reader
    versions = [(r.id, r.updated_at, r.notes) for r in first_read]
    assert len(versions) == len(set(versions)), "a version was yielded twice"
    assert {r.id for r in first_read} == set(oldest_first), "a reservation was missed"
    assert stream.passes >= 2
    assert stream.cursor is not None

    # Hand-over: the next read from the cursor brings every change the first one missed.
    second_read = list(pms.iter_reservations(updated_since=stream.cursor))
    latest: dict[int, str] = {}
    for reservation in [*first_read, *second_read]:
        latest[reservation.id] = reservation.notes
    final = pms.list_reservations(page_size=200)
    assert final.total == len(oldest_first)
    assert latest == {r.id: r.notes for r in final.data}


def test_iter_events_follows_next_after(pms: PmsClient) -> None:
    """Spec, Event log 1: oldest first; the client asks again with `next_after`."""
    create_many(pms, booking(pms), 5)
    first = pms.get_events(0, limit=500)
    assert not first.has_more
    every = list(pms.iter_events(0, limit=2))
    assert [e.id for e in every] == [e.id for e in first.data]
    middle = first.data[2].id
    assert [e.id for e in pms.iter_events(middle, limit=2)] == [e.id for e in first.data[3:]]

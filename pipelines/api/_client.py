"""`PmsClient`: one typed method per endpoint of API v1, over the rate-limited, retrying transport.

Methods take and return the `models/` types. Request bodies are sent with only the fields
the caller set (`exclude_unset`), so "omitted" keeps the meaning the spec gives it (the
property's rule, "no change"). Every write accepts `idempotency_key=`; without one a fresh
key is generated for the call and kept for all its retries.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta
from enum import Enum
from typing import Any, Literal, TypedDict, TypeVar, Unpack, overload

import httpx
from pydantic import BaseModel

from models.availability import Availability, Quote, QuoteRequest
from models.common import CancelledBy, ListOf, ReservationStatus, format_timestamp
from models.events import Event, EventBatch
from models.folios import ChargeInput, Folio
from models.guests import Guest, GuestInput, StayGuestAdd
from models.property import (
    AgeBracket,
    Classifications,
    Item,
    Me,
    Property,
    RatePlan,
    Room,
    RoomType,
)
from models.reservations import (
    AssignRoomInput,
    AssignRoomsInput,
    CancelInput,
    CheckInInput,
    CheckOutOptions,
    OperationResult,
    Reservation,
    ReservationCreate,
    ReservationCreated,
    ReservationPage,
    ReservationPatch,
    StayGuest,
    StayPatch,
)
from models.webhooks import (
    Webhook,
    WebhookCreated,
    WebhookDelivery,
    WebhookInput,
    WebhookList,
    WebhookPatch,
)
from pipelines.api._concurrent import map_concurrently
from pipelines.api._paging import (
    MAX_PAGE_SIZE,
    CheckedPage,
    RecordPage,
    ReservationStream,
    iter_event_log,
    walk_pages,
)
from pipelines.api._parsing import InvalidRecord, parse_as, parse_record
from pipelines.api._ratelimit import (
    DEFAULT_BURST,
    DEFAULT_RATE_PER_MINUTE,
    TokenBucket,
    shared_bucket,
)
from pipelines.api._retry import RetryPolicy
from pipelines.api._transport import Transport

T = TypeVar("T")
R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)

API_KEY_ENV = "PMS_API_KEY"
Sort = Literal["arrival", "arrival_desc", "created_desc", "updated_desc"]


class ReservationFilters(TypedDict, total=False):
    """Filters of GET /reservations (spec, Reservations), `updated_since` aside."""

    arrival_from: date
    arrival_to: date
    departure_from: date
    departure_to: date
    stay_on: date
    created_since: datetime
    status: ReservationStatus | str
    room_id: int
    external_ref: str
    booking_code: str
    voucher: str
    q: str
    sort: Sort


def _param(value: object) -> str | int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int | str):
        return value
    raise TypeError(f"cannot send {type(value).__name__} as a query parameter")


def _params(values: Mapping[str, object]) -> dict[str, str | int | None]:
    return {name: _param(value) for name, value in values.items()}


def _body(model: type[M], value: M | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The JSON of a request body: only the fields set (a dict is validated first)."""
    if value is None:
        return None
    checked = value if isinstance(value, model) else model.model_validate(value)
    dumped: dict[str, Any] = checked.model_dump(mode="json", exclude_unset=True)
    return dumped


class PmsClient:
    """The PMS public API v1.

    `base_url` includes the version segment (`https://pms.example/api/v1`). `api_key` defaults
    to the environment variable `PMS_API_KEY`; it never appears in reprs, logs or errors.

    Rate limit: a token bucket of `rate_per_minute` with `burst`, shared by every client of
    the process with the same base URL and key (or pass `rate_limiter=`). Retries:
    `max_attempts` attempts in all (or pass `retry=`), see `pipelines.api._retry`.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        max_attempts: int = 5,
        retry: RetryPolicy | None = None,
        rate_per_minute: int = DEFAULT_RATE_PER_MINUTE,
        burst: int = DEFAULT_BURST,
        rate_limiter: TokenBucket | None = None,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        if key is None:
            raise ValueError(f"no API key: pass api_key= or set {API_KEY_ENV}")
        self.base_url = base_url.rstrip("/")
        bucket = rate_limiter or shared_bucket(self.base_url, key, rate_per_minute, burst)
        self._transport = Transport(
            self.base_url, key,
            bucket=bucket,
            retry=retry or RetryPolicy(max_attempts=max_attempts),
            timeout=timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout),
            http_client=http_client,
            **({"sleep": sleep} if sleep is not None else {}),
        )

    def __repr__(self) -> str:
        return f"PmsClient(base_url={self.base_url!r})"

    @property
    def rate_limiter(self) -> TokenBucket:
        return self._transport.bucket

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> PmsClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- plumbing ---------------------------------------------------------------------------

    def _get(self, path: str, type_: type[T], params: Mapping[str, object] | None = None) -> T:
        data = self._transport.request("GET", path, params=_params(params or {}))
        return parse_as(type_, data, method="GET", path=path)

    def _list(self, path: str, item: type[T], params: Mapping[str, object] | None = None,
              ) -> list[T]:
        return self._get(path, ListOf[item], params).data  # type: ignore[valid-type]

    def _write(
        self,
        method: str,
        path: str,
        type_: type[T],
        body: dict[str, Any] | None,
        idempotency_key: str | None,
    ) -> T:
        data = self._transport.request(method, path, body=body, idempotency_key=idempotency_key)
        return parse_as(type_, data, method=method, path=path)

    # -- account and property ---------------------------------------------------------------

    def me(self) -> Me:
        """GET /me: the key, its scopes, its property and account."""
        return self._get("/me", Me)

    def get_property(self) -> Property:
        return self._get("/property", Property)

    def list_room_types(self) -> list[RoomType]:
        return self._list("/room-types", RoomType)

    def list_rooms(self) -> list[Room]:
        return self._list("/rooms", Room)

    def list_rate_plans(self) -> list[RatePlan]:
        return self._list("/rate-plans", RatePlan)

    def list_age_brackets(self) -> list[AgeBracket]:
        return self._list("/age-brackets", AgeBracket)

    def list_items(self, q: str | None = None) -> list[Item]:
        return self._list("/items", Item, {"q": q})

    def get_classifications(self) -> Classifications:
        return self._get("/classifications", Classifications)

    # -- availability and quotes ------------------------------------------------------------

    def get_availability(self, from_: date | None = None, to: date | None = None) -> Availability:
        """GET /availability for the nights [from_, to) (server defaults: business date, +14)."""
        return self._get("/availability", Availability, {"from": from_, "to": to})

    def quote(self, request: QuoteRequest | Mapping[str, Any]) -> Quote:
        """POST /quotes: price a stay night by night; nothing is booked (so no key is needed,
        but one is sent like on every POST)."""
        return self._write("POST", "/quotes", Quote, _body(QuoteRequest, request), None)

    # -- reservations -----------------------------------------------------------------------

    def list_reservations(
        self,
        *,
        page: int = 1,
        page_size: int | None = None,
        updated_since: datetime | None = None,
        **filters: Unpack[ReservationFilters],
    ) -> ReservationPage:
        """One page of GET /reservations."""
        params = {**filters, "updated_since": updated_since, "page": page,
                  "page_size": page_size}
        return self._get("/reservations", ReservationPage, params)

    @overload
    def iter_reservations(
        self,
        *,
        updated_since: datetime | None,
        overlap: timedelta = ...,
        page_size: int = ...,
        max_passes: int = ...,
        quarantine: bool = ...,
    ) -> ReservationStream: ...

    @overload
    def iter_reservations(
        self, *, page_size: int = ..., **filters: Unpack[ReservationFilters]
    ) -> Iterator[Reservation]: ...

    def iter_reservations(
        self,
        *,
        updated_since: datetime | None = None,
        overlap: timedelta = timedelta(seconds=1),
        page_size: int = MAX_PAGE_SIZE,
        max_passes: int = 10,
        quarantine: bool = False,
        **filters: Any,
    ) -> Iterator[Reservation]:
        """Every reservation across pages.

        Without filters (or with `updated_since` alone) this is the incremental read: every
        reservation changed since `updated_since - overlap` (all when None), each version
        once, safe against changes made while the pages are read; afterwards the returned
        stream's `cursor` is where the next read resumes (docs/client.md, "Paging").

        With other filters it walks the pages (default order `created_desc`, the one in which
        existing records never move), each reservation once.

        With `quarantine` (the incremental read only), a record that does not match the model
        does not raise: the page is validated record by record, and each invalid record is
        kept in the stream's `invalid` with its payload and the error naming the field
        (docs/ingestion.md, "Quarantine"). Without it, such a page raises
        ResponseValidationError.
        """
        if not filters:
            checked = self._fetch_checked_page if quarantine else self._fetch_strict_page
            return ReservationStream(checked, updated_since=updated_since, overlap=overlap,
                                     page_size=page_size, max_passes=max_passes)
        if quarantine:
            raise ValueError("quarantine is for the incremental read (no filters)")
        if updated_since is not None:
            raise ValueError(
                "updated_since takes no other filter: a reservation leaving a filtered set "
                "while pages are read would make the read skip others; filter after reading")
        params: dict[str, object] = {"sort": "created_desc", "page_size": page_size, **filters}
        return walk_pages(self._fetch_page, params)

    def _fetch_page(self, params: dict[str, object]) -> ReservationPage:
        return self._get("/reservations", ReservationPage, params)

    def _fetch_strict_page(self, params: dict[str, object]) -> CheckedPage:
        return self._fetch_page(params), []

    def _fetch_checked_page(self, params: dict[str, object]) -> CheckedPage:
        """One page, its envelope validated whole and its records one by one."""
        path = "/reservations"
        data = self._transport.request("GET", path, params=_params(params))
        envelope = parse_as(RecordPage, data, method="GET", path=path)
        valid: list[Reservation] = []
        invalid: list[InvalidRecord] = []
        for record in envelope.data:
            parsed = parse_record(Reservation, record, method="GET", path=path)
            if isinstance(parsed, InvalidRecord):
                invalid.append(parsed)
            else:
                valid.append(parsed)
        page = ReservationPage(page=envelope.page, page_size=envelope.page_size,
                               total=envelope.total, pages=envelope.pages, data=valid)
        return page, invalid

    def check_reservation(self, reservation_id: int) -> Reservation | InvalidRecord:
        """GET /reservations/{id}, an answer that does not match the model kept aside as an
        InvalidRecord (its payload and the error naming the field) instead of raised: how a
        quarantined reservation is re-fetched (docs/ingestion.md, "Quarantine")."""
        path = f"/reservations/{reservation_id}"
        data = self._transport.request("GET", path)
        return parse_record(Reservation, data, method="GET", path=path)

    def create_reservation(
        self, body: ReservationCreate | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> ReservationCreated:
        """POST /reservations. A repeated `external_ref` raises DuplicateExternalRefError
        carrying `existing_reservation_id`."""
        return self._write("POST", "/reservations", ReservationCreated,
                           _body(ReservationCreate, body), idempotency_key)

    def get_reservation(self, reservation_id: int) -> Reservation:
        """GET /reservations/{id}: rooms with their guests, and folios."""
        return self._get(f"/reservations/{reservation_id}", Reservation)

    def update_reservation(
        self, reservation_id: int, patch: ReservationPatch | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> Reservation:
        return self._write("PATCH", f"/reservations/{reservation_id}", Reservation,
                           _body(ReservationPatch, patch), idempotency_key)

    def assign_rooms(
        self, reservation_id: int, *, allow_other_type: bool | None = None,
        idempotency_key: str | None = None,
    ) -> OperationResult:
        body = None if allow_other_type is None else AssignRoomsInput(
            allow_other_type=allow_other_type)
        return self._operation(reservation_id, "assign-rooms", body, idempotency_key)

    def confirm_reservation(
        self, reservation_id: int, *, idempotency_key: str | None = None
    ) -> OperationResult:
        return self._operation(reservation_id, "confirm", None, idempotency_key)

    def cancel_reservation(
        self, reservation_id: int, *, by: CancelledBy | None = None,
        idempotency_key: str | None = None,
    ) -> OperationResult:
        body = None if by is None else CancelInput(by=by)
        return self._operation(reservation_id, "cancel", body, idempotency_key)

    def check_in_reservation(
        self, reservation_id: int, *, charge_no_show: bool | None = None,
        idempotency_key: str | None = None,
    ) -> OperationResult:
        body = None if charge_no_show is None else CheckInInput(charge_no_show=charge_no_show)
        return self._operation(reservation_id, "check-in", body, idempotency_key)

    def check_out_reservation(
        self, reservation_id: int, options: CheckOutOptions | Mapping[str, Any] | None = None,
        *, idempotency_key: str | None = None,
    ) -> OperationResult:
        """POST /reservations/{id}/check-out; NightsToChargeError asks for `charge_remaining`."""
        return self._operation(reservation_id, "check-out",
                               _body(CheckOutOptions, options), idempotency_key)

    def _operation(
        self, reservation_id: int, action: str, body: BaseModel | dict[str, Any] | None,
        idempotency_key: str | None,
    ) -> OperationResult:
        json_body = body.model_dump(mode="json", exclude_unset=True) if isinstance(
            body, BaseModel) else body
        return self._write("POST", f"/reservations/{reservation_id}/{action}", OperationResult,
                           json_body, idempotency_key)

    def update_stay(
        self, reservation_id: int, room_id: int, patch: StayPatch | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> Reservation:
        """PATCH /reservations/{id}/rooms/{rid} (`room_id` is the room entry, `rooms[].id`)."""
        return self._write("PATCH", f"/reservations/{reservation_id}/rooms/{room_id}",
                           Reservation, _body(StayPatch, patch), idempotency_key)

    def assign_room(
        self, reservation_id: int, room_id: int, *, physical_room_id: int | None = None,
        idempotency_key: str | None = None,
    ) -> Reservation:
        """Give the room entry `room_id` the physical room `physical_room_id` (None: the
        first free room of its type)."""
        body = None if physical_room_id is None else AssignRoomInput(room_id=physical_room_id)
        return self._stay_action(reservation_id, room_id, "assign-room", body, idempotency_key)

    def confirm_stay(
        self, reservation_id: int, room_id: int, *, idempotency_key: str | None = None
    ) -> Reservation:
        return self._stay_action(reservation_id, room_id, "confirm", None, idempotency_key)

    def cancel_stay(
        self, reservation_id: int, room_id: int, *, by: CancelledBy | None = None,
        idempotency_key: str | None = None,
    ) -> Reservation:
        body = None if by is None else CancelInput(by=by)
        return self._stay_action(reservation_id, room_id, "cancel", body, idempotency_key)

    def check_in_stay(
        self, reservation_id: int, room_id: int, *, charge_no_show: bool | None = None,
        idempotency_key: str | None = None,
    ) -> Reservation:
        body = None if charge_no_show is None else CheckInInput(charge_no_show=charge_no_show)
        return self._stay_action(reservation_id, room_id, "check-in", body, idempotency_key)

    def check_out_stay(
        self, reservation_id: int, room_id: int,
        options: CheckOutOptions | Mapping[str, Any] | None = None, *,
        idempotency_key: str | None = None,
    ) -> Reservation:
        return self._stay_action(reservation_id, room_id, "check-out",
                                 _body(CheckOutOptions, options), idempotency_key)

    def _stay_action(
        self, reservation_id: int, room_id: int, action: str,
        body: BaseModel | dict[str, Any] | None, idempotency_key: str | None,
    ) -> Reservation:
        json_body = body.model_dump(mode="json", exclude_unset=True) if isinstance(
            body, BaseModel) else body
        return self._write("POST", f"/reservations/{reservation_id}/rooms/{room_id}/{action}",
                           Reservation, json_body, idempotency_key)

    def list_stay_guests(self, reservation_id: int, room_id: int) -> list[StayGuest]:
        return self._list(f"/reservations/{reservation_id}/rooms/{room_id}/guests", StayGuest)

    def add_stay_guest(
        self, reservation_id: int, room_id: int, body: StayGuestAdd | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> list[StayGuest]:
        """Place an archive guest (`guest_id`) or a new one (`guest`) in the room entry."""
        path = f"/reservations/{reservation_id}/rooms/{room_id}/guests"
        return self._write("POST", path, ListOf[StayGuest],
                           _body(StayGuestAdd, body), idempotency_key).data

    def remove_stay_guest(
        self, reservation_id: int, room_id: int, placement_id: int, *,
        idempotency_key: str | None = None,
    ) -> list[StayGuest]:
        """Remove a placement (`StayGuest.id`, not the archive guest id)."""
        path = f"/reservations/{reservation_id}/rooms/{room_id}/guests/{placement_id}"
        return self._write("DELETE", path, ListOf[StayGuest],
                           None, idempotency_key).data

    # -- guests -----------------------------------------------------------------------------

    def search_guests(
        self, q: str | None = None, *, kind: str | None = None, limit: int | None = None
    ) -> list[Guest]:
        return self._list("/guests", Guest, {"q": q, "kind": kind, "limit": limit})

    def create_guest(
        self, guest: GuestInput | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> Guest:
        return self._write("POST", "/guests", Guest, _body(GuestInput, guest), idempotency_key)

    def get_guest(self, guest_id: int) -> Guest:
        return self._get(f"/guests/{guest_id}", Guest)

    def update_guest(
        self, guest_id: int, guest: GuestInput | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> Guest:
        return self._write("PATCH", f"/guests/{guest_id}", Guest, _body(GuestInput, guest),
                           idempotency_key)

    # -- folios -----------------------------------------------------------------------------

    def list_folios(self, reservation_id: int) -> list[Folio]:
        """GET /reservations/{id}/folios, with lines."""
        return self._list(f"/reservations/{reservation_id}/folios", Folio)

    def get_folio(self, folio_id: int) -> Folio:
        return self._get(f"/folios/{folio_id}", Folio)

    def post_charge(
        self, folio_id: int, charge: ChargeInput | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> Folio:
        """POST /folios/{id}/charges. Pass a key derived from what the charge means so that
        a second run never posts it twice."""
        return self._write("POST", f"/folios/{folio_id}/charges", Folio,
                           _body(ChargeInput, charge), idempotency_key)

    # -- events -----------------------------------------------------------------------------

    def get_events(
        self, after: int = 0, *, types: Sequence[str] | None = None, limit: int | None = None
    ) -> EventBatch:
        """One batch of GET /events, oldest first."""
        return self._get("/events", EventBatch, {
            "after": after, "types": ",".join(types) if types else None, "limit": limit})

    def iter_events(
        self, after: int = 0, *, types: Sequence[str] | None = None, limit: int = 500
    ) -> Iterator[Event]:
        """Every event after `after`, following `next_after` while `has_more`."""
        return iter_event_log(lambda cursor: self.get_events(cursor, types=types, limit=limit),
                              after)

    # -- webhooks ---------------------------------------------------------------------------

    def list_webhooks(self) -> WebhookList:
        """The subscriptions and the event types one can subscribe to."""
        return self._get("/webhooks", WebhookList)

    def create_webhook(
        self, webhook: WebhookInput | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> WebhookCreated:
        """POST /webhooks; keep `secret` (shown only now) to verify deliveries."""
        return self._write("POST", "/webhooks", WebhookCreated, _body(WebhookInput, webhook),
                           idempotency_key)

    def get_webhook(self, webhook_id: int) -> Webhook:
        """GET /webhooks/{id} (an addition within v1 of this sandbox)."""
        return self._get(f"/webhooks/{webhook_id}", Webhook)

    def update_webhook(
        self, webhook_id: int, patch: WebhookPatch | Mapping[str, Any], *,
        idempotency_key: str | None = None,
    ) -> Webhook:
        """PATCH /webhooks/{id} (an addition within v1)."""
        return self._write("PATCH", f"/webhooks/{webhook_id}", Webhook,
                           _body(WebhookPatch, patch), idempotency_key)

    def delete_webhook(self, webhook_id: int, *, idempotency_key: str | None = None) -> None:
        """DELETE /webhooks/{id} (an addition within v1)."""
        self._transport.request("DELETE", f"/webhooks/{webhook_id}",
                                idempotency_key=idempotency_key)

    def test_webhook(self, webhook_id: int, *, idempotency_key: str | None = None,
                     ) -> WebhookDelivery:
        """POST /webhooks/{id}/test: send a ping now; answers the attempt made."""
        return self._write("POST", f"/webhooks/{webhook_id}/test", WebhookDelivery, None,
                           idempotency_key)

    def list_webhook_deliveries(self, webhook_id: int) -> list[WebhookDelivery]:
        return self._list(f"/webhooks/{webhook_id}/deliveries", WebhookDelivery)

    # -- many at once -----------------------------------------------------------------------

    def fetch_many(
        self, fn: Callable[[T], R], items: Iterable[T], *, concurrency: int = 16
    ) -> Iterator[tuple[T, R]]:
        """`(item, fn(item))` for every item, `concurrency` calls in flight, in input order.

        `fn` is usually a method of this client (`client.get_folio`); every call shares the
        client's token bucket, so the pool keeps the rate limit busy without exceeding it.
        """
        return map_concurrently(fn, items, concurrency=concurrency)

    def folios_for_reservations(
        self, reservation_ids: Iterable[int], *, concurrency: int = 16
    ) -> dict[int, list[Folio]]:
        """The folios of many reservations, fetched concurrently: {reservation id: folios}."""
        return dict(self.fetch_many(self.list_folios, reservation_ids, concurrency=concurrency))

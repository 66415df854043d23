"""Every error code of the spec (Errors table) maps to its exception, with `status`, `code`
and `message`, and the extras of `duplicate_external_ref` and `nights_to_charge`."""

from __future__ import annotations

import logging

import httpx
import pytest

from models import CheckOutOptions, GuestInput, NightsToChargeDetail, ReservationPatch
from models.errors import ErrorCode
from pipelines.api import (
    ApiStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DuplicateExternalRefError,
    LockedError,
    NightsToChargeError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    PmsClient,
    RetryPolicy,
    ServerError,
    UnprocessableError,
)
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient, book, business_date

ADMIN_FOLIOS = "/_sandbox/folios"


def admin(sandbox: RunningSandbox, path: str) -> None:
    httpx.post(f"{sandbox.root_url}{path}", json={}).raise_for_status()


@pytest.mark.parametrize(("key", "error", "status", "code"), [
    ("", AuthenticationError, 401, ErrorCode.UNAUTHENTICATED),
    ("sbx_no_such_key", AuthenticationError, 401, ErrorCode.INVALID_KEY),
    ("sbx_test_revoked", AuthenticationError, 401, ErrorCode.KEY_REVOKED),
    ("sbx_test_expired", PaymentRequiredError, 402, ErrorCode.SUBSCRIPTION_EXPIRED),
    ("sbx_test_api_disabled", PermissionDeniedError, 403, ErrorCode.API_DISABLED),
    ("sbx_test_suspended", PermissionDeniedError, 403, ErrorCode.ACCOUNT_SUSPENDED),
])
def test_authentication_and_account_errors(
    sandbox: RunningSandbox, make_client: MakeClient, key: str, error: type[ApiStatusError],
    status: int, code: ErrorCode,
) -> None:
    """Spec, Authentication 4 and 5."""
    with pytest.raises(error) as caught:
        make_client(sandbox, key).get_property()
    assert (caught.value.status, caught.value.code) == (status, code)
    assert caught.value.message
    assert code.value in str(caught.value)


def test_scope_read_only_and_bad_request(sandbox: RunningSandbox, make_client: MakeClient,
                                         pms: PmsClient) -> None:
    """Spec, Authentication 5 (insufficient_scope), Errors 423 read_only and 400."""
    with pytest.raises(PermissionDeniedError) as scope:
        make_client(sandbox, "sbx_test_read_only").create_guest(GuestInput(last_name="X"))
    assert scope.value.code == ErrorCode.INSUFFICIENT_SCOPE
    with pytest.raises(LockedError) as paused:
        make_client(sandbox, "sbx_test_paused").create_guest(GuestInput(last_name="X"))
    assert (paused.value.status, paused.value.code) == (423, ErrorCode.READ_ONLY)
    with pytest.raises(BadRequestError) as bad:
        pms.list_reservations(page_size=0)
    assert bad.value.code == ErrorCode.INVALID_REQUEST
    assert bad.value.field == "page_size"


def test_not_found_also_for_another_property(sandbox: RunningSandbox, make_client: MakeClient,
                                              pms: PmsClient) -> None:
    """Spec, convention 8: a record of another property answers 404 not_found."""
    mine = book(pms)
    with pytest.raises(NotFoundError) as caught:
        make_client(sandbox, "sbx_test_other_property").get_reservation(mine.id)
    assert (caught.value.status, caught.value.code) == (404, ErrorCode.NOT_FOUND)


def test_business_conflicts_are_raised_at_once_with_their_extras(
    pms: PmsClient, sandbox: RunningSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    """409 duplicate_external_ref carries the existing reservation; 409 room_unavailable and
    open_folios; 422 rule_violation and idempotency_mismatch. None of them is retried."""
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    first = book(pms, external_ref="ota-123")
    with pytest.raises(DuplicateExternalRefError) as duplicate:
        book(pms, external_ref="ota-123")
    assert duplicate.value.existing_reservation_id == first.id
    assert (duplicate.value.status, duplicate.value.code) == (409, "duplicate_external_ref")

    with pytest.raises(UnprocessableError) as rule:
        pms.update_reservation(first.id, ReservationPatch(market="not-a-market"))
    assert (rule.value.status, rule.value.code) == (422, ErrorCode.RULE_VIOLATION)

    pms.update_reservation(first.id, ReservationPatch(notes="a"), idempotency_key="same-key")
    with pytest.raises(UnprocessableError) as mismatch:
        pms.update_reservation(first.id, ReservationPatch(notes="b"), idempotency_key="same-key")
    assert mismatch.value.code == ErrorCode.IDEMPOTENCY_MISMATCH

    # Two stays today; the second asks for the room the first already holds.
    a, b = book(pms, arrival_in=0), book(pms, arrival_in=0)
    held = pms.assign_room(a.id, a.rooms[0].id).rooms[0].room
    assert held is not None
    with pytest.raises(ConflictError) as taken:
        pms.assign_room(b.id, b.rooms[0].id, physical_room_id=held.id)
    assert taken.value.code == ErrorCode.ROOM_UNAVAILABLE

    pms.check_in_reservation(a.id)
    folio = pms.list_folios(a.id)[0]
    pms.post_charge(folio.id, {"item_id": pms.list_items(q="Minibar")[0].id})
    with pytest.raises(ConflictError) as open_folios:
        pms.check_out_reservation(a.id, CheckOutOptions(early_departure=True))
    assert open_folios.value.code == ErrorCode.OPEN_FOLIOS

    retried = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert retried == []


def test_nights_to_charge_carries_the_detail(pms: PmsClient, sandbox: RunningSandbox) -> None:
    """Spec, Check-out rules 2: with charge_full_period and a document already issued, 409
    nights_to_charge with rooms, nights, dates and amount; then charge_remaining answers it."""
    stay = book(pms, arrival_in=0, nights=4)
    pms.assign_rooms(stay.id)
    pms.check_in_reservation(stay.id)
    for folio in pms.list_folios(stay.id):
        admin(sandbox, f"{ADMIN_FOLIOS}/{folio.id}/payments")
        admin(sandbox, f"{ADMIN_FOLIOS}/{folio.id}/close")
    options = CheckOutOptions(early_departure=True, charge_full_period=True)
    with pytest.raises(NightsToChargeError) as caught:
        pms.check_out_reservation(stay.id, options)
    detail = caught.value.nights_to_charge
    assert isinstance(detail, NightsToChargeDetail)
    assert detail.nights >= 1
    assert detail.amount > 0
    assert detail.dates[0] >= business_date(pms)
    assert detail.rooms[0].room_id == stay.rooms[0].id
    assert pms.get_reservation(stay.id).status == "checked_in"  # nothing changed
    done = pms.check_out_reservation(stay.id, CheckOutOptions(
        early_departure=True, charge_full_period=True, charge_remaining=False))
    assert done.reservation.status == "checked_out"
    assert done.reservation.departure == business_date(pms)


def test_maintenance_is_a_server_error_after_the_retries(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    """Spec, Errors: 503 (no code) maintenance; waits Retry-After, here with no retry left."""
    sandbox.state.maintenance = True
    with pytest.raises(ServerError) as caught:
        make_client(sandbox, retry=RetryPolicy(max_attempts=1)).me()
    assert caught.value.status == 503
    assert caught.value.code == ErrorCode.MAINTENANCE
    assert caught.value.retry_after == 30

"""The API key never shows (ARCHITECTURE, Secrets), debug logs say what happened, and an
answer that breaks the model is a ResponseValidationError naming the field."""

from __future__ import annotations

import logging
import pickle
import traceback

import pytest

from models import Me, Reservation, ReservationPage
from pipelines.api import (
    AuthenticationError,
    PmsClient,
    PmsError,
    ResponseValidationError,
    RetryPolicy,
)
from pipelines.api._parsing import InvalidRecord, parse_as, parse_record
from sandbox.http.faults import FaultConfig
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient
from tests.conftest import ALL_SCOPES_KEY

SECRET_KEY = "sbx_secret_do_not_leak_7f3a"  # unknown to the sandbox: answers 401 invalid_key


def everything_said(error: BaseException) -> str:
    parts = [str(error), repr(error), repr(error.args), repr(vars(error))]
    parts += traceback.format_exception(error)
    return "\n".join(parts)


def test_the_key_never_appears_in_logs_reprs_or_errors(
    sandbox: RunningSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger: ours, httpx, httpcore
    good = make_client(sandbox, ALL_SCOPES_KEY,
                       retry=RetryPolicy(max_attempts=6, backoff_base=0.01))
    sandbox.state.faults = FaultConfig(error_rate=0.3, drop_before_rate=0.2, seed=3)
    for _ in range(5):
        good.me()
    sandbox.state.faults = FaultConfig()
    bad = make_client(sandbox, SECRET_KEY)
    with pytest.raises(AuthenticationError) as caught:
        bad.me()

    for key in (ALL_SCOPES_KEY, SECRET_KEY):
        assert key not in caplog.text
        assert key not in everything_said(caught.value)
        assert key not in repr(good) + repr(bad) + repr(bad.rate_limiter)
        assert key not in repr(vars(bad)) + repr(vars(good))
    pickled = pickle.dumps(caught.value)
    assert SECRET_KEY.encode() not in pickled
    again = pickle.loads(pickled)
    assert (type(again), again.status, again.code) == (AuthenticationError, 401, "invalid_key")


def test_debug_logs_name_method_path_status_attempt_and_wait(
    sandbox: RunningSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    pms = make_client(sandbox, retry=RetryPolicy(max_attempts=3, backoff_base=0.01))
    sandbox.state.faults = FaultConfig(unavailable_rate=1.0, retry_after_seconds=0)
    with pytest.raises(PmsError):
        pms.get_property()
    messages = [r.getMessage() for r in caplog.records if r.name == "pipelines.api"]
    assert "GET /property -> 503 (attempt 1, rate-limit wait 0.000s)" in messages
    assert "GET /property: status 503; retrying in 0.000s (attempt 1 of 3)" in messages
    assert "GET /property -> 503 (attempt 3, rate-limit wait 0.000s)" in messages


def test_an_answer_of_another_shape_names_the_field(sandbox: RunningSandbox,
                                                    pms: PmsClient) -> None:
    """A real answer of the sandbox (GET /property) read as if it were GET /me."""
    with pytest.raises(ResponseValidationError) as caught:
        pms._get("/property", Me)
    error = caught.value
    assert error.field == "key"
    assert "field key" in str(error)
    assert error.__cause__ is None
    assert error.__context__ is None
    assert "pydantic" not in "".join(traceback.format_exception(error)).lower()


def test_nested_fields_are_named_with_their_path() -> None:
    page = {"page": 1, "page_size": 1, "total": 1, "pages": 1, "data": [{"id": 1}]}
    with pytest.raises(ResponseValidationError) as caught:
        parse_as(ReservationPage, page, method="GET", path="/reservations")
    assert caught.value.field == "data[0].arrival"
    assert caught.value.path == "/reservations"
    assert len(caught.value.errors) > 1


def test_unknown_fields_are_ignored() -> None:
    """Spec, Versioning 3: clients ignore fields they do not know."""
    me = parse_as(Me, {
        "key": {"id": 1, "name": "k", "prefix": "p", "scopes": [], "created_at":
                "2027-01-01T00:00:00Z", "added_in_v1_1": True},
        "property": {"id": 1, "code": "X", "name": "Y"},
        "account": {"name": "A", "plan": "p", "sandbox": True}, "new_block": {"x": 1},
    }, method="GET", path="/me")
    assert me.key.id == 1


def test_a_client_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PMS_API_KEY", raising=False)
    with pytest.raises(ValueError, match="PMS_API_KEY"):
        PmsClient("http://127.0.0.1:9/v1")
    monkeypatch.setenv("PMS_API_KEY", "from-the-environment")
    client = PmsClient("http://127.0.0.1:9/v1")
    assert "from-the-environment" not in repr(client)
    client.close()


def test_a_record_kept_aside_names_its_field_relative_to_the_record() -> None:
    """docs/client.md: `parse_record` (what the quarantining reads use) returns the model, or
    an InvalidRecord with the payload as received and the error naming the field."""
    record = {"id": 7, "rooms": [{"status": "no_show"}]}
    kept = parse_record(Reservation, record, method="GET", path="/reservations")
    assert isinstance(kept, InvalidRecord)
    assert kept.record_id == 7
    assert kept.payload is record
    assert kept.error.field == "arrival"
    assert str(kept.error).startswith(
        "GET /reservations: record 7 does not match Reservation: field arrival: Field required "
        "(and ")
    assert ("rooms[0].status", "Input should be 'option', 'confirmed', 'checked_in', "
            "'checked_out' or 'cancelled'") in kept.error.errors
    nameless = parse_record(Reservation, {"id": "x"}, method="GET", path="/reservations")
    assert isinstance(nameless, InvalidRecord)
    assert nameless.record_id is None
    assert "a record without an id does not match Reservation: field id:" in str(nameless.error)

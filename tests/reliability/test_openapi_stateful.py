"""Bad input to the sandbox, stateful (issue 9): schemathesis walks the OpenAPI document's links
(create a reservation, then read, change, confirm, cancel or check it in; create a guest, then
read or change it; list, then fetch a folio, post a charge...) with every check schemathesis has
on, plus one of the spec's: every refusal is `{error: {code, message}}` with a code the spec
documents for that status (spec, Errors).

The links are inferred by schemathesis from the document (response fields named like the path
parameters of other operations); a test checks that the ones this suite relies on exist, so a
change of the document that loses them fails here. Bounded: a few scenarios of a few steps.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._checks import PositiveDataAcceptanceConfig

from models.errors import ErrorCode
from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED, auth, openapi_document

# Spec, Errors: the codes each status may carry (503 has none; the sandbox says `maintenance`).
DOCUMENTED: dict[int, set[str]] = {
    400: {"invalid_request"},
    401: {"unauthenticated", "invalid_key", "key_revoked"},
    402: {"subscription_expired"},
    403: {"api_disabled", "insufficient_scope", "account_suspended"},
    404: {"not_found"},
    409: {"duplicate_external_ref", "room_unavailable", "open_folios", "nights_to_charge"},
    422: {"rule_violation", "idempotency_mismatch"},
    423: {"read_only"},
    429: {"rate_limited"},
    503: {ErrorCode.MAINTENANCE.value},
}

REQUIRED_LINKS = {
    ("POST", "/v1/reservations", "GET", "/v1/reservations/{id}"),
    ("POST", "/v1/reservations", "POST", "/v1/reservations/{id}/cancel"),
    ("POST", "/v1/guests", "GET", "/v1/guests/{id}"),
    ("GET", "/v1/reservations/{id}/folios", "POST", "/v1/folios/{id}/charges"),
}


schema = schemathesis.openapi.from_dict(openapi_document())
schema.config.update(headers=auth())
schema.config.generation.update(max_examples=12, no_shrink=True, deterministic=True)
schema.config.checks.update(included_check_names=["all"])
# A schema-valid request may still break a business rule: the spec answers those 409, 422
# (rule_violation) and 423 (read_only). 400 is allowed too: the document cannot say every
# check of the spec (an ISO 3166 country code, a date range); the refusal must still name the
# field (`documented_refusal`). Walks of this suite made the document say what it could:
# bracket ids as keys, `num` as a JSON number, an https `url`, event type names, one of
# `guest_id` / `guest`, `updated_since` / `created_since` as date-times.
schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
    expected_statuses=["2xx", "400", "401", "403", "404", "409", "422", "423", "429"])
STEPS = 8


def documented_refusal(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx/5xx answer is the API's error body with a code documented for its status."""
    status = response.status_code
    if status < 400:
        return None
    body = response.json()
    assert isinstance(body, dict), f"{status}: not a JSON object: {response.text[:200]}"
    assert isinstance(body.get("error"), dict), f"{status} without {{error: ...}}: {body}"
    code, message = body["error"].get("code"), body["error"].get("message")
    assert isinstance(message, str), f"{status}: no message"
    assert message, f"{status}: an empty message"
    if status == 400:
        assert body["error"].get("field"), f"400 names no field: {message}"
    assert code in DOCUMENTED.get(status, set()), (
        f"{case.method} {case.formatted_path}: {status} {code!r} is not a documented refusal")
    return True


@pytest.fixture(scope="module")
def live() -> Iterator[RunningSandbox]:
    # A clock that stands still and a reset before each scenario: every walk starts from the
    # same state, so Hypothesis can replay a scenario and meet the same answers.
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    with running_sandbox(SandboxSettings(**UNLIMITED, admin=True), clock) as running:
        yield running


def _links() -> set[tuple[str, str, str, str]]:
    found = set()
    raw = schema.raw_schema["paths"]
    ids = {op["operationId"]: (method.upper(), path)
           for path, ops in raw.items() for method, op in ops.items() if "operationId" in op}
    for path, ops in raw.items():
        for method, op in ops.items():
            for answer in op.get("responses", {}).values():
                for link in answer.get("links", {}).values():
                    target = ids.get(link.get("operationId", ""))
                    if target is None and "operationRef" in link:
                        ref = link["operationRef"].split("/paths/")[-1]
                        tpath, _, tmethod = ref.rpartition("/")
                        target = (tmethod.upper(),
                                  tpath.replace("~1", "/").replace("~0", "~"))
                    if target:
                        found.add((method.upper(), path, *target))
    return found


def test_the_links_between_create_and_read_exist() -> None:
    """The walk goes from what a call creates to the calls that use it."""
    schema.as_state_machine()  # infers the links into the document
    missing = REQUIRED_LINKS - _links()
    assert not missing, f"links not in the document: {sorted(missing)}"


def test_stateful_walks_of_the_api_break_no_rule(live: RunningSandbox) -> None:
    base = schema.as_state_machine()
    calls: list[int] = []

    class Walk(base):  # type: ignore[valid-type, misc]
        def setup(self) -> None:
            httpx.post(f"{live.root_url}/_sandbox/reset", timeout=30).raise_for_status()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": live.root_url, "headers": auth(), "timeout": 30}

        def validate_response(self, response: Any, case: Any,
                              additional_checks: Any = None, **kwargs: Any) -> None:
            calls.append(response.status_code)
            super().validate_response(response, case,
                                      additional_checks=[documented_refusal], **kwargs)

    Walk.run(settings=settings(max_examples=40, stateful_step_count=STEPS, deadline=None,
                               database=None, derandomize=True,
                               suppress_health_check=list(HealthCheck)))
    created = sum(1 for status in calls if status == 201)
    print(f"\nstateful walks: {len(calls)} calls, {created} created, "
          f"statuses {sorted(set(calls))}")
    assert created > 0, "no walk created anything: the links were not followed"

"""The error envelope (spec, Errors): `{error: {code, message}}` with the spec's codes; a
malformed parameter or body is 400 invalid_request naming the field (never another shape);
maintenance answers 503."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from sandbox.http.server import RunningSandbox
from tests.conftest import refusal
from tests.contract import reading

QUOTE: dict[str, Any] = {"room_type_id": 1, "arrival": "2031-03-03", "departure": "2031-03-06"}

sandbox, api = reading.sandbox, reading.api


def assert_invalid(response: httpx.Response, field: str) -> None:
    error = refusal(response, 400, "invalid_request")
    assert set(response.json()) == {"error"}  # not FastAPI's {"detail": [...]}
    assert isinstance(error["message"], str)
    assert error["field"] == field


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/availability", {"from": "03/03/2031"}, "from"),
        ("/availability", {"to": "x"}, "to"),
        ("/reservations", {"page_size": "0"}, "page_size"),
        ("/reservations", {"page": "first"}, "page"),
        ("/events", {"after": "latest"}, "after"),
        ("/guests", {"limit": "201"}, "limit"),
    ],
)
def test_malformed_query_parameter(api: httpx.Client, path: str, params: dict[str, str],
                                   field: str) -> None:
    """Errors: 400 invalid_request, a parameter is missing or malformed."""
    assert_invalid(api.get(path, params=params), field)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({k: v for k, v in QUOTE.items() if k != "room_type_id"}, "room_type_id"),
        ({**QUOTE, "room_type_id": "one"}, "room_type_id"),
        ({**QUOTE, "adults": "two"}, "adults"),
        ({**QUOTE, "brackets": {"2": -1}}, "brackets.2"),
        ({**QUOTE, "colour": "blue"}, "colour"),  # input bodies refuse unknown fields
    ],
)
def test_malformed_body_field(api: httpx.Client, body: dict[str, Any], field: str) -> None:
    assert_invalid(api.post("/quotes", json=body), field)


def test_body_that_is_not_json(api: httpx.Client) -> None:
    response = api.post("/quotes", content=b"{not json",
                        headers={"Content-Type": "application/json"})
    assert_invalid(response, "body")


def test_nested_field_is_named_with_its_path(api: httpx.Client) -> None:
    body = {"rooms": [{"room_type_id": 1, "arrival": "2031-03-03", "departure": "nope"}]}
    assert_invalid(api.post("/reservations", json=body), "rooms[0].departure")


def test_non_integer_path_id(api: httpx.Client) -> None:
    """Spec, Endpoints: path `id` is an integer."""
    assert_invalid(api.get("/folios/abc"), "id")


def test_maintenance_answers_503(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, Errors: 503 (no code) maintenance. The sandbox's body carries code `maintenance`
    (docs/sandbox.md)."""
    sandbox.state.maintenance = True
    try:
        for response in (api.get("/property"), api.post("/quotes", json=QUOTE)):
            refusal(response, 503, "maintenance")
    finally:
        sandbox.state.maintenance = False
    assert api.get("/property").status_code == 200


def test_openapi_declares_the_error_envelope(api: httpx.Client) -> None:
    """Every error response of the OpenAPI document is the spec's error body; FastAPI's
    default validation shape is not there (errors are 400 invalid_request)."""
    document = api.get("/openapi.json").json()
    assert "HTTPValidationError" not in document["components"]["schemas"]
    operations = [op for ops in document["paths"].values() for op in ops.values()]
    assert len(operations) >= 40
    for operation in operations:
        errors = {code: r for code, r in operation["responses"].items() if code >= "400"}
        assert {"400", "401", "403", "429"} <= set(errors), operation["operationId"]
        for response in errors.values():
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}


def _id_paths() -> list[Any]:
    """Every endpoint path of the spec with an id, each id in turn set beyond 64 bits."""
    from tests.contract.test_auth import ENDPOINTS

    cases = []
    for method, path, _ in ENDPOINTS:
        parts = path.split("/")
        for index, part in enumerate(parts):
            if part == "1":
                huge = [*parts[:index], str(2**64), *parts[index + 1:]]
                cases.append(pytest.param(method, "/".join(huge),
                                          id=f"{method} {'/'.join(huge)}"))
    return cases


@pytest.mark.parametrize(("method", "path"), _id_paths())
def test_an_id_beyond_64_bits_is_not_a_server_error(api: httpx.Client, method: str,
                                                    path: str) -> None:
    """Spec, Endpoints: path `id` is an integer, and a record that does not exist answers 404;
    a number no record can have is answered like any unknown id (or as malformed), never 500."""
    response = api.request(method, path, json={} if method in ("POST", "PATCH") else None)
    assert response.status_code in (400, 404), response.text
    assert response.json()["error"]["code"] in ("invalid_request", "not_found")

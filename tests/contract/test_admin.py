"""Admin endpoints under /_sandbox and the `pmsw sandbox` commands that call them (issue 3,
Clock and night audit: "admin endpoints outside /v1 ... off unless started with --admin").

The switches they set are observed through API v1 as a client meets them: 503 under
maintenance (spec, Errors), 423 `read_only` during the seasonal pause (spec, Endpoints),
401 `key_revoked` (spec, Authentication 4).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import httpx
from click.testing import CliRunner

from sandbox.cli import sandbox as sandbox_cli
from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox
from tests.conftest import MakeSandbox, answered, auth, refusal

HOOK = "https://hooks.example.com/pms"


def admin(sb: RunningSandbox, method: str, path: str, **body: object) -> httpx.Response:
    return httpx.request(method, f"{sb.root_url}/_sandbox{path}",
                         json=body if body else None)


def test_admin_is_off_unless_asked(make_sandbox: MakeSandbox) -> None:
    """Issue 3: /_sandbox is served only with --admin."""
    sb = make_sandbox()
    for method, path in (("GET", "/faults"), ("PUT", "/maintenance"), ("POST", "/reset"),
                         ("GET", "/clock")):
        assert admin(sb, method, path, on=True).status_code == 404, path


def test_admin_is_not_in_the_api_document(sandbox: RunningSandbox) -> None:
    """The admin endpoints are no part of API v1: absent from /v1/openapi.json."""
    paths = httpx.get(f"{sandbox.base_url}/openapi.json").json()["paths"]
    assert paths
    assert not [p for p in paths if p.startswith("/_sandbox")]
    assert "/v1/webhooks" in paths


def test_maintenance_switch(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, Errors: 503 (maintenance) while the switch is on; back to normal when off."""
    assert admin(sandbox, "PUT", "/maintenance", on=True).json() == {"on": True}
    down = api.get("/me")
    assert down.status_code == 503
    assert "retry-after" in down.headers
    assert admin(sandbox, "GET", "/faults").status_code == 200  # admin stays reachable
    assert admin(sandbox, "PUT", "/maintenance", on=False).json() == {"on": False}
    assert api.get("/me").status_code == 200


def test_seasonal_pause(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, Endpoints: writes answer 423 read_only during the seasonal pause; reads work."""
    assert admin(sandbox, "PUT", "/pause", property_id=1, on=True).status_code == 200
    paused = api.post("/webhooks", json={"url": HOOK})
    refusal(paused, 423, "read_only")
    assert api.get("/webhooks").status_code == 200
    assert admin(sandbox, "PUT", "/pause", property_id=1, on=False).status_code == 200
    assert api.post("/webhooks", json={"url": HOOK}).status_code == 201
    unknown = admin(sandbox, "PUT", "/pause", property_id=999, on=True)
    refusal(unknown, 404, "not_found")


def test_reset_drops_and_seeds_again(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Reset empties the database and seeds it again while the server runs."""
    assert api.post("/webhooks", json={"url": HOOK}).status_code == 201
    assert admin(sandbox, "POST", "/keys/2/revoke").status_code == 200
    before = api.get("/me").json()

    reset = admin(sandbox, "POST", "/reset")
    assert reset.status_code == 200
    assert api.get("/webhooks").json()["data"] == []
    after = api.get("/me").json()
    assert after["property"] == before["property"]  # the seed is back, the same
    assert after["key"]["scopes"] == before["key"]["scopes"]
    assert httpx.get(f"{sandbox.base_url}/me", headers=auth("sbx_test_read_only")
                     ).status_code == 200  # the revoked key is as seeded again
    again = api.post("/webhooks", json={"url": HOOK})
    assert again.json()["webhook"]["id"] == 1  # ids start afresh


def test_clock(make_sandbox: MakeSandbox) -> None:
    """GET /_sandbox/clock tells the sandbox's time and each property's business date."""
    start = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
    sb = make_sandbox(clock=SimulatedClock(start), admin=True)
    clock = admin(sb, "GET", "/clock").json()
    assert clock["now"] == "2026-03-02T09:30:00Z"
    assert clock["simulated"] is True
    assert clock["business_dates"]["1"] == "2026-03-02"


def test_revoke_key(sandbox: RunningSandbox) -> None:
    """Spec, Authentication 4: a revoked key answers 401 key_revoked."""
    response = admin(sandbox, "POST", "/keys/4/revoke")
    assert answered(response)["id"] == 4
    refused = httpx.get(f"{sandbox.base_url}/me", headers=auth("sbx_test_other_property"))
    refusal(refused, 401, "key_revoked")
    assert admin(sandbox, "POST", "/keys/999/revoke").status_code == 404


# --- pmsw sandbox ... (over HTTP against the running server) --------------------------------

def run_cli(*args: str) -> str:
    result = CliRunner().invoke(sandbox_cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_faults(sandbox: RunningSandbox) -> None:
    url = sandbox.root_url
    run_cli("faults", "--url", url, "--error-rate", "0.25", "--latency-ms", "5",
            "--rate-limit-burst", "2", "--seed", "9")
    faults = sandbox.state.faults
    assert faults.error_rate == 0.25
    assert faults.latency_ms == 5
    assert faults.rate_limit_burst == 2
    assert faults.seed == 9
    assert '"error_rate": 0.25' in run_cli("faults", "--url", url, "--show")
    run_cli("faults", "--url", url)
    assert not sandbox.state.faults.active


def test_cli_maintenance_pause_reset(sandbox: RunningSandbox, api: httpx.Client) -> None:
    url = sandbox.root_url
    run_cli("maintenance", "--url", url, "on")
    assert api.get("/me").status_code == 503
    run_cli("maintenance", "--url", url, "off")
    assert api.get("/me").status_code == 200

    run_cli("pause", "--url", url, "1", "on")
    assert api.post("/webhooks", json={"url": HOOK}).status_code == 423
    run_cli("pause", "--url", url, "1", "off")
    assert api.post("/webhooks", json={"url": HOOK}).status_code == 201

    run_cli("reset", "--url", url, "--yes")
    assert api.get("/webhooks").json()["data"] == []


def test_cli_says_when_admin_is_off(make_sandbox: MakeSandbox) -> None:
    sb = make_sandbox()
    """One line saying the admin endpoint is not served and asking for --admin; the server is
    left as it was (not in maintenance: the API still answers)."""
    result = CliRunner().invoke(sandbox_cli, ["maintenance", "--url", sb.root_url, "on"])
    assert result.exit_code != 0
    assert result.stderr == ("Error: PUT /_sandbox/maintenance: not found (is the sandbox "
                             "served with --admin?)\n")
    with httpx.Client(base_url=sb.base_url, headers=auth(), timeout=30) as api:
        assert api.get("/property").status_code == 200


def test_a_new_folio_on_a_room(make_sandbox: MakeSandbox) -> None:
    """POST /_sandbox/stays/{rid}/folios opens an empty open folio on the room, beside its
    own (docs/sandbox.md, Folios: where the desk posts a late charge once the room's folios
    are closed); an unknown room is 404, an empty description is refused naming it."""
    sb = make_sandbox(admin=True)
    with httpx.Client(base_url=sb.base_url, headers=auth(), timeout=30) as api:
        today = date.fromisoformat(api.get("/property").json()["business_date"])
        booked = api.post("/reservations", json={"market": "leisure", "rooms": [{
            "room_type_id": 1, "arrival": today.isoformat(),
            "departure": (today + timedelta(days=2)).isoformat(), "adults": 2}]})
        reservation = answered(booked, 201)["reservation"]
        rid = reservation["rooms"][0]["id"]
        before = api.get(f"/reservations/{reservation['id']}/folios").json()["data"]

        opened = admin(sb, "POST", f"/stays/{rid}/folios", description="Late charges")
        folio = answered(opened, 201)
        assert (folio["reservation_id"], folio["status"], folio["description"],
                float(folio["balance"]), folio["lines"]) == (
                    reservation["id"], "open", "Late charges", 0.0, [])
        after = api.get(f"/reservations/{reservation['id']}/folios").json()["data"]
        assert [f["id"] for f in after] == [f["id"] for f in before] + [folio["id"]]

    missing = admin(sb, "POST", "/stays/999999/folios")
    refusal(missing, 404, "not_found")
    blank = admin(sb, "POST", f"/stays/{rid}/folios", description="")
    assert blank.status_code in (400, 422)
    assert "description" in blank.text

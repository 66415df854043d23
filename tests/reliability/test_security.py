"""Security (issue 9; ARCHITECTURE, "Secrets"; spec, Authentication 2 and convention 8, Webhook
delivery 6-7):

- after a Dagster sync and a failing one, no API key and no webhook secret appears in the logs
  (captured at DEBUG), the Dagster event log, the exception, or any text of the warehouse;
- a webhook receiver refuses bad, stale and replayed signatures and skips repeated events;
- a key of property 2 sees nothing of property 1: every operation of the document with an id
  of property 1 answers 404 (or a refusal), never the record, and changes nothing.
"""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import dagster as dg
import httpx
import pytest

from pipelines.api import WebhookReceiver, WebhookSignatureError, sign
from pipelines.api._webhooks import SIGNATURE_HEADER
from pipelines.defs.partitions import PROPERTIES_NAME
from pipelines.ingest import STREAMS
from pipelines.warehouse import connect
from sandbox.http.server import RunningSandbox
from tests.conftest import ALL_SCOPES_KEY, MakeSandbox, answered, auth

OTHER_KEY = "sbx_test_other_property"
SECRET_RE = re.compile(r"sbx_[A-Za-z0-9_]+|whsec_[A-Za-z0-9]+")


def _materialize(base_url: str, key: str, db: Path, monkeypatch: pytest.MonkeyPatch,
                 instance: dg.DagsterInstance) -> dg.ExecuteInProcessResult | Exception:
    from pipelines.definitions import defs
    from pipelines.defs.keys import stream_key
    from pipelines.defs.resources import WarehouseResource

    monkeypatch.setenv("PMS_API_BASE_URL", base_url)
    monkeypatch.setenv("PMS_API_KEY", key)
    monkeypatch.delenv("PMSW_PROPERTIES_FILE", raising=False)
    resources = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(db))
    every = [d for d in [*(defs.assets or []), *(defs.asset_checks or [])]
             if isinstance(d, dg.AssetsDefinition)]
    try:
        return dg.materialize(every, selection=dg.AssetSelection.assets(
            *[stream_key(s) for s in STREAMS]), partition_key="default", resources=resources,
            instance=instance, raise_on_error=True)
    except Exception as error:  # the failing run: its exception is checked too
        return error


def _warehouse_text(db: Path) -> str:
    with connect(db) as conn:
        columns = conn.execute(
            "SELECT table_schema, table_name, column_name FROM information_schema.columns "
            "WHERE data_type IN ('VARCHAR', 'JSON') AND table_schema NOT IN "
            "('information_schema', 'pg_catalog')").fetchall()
        parts: list[str] = []
        for schema, table, column in columns:
            rows = conn.execute(
                f'SELECT DISTINCT CAST("{column}" AS VARCHAR) FROM "{schema}"."{table}"'
            ).fetchall()
            parts.extend(str(r[0]) for r in rows if r[0] is not None)
        return "\n".join(parts)


def _event_log(instance: dg.DagsterInstance) -> str:
    texts = []
    for run in instance.get_runs():
        texts.append(json.dumps(run.run_config, default=str))
        texts.append(repr(run.tags))
        for entry in instance.all_logs(run.run_id):
            texts.append(dg.serialize_value(entry))
    return "\n".join(texts)


def test_no_key_or_secret_in_logs_metadata_errors_or_the_warehouse(
        sandbox: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as api:
        created = api.post("/webhooks", json={"url": "https://receiver.example/hook"})
        webhook_secret = answered(created, 201)["secret"]
        _book(api, "Secret", notes="no key here")

    db = tmp_path / "warehouse.duckdb"
    caplog.set_level(logging.DEBUG)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(PROPERTIES_NAME, ["default"])
        ok = _materialize(sandbox.base_url, ALL_SCOPES_KEY, db, monkeypatch, instance)
        assert isinstance(ok, dg.ExecuteInProcessResult), ok
        assert ok.success
        failed = _materialize(sandbox.base_url, "sbx_test_revoked", db, monkeypatch, instance)
        assert isinstance(failed, Exception)
        logs = _event_log(instance)
    chain: list[str] = []
    error: BaseException | None = failed
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        chain.append(f"{type(error).__name__}: {error!r} {error}")
        error = error.__cause__ or error.__context__
    assert "key_revoked" in " ".join(chain), chain  # the failure says why, without the key

    places = {"logs": caplog.text, "dagster event log": logs, "exception": "\n".join(chain),
              "warehouse": _warehouse_text(db)}
    assert len(places["dagster event log"]) > 1000
    assert "no key here" in places["warehouse"]  # the grep reads the landed text
    for where, text in places.items():
        for secret in (ALL_SCOPES_KEY, "sbx_test_revoked", webhook_secret):
            assert secret not in text, f"{secret[:8]}... found in the {where}"
        assert not SECRET_RE.search(text), f"{SECRET_RE.search(text)} in the {where}"


# -- webhook receiving ------------------------------------------------------------------------

def _delivery(event_id: int, secret: str, t: int) -> tuple[bytes, dict[str, str]]:
    body = json.dumps({"id": event_id, "type": "reservation.created", "entity": "reservation",
                       "entity_id": 7, "property_id": 1, "subscription_id": 1, "attempt": 1,
                       "created_at": "2026-03-02T10:00:00Z", "data": {}}).encode()
    return body, {SIGNATURE_HEADER: sign(body, secret, t)}


def test_webhook_receiver_refuses_bad_stale_and_replayed_signatures() -> None:
    """Spec, Webhook delivery 6 and 7 (reference tolerance 300 s)."""
    now = int(time.time())
    receiver = WebhookReceiver("whsec_right")
    body, headers = _delivery(41, "whsec_right", now)
    payload = receiver.receive(body, headers, now=now)
    assert payload is not None
    assert payload.id == 41
    with pytest.raises(WebhookSignatureError, match="replayed"):
        receiver.receive(body, headers, now=now + 5)
    bad_body, bad = _delivery(42, "whsec_wrong", now)
    with pytest.raises(WebhookSignatureError, match="no v1 signature matches"):
        receiver.receive(bad_body, bad, now=now)
    stale_body, stale = _delivery(43, "whsec_right", now - 301)
    with pytest.raises(WebhookSignatureError, match="old"):
        receiver.receive(stale_body, stale, now=now)
    tampered = body.replace(b'"entity_id": 7', b'"entity_id": 8')
    with pytest.raises(WebhookSignatureError):
        receiver.receive(tampered, _delivery(44, "whsec_right", now)[1], now=now)
    # A retry of event 41 (new timestamp, new signature): accepted, not handled twice.
    retry_body, retry = _delivery(41, "whsec_right", now + 60)
    assert receiver.receive(retry_body, retry, now=now + 60) is None
    assert "whsec_right" not in repr(receiver)


def test_webhook_receiver_on_real_deliveries_of_the_sandbox(
        make_sandbox: MakeSandbox) -> None:
    """The sandbox's own signed deliveries verify; the same request sent again is refused."""
    from tests.contract.test_webhooks import Receiver  # the contract suite's loopback receiver

    server = make_sandbox(admin=True, allow_http_webhooks=True)
    api = httpx.Client(base_url=server.base_url, headers=auth(), timeout=30)
    hook = Receiver()
    try:
        created = api.post("/webhooks", json={"url": hook.url()})
        receiver = WebhookReceiver(answered(created, 201)["secret"])
        ping = api.post(f"/webhooks/{created.json()['webhook']['id']}/test")
        assert ping.status_code < 300, ping.text
        deadline = time.monotonic() + 20
        while not hook.at() and time.monotonic() < deadline:
            time.sleep(0.05)
        delivery = hook.at()[0]
    finally:
        hook.close()
        api.close()
    body, headers = delivery.body, dict(delivery.headers)
    first = receiver.receive(body, headers)
    assert first is not None
    with pytest.raises(WebhookSignatureError, match="replayed"):
        receiver.receive(body, headers)


# -- isolation between properties -------------------------------------------------------------

def _book(api: httpx.Client, last_name: str, notes: str = "") -> dict[str, Any]:
    today = date.fromisoformat(api.get("/property").json()["business_date"])
    classes = api.get("/classifications").json()
    made = api.post("/reservations", json={
        "rooms": [{"room_type_id": api.get("/room-types").json()["data"][0]["id"],
                   "arrival": today.isoformat(),
                   "departure": (today + timedelta(days=2)).isoformat()}],
        "new_party": {"last_name": last_name, "first_name": "Test"}, "notes": notes,
        "market": classes["markets"][0], "channel": classes["channels"][0],
        "source": classes["sources"][0]})
    reservation: dict[str, Any] = answered(made, 201)["reservation"]
    return reservation


def _property_one_ids(api: httpx.Client) -> dict[str, int]:
    reservation = _book(api, "Isolated")
    rid = reservation["rooms"][0]["id"]
    placed = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/guests",
                      json={"guest": {"first_name": "Ada", "last_name": "Lovelace"}})
    assert placed.status_code == 201, placed.text
    webhook = api.post("/webhooks", json={"url": "https://one.example/hook"})
    assert webhook.status_code == 201, webhook.text
    folio = api.get(f"/reservations/{reservation['id']}/folios").json()["data"][0]["id"]
    return {"reservation": reservation["id"], "rid": rid, "folio": folio,
            "gid": placed.json()["data"][0]["id"], "webhook": webhook.json()["webhook"]["id"]}


def _fill(path: str, ids: dict[str, int]) -> str:
    resource = path.split("/")[2]
    first = {"reservations": ids["reservation"], "folios": ids["folio"],
             "webhooks": ids["webhook"]}.get(resource, ids["reservation"])
    return (path.replace("{id}", str(first)).replace("{rid}", str(ids["rid"]))
            .replace("{gid}", str(ids["gid"])))


def test_a_key_of_another_property_sees_no_record_of_property_one(
        sandbox: RunningSandbox) -> None:
    """Spec, convention 8: a record of another property answers 404 not_found."""
    with (httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as mine,
          httpx.Client(base_url=sandbox.base_url, headers=auth(OTHER_KEY), timeout=30) as other):
        ids = _property_one_ids(mine)
        before = {p: mine.get(p).text for p in (f"/reservations/{ids['reservation']}",
                                               f"/folios/{ids['folio']}", "/webhooks")}
        document = httpx.get(f"{sandbox.base_url}/openapi.json", timeout=30).json()
        tried = 0
        for path, operations in document["paths"].items():
            for method in operations:
                if "{" not in path:
                    continue
                url = _fill(path.removeprefix("/v1"), ids)
                body: dict[str, Any] | None = None if method in ("get", "delete") else {}
                if path.endswith("/charges"):
                    body = {"item_id": 1}
                answer = other.request(method.upper(), url, json=body)
                tried += 1
                assert answer.status_code in (400, 404, 422), (method, url, answer.status_code,
                                                               answer.text)
                if answer.status_code == 404:
                    assert answer.json()["error"]["code"] == "not_found"
        # Lists of the other property hold none of property 1's records.
        listed = other.get("/reservations", params={"page_size": 200}).json()["data"]
        assert ids["reservation"] not in {r["id"] for r in listed}
        assert ids["webhook"] not in {w["id"] for w in other.get("/webhooks").json()["data"]}
        events = other.get("/events", params={"limit": 500}).json()["data"]
        assert ids["reservation"] not in {e["entity_id"] for e in events
                                          if e["entity"] == "reservation"}
        after = {p: mine.get(p).text for p in before}
        assert after == before, "a call with the other property's key changed property 1"
        assert tried >= 20
    print(f"\nisolation: {tried} operations with ids of property 1 tried with property 2's key")

"""Bad input to the pipeline (issue 9, "Bad input to the pipeline"): a malformed POS ledger
file, an answer missing a field, an unknown enum value, a revoked key, a key without a scope
the sync needs and an event-log gap each give one clear line (naming the field, the rule or
the scope), or a quarantined file with its reason, through `pmsw sync` in a process of its
own; no stack trace reaches the user; and nothing the warehouse had landed is lost.

The broken answers come from a real HTTP server (tests/reliability/broken_api.py) that
forwards to the sandbox and breaks one field of one record: the pipeline reads them over
HTTP through its own client.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import duckdb

from pipelines.ingest import Endpoint, sync_property
from pipelines.warehouse import connect
from sandbox.db import insert, transaction
from sandbox.http.server import RunningSandbox
from sandbox.seed import hash_key
from tests.conftest import MakeSandbox
from tests.pipeline.helpers import (
    ALL_SCOPES_KEY,
    CLIENT_BURST,
    CLIENT_RATE,
    Api,
    advance,
    assert_core_equals_api,
    clock,
    pmsw,
    snapshot,
    write_properties,
)

from . import harness as h
from .broken_api import BrokenApi, Corrupt, serving
from .recon import posted_lines
from .test_recon_crash import _apply, _world

Snapshot = dict[str, list[tuple[Any, ...]]]

REPLACED = ("core.property", "core.room_types", "core.rooms", "core.rate_plans",
            "core.age_brackets", "core.items", "core.classifications")
"""Reference tables: replaced by every sync (a room's housekeeping changes daily)."""
RESERVATION_TABLES = ("core.reservations", "core.reservation_rooms",
                      "core.reservation_room_versions", "core.stay_guests", "core.guests",
                      "core.folios", "core.folio_lines")
NO_EVENTS_KEY = "sbx_test_no_events_read"
READ_ONLY_KEY = "sbx_test_folios_read_only"
LEDGER_HEADER = ("ticket_id,line,business_date,posted_at,reservation_id,reservation_room_id,"
                 "room,item_code,quantity,unit_price,total")


def _landed(make_sandbox: MakeSandbox, tmp: Path, pos: Path | None = None,
            ) -> tuple[RunningSandbox, Path]:
    """A sandbox after a simulated day, synced once (the sync core) into a warehouse."""
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url)
    db = tmp / "warehouse.duckdb"
    _sync(sandbox.base_url, db, pos)
    return sandbox, db


def _sync(base_url: str, db: Path, pos: Path | None = None) -> None:
    conn = connect(db)
    try:
        sync_property(Endpoint("default", base_url, ALL_SCOPES_KEY, CLIENT_RATE, CLIENT_BURST,
                               pos), conn, "landed")
    finally:
        conn.close()


def _sync_command(env: dict[str, str], *args: str) -> tuple[int, str, list[str]]:
    """`pmsw sync` (no marts, no progress bars): exit code, stdout, its `pmsw sync:` lines."""
    done = pmsw(["sync", "--no-progress", "--no-marts", *args], env)
    for trace in ("Traceback", "Stack Trace", 'File "'):
        assert trace not in done.stderr, done.stderr[-3000:]
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("pmsw sync:")]
    assert len(lines) == len(done.stderr.strip().splitlines()), done.stderr[-3000:]
    return done.returncode, done.stdout, lines


def _stream_line(stdout: str, code: str, stream: str) -> str:
    found = [ln for ln in stdout.splitlines() if ln.split()[:2] == [code, stream]]
    assert len(found) == 1, stdout
    return found[0]


def _nothing_lost(before: Snapshot, after: Snapshot) -> None:
    """Every row landed before is still there (reference tables: every record, by id)."""
    for table, rows in before.items():
        if table == "meta.sync_state":
            continue
        if table in REPLACED:
            assert {r[:2] for r in rows} <= {r[:2] for r in after[table]}, table
        else:
            missing = set(rows) - set(after[table])
            assert not missing, f"{table}: {len(missing)} landed rows lost"


def _cursor(snap: Snapshot, stream: str) -> Any:
    return [row for row in snap["meta.sync_state"] if row[1] == stream]


def test_malformed_ledger_files_are_quarantined_with_their_reason_and_the_rest_loads(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """A bad number, a missing column and a date that does not exist: each file is
    quarantined with a reason naming the line and the field (or the column); the good file
    beside them loads; the ledger rows landed before stay (docs/ingestion.md, pos_ledger)."""
    pos = tmp_path / "pos"
    pos.mkdir()
    good = "{t},1,{d},{d}T19:30:00Z,1,1,101,BAR,2,4.50,9.00"
    (pos / "2026-03-01.csv").write_text(
        "\n".join([LEDGER_HEADER, good.format(t="T1", d="2026-03-01")]) + "\n")
    sandbox, db = _landed(make_sandbox, tmp_path, pos)
    before = snapshot(db)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        ledger_before = conn.execute("SELECT * FROM core.pos_ledger "
                                     "ORDER BY ALL").fetchall()
    finally:
        conn.close()
    assert len(ledger_before) == 1

    (pos / "2026-03-02.csv").write_text("\n".join(
        [LEDGER_HEADER, good.format(t="T2", d="2026-03-02"),
         "T3,1,2026-03-02,2026-03-02T20:00:00Z,,,,CTAX,2,7.00,14.00"]) + "\n")
    (pos / "2026-03-03.csv").write_text("\n".join(
        [LEDGER_HEADER, good.format(t="T4", d="2026-03-03"),
         "T5,1,2026-03-03,2026-03-03T21:00:00Z,1,1,101,RST,1,\"35,50\",35.50"]) + "\n")
    (pos / "2026-03-04.csv").write_text("\n".join(
        [LEDGER_HEADER.removesuffix(",total"),
         "T6,1,2026-03-04,2026-03-04T19:30:00Z,1,1,101,BAR,2,4.50"]) + "\n")
    (pos / "2026-03-05.csv").write_text("\n".join(
        [LEDGER_HEADER, good.format(t="T7", d="2026-02-30")]) + "\n")

    code, stdout, errors = _sync_command(
        {"PMS_API_BASE_URL": sandbox.base_url, "PMS_API_KEY": ALL_SCOPES_KEY,
         "PMS_POS_LEDGER_DIR": str(pos)}, "--warehouse", str(db))
    assert (code, errors) == (0, [])  # a quarantined file is reported, not a failed sync
    line = _stream_line(stdout, "default", "pos_ledger")
    reasons = {
        "2026-03-03.csv": "line 3: field unit_price '35,50': is not a decimal number",
        "2026-03-04.csv": "header: missing column(s) total",
        "2026-03-05.csv": "line 2: field business_date '2026-02-30'",
    }
    for name, reason in reasons.items():
        assert f"{name}: {reason}" in line, line

    conn = duckdb.connect(str(db), read_only=True)
    try:
        files = {str(n): (str(s), int(r), why) for n, s, r, why in conn.execute(
            'SELECT file_name, status, "rows", reason FROM core.pos_ledger_files').fetchall()}
        ledger = conn.execute("SELECT * FROM core.pos_ledger "
                              "ORDER BY ALL").fetchall()
    finally:
        conn.close()
    assert files["2026-03-01.csv"] == ("loaded", 1, None)
    assert files["2026-03-02.csv"] == ("loaded", 2, None)
    for name, reason in reasons.items():
        status, rows, why = files[name]
        assert (status, rows) == ("quarantined", 0)
        assert str(why).startswith(reason), why
    assert set(ledger_before) <= set(ledger)
    assert sorted({(r[1], r[2]) for r in ledger}) == [("T1", 1), ("T2", 1), ("T3", 1)]
    _nothing_lost(before, snapshot(db))


def _first_record(mutate: str) -> tuple[Corrupt, list[int]]:
    """A corruption of the first reservation of every GET /reservations page, and the ids
    it broke."""
    broken: list[int] = []

    def corrupt(method: str, path: str, body: Any) -> bool:
        if method != "GET" or path != "/reservations" or not body.get("data"):
            return False
        record = body["data"][0]
        broken.append(record["id"])
        if mutate == "missing":
            del record["arrival"]
        else:
            record["rooms"][0]["status"] = "no_show"
        return True

    return corrupt, broken



def test_an_answer_missing_a_field_or_with_an_unknown_enum_value_is_one_error_naming_it(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Reservation: `arrival` is a field of every reservation and a room's `status` is
    one of five values. A page of GET /reservations whose first record breaks either stops
    the reservations stream with one line naming the field; nothing of the page is landed,
    what was landed before stays, the cursor does not move; the next sync from the healthy
    API lands everything."""
    sandbox, db = _landed(make_sandbox, tmp_path)
    advance(sandbox.root_url)  # a day of changes: the incremental read has records to read
    before = snapshot(db)
    missing_fn, missing_ids = _first_record("missing")
    enum_fn, enum_ids = _first_record("enum")
    with serving(BrokenApi(sandbox.base_url, missing_fn)) as missing, \
            serving(BrokenApi(sandbox.base_url, enum_fn)) as enum:
        props = tmp_path / "properties.yaml"
        write_properties(props, "unused", codes={"missing": "KEY", "unknown_enum": "KEY"})
        text = props.read_text().replace("unused", missing.base_url, 1)
        props.write_text(text.replace("unused", enum.base_url, 1))
        code, _, errors = _sync_command(
            {"PMSW_PROPERTIES_FILE": str(props), "KEY": ALL_SCOPES_KEY},
            "--warehouse", str(db))
        assert (missing.broken, enum.broken) == (1, 1)
    assert code == 1
    assert errors == [
        "pmsw sync: property missing: ResponseValidationError: GET /reservations: the answer "
        "does not match ReservationPage: field data[0].arrival: Field required",
        "pmsw sync: property unknown_enum: ResponseValidationError: GET /reservations: the "
        "answer does not match ReservationPage: field data[0].rooms[0].status: Input should "
        "be 'option', 'confirmed', 'checked_in', 'checked_out' or 'cancelled'",
    ], errors
    assert missing_ids == enum_ids
    after = snapshot(db)
    for table in RESERVATION_TABLES:
        assert after[table] == before[table], table  # the broken page landed nothing
    assert _cursor(after, "reservations") == _cursor(before, "reservations")
    _nothing_lost(before, after)

    _sync(sandbox.base_url, db)  # the PMS answers well again
    conn = connect(db)
    api = Api(sandbox.base_url)
    try:
        assert_core_equals_api(conn, api, 1)
    finally:
        api.close()
        conn.close()


def _add_key(sandbox: RunningSandbox, key: str, scopes: list[str], property_id: int = 1,
             ) -> None:
    """A key of `property_id` with `scopes`, straight into the sandbox's database."""
    conn = sandbox.state.conn
    with transaction(conn):
        insert(conn, "api_keys", {
            "property_id": property_id, "name": key, "key_hash": hash_key(key), "prefix": key[:8],
            "scopes": json.dumps(scopes), "created_at": "2026-03-01T08:00:00Z",
            "revoked_at": None})


def test_a_revoked_key_and_a_key_without_a_scope_are_one_line_each_and_change_nothing(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Authentication 4-5: a revoked key answers 401 key_revoked, a key without the
    scope 403 insufficient_scope. `pmsw sync` says so in one line per property, naming the
    code (and the scope), never the key; the warehouse is as it was."""
    sandbox, db = _landed(make_sandbox, tmp_path)
    before = snapshot(db)
    _add_key(sandbox, NO_EVENTS_KEY, ["property:read", "availability:read",
                                      "reservations:read", "folios:read", "guests:read"])
    props = write_properties(tmp_path / "properties.yaml", sandbox.base_url,
                             codes={"revoked": "KEY_REVOKED", "no_events": "KEY_NO_EVENTS"})
    code, stdout, errors = _sync_command(
        {"PMSW_PROPERTIES_FILE": str(props), "KEY_REVOKED": "sbx_test_revoked",
         "KEY_NO_EVENTS": NO_EVENTS_KEY}, "--warehouse", str(db))
    assert code == 1
    assert errors == [
        "pmsw sync: property revoked: AuthenticationError: 401 key_revoked: the API key has "
        "been revoked (GET /property)",
        "pmsw sync: property no_events: PermissionDeniedError: 403 insufficient_scope: the "
        "API key lacks the scope events:read (GET /events)",
    ], errors
    assert "sbx_test_revoked" not in stdout + "".join(errors)
    assert NO_EVENTS_KEY not in stdout + "".join(errors)
    assert snapshot(db) == before


def test_an_event_gap_through_pmsw_sync_is_reported_and_the_full_resync_follows(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Event log 2 (30 days). tests/pipeline/test_dagster.py checks the gap on the
    Dagster assets (check `event_gap` fails, reservations resynced); here `pmsw sync` tells
    the user: the events line names the lost ids, the reservations line says it resynced
    in full, one error line names the check, and the warehouse then equals the API."""
    sandbox, db = _landed(make_sandbox, tmp_path)
    api = Api(sandbox.base_url)
    try:
        reservation = api.reservations()[0]
        api.http.patch(f"/reservations/{reservation['id']}",
                       json={"notes": "changed, never synced"}).raise_for_status()
        sandbox.state.clock.advance(timedelta(days=31))  # type: ignore[attr-defined]
        api.http.patch(f"/reservations/{reservation['id']}",
                       json={"notes": "and again"}).raise_for_status()
        before = snapshot(db)
        conn = duckdb.connect(str(db), read_only=True)
        try:
            row = conn.execute("SELECT max(event_id) FROM core.events").fetchone()
        finally:
            conn.close()
        assert row is not None
        cursor, oldest = row[0], api.events()[0]["id"]
        assert oldest > cursor + 1

        code, stdout, errors = _sync_command(
            {"PMS_API_BASE_URL": sandbox.base_url, "PMS_API_KEY": ALL_SCOPES_KEY},
            "--warehouse", str(db))
        gap = (f"event gap: the last landed event is {cursor} but the oldest event in the log "
               f"is {oldest}; events {cursor + 1}..{oldest - 1} fell out of the 30-day log")
        assert f"[gap: {gap}" in _stream_line(stdout, "default", "events")
        assert f"[success: full resync: {gap}" in _stream_line(stdout, "default",
                                                                "reservations")
        assert code == 1
        assert len(errors) == 1
        assert errors[0].startswith("pmsw sync: property default: check event_gap failed: ")
        assert gap in errors[0], errors[0]
        after = snapshot(db)
        # The warehouse keeps the events the log has dropped; the patched head is newer.
        _nothing_lost({t: rows for t, rows in before.items() if t != "core.reservations"},
                      after)
        conn = connect(db)
        try:
            landed = dict(conn.execute("SELECT reservation_id, notes FROM core.reservations "
                                       "WHERE property_id = 1").fetchall())
            events = {e for (e,) in conn.execute("SELECT event_id FROM core.events").fetchall()}
        finally:
            conn.close()
        assert sorted(landed) == [r["id"] for r in api.reservations()]
        assert landed[reservation["id"]] == "and again"
        assert {e["id"] for e in api.events()} <= events
    finally:
        api.close()


def test_an_apply_with_a_key_without_folios_write_says_why_in_one_line_and_posts_nothing(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Authentication 5 and Folios (POST /folios/{id}/charges needs folios:write):
    `pmsw reconcile --apply` with a read-only key posts nothing, stores each charge `failed`
    with the code, and says why in one line (the code, the count, the scope), exit 1."""
    world = _world(make_sandbox, tmp_path)
    lines = posted_lines(world.server)
    _add_key(world.server, READ_ONLY_KEY, ["property:read", "folios:read"], h.PROPERTY_ID)
    done = _apply(world, key=READ_ONLY_KEY)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "failed" in done.stdout
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("pmsw reconcile:")]
    assert len(errors) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert errors[0].startswith("pmsw reconcile: 9 charge(s) failed: insufficient_scope (9); "
                                "first: post on folio "), errors[0]
    assert "403 insufficient_scope: the API key lacks the scope folios:write" in errors[0]
    assert READ_ONLY_KEY not in done.stdout + done.stderr
    assert posted_lines(world.server) == lines

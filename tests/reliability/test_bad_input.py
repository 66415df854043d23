"""Bad input to the pipeline (issue 9, "Bad input to the pipeline"): a malformed POS ledger
file, a record missing a field, an unknown enum value, a revoked key, a key without a scope
the sync needs and an event-log gap each give one clear line (naming the field, the rule or
the scope), or a quarantined file or record with its reason, through `pmsw sync` in a process
of its own; no stack trace reaches the user; and nothing the warehouse had landed is lost.
A bad record no longer stops its stream (issue 15, item 8): it is quarantined, the rest lands.

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
import pytest

from pipelines.ingest import Endpoint, sync_property
from pipelines.recon import Mode, run_reconciliation
from pipelines.recon.logic import load_rules
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
from tests.stored_rows import stored_rows

from . import harness as h
from .broken_api import BrokenApi, serving
from .recon import posted_lines
from .test_recon_crash import _apply, _world

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
"""Several `pmsw sync` subprocesses a test: minutes each at load 25, so pytest's 300 s would
fail a test on a time (the timeout stops a hang, nothing else)."""

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
    with connect(db) as conn:
        sync_property(Endpoint("default", base_url, ALL_SCOPES_KEY, CLIENT_RATE, CLIENT_BURST,
                               pos), conn, "landed")


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
    ledger_before = stored_rows(db, "SELECT * FROM core.pos_ledger ORDER BY ALL")
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

    with duckdb.connect(str(db), read_only=True) as conn:
        files = {str(n): (str(s), int(r), why) for n, s, r, why in conn.execute(
            'SELECT file_name, status, "rows", reason FROM core.pos_ledger_files').fetchall()}
        ledger = conn.execute("SELECT * FROM core.pos_ledger "
                              "ORDER BY ALL").fetchall()
    assert files["2026-03-01.csv"] == ("loaded", 1, None)
    assert files["2026-03-02.csv"] == ("loaded", 2, None)
    for name, reason in reasons.items():
        status, rows, why = files[name]
        assert (status, rows) == ("quarantined", 0)
        assert str(why).startswith(reason), why
    assert set(ledger_before) <= set(ledger)
    assert sorted({(r[1], r[2]) for r in ledger}) == [("T1", 1), ("T2", 1), ("T3", 1)]
    _nothing_lost(before, snapshot(db))


class _Victim:
    """Breaks one reservation wherever the API serves it: the first record of the first page
    of GET /reservations met (the most recently changed one), in every later page that
    lists it and in GET /reservations/{id}. `mutate` is "missing" (no `arrival`) or "enum"
    (a room's status `no_show`)."""

    def __init__(self, mutate: str) -> None:
        self.mutate = mutate
        self.id: int | None = None
        self.details = 0
        """GET /reservations/{id} answers broken (the re-fetches of the quarantined id)."""

    def _break(self, record: dict[str, Any]) -> None:
        if self.mutate == "missing":
            record.pop("arrival", None)
        else:
            record["rooms"][0]["status"] = "no_show"

    def __call__(self, method: str, path: str, body: Any) -> bool:
        if method != "GET":
            return False
        if path == "/reservations" and body.get("data"):
            if self.id is None:
                self.id = int(body["data"][0]["id"])
            hits = [r for r in body["data"] if r["id"] == self.id]
            for record in hits:
                self._break(record)
            return bool(hits)
        if self.id is not None and path == f"/reservations/{self.id}":
            self._break(body)
            self.details += 1
            return True
        return False


QUARANTINE_CHECK = "pmsw sync: property {code}: check no_quarantined_records failed: "
FIELD_ERRORS = {
    "missing": "field arrival: Field required",
    "enum": "field rooms[0].status: Input should be 'option', 'confirmed', 'checked_in', "
            "'checked_out' or 'cancelled'",
}


def _held(db: Path) -> list[tuple[Any, ...]]:
    return stored_rows(db, "SELECT record_id, field, error, tries, released_at IS NOT NULL, "
                           "payload FROM meta.quarantine ORDER BY record_id")


def _in_quarantine(db: Path) -> list[tuple[Any, ...]]:
    """mart.v_quarantine: what the marts say is held, per property."""
    return stored_rows(db, "SELECT property_id, records_quarantined, record_ids "
                           "FROM mart.v_quarantine ORDER BY property_id")


def _sync_through(api: BrokenApi, code: str, db: Path, tmp: Path,
                  ) -> tuple[int, str, list[str]]:
    props = write_properties(tmp / f"properties-{code}.yaml", api.base_url, codes={code: "KEY"})
    return _sync_command({"PMSW_PROPERTIES_FILE": str(props), "KEY": ALL_SCOPES_KEY},
                         "--warehouse", str(db))


@pytest.mark.parametrize("mutate", [
    "missing",
    pytest.param("enum", marks=pytest.mark.verify),  # make verify: the same path, 25 s more
])
def test_a_record_missing_a_field_or_with_an_unknown_enum_value_is_quarantined(
        make_sandbox: MakeSandbox, tmp_path: Path, mutate: str) -> None:
    """Spec, Reservation: `arrival` is a field of every reservation and a room's `status` is
    one of five values. A record of GET /reservations breaking either no longer stops the
    stream (docs/ingestion.md, "Quarantine"): the record is kept in meta.quarantine with its
    payload and the error naming the field, every other record lands, the cursor moves, the
    check `no_quarantined_records` is red naming the record (one line, exit 1), and
    mart.v_quarantine counts it. Nothing landed before is lost."""
    sandbox, warehouse = _landed(make_sandbox, tmp_path)
    advance(sandbox.root_url)  # a day of changes: the incremental read has records to read
    before = snapshot(warehouse)
    with Api(sandbox.base_url) as api:
        served = {r["id"]: r for r in api.reservations()}
    victim = _Victim(mutate)
    with serving(BrokenApi(sandbox.base_url, victim)) as broken:
        code, stdout, errors = _sync_through(broken, mutate, warehouse, tmp_path)
    assert victim.id is not None
    assert broken.broken >= 1
    rid = victim.id
    error = (f"GET /reservations: record {rid} does not match Reservation: "
             f"{FIELD_ERRORS[mutate]}")
    assert code == 1
    assert errors == [QUARANTINE_CHECK.format(code=mutate)
                      + f"1 record(s) in quarantine: reservations {rid}: {error}"], errors
    assert "[success: 1 in quarantine, 0 released]" in _stream_line(stdout, mutate,
                                                                     "reservations")
    ((held_id, field, held_error, tries, released, payload),) = _held(warehouse)
    assert (held_id, field, held_error, tries, released) == (
        rid, FIELD_ERRORS[mutate].split(":")[0].removeprefix("field "), error, 1, False)
    kept = json.loads(payload)
    assert kept["id"] == rid
    assert kept["updated_at"] == served[rid]["updated_at"]
    assert ("arrival" not in kept) if mutate == "missing" else (
        kept["rooms"][0]["status"] == "no_show")
    assert _in_quarantine(warehouse) == [(1, 1, [rid])]

    after = snapshot(warehouse)
    # Tables of current state change with the day's versions: every record is still there.
    _nothing_lost({t: [r[:2] for r in rows] if t in RESERVATION_TABLES else rows
                   for t, rows in before.items()},
                  {t: [r[:2] for r in rows] if t in RESERVATION_TABLES else rows
                   for t, rows in after.items()})
    assert _cursor(after, "reservations")[0][2] > _cursor(before, "reservations")[0][2]
    landed = dict(stored_rows(warehouse, "SELECT reservation_id, updated_at FROM "
                                         "core.reservations WHERE property_id = 1"))
    old = {r[1]: r for r in before["core.reservations"]}  # (property_id, id, ...)
    for other, record in served.items():  # every other record landed as served
        if other != rid:
            assert landed[other].isoformat().replace("+00:00", "Z") \
                == record["updated_at"], other
    # The broken record: as it was before (if it was landed before), never its new version.
    assert (rid in landed) == (rid in old)
    if rid in landed:
        assert landed[rid].isoformat().replace("+00:00", "Z") != served[rid]["updated_at"]


@pytest.mark.verify  # make verify: 29 s; make test keeps the quarantine test above
def test_a_quarantined_record_is_refetched_each_run_and_released_once_it_validates(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """docs/ingestion.md, "Quarantine": every later run re-fetches each held record by id
    (GET /reservations/{id}); while it is still broken it stays held (one more try, the
    check still red); once the API serves it valid it lands in the same transaction as its
    release, the check is green, mart.v_quarantine says 0 and the warehouse equals the API."""
    sandbox, db = _landed(make_sandbox, tmp_path)
    advance(sandbox.root_url)
    victim = _Victim("missing")
    with serving(BrokenApi(sandbox.base_url, victim)) as broken:
        first, _, _ = _sync_through(broken, "default", db, tmp_path)
        assert first == 1
        assert victim.details == 0  # quarantined now, re-fetched from the next run on
        again, stdout, errors = _sync_through(broken, "default", db, tmp_path)
    rid = victim.id
    assert again == 1
    assert victim.details == 1  # the second run re-fetched it by id: still broken
    assert errors == [QUARANTINE_CHECK.format(code="default") + "1 record(s) in quarantine: "
                      f"reservations {rid}: GET /reservations/{rid}: record {rid} does not "
                      "match Reservation: field arrival: Field required"], errors
    assert [h[:5] for h in _held(db)] == [
        (rid, "arrival", f"GET /reservations/{rid}: record {rid} does not match Reservation: "
                         "field arrival: Field required", 2, False)]
    info = pmsw(["warehouse", "info", "--warehouse", str(db)], {}, ok=True)
    assert " reservations, 1 in quarantine)" in info.stdout, info.stdout

    code, stdout, errors = _sync_command(  # the PMS serves the record well again
        {"PMS_API_BASE_URL": sandbox.base_url, "PMS_API_KEY": ALL_SCOPES_KEY},
        "--warehouse", str(db))
    assert (code, errors) == (0, [])
    assert "[success: 0 in quarantine, 1 released]" in _stream_line(stdout, "default",
                                                                     "reservations")
    assert [h[:5] for h in _held(db)] == [
        (rid, "arrival", f"GET /reservations/{rid}: record {rid} does not match Reservation: "
                         "field arrival: Field required", 2, True)]
    assert _in_quarantine(db) == [(1, 0, [])]
    info = pmsw(["warehouse", "info", "--warehouse", str(db)], {}, ok=True)
    assert "in quarantine" not in info.stdout, info.stdout
    with connect(db) as conn, Api(sandbox.base_url) as api:
        assert_core_equals_api(conn, api, 1)


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


@pytest.mark.verify  # make verify, about 22 s: test_dagster.py keeps the gap and its resync
def test_an_event_gap_through_pmsw_sync_is_reported_and_the_full_resync_follows(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Event log 2 (30 days). tests/pipeline/test_dagster.py checks the gap on the
    Dagster assets (check `event_gap` fails, reservations resynced); here `pmsw sync` tells
    the user: the events line names the lost ids, the reservations line says it resynced
    in full, one error line names the check, and the warehouse then equals the API."""
    sandbox, db = _landed(make_sandbox, tmp_path)
    with Api(sandbox.base_url) as api:
        reservation = api.reservations()[0]
        api.http.patch(f"/reservations/{reservation['id']}",
                       json={"notes": "changed, never synced"}).raise_for_status()
        sandbox.state.clock.advance(timedelta(days=31))  # type: ignore[attr-defined]
        api.http.patch(f"/reservations/{reservation['id']}",
                       json={"notes": "and again"}).raise_for_status()
        before = snapshot(db)
        [(cursor,)] = stored_rows(db, "SELECT max(event_id) FROM core.events")
        oldest = api.events()[0]["id"]
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
        with connect(db) as conn:
            landed = dict(conn.execute("SELECT reservation_id, notes FROM core.reservations "
                                       "WHERE property_id = 1").fetchall())
            events = {e for (e,) in conn.execute("SELECT event_id FROM core.events").fetchall()}
        assert sorted(landed) == [r["id"] for r in api.reservations()]
        assert landed[reservation["id"]] == "and again"
        assert {e["id"] for e in api.events()} <= events


def test_an_apply_with_a_key_without_folios_write_says_why_in_one_line_and_posts_nothing(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    """Spec, Authentication 5 and Folios (POST /folios/{id}/charges needs folios:write):
    `pmsw reconcile --apply` with a read-only key posts nothing, stores each charge `failed`
    with the code, and says why in one line (the code, the count, the scope), exit 1."""
    world = _world(make_sandbox, tmp_path)
    lines = posted_lines(world.server)
    missing = run_reconciliation(world.warehouse, load_rules(None), mode=Mode.DRY_RUN,
                                 first=world.day, last=world.day).summary["missing"][0]
    assert missing > 0
    _add_key(world.server, READ_ONLY_KEY, ["property:read", "folios:read"], h.PROPERTY_ID)
    done = _apply(world, key=READ_ONLY_KEY)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "failed" in done.stdout
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("pmsw reconcile:")]
    assert len(errors) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    # every charge the dry run found missing was refused, each with the code
    assert errors[0].startswith(f"pmsw reconcile: {missing} charge(s) failed: "
                                f"insufficient_scope ({missing}); first: post on folio "), errors[0]
    assert "403 insufficient_scope: the API key lacks the scope folios:write" in errors[0]
    assert READ_ONLY_KEY not in done.stdout + done.stderr
    assert posted_lines(world.server) == lines

"""End to end over real HTTP: a simulated stretch of days with a sync after each; the
warehouse equals what the API says, and incremental runs read only what changed (issue 5,
Tests; ARCHITECTURE, "The PMS's clock, not ours")."""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path

import duckdb
import httpx

from pipelines.ingest import SyncSettings
from pipelines.ingest.store import get_timestamp_cursor
from pipelines.warehouse import connect
from tests.conftest import MakeSandbox

from .helpers import Api, advance, assert_core_equals_api, clock, query, sync


def _changed_since(api: Api, since: object) -> int:
    """Reservations the API lists with updated_since = `since` (its `total`)."""
    body = api.get("/reservations", updated_since=since, page_size=1)
    return int(body["total"])


def test_days_with_a_sync_after_each_land_exactly_what_the_api_says(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    settings = SyncSettings(overlap_seconds=300)
    with Api(sandbox.base_url) as api:
        for day in range(3):
            advance(sandbox.root_url)
            with connect(db) as conn:
                cursor_before = get_timestamp_cursor(conn, 1, "reservations")
            results = sync(db, sandbox.base_url, f"day-{day}", settings=settings)
            assert {r.status for r in results.values()} == {"success"}
            with connect(db) as conn:
                counts = assert_core_equals_api(conn, api, 1)
                cursor = get_timestamp_cursor(conn, 1, "reservations")
                # The cursor is the server's largest updated_at landed, not the machine clock.
                newest = conn.execute("SELECT max(updated_at) FROM core.reservations").fetchone()
                assert newest is not None
                assert cursor == newest[0]
                business = conn.execute("SELECT business_date FROM core.property").fetchone()
                snapshot = conn.execute("SELECT DISTINCT snapshot_date FROM core.availability "
                                        "WHERE run_id = ?", [f"day-{day}"]).fetchall()
            assert business is not None
            assert snapshot == [(business[0],)]
            reservations = results["reservations"]
            if cursor_before is None:
                assert reservations.details["mode"] == "full"
                assert reservations.rows == counts["reservations"]
            else:
                # Incremental: exactly the reservations changed since cursor - overlap, read
                # in ceil(changed / 200) pages (+1 when a second pass confirms) and a detail
                # each; far fewer than the history.
                changed = _changed_since(api, (cursor_before - settings.overlap).strftime(
                    "%Y-%m-%dT%H:%M:%SZ"))
                assert reservations.details["mode"] == "incremental"
                assert reservations.rows == changed < counts["reservations"]
                pages = math.ceil(changed / 200) or 1
                assert pages + changed <= reservations.calls <= 2 * pages + changed
            assert results["events"].calls == 1  # one batch, no gap check needed


def _core_state(db: Path) -> dict[str, tuple[set[tuple[int, int]], set[int]]]:
    """Per core.* table: its rows as (rowid, hash of the whole row), and the blocks of the file
    holding its data (pragma_storage_info). A row deleted, inserted or updated changes the
    first; a table whose rows the last checkpoint wrote again changes the second."""
    with duckdb.connect(str(db), read_only=True) as conn:
        names = [t for (t,) in conn.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'core'").fetchall()]
        return {name: (
            {(int(r), int(h)) for r, h in conn.execute(
                f"SELECT rowid, hash(t) FROM core.{name} t").fetchall()},
            {int(b) for (b,) in conn.execute(
                f"SELECT DISTINCT block_id FROM pragma_storage_info('core.{name}') "
                "WHERE block_id >= 0").fetchall()}) for name in names}


def test_a_sync_with_nothing_new_reads_almost_nothing_and_writes_no_core_row(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    db = tmp_path / "warehouse.duckdb"
    api = Api(sandbox.base_url)
    advance(sandbox.root_url)
    first = sync(db, sandbox.base_url, "first")
    before = _core_state(db)
    sandbox.state.clock.advance(timedelta(hours=1))  # type: ignore[attr-defined]
    second = sync(db, sandbox.base_url, "second")
    # Nothing changed in the PMS (its clock moved, its hotel did not live): the records read
    # again (the overlap window, folios, the property data, availability) are in raw.payloads,
    # and not one row of core.* was deleted, inserted or rewritten, nor a block of its data
    # written again by the checkpoint that closed the sync (issue 51).
    after = _core_state(db)
    assert {t: rows for t, (rows, _) in after.items()} == {
        t: rows for t, (rows, _) in before.items()}
    assert {t: data for t, (_, data) in after.items()} == {
        t: data for t, (_, data) in before.items()}
    reread = query(db, "SELECT DISTINCT stream FROM raw.payloads WHERE run_id = 'second'")
    assert {"reservations", "folios", "property", "availability"} <= {s for (s,) in reread}
    with connect(db) as conn:
        cursor = get_timestamp_cursor(conn, 1, "reservations")
    assert cursor is not None
    # Only the overlap window is read again (spec: updated_since is inclusive).
    again = _changed_since(api, (cursor - SyncSettings().overlap).strftime("%Y-%m-%dT%H:%M:%SZ"))
    api.close()
    assert first["reservations"].rows > 20
    assert 1 <= second["reservations"].rows == again < 5
    assert second["reservations"].calls == 1 + again  # one page, then one detail each
    assert second["events"].rows == 0
    assert second["events"].calls == 1
    with connect(db) as conn:
        open_reservations = conn.execute(
            "SELECT count(DISTINCT reservation_id) FROM core.folios WHERE status <> 'closed'"
        ).fetchone()
        logged = conn.execute("SELECT stream, calls, \"rows\", status FROM meta.sync_runs "
                              "WHERE run_id = 'second' ORDER BY stream").fetchall()
        classes = {c: (n, k) for c, n, k in conn.execute(
            "SELECT class, reservations, calls FROM meta.folio_classes "
            "WHERE run_id = 'second'").fetchall()}
    # Folios (docs/ingestion.md, Folios): one call per reservation read; the open folios
    # outside the classes read every run are swept an hour's share of the 24 h window.
    assert open_reservations is not None
    folios = second["folios"].details
    assert second["folios"].calls == sum(k for _, k in classes.values()) < open_reservations[0]
    assert folios["read_sweep"] == math.ceil(folios["sweep_candidates"] / 24)
    # The future book was read by the first run of this business date: not again.
    assert folios["read_future"] == 0 < folios["future_candidates"]
    assert {c: n for c, (n, _) in classes.items()} == {
        c: folios[f"read_{c}"] for c in ("changed", "in_house", "departed", "future", "sweep")
    } | {
        "loose": folios["loose_folios_read"]}
    assert {row[0]: (row[1], row[2], row[3]) for row in logged}["events"] == (1, 0, "success")
    with httpx.Client() as client:  # the sandbox still answers: nothing was left broken
        assert client.get(f"{sandbox.base_url}/me", headers={
            "Authorization": "Bearer sbx_test_all_scopes"}).status_code == 200

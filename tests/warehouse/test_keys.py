"""Each table's key is said once (pipelines/warehouse/keys.py); the tables of migrations 0044,
0045 and 0047 hold theirs without a PRIMARY KEY (issue 51: DuckDB writes a key's index whole at each
checkpoint that follows a change of its table, and extends a keyed table's last row group on
append, rewriting it whole), and the writing path keeps them unique: rows holding a key twice
are refused with one line naming the table and the key, nothing written."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from models import Guest
from pipelines.ingest.store import land_folios, land_guests, land_reservations
from pipelines.warehouse import DuplicateKeyError, transaction, write_difference
from pipelines.warehouse.connection import connect
from pipelines.warehouse.keys import KEYS
from pipelines.warehouse.migrate import discover, migrate

from .factories import folio, line, reservation, room, stay_guest, ts

RECREATED = {
    44: ("mart.pickup", "mart.otb_snapshots", "mart.pace", "mart.stay_nights",
         "core.folio_lines"),
    45: ("core.reservations", "core.reservation_rooms", "core.stay_guests", "core.folios",
         "core.availability", "core.property", "core.room_types", "core.rooms",
         "core.rate_plans", "core.age_brackets", "core.items", "core.classifications"),
    47: ("core.guests", "core.reservation_room_versions"),
}
"""The tables each migration recreates without their PRIMARY KEY."""
UNKEYED = tuple(t for tables in RECREATED.values() for t in tables)


def test_every_primary_key_is_the_registrys_and_the_unkeyed_hold_none(
        conn: duckdb.DuckDBPyConnection) -> None:
    constraints = {f"{s}.{t}": tuple(key) for s, t, key in conn.execute(
        "SELECT schema_name, table_name, constraint_column_names FROM duckdb_constraints() "
        "WHERE constraint_type = 'PRIMARY KEY' AND database_name = current_database()"
    ).fetchall()}
    assert constraints == {t: k for t, k in KEYS.items() if t not in UNKEYED}
    for table in UNKEYED:  # the registry names columns of the table, never null
        schema, name = table.split(".")
        nullable = dict(conn.execute(
            "SELECT column_name, is_nullable FROM duckdb_columns() WHERE schema_name = ? "
            "AND table_name = ?", [schema, name]).fetchall())
        assert [nullable[c] for c in KEYS[table]] == [False] * len(KEYS[table]), table


def _written(conn: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    return conn.execute(
        "SELECT (SELECT count(*) FROM raw.payloads), (SELECT list(last_seen_run ORDER BY "
        "folio_id) FROM core.folios), (SELECT list((folio_line_id, folio_id, total) ORDER BY "
        "folio_line_id) FROM core.folio_lines)").fetchall()


def test_a_folio_holding_a_line_twice_is_refused_and_nothing_is_written(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_folios(conn, 1, [folio(70, 1, [line(1), line(2)])], run_id="a", fetched_at=ts(1))
    before = _written(conn)

    twice = folio(70, 1, [line(1), line(2), line(2, total=Decimal("99.00"))])
    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.folio_lines: two new rows hold the key \(property_id, folio_line_id\) = "
            r"\(1, 2\); nothing written$")):
        land_folios(conn, 1, [twice], run_id="b", fetched_at=ts(2))

    assert _written(conn) == before  # neither the payload, the folio nor a line


def test_a_line_holding_the_key_of_another_folios_line_is_refused(
        conn: duckdb.DuckDBPyConnection) -> None:
    """A folio's lines are replaced as a whole (the scope: the folios read); a line id another
    folio's stored line holds would leave the key twice in core.folio_lines."""
    land_folios(conn, 1, [folio(70, 1, [line(1)]), folio(71, 2, [line(5)])], run_id="a",
                fetched_at=ts(1))
    before = _written(conn)

    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.folio_lines: a new row holds the key \(property_id, folio_line_id\) = "
            r"\(1, 5\) of a stored row it does not replace; nothing written$")):
        land_folios(conn, 1, [folio(70, 1, [line(1), line(5)])], run_id="b", fetched_at=ts(2))

    assert _written(conn) == before


def _reservations(conn: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    return conn.execute(
        "SELECT (SELECT count(*) FROM raw.payloads), (SELECT list((reservation_id, notes, "
        "last_seen_run)) FROM core.reservations), (SELECT list((reservation_room_id, "
        "reservation_id, total) ORDER BY reservation_room_id) FROM core.reservation_rooms), "
        "(SELECT count(*) FROM core.reservation_room_versions)").fetchall()


def test_a_batch_holding_a_reservation_twice_is_refused_and_nothing_is_written(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, 1, [reservation(1)], run_id="a", fetched_at=ts(1))
    before = _reservations(conn)

    conn.execute("CREATE TEMP TABLE _twice AS SELECT * REPLACE ('b' AS last_seen_run) FROM "
                 "core.reservations UNION ALL SELECT * REPLACE ('b' AS last_seen_run, "
                 "'changed' AS notes) FROM core.reservations")
    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.reservations: two new rows hold the key \(property_id, reservation_id\) = "
            r"\(1, 1\); nothing written$")), transaction(conn):
        write_difference(conn, "core.reservations", "SELECT * FROM _twice")

    assert _reservations(conn) == before


def test_a_room_held_by_two_reservations_is_refused_and_nothing_is_written(
        conn: duckdb.DuckDBPyConnection) -> None:
    """A room entry belongs to one reservation: one read naming it under two (or under another
    reservation than the stored one's) would leave its key twice in core.reservation_rooms."""
    land_reservations(conn, 1, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(1))
    before = _reservations(conn)

    twice = [reservation(2, [room(21)]), reservation(3, [room(21, total=Decimal("90.00"))])]
    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.reservation_rooms: two new rows hold the key \(property_id, "
            r"reservation_room_id\) = \(1, 21\); nothing written$")):
        land_reservations(conn, 1, twice, run_id="b", fetched_at=ts(2))
    moved = [reservation(2, [room(11, updated_at=ts(5))])]
    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.reservation_rooms: a new row holds the key \(property_id, "
            r"reservation_room_id\) = \(1, 11\) of a stored row it does not replace; "
            r"nothing written$")):
        land_reservations(conn, 1, moved, run_id="c", fetched_at=ts(6))

    assert _reservations(conn) == before


def test_a_version_holding_the_key_of_a_stored_version_is_refused(
        conn: duckdb.DuckDBPyConnection) -> None:
    """A room's versions never share a start (valid_from): a history whose current version is
    gone, landed a state stamped at the start of a closed version, would open a second version
    there; refused, nothing written."""
    land_reservations(conn, 1, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(1))
    land_reservations(conn, 1, [reservation(1, [room(11, total=Decimal("480.00"),
                                                     updated_at=ts(5))])],
                      run_id="b", fetched_at=ts(6))  # [ts(0), ts(5)) closed, ts(5) current
    conn.execute("DELETE FROM core.reservation_room_versions WHERE valid_to IS NULL")
    before = _reservations(conn)

    with pytest.raises(DuplicateKeyError, match=(
            r"^core\.reservation_room_versions: a new row holds the key \(property_id, "
            r"reservation_room_id, valid_from\) = \(1, 11, 2026-03-01 09:00:00\+00:00\) of a "
            r"stored row it does not replace; nothing written$")):
        land_reservations(conn, 1, [reservation(1, [room(11)], updated_at=ts(7))],
                          run_id="c", fetched_at=ts(8))

    assert _reservations(conn) == before


def _guests(conn: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    return conn.execute("SELECT guest_id, kind, display_name, first_name, last_name, email, "
                        "nationality, country_code, last_seen_run FROM core.guests").fetchall()


def test_a_guest_placed_twice_in_a_batch_is_one_row_the_latest_placement_wins(
        conn: duckdb.DuckDBPyConnection) -> None:
    """Spec, StayGuest: `guest_id` is the guest in the archive, who may be placed in several
    rooms of one batch: one archive record read several times, not a key held twice. The
    latest placement (the higher StayGuest id) wins, whatever the batch's order; a null field
    keeps the stored value and the archive record's columns stay (spec, Guest)."""
    batch = [reservation(2, [room(21, guests=[stay_guest(8, 900, "Anna Bianchi")])]),
             reservation(1, [room(11, guests=[stay_guest(7, 900, "Anna Rossi")])])]
    land_reservations(conn, 1, batch, run_id="a", fetched_at=ts(1))
    assert _guests(conn) == [(900, None, "Anna Bianchi", "Anna", "Bianchi", None, "IT", None,
                              "a")]

    archive = Guest(id=900, kind="private", display_name="Anna Bianchi", first_name="Anna",
                    last_name="Bianchi", email="anna@example.com", nationality="IT",
                    country_code="IT")
    land_guests(conn, 1, [archive], run_id="b", fetched_at=ts(2))
    archived = [(900, "private", "Anna Bianchi", "Anna", "Bianchi", "anna@example.com", "IT",
                 "IT", "b")]
    assert _guests(conn) == archived
    land_reservations(conn, 1, batch, run_id="c", fetched_at=ts(3))
    assert _guests(conn) == archived  # read again unchanged (e-mail null there): no write

    renamed = [reservation(1, [room(11, guests=[stay_guest(7, 900, "Anna Verdi")])],
                           updated_at=ts(4))]
    land_reservations(conn, 1, renamed, run_id="d", fetched_at=ts(5))
    assert _guests(conn) == [(900, "private", "Anna Verdi", "Anna", "Verdi",
                              "anna@example.com", "IT", "IT", "d")]


_VALUES = {"BIGINT": "7", "INTEGER": "7", "DATE": "DATE '2026-03-01'", "BOOLEAN": "true",
           "VARCHAR": "'x'", "JSON": "'{}'",
           "TIMESTAMP WITH TIME ZONE": "TIMESTAMPTZ '2026-03-01 10:00:00+00'"}


def _catalog(conn: duckdb.DuckDBPyConnection, table: str) -> list[tuple[object, ...]]:
    schema, name = table.split(".")
    return conn.execute(
        "SELECT c.column_index, c.column_name, c.data_type, c.is_nullable, c.column_default, "
        "c.comment, t.comment FROM duckdb_columns() c JOIN duckdb_tables() t USING "
        "(database_name, schema_name, table_name) WHERE c.schema_name = ? AND c.table_name = ? "
        "ORDER BY 1", [schema, name]).fetchall()


@pytest.mark.parametrize("version", sorted(RECREATED))
def test_the_migration_keeps_the_rows_columns_and_comments_and_the_views_bind(
        tmp_path: Path, version: int) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in discover():
        if migration.version < version:
            (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    path = tmp_path / "warehouse.duckdb"
    before: dict[str, tuple[object, ...]] = {}
    with duckdb.connect(str(path)) as old:
        migrate(old, folder)
        for table in RECREATED[version]:
            catalog = _catalog(old, table)
            row = ", ".join(_VALUES.get(str(c[2]), "1.5") for c in catalog)
            old.execute(f"INSERT INTO {table} VALUES ({row})")
            before[table] = (catalog, old.execute(f"SELECT * FROM {table}").fetchall())

    with connect(path) as conn:  # migrates to the latest and replaces the views
        for table in RECREATED[version]:
            assert (_catalog(conn, table), conn.execute(f"SELECT * FROM {table}").fetchall()
                    ) == before[table], table
        views = conn.execute("SELECT schema_name, view_name FROM duckdb_views() "
                             "WHERE NOT internal AND schema_name IN ('core', 'mart')"
                             ).fetchall()
        assert views
        for schema, view in views:
            conn.execute(f"SELECT * FROM {schema}.{view} LIMIT 0")



def test_a_batch_past_one_row_group_lands_every_row(conn: duckdb.DuckDBPyConnection) -> None:
    """DuckDB 2.0.0 drops every row of an INSERT of 122,880 rows or more into a table created
    by CREATE TABLE AS SELECT ... LIMIT 0 in the same transaction; the writing path stages
    into a table declared column by column, so a big batch (a group hotel's first load) lands
    whole, and landing it again writes nothing."""
    n = 122_881  # one more than a DuckDB row group
    rows = ("SELECT 1 AS property_id, DATE '2026-01-01' AS snapshot_date, "
            "DATE '2026-01-01' + (i // 10)::INTEGER AS stay_date, i % 10 AS room_type_id, "
            "'DBL' AS room_type_code, 10 AS total, 5 AS occupied, 0 AS out_of_order, "
            f"5 AS available, ? AS run_id, now() AS fetched_at FROM range({n}) r(i)")
    for run, written in (("a", (n, 0)), ("b", (0, 0))):
        with transaction(conn):  # staged as the ingest stages a batch, then written
            conn.execute(f"CREATE OR REPLACE TEMP TABLE _stg AS {rows}", [run])
            assert write_difference(conn, "core.availability", "SELECT * FROM _stg") == written
        assert conn.execute("SELECT count(*), count(DISTINCT (stay_date, room_type_id)) "
                            "FROM core.availability").fetchall() == [(n, n)]

"""A mart's rebuild writes only what changed, and the table ends equal to the rebuild
(pipelines.marts.write; docs/scaling.md, "Marts against history and change"), and a snapshot
mart rebuilt from a date keeps its rows before it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import duckdb
import polars as pl
import pytest

from pipelines.marts import replace_rows
from pipelines.marts.read import kept_inputs
from pipelines.marts.write import Since
from pipelines.warehouse import DuplicateKeyError

D = date(2026, 3, 1)
E = date(2026, 3, 2)


def snapshots(*rows: tuple[int, date, date, int, str]) -> pl.DataFrame:
    """mart.otb_snapshots rows (property, snapshot date, stay date, rooms, revenue) as a
    transform builds them: Int64 rooms, revenue a Decimal of scale 2."""
    return pl.DataFrame(
        [(p, s, d, rooms, Decimal(rev), 0, False) for p, s, d, rooms, rev in rows],
        schema={"property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
                "rooms_otb": pl.Int64, "revenue_otb_net": pl.Decimal(38, 2),
                "rooms_option": pl.Int64, "is_rebuilt": pl.Boolean}, orient="row")


def stored(conn: duckdb.DuckDBPyConnection, table: str, order: str) -> list[tuple[object, ...]]:
    return conn.execute(f"SELECT * FROM mart.{table} ORDER BY {order}").fetchall()


def test_only_the_changed_rows_are_written_and_the_table_equals_the_rebuild(
        conn: duckdb.DuckDBPyConnection) -> None:
    first = snapshots((1, D, D, 10, "1000.00"), (1, D, E, 8, "800.00"), (1, E, E, 9, "900.00"),
                      (2, D, D, 5, "500.00"))
    replace_rows(conn, "otb_snapshots", 1, first.filter(pl.col("property_id") == 1))
    replace_rows(conn, "otb_snapshots", 2, first.filter(pl.col("property_id") == 2))
    # The sync changed one row's revenue, dropped one row and brought one new row.
    rebuilt = snapshots((1, D, D, 10, "1000.00"), (1, D, E, 8, "810.00"),
                        (1, E, date(2026, 3, 3), 4, "400.00"))

    written = replace_rows(conn, "otb_snapshots", 1, rebuilt, run_id="run-2")

    assert (written.rows, written.inserted, written.deleted) == (3, 2, 2)
    assert stored(conn, "otb_snapshots", "property_id, snapshot_date, stay_date") == [
        (1, D, D, 10, Decimal("1000.00"), 0, False),
        (1, D, E, 8, Decimal("810.00"), 0, False),
        (1, E, date(2026, 3, 3), 4, Decimal("400.00"), 0, False),
        (2, D, D, 5, Decimal("500.00"), 0, False),  # another property's rows are left alone
    ]
    assert conn.execute("SELECT run_id FROM meta.mart_builds WHERE property_id = 1 "
                        "AND mart = 'otb_snapshots'").fetchone() == ("run-2",)


def test_a_rebuild_with_nothing_changed_writes_nothing_and_records_the_build(
        conn: duckdb.DuckDBPyConnection) -> None:
    rows = snapshots((1, D, D, 10, "1000.00"), (1, D, E, 8, "800.00"))
    replace_rows(conn, "otb_snapshots", 1, rows)

    written = replace_rows(conn, "otb_snapshots", 1, rows, run_id="run-again")

    assert (written.inserted, written.deleted) == (0, 0)
    assert len(stored(conn, "otb_snapshots", "stay_date")) == 2
    assert conn.execute("SELECT run_id FROM meta.mart_builds WHERE mart = 'otb_snapshots'"
                        ).fetchone() == ("run-again",)


def pace(stly: int | None) -> pl.DataFrame:
    return pl.DataFrame(
        {"property_id": [1], "stay_date": [E], "days_before": [3], "rooms_otb": [7],
         "revenue_otb_net": [Decimal("700.00")], "is_rebuilt": [False],
         "stly_rooms_otb": [stly], "stly_revenue_otb_net": [None], "stly_is_rebuilt": [None],
         "ly_actual_rooms_sold": [None], "ly_actual_room_revenue_net": [None]},
        schema_overrides={"stly_rooms_otb": pl.Int64, "stly_revenue_otb_net": pl.Decimal(38, 2),
                          "stly_is_rebuilt": pl.Boolean, "ly_actual_rooms_sold": pl.Int64,
                          "ly_actual_room_revenue_net": pl.Decimal(38, 2)})


def test_a_null_equals_a_stored_null_and_a_value_replaces_it(
        conn: duckdb.DuckDBPyConnection) -> None:
    """mart.pace's STLY columns are null when last year's snapshot was not taken."""
    replace_rows(conn, "pace", 1, pace(None))

    unchanged = replace_rows(conn, "pace", 1, pace(None))
    filled = replace_rows(conn, "pace", 1, pace(6))

    assert (unchanged.inserted, unchanged.deleted) == (0, 0)
    assert (filled.inserted, filled.deleted) == (1, 1)
    assert conn.execute("SELECT stly_rooms_otb FROM mart.pace").fetchall() == [(6,)]


def accuracy(mae: float) -> pl.DataFrame:
    return pl.DataFrame({"property_id": [1], "horizon_days": [30], "method": ["chosen"],
                         "first_night": [D], "last_night": [E], "forecasts": [91],
                         "rooms_final": [5000], "mae_rooms": [mae], "wape_pct": [10.0],
                         "bias_rooms": [-0.5]})


def test_a_float_stored_as_a_decimal_is_compared_as_duckdb_rounds_it(
        conn: duckdb.DuckDBPyConnection) -> None:
    """polars casts 57.425 to 57.42 and DuckDB to 57.43: comparing in polars would keep a
    stored 57.42 that a full rebuild replaces, so the rebuild is compared as DuckDB casts it;
    the same floats built again write nothing (issue 51)."""
    replace_rows(conn, "forecast_accuracy", 1, accuracy(57.42))

    written = replace_rows(conn, "forecast_accuracy", 1, accuracy(57.425))
    again = replace_rows(conn, "forecast_accuracy", 1, accuracy(57.425))

    assert (written.inserted, written.deleted) == (1, 1)
    assert (again.inserted, again.deleted) == (0, 0)
    assert conn.execute("SELECT mae_rooms FROM mart.forecast_accuracy").fetchone() == (
        conn.execute("SELECT 57.425::DOUBLE::DECIMAL(9,2)").fetchone())


def kpis(*rows: tuple[str | None, int]) -> pl.DataFrame:
    """mart.booking_kpis rows (channel, bookings): a table without a primary key, one row per
    month and channel, NULL a channel of its own."""
    counts = ("bookings", "room_nights", "cancelled_bookings", "cancelled_room_nights",
              "no_shows", "lapsed_options")
    return pl.DataFrame([(1, D, channel, n, n, 0, 0, 0, 0) for channel, n in rows],
                        orient="row", schema={"property_id": pl.Int64, "arrival_month": pl.Date,
                                              "channel": pl.String}
                        | dict.fromkeys(counts, pl.Int64))


def test_a_mart_without_a_primary_key_writes_only_what_changed(
        conn: duckdb.DuckDBPyConnection) -> None:
    replace_rows(conn, "booking_kpis", 1, kpis(("web", 3), (None, 2), ("ota", 4)))
    before = dict(conn.execute("SELECT channel, rowid FROM mart.booking_kpis").fetchall())

    unchanged = replace_rows(conn, "booking_kpis", 1, kpis(("ota", 4), ("web", 3), (None, 2)))
    changed = replace_rows(conn, "booking_kpis", 1, kpis(("web", 3), (None, 5)))

    assert (unchanged.inserted, unchanged.deleted) == (0, 0)
    assert (changed.inserted, changed.deleted) == (1, 2)
    assert conn.execute("SELECT channel, bookings, rowid = ? FROM mart.booking_kpis "
                        "ORDER BY channel NULLS FIRST", [before["web"]]).fetchall() == [
        (None, 5, False), ("web", 3, True)]


def test_a_failed_write_leaves_the_stored_rows(conn: duckdb.DuckDBPyConnection) -> None:
    rows = snapshots((1, D, D, 10, "1000.00"), (1, D, E, 8, "800.00"))
    replace_rows(conn, "otb_snapshots", 1, rows)
    twice = snapshots((1, D, E, 9, "900.00"), (1, D, E, 7, "700.00"))  # one key, two rows

    with pytest.raises(DuplicateKeyError, match=(
            r"^mart\.otb_snapshots: two new rows hold the key \(property_id, snapshot_date, "
            r"stay_date\) = \(1, 2026-03-01, 2026-03-02\); nothing written$")):
        replace_rows(conn, "otb_snapshots", 1, twice)

    assert stored(conn, "otb_snapshots", "stay_date") == [
        (1, D, D, 10, Decimal("1000.00"), 0, False), (1, D, E, 8, Decimal("800.00"), 0, False)]


def inputs(*digests: tuple[date, int]) -> pl.DataFrame:
    return pl.DataFrame(digests, schema={"day": pl.Date, "digest": pl.UInt64}, orient="row")


def test_a_rebuild_from_a_date_keeps_the_rows_before_it(conn: duckdb.DuckDBPyConnection) -> None:
    """A snapshot mart rebuilt from a date (Since): only the stored rows from that date on are
    compared with the frame; those before it stay, even when the frame does not hold them."""
    replace_rows(conn, "otb_snapshots", 1, snapshots(
        (1, D, D, 10, "1000.00"), (1, D, E, 8, "800.00"), (1, E, E, 9, "900.00")))
    since = Since("snapshot_date", pl.col("snapshot_date"), E)

    written = replace_rows(conn, "otb_snapshots", 1, snapshots((1, E, E, 7, "700.00")),
                           since=since)

    assert (written.rows, written.inserted, written.deleted, written.since) == (3, 1, 1, E)
    assert [r[1:4] for r in stored(conn, "otb_snapshots", "snapshot_date, stay_date")] == [
        (D, D, 10), (D, E, 8), (E, E, 7)]
    with pytest.raises(ValueError, match="rows before 2026-03-02 in a rebuild from it"):
        replace_rows(conn, "otb_snapshots", 1, snapshots((1, D, E, 8, "800.00")), since=since)


def test_the_inputs_of_the_stored_rows_are_known_while_the_rows_are_the_builds(
        conn: duckdb.DuckDBPyConnection) -> None:
    """meta.mart_inputs is written with the rows; once the rows are not as many as that build
    left (deleted or a table recreated by hand), the inputs are not known and the next build
    of the mart is whole (pipelines.marts.read.kept_inputs)."""
    rows = snapshots((1, D, D, 10, "1000.00"), (1, D, E, 8, "800.00"))
    assert kept_inputs(conn, "otb_snapshots", 1) is None  # never built

    replace_rows(conn, "otb_snapshots", 1, rows, inputs=inputs((D, 11), (E, 12)))
    assert kept_inputs(conn, "otb_snapshots", 1).rows() == [(D, 11), (E, 12)]  # type: ignore[union-attr]

    conn.execute("DELETE FROM mart.otb_snapshots WHERE stay_date = ?", [E])
    assert kept_inputs(conn, "otb_snapshots", 1) is None

    replace_rows(conn, "otb_snapshots", 1, rows)  # a build that records no inputs
    assert kept_inputs(conn, "otb_snapshots", 1) is None


def test_a_failed_write_leaves_the_inputs(conn: duckdb.DuckDBPyConnection) -> None:
    rows = snapshots((1, D, D, 10, "1000.00"))
    replace_rows(conn, "otb_snapshots", 1, rows, inputs=inputs((D, 11)))
    twice = snapshots((1, D, E, 9, "900.00"), (1, D, E, 7, "700.00"))

    with pytest.raises(DuplicateKeyError, match="two new rows hold the key"):
        replace_rows(conn, "otb_snapshots", 1, twice, inputs=inputs((D, 99)))

    assert kept_inputs(conn, "otb_snapshots", 1).rows() == [(D, 11)]  # type: ignore[union-attr]


def test_a_mart_past_one_row_group_is_written_whole_and_then_by_difference(
        conn: duckdb.DuckDBPyConnection) -> None:
    """A year's otb_snapshots hold some 200k rows, past DuckDB's row group (122,880): the first
    build stores every row, a rebuild with one row changed writes that row alone."""
    days = pl.date_range(date(2025, 1, 1), date(2025, 12, 31), eager=True)
    rows = pl.DataFrame({"snapshot_date": days}).join(
        pl.DataFrame({"stay_date": days}), how="cross").filter(
        pl.col("stay_date") >= pl.col("snapshot_date")).with_columns(
        property_id=pl.lit(1, pl.Int64), rooms_otb=pl.lit(3, pl.Int64),
        revenue_otb_net=pl.lit(Decimal("300.00"), pl.Decimal(38, 2)),
        rooms_option=pl.lit(0, pl.Int64), is_rebuilt=pl.lit(False))
    year_before = rows.with_columns(pl.col("snapshot_date", "stay_date").dt.offset_by("-1y"))
    rows = pl.concat([year_before, rows])  # 2 x 365 x 366 / 2 rows

    first = replace_rows(conn, "otb_snapshots", 1, rows)
    changed = rows.with_columns(rooms_otb=pl.when(
        (pl.col("snapshot_date") == date(2025, 3, 1))
        & (pl.col("stay_date") == date(2025, 3, 2))).then(4)
        .otherwise(pl.col("rooms_otb")))
    second = replace_rows(conn, "otb_snapshots", 1, changed)

    assert (first.rows, first.inserted, first.deleted) == (133_590, 133_590, 0)
    assert (second.rows, second.inserted, second.deleted) == (133_590, 1, 1)

"""POS ledger files (issue 5: loaded once each, a bad file quarantined with the reason and the
rest loaded; issue 3 Simulator: the CSV columns)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from pipelines.ingest.store import load_pos_ledger_dir

P = 1
HEADER = ("ticket_id,line,business_date,posted_at,reservation_id,reservation_room_id,room,"
          "item_code,quantity,unit_price,total\n")


def write(folder: Path, name: str, *rows: str, header: str = HEADER) -> Path:
    path = folder / name
    path.write_text(header + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def good_row(ticket: str = "T1", line: int = 1, total: str = "9.00") -> str:
    return f"{ticket},{line},2026-04-10,2026-04-10T19:30:00Z,1,11,101,BAR,2,4.50,{total}"


def files(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str, int, str | None]]:
    return [(str(n), str(s), int(r), None if why is None else str(why))
            for n, s, r, why in conn.execute(
                'SELECT file_name, status, "rows", reason FROM core.pos_ledger_files '
                "ORDER BY file_name, loaded_at").fetchall()]


def test_good_files_load_and_a_bad_one_is_quarantined_with_its_reason(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "2026-04-10.csv", good_row("T1", 1), good_row("T1", 2),
          "T2,1,2026-04-10,2026-04-10T21:00:00Z,,,,CITYTAX,2,7.50,15.00")
    write(tmp_path, "2026-04-11.csv",
          "T3,1,2026-04-11,2026-04-11T08:00:00Z,1,11,101,BRK,one,12.00,12.00")
    write(tmp_path, "2026-04-12.csv", good_row("T4", 1))
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    assert result.loaded == ["2026-04-10.csv", "2026-04-12.csv"]
    assert list(result.quarantined) == ["2026-04-11.csv"]
    reason = result.quarantined["2026-04-11.csv"]
    assert "line 2" in reason
    assert "quantity" in reason
    assert files(conn) == [("2026-04-10.csv", "loaded", 3, None),
                           ("2026-04-11.csv", "quarantined", 0, reason),
                           ("2026-04-12.csv", "loaded", 1, None)]
    assert conn.execute(
        "SELECT ticket_id, line, reservation_id, reservation_room_id, item_code, quantity, "
        "unit_price, total, source_file FROM core.pos_ledger ORDER BY 1, 2").fetchall() == [
        ("T1", 1, 1, 11, "BAR", Decimal("2.000"), Decimal("4.50"), Decimal("9.00"),
         "2026-04-10.csv"),
        ("T1", 2, 1, 11, "BAR", Decimal("2.000"), Decimal("4.50"), Decimal("9.00"),
         "2026-04-10.csv"),
        ("T2", 1, None, None, "CITYTAX", Decimal("2.000"), Decimal("7.50"), Decimal("15.00"),
         "2026-04-10.csv"),
        ("T4", 1, 1, 11, "BAR", Decimal("2.000"), Decimal("4.50"), Decimal("9.00"),
         "2026-04-12.csv"),
    ]


def test_each_file_is_loaded_once(conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "2026-04-10.csv", good_row())
    load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    again = load_pos_ledger_dir(conn, P, tmp_path, run_id="b")
    assert (again.loaded, again.skipped) == ([], ["2026-04-10.csv"])
    assert conn.execute("SELECT count(*) FROM core.pos_ledger").fetchone() == (1,)


def test_a_loaded_file_that_changed_is_quarantined_not_loaded_twice(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "2026-04-10.csv", good_row())
    load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    write(tmp_path, "2026-04-10.csv", good_row(), good_row("T9", 1))
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="b")
    assert "already loaded with other content" in result.quarantined["2026-04-10.csv"]
    assert conn.execute("SELECT count(*) FROM core.pos_ledger").fetchone() == (1,)


def test_a_ticket_line_already_loaded_from_another_file_quarantines(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "a.csv", good_row("T1", 1))
    write(tmp_path, "b.csv", good_row("T1", 1), good_row("T2", 1))
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    assert result.quarantined == {"b.csv": "ticket_id T1 line 1 was already loaded from a.csv"}


def test_a_line_loaded_by_an_earlier_run_quarantines_and_a_quarantined_file_loads_nothing(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "c.csv", good_row("T5", 1))
    assert load_pos_ledger_dir(conn, P, tmp_path, run_id="a").loaded == ["c.csv"]
    # d.csv repeats a line c.csv loaded in the run before; e.csv repeats only d.csv's other
    # line, which was never loaded (d.csv is quarantined whole), so e.csv loads.
    write(tmp_path, "d.csv", good_row("T6", 1), good_row("T5", 1))
    write(tmp_path, "e.csv", good_row("T6", 1))
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="b")
    assert result.quarantined == {"d.csv": "ticket_id T5 line 1 was already loaded from c.csv"}
    assert (result.loaded, result.skipped, result.rows) == (["e.csv"], ["c.csv"], 1)
    assert conn.execute("SELECT ticket_id, source_file FROM core.pos_ledger ORDER BY 1"
                        ).fetchall() == [("T5", "c.csv"), ("T6", "e.csv")]


def test_a_fixed_quarantined_file_loads(conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "d.csv", good_row(total="nine"))
    assert list(load_pos_ledger_dir(conn, P, tmp_path, run_id="a").quarantined) == ["d.csv"]
    write(tmp_path, "d.csv", good_row())
    assert load_pos_ledger_dir(conn, P, tmp_path, run_id="b").loaded == ["d.csv"]


@pytest.mark.parametrize(("content", "reason"), [
    ("", "empty file"),
    ("ticket_id,line\nT1,1\n", "missing column(s) business_date"),
    (HEADER + good_row() + ",extra\n", "line 2: expected 11 fields"),
    (HEADER + "T1,1,2026-04-10,2026-04-10T19:30:00Z,1,11,101,BAR\n",
     "line 2: expected 11 fields"),
    (HEADER + good_row() + "\n" + good_row() + "\n", "line 3: ticket_id T1 line 1 repeats"),
    (HEADER + "T1,1,2026-13-10,2026-04-10T19:30:00Z,1,11,101,BAR,1,1,1\n",
     "line 2: field business_date"),
    (HEADER + "T1,1,2026-04-10,2026-04-10 19:30:00,1,11,101,BAR,1,1,1\n",
     "line 2: field posted_at '2026-04-10 19:30:00': has no time zone"),
    (HEADER + "T1,1,2026-04-10,2026-04-10T19:30:00Z,1,11,101,BAR,1,1.005,1\n",
     "line 2: field unit_price '1.005': has more than 2 decimals"),
    (HEADER + "T1,x,2026-04-10,2026-04-10T19:30:00Z,1,11,101,BAR,1,1,1\n",
     "line 2: field line 'x'"),
    (HEADER + ",1,2026-04-10,2026-04-10T19:30:00Z,1,11,101,BAR,1,1,1\n",
     "line 2: field ticket_id '': is empty"),
])
def test_malformed_files_name_the_line_and_field(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path, content: str, reason: str) -> None:
    (tmp_path / "bad.csv").write_text(content, encoding="utf-8")
    write(tmp_path, "good.csv", good_row("G1", 1))
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    assert result.loaded == ["good.csv"]
    assert reason in result.quarantined["bad.csv"]


def test_not_utf8_is_quarantined(conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    (tmp_path / "latin.csv").write_bytes(HEADER.encode() + b"T1,1,2026-04-10,caf\xe9\n")
    result = load_pos_ledger_dir(conn, P, tmp_path, run_id="a")
    assert "not UTF-8" in result.quarantined["latin.csv"]


def test_a_header_only_file_is_a_day_without_charges(
        conn: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    write(tmp_path, "quiet.csv")
    assert load_pos_ledger_dir(conn, P, tmp_path, run_id="a").loaded == ["quiet.csv"]
    assert files(conn) == [("quiet.csv", "loaded", 0, None)]

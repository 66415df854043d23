"""The simulator: deterministic for a seed, its timeline, and its POS ledger and ground truth.

A short run (15 days after a 30-day booking-only warm-up) keeps these tests quick; the
realism of a longer run is checked in test_realism.py.
"""

from __future__ import annotations

import csv
import hashlib
import shutil
import sqlite3
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from sandbox.cli import sandbox as sandbox_cli
from sandbox.cli import server_clock
from sandbox.db import open_db
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from sandbox.simulator.demand_book import plans_for
from sandbox.simulator.hotel import load_hotel
from sandbox.simulator.params import SimParams
from sandbox.simulator.pos import LEDGER_COLUMNS
from sandbox.simulator.run import SimulationReport, simulate_database

pytestmark = pytest.mark.slow

START = date(2025, 5, 1)
DAYS = 15
QUICK = replace(SimParams(), warmup_days=30)


def content_hash(path: Path) -> str:
    """Every row of every table, in a fixed order."""
    digest = hashlib.sha256()
    conn = sqlite3.connect(path)
    tables = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for table in tables:
        digest.update(table.encode())
        for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2'):
            digest.update(repr(row).encode())
    conn.close()
    return digest.hexdigest()


REPORTS: dict[str, SimulationReport] = {}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sim")
    paths = {}
    for name, seed, days in (("a", 11, DAYS), ("b", 11, DAYS), ("c", 12, 2)):
        paths[name] = folder / f"{name}.sqlite"
        REPORTS[name] = simulate_database(str(paths[name]), days=days, seed=seed, start=START,
                                          params=QUICK, pos_export=folder / f"pos-{name}")
    return paths


def test_no_service_refused_an_action_unexpectedly(runs: dict[str, Path]) -> None:
    assert all(report.failures == {} for report in REPORTS.values()), REPORTS["a"].failures
    desk = REPORTS["a"].hotels[0]["front_desk"]
    assert desk["check_ins"] > 200
    assert desk["check_outs"] > 150


def test_same_seed_same_database_other_seed_another(runs: dict[str, Path]) -> None:
    """The hash covers the money too (docs/sandbox.md, Money): prepayments, deposits and city
    ledger transfers are there within the 15 days."""
    conn = sqlite3.connect(runs["a"])
    kinds = {row[0] for row in conn.execute(
        "SELECT substr(description, 1, instr(description, ':') - 1) FROM folio_lines "
        "WHERE type = 'payment' AND instr(description, ':') > 0")}
    conn.close()
    assert {"Payment", "Prepayment", "Deposit", "Transfer to city ledger"} <= kinds, kinds
    assert content_hash(runs["a"]) == content_hash(runs["b"])
    assert content_hash(runs["a"]) != content_hash(runs["c"])
    first_day = "SELECT external_ref FROM reservations ORDER BY id LIMIT 50"
    other = sqlite3.connect(runs["c"])
    same = sqlite3.connect(runs["a"])
    assert same.execute(first_day).fetchall() != other.execute(first_day).fetchall()
    other.close()
    same.close()


def test_timeline_business_date_and_future_bookings(runs: dict[str, Path]) -> None:
    """The N days are [start, start + N): the business date ends the day after the last one;
    bookings for arrivals after it exist; nobody arrives before the first day."""
    conn = sqlite3.connect(runs["a"])
    end = START + timedelta(days=DAYS)
    assert conn.execute("SELECT business_date FROM properties WHERE id = 1").fetchone()[0] == \
        end.isoformat()
    assert conn.execute("SELECT MIN(arrival) FROM reservation_rooms").fetchone()[0] >= \
        START.isoformat()
    future = conn.execute("SELECT COUNT(*) FROM reservation_rooms WHERE arrival > ? AND "
                          "status <> 'cancelled'", (end.isoformat(),)).fetchone()[0]
    assert future > 100
    in_house_audits = conn.execute("SELECT COUNT(*) FROM night_audits WHERE property_id = 1"
                                   ).fetchone()[0]
    assert in_house_audits == DAYS + QUICK.warmup_days
    stored = conn.execute("SELECT value FROM settings WHERE name = 'simulated_now'").fetchone()
    assert stored is not None
    assert stored[0].startswith(f'"{end.isoformat()}T')  # 02:00 Rome is 00:00 or 01:00 UTC
    conn.close()


def test_pos_ledger_csv_and_ground_truth_of_dropped_postings(runs: dict[str, Path]) -> None:
    folder = runs["a"].parent / "pos-a"
    files = sorted(folder.glob("pos-ROMA01-*.csv"))
    assert [f.name for f in files] == [
        f"pos-ROMA01-{START + timedelta(days=n)}.csv" for n in range(DAYS)]
    rows = []
    for path in files:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            assert tuple(next(reader)) == LEDGER_COLUMNS
            rows += [dict(zip(LEDGER_COLUMNS, row, strict=True)) for row in reader]
    assert len(rows) > 300
    conn = sqlite3.connect(runs["a"])
    lines = {}
    for description, room_entry in conn.execute(
            "SELECT description, reservation_room_id FROM folio_lines WHERE description "
            "LIKE '%[T-%'"):
        ref = description[description.index("[") + 1:description.index("]")]
        lines[ref] = room_entry
    missing = {f"{r['ticket_id']}/{r['line']}" for r in rows} - set(lines)
    truth = {f"{t}/{n}" for t, n in conn.execute(
        "SELECT ticket_id, line FROM sim_dropped_postings WHERE kind = 'pos'")}
    assert missing == truth
    assert 0 < len(missing) < 0.06 * len(rows)
    for row in rows:
        ref = f"{row['ticket_id']}/{row['line']}"
        if ref in lines:
            assert lines[ref] == int(row["reservation_room_id"])
    city_tax_dropped = conn.execute("SELECT COUNT(*) FROM sim_dropped_postings WHERE kind = "
                                    "'city_tax'").fetchone()[0]
    city_tax_posted = conn.execute("SELECT COUNT(*) FROM folio_lines l JOIN items i ON "
                                   "i.id = l.service_item_id WHERE i.code = 'CTAX'").fetchone()[0]
    assert city_tax_posted > 100
    assert 0 < city_tax_dropped < 0.06 * city_tax_posted
    conn.close()


def test_cli_simulate_refuses_an_existing_database(tmp_path: Path) -> None:
    """A usage error (issue 47 item 7): exit 2, one line naming the file, and the file left as
    it was (bad input writes nothing)."""
    target = tmp_path / "exists.sqlite"
    target.write_bytes(b"kept")
    result = CliRunner().invoke(sandbox_cli, ["simulate", "--db", str(target), "--days", "1",
                                              "--seed", "1"])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {target} exists: the simulator writes a new database\n"
    assert target.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exists.sqlite"]


def test_cli_simulate_refuses_an_unknown_property(tmp_path: Path) -> None:
    """A hotel the sandbox does not have is a usage error too: exit 2, one line, no file."""
    target = tmp_path / "new.sqlite"
    result = CliRunner().invoke(sandbox_cli, ["simulate", "--db", str(target), "--days", "1",
                                              "--seed", "1", "--property", "7"])
    assert (result.exit_code, result.stderr) == (2, "Error: property 7 does not exist\n")
    assert not target.exists()


def test_a_simulated_server_carries_on_from_the_stored_clock(runs: dict[str, Path]) -> None:
    """`serve --clock simulated` without --start continues where the simulation stopped."""
    conn = sqlite3.connect(runs["a"])
    stored = conn.execute("SELECT value FROM settings WHERE name = 'simulated_now'").fetchone()[0]
    conn.close()
    clock = server_clock("simulated", str(runs["a"]), None)
    assert clock.now().strftime("%Y-%m-%dT%H:%M:%SZ") == stored.strip('"')


def _advance_served(db_path: Path, days: int) -> dict[str, Any]:
    """Serve the database on its stored simulated clock and POST /_sandbox/advance."""
    settings = SandboxSettings(db_path=str(db_path), admin=True, rate_per_minute=10**6,
                               burst=10**6)
    with running_sandbox(settings, server_clock("simulated", str(db_path), None)) as server:
        response = httpx.post(f"{server.root_url}/_sandbox/advance", json={"days": days},
                              timeout=300)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _refs(db_path: Path) -> set[str]:
    conn = sqlite3.connect(db_path)
    refs = {row[0] for row in conn.execute("SELECT external_ref FROM reservations")}
    conn.close()
    return refs


def test_a_server_advancing_a_simulated_database_goes_on_with_the_same_demand(
        runs: dict[str, Path], tmp_path: Path) -> None:
    """A served database's /_sandbox/advance draws demand from the seed and origin the
    simulation stored (docs/sandbox.md, Demand), so the bookings it makes are exactly the
    plans of the simulation's book booked on the days advanced."""
    db_path = tmp_path / "a.sqlite"
    shutil.copy(runs["a"], db_path)
    known = _refs(db_path)
    conn = open_db(str(db_path))
    hotel = load_hotel(conn, 1).profile
    conn.close()
    _advance_served(db_path, 3)
    made = _refs(db_path) - known
    first = START + timedelta(days=DAYS)
    plans = plans_for(QUICK.demand, hotel, 11, START, first + timedelta(days=300))
    booked_in_those_days = {p.ref for p in plans if first <= p.booked_on < first + timedelta(3)}
    assert len(made) > 50
    assert made == booked_in_those_days


def test_a_database_simulated_before_origins_were_stored_keeps_its_seed(
        runs: dict[str, Path], tmp_path: Path) -> None:
    """Without `sim_origin` the advance starts a book at the business date, with the seed
    the database holds (not the default one), and stores the origin for the next advance."""
    db_path = tmp_path / "old.sqlite"
    shutil.copy(runs["a"], db_path)
    conn = sqlite3.connect(db_path)
    conn.execute("DELETE FROM settings WHERE name = 'sim_origin'")
    conn.commit()
    conn.close()
    assert _advance_served(db_path, 1)["seed"] == 11
    conn = sqlite3.connect(db_path)
    stored = dict(conn.execute("SELECT name, value FROM settings WHERE name IN "
                               "('sim_seed', 'sim_origin')"))
    conn.close()
    assert stored == {"sim_seed": "11", "sim_origin": f'"{START + timedelta(days=DAYS)}"'}

"""`make verify`: a simulated month of the 80-room hotel with the daily close (issue 16, Tests).

`pmsw demo --days 60 --daily-syncs 30` (in a process of its own, as the demo always runs)
plays 30 days one at a time; after each night audit it syncs and runs the daily close
(pipelines/recon/close.py): the date just closed, applied for the automatic kinds (POS
tickets and city tax), then the folios of the day's departures. The simulator records every
posting it dropped (sim_dropped_postings), the ground truth. For Rome (property 1, 80 rooms):

- every dropped POS or city-tax posting of the month whose guest was still in house at the
  next close (its business date before the room's departure) was posted by a close, on an
  open folio: before check-out;
- the charges left blocked by the closes are only postings that arrived after their folio
  closed (on or after the departure date), or from before the month (never closed daily);
- nothing is posted twice: across the 30 closes and the demo's final apply, a rerun of the
  close and a backlog run over the month post nothing, and the PMS holds at most one line per
  reposted charge.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest

from pipelines.api import PmsClient
from pipelines.recon import Mode, daily_close, run_backlog
from pipelines.recon.logic import load_rules
from sandbox.http.server import serving_simulation
from tests.conftest import ALL_SCOPES_KEY

pytestmark = [pytest.mark.verify, pytest.mark.timeout(3600)]

DAYS_BEFORE, MONTH = 60, 30
ROME = 1
REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Month:
    warehouse: Path
    sandbox_db: Path
    first: date
    """The first business date closed by a daily close."""
    last: date
    close_runs: tuple[int, ...]
    """recon.runs of Rome made by the daily closes (the demo's final dry run and apply
    excluded)."""


def _truth(db: Path, first: date) -> list[tuple[int, date, str, str, date]]:
    """Rome's dropped postings of the month: (room entry, business date, item code, source
    reference as the reconciliation names it, the room's departure)."""
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(
            "SELECT d.kind, d.reservation_room_id, d.business_date, d.item_code, d.ticket_id, "
            "d.line, r.departure FROM sim_dropped_postings d JOIN reservation_rooms r "
            "ON r.id = d.reservation_room_id WHERE d.property_id = ? AND d.business_date >= ?",
            [ROME, first.isoformat()]).fetchall()
    return [(rrid, date.fromisoformat(day), item,
             f"{ticket}/{line}" if kind == "pos" else "rule:city_tax", date.fromisoformat(dep))
            for kind, rrid, day, item, ticket, line, dep in rows]


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> Month:
    folder = tmp_path_factory.mktemp("month")
    warehouse = folder / "warehouse.duckdb"
    done = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "demo", "--warehouse", str(warehouse),
         "--days", str(DAYS_BEFORE), "--daily-syncs", str(MONTH)],
        cwd=REPO, capture_output=True, text=True, timeout=3000, check=False)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    print("\n" + "\n".join(line for line in done.stdout.splitlines()
                           if "daily close" in line or "done in" in line))
    [sandbox_db] = list(folder.glob("**/sandbox.sqlite"))
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        runs = conn.execute("SELECT run_id, first_date FROM recon.runs WHERE property_id = ? "
                            "ORDER BY run_id", [ROME]).fetchall()
        [(business_date,)] = conn.execute("SELECT business_date FROM core.property "
                                          "WHERE property_id = ?", [ROME]).fetchall()
    closes = runs[:-2]  # the demo ends with a dry run and an apply over its last 28 dates
    first = closes[0][1]  # the first close's first run: the date the first audit closed
    return Month(warehouse, sandbox_db, first, business_date - timedelta(days=1),
                 tuple(run for run, _ in closes))


def _statuses(month: Month) -> dict[tuple[int, date, str, str], list[tuple[int, str]]]:
    with duckdb.connect(str(month.warehouse), read_only=True) as conn:
        rows = conn.execute(
            "SELECT reservation_room_id, business_date, item_code, source_ref, run_id, status "
            "FROM recon.results WHERE property_id = ? AND run_id IN "
            "(SELECT unnest(?::BIGINT[])) ORDER BY run_id",
            [ROME, list(month.close_runs)]).fetchall()
    out: dict[tuple[int, date, str, str], list[tuple[int, str]]] = {}
    for rrid, day, item, ref, run, status in rows:
        out.setdefault((rrid, day, item, ref), []).append((run, status))
    return out


def test_every_drop_of_a_guest_in_house_is_posted_before_check_out(month: Month) -> None:
    truth = _truth(month.sandbox_db, month.first)
    statuses = _statuses(month)
    in_house = [t for t in truth if t[1] < t[4]]
    assert len(in_house) >= 20, f"the month should drop enough postings in house: {truth}"
    not_posted = [t for t in in_house
                  if "posted" not in {s for _, s in statuses.get(t[:4], [])}]
    print(f"verify: month close, ROMA01 from {month.first}: {len(truth)} postings dropped, "
          f"{len(in_house)} while the guest was in house, {len(in_house) - len(not_posted)} "
          f"posted by a daily close, {len(month.close_runs)} close runs")
    assert not_posted == []


def test_blocked_only_when_the_posting_came_after_the_folio_closed(month: Month) -> None:
    statuses = _statuses(month)
    truth = {t[:4]: t[4] for t in _truth(month.sandbox_db, month.first)}
    latest = {key: runs[-1][1] for key, runs in statuses.items()}
    blocked = [key for key, status in latest.items() if status == "blocked"]
    unexplained = [key for key in blocked
                   if key[1] >= month.first and key in truth and key[1] < truth[key]]
    print(f"verify: month close, ROMA01: {len(blocked)} charges left blocked, of which "
          f"{sum(1 for k in blocked if k[1] < month.first)} from before the month and "
          f"{sum(1 for k in blocked if k in truth and k[1] >= truth[k])} on or after the "
          "departure date")
    assert unexplained == []


def test_a_rerun_and_a_backlog_post_nothing_twice(month: Month) -> None:
    rules = load_rules()
    with serving_simulation(month.sandbox_db) as sandbox, PmsClient(
            sandbox.base_url, ALL_SCOPES_KEY, rate_per_minute=1_000_000,
            burst=1_000_000) as client:
        rerun = daily_close(month.warehouse, rules, client, property_id=ROME)
        backlog = run_backlog(month.warehouse, rules, first=month.first, last=month.last,
                              mode=Mode.APPLY, property_ref=ROME, client=client, redo=True)
    reports = [rerun.closed, *([rerun.pre_departure] if rerun.pre_departure else [])]
    assert all(r.apply is not None and r.apply.posts == 0 for r in reports), [
        (r.run_id, r.apply) for r in reports]
    assert backlog.run, backlog
    assert backlog.posts == 0, backlog
    with closing(sqlite3.connect(month.sandbox_db)) as conn:
        # Lines naming their source (the POS interface's and our reposts): "Bar [T-000123/1]",
    # "City tax night ... [rule:city_tax]"
        ours = "(description LIKE '%[T-%]' OR description LIKE '%[rule:%]')"
        twice = conn.execute(
            f"SELECT folio_id, posted_on, description, count(*) FROM folio_lines WHERE {ours} "
            "AND reversal_of IS NULL GROUP BY folio_id, posted_on, description "
            "HAVING count(*) > 1").fetchall()
        lines = conn.execute(f"SELECT count(*) FROM folio_lines WHERE {ours}").fetchone()
        posts = conn.execute("SELECT count(*) FROM idempotency WHERE idem_key LIKE 'recon:%' "
                             "AND method = 'POST'").fetchone()
    print(f"verify: month close: a rerun and a backlog over {month.first}..{month.last} "
          f"posted nothing; the PMS holds {posts[0] if posts else 0} posts by Idempotency-Key "
          f"and {lines[0] if lines else 0} lines naming a POS ticket or a rule, none twice")
    assert twice == []

"""Crash points of the reconciliation (issue 9, "Crash points"; ARCHITECTURE, "Exactly-once
writes"): `pmsw reconcile --apply` SIGKILLed in the middle of its posts, after N of its API
calls (N chosen by the test; `python -m tests.kill_after N pipelines.cli reconcile ...`, which
counts the calls the apply makes on its client, tests/kill_after.py), then run again, ends as
one uninterrupted apply of the same PMS state:

- the PMS holds the same folio lines, and through the API every charge's line (its
  description names the source reference) is on its folio exactly once;
- every charge the uninterrupted apply `posted` is on its folio after the rerun, on the same
  line: `posted` by the rerun, or `matched` when the killed run had posted it (the rerun reads
  the folios again before posting); every other charge has the same status.

The PMS is property 2 after a few simulated days; the charges to post are POS tickets of the
rooms in house that no folio carries (a ledger file the test writes, as a POS whose interface
lost them). The apply's calls: per reservation one GET of its folios, a POST per charge, one
GET of the folio posted on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from contextlib import closing
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipelines.api import PmsClient
from pipelines.warehouse import connect
from sandbox.http.server import RunningSandbox
from tests.conftest import MakeSandbox, auth
from tests.stored_rows import stored_rows

from . import harness as h
from .recon import posted_lines

DAYS = 6
SEED = 11
TICKET_ITEMS = (("BAR", "2", "8.00"), ("RST", "1", "35.00"), ("MINI", "3", "6.00"))
"""Each room in house ran up these three lines at the POS (item code, quantity, price)."""

Outcome = dict[str, tuple[str, int | None, int | None]]
"""Per charge key: (status, folio line id, amount posted in cents)."""


@dataclass
class World:
    server: RunningSandbox
    folder: Path
    warehouse: Path
    day: date
    """The business date reconciled: the last one closed."""


def _lost_tickets(server: RunningSandbox, pos: Path, day: date) -> int:
    """A ledger file of `day` with TICKET_ITEMS for every room in house; returns the lines."""
    with httpx.Client(base_url=server.base_url, headers=auth(h.PROPERTY_KEY),
                      timeout=30) as api:
        response = api.get("/reservations", params={"status": "checked_in", "page_size": 200})
        response.raise_for_status()
        reservations = response.json()["data"]
    rows = [",".join(("ticket_id", "line", "business_date", "posted_at", "reservation_id",
                      "reservation_room_id", "room", "item_code", "quantity", "unit_price",
                      "total"))]
    for reservation in reservations:
        for stay in reservation["rooms"]:
            if stay["status"] != "checked_in" or stay["room"] is None:
                continue
            for line, (item, quantity, price) in enumerate(TICKET_ITEMS, start=1):
                total = f"{int(quantity) * float(price):.2f}"
                rows.append(",".join((
                    f"LOST-{stay['id']}", str(line), day.isoformat(), f"{day}T20:{line:02}:00Z",
                    str(reservation["id"]), str(stay["id"]), stay["room"]["code"], item,
                    quantity, price, total)))
    (pos / f"pos-lost-{day}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


def _world(make_sandbox: MakeSandbox, folder: Path) -> World:
    """The same PMS and warehouse every time (same seed): simulated days, lost tickets, a sync."""
    pos = folder / "pos"
    pos.mkdir(parents=True)
    server = h.start_simulated(make_sandbox, pos)
    with closing(h.Admin(server)) as admin:
        for _ in range(DAYS):
            business_date = admin.simulate_day(SEED)
    day = date.fromisoformat(business_date) - timedelta(days=1)
    assert _lost_tickets(server, pos, day) >= 6, "too few rooms in house to post between"
    warehouse = folder / "warehouse.duckdb"
    with connect(warehouse) as conn:
        h.sync_once(h.endpoint(server, pos), conn, "setup")
    return World(server, folder, warehouse, day)


def _apply(world: World, kill_after: int | None = None, key: str = h.PROPERTY_KEY,
           ) -> subprocess.CompletedProcess[str]:
    """`pmsw reconcile --apply` of the world's day, in a process of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PMS_", "PMSW_"))}
    env |= {"PMS_API_BASE_URL": world.server.base_url, "PMS_API_KEY": key}
    hook = [] if kill_after is None else ["-m", "tests.kill_after", str(kill_after)]
    return subprocess.run(
        [sys.executable, *(hook or ["-m"]), "pipelines.cli", "reconcile", "--apply", "--date",
         world.day.isoformat(), "--warehouse", str(world.warehouse)],
        cwd=world.folder, env=env, capture_output=True, text=True, timeout=120, check=False)


def _completed(world: World) -> None:
    done = _apply(world)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]


def _killed(world: World, after: int) -> None:
    done = _apply(world, after)
    assert done.returncode == -signal.SIGKILL, (after, done.stdout, done.stderr[-3000:])


def _last_outcome(world: World) -> Outcome:
    rows = stored_rows(
        world.warehouse, "SELECT key, status, posted_line_id, CAST(found_amount * 100 AS BIGINT) "
        "FROM recon.results WHERE run_id = (SELECT max(run_id) FROM recon.runs)")
    return {str(k): (str(s), line, cents) for k, s, line, cents in rows}


def _on_folio(outcome: Outcome) -> Outcome:
    """`matched` by a rerun (the killed run had posted it) and `posted` are the same end."""
    return {k: ("on folio" if s in ("posted", "matched") else s, line, cents)
            for k, (s, line, cents) in outcome.items()}


def _lines_per_charge(world: World) -> Counter[str]:
    """Through the API: the folio lines (not reversed) of the day per description, over the
    folios of every reservation the ledger names."""
    ids = [r for (r,) in stored_rows(
        world.warehouse, "SELECT DISTINCT reservation_id FROM core.pos_ledger "
        "WHERE business_date = ?", [world.day])]
    counts: Counter[str] = Counter()
    with PmsClient(world.server.base_url, h.PROPERTY_KEY) as client:
        for reservation_id in ids:
            for folio in client.list_folios(reservation_id):
                counts.update(ln.description for ln in folio.lines
                              if ln.reversal_of is None and ln.posted_on == world.day)
    return counts


def _posted_descriptions(world: World) -> list[str]:
    return [d for (d,) in stored_rows(
        world.warehouse, "SELECT description FROM recon.results WHERE run_id = "
        "(SELECT max(run_id) FROM recon.runs) AND status IN ('posted', 'matched') "
        "AND source = 'pos'")]


def _same_end(world: World, reference: dict[str, Any]) -> None:
    assert posted_lines(world.server) == reference["lines"]
    assert _on_folio(_last_outcome(world)) == _on_folio(reference["outcome"])
    counts = _lines_per_charge(world)
    assert {counts[d] for d in reference["descriptions"]} == {1}
    assert counts == reference["counts"]


@pytest.mark.verify  # make verify, about 50 s; make test keeps an apply killed after its posts
# (tests/reconcile/test_sandbox.py)
def test_an_apply_killed_between_its_posts_then_rerun_ends_as_an_uninterrupted_one(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    world = _world(make_sandbox, tmp_path / "reference")
    lines_before = len(posted_lines(world.server))
    _completed(world)
    outcome = _last_outcome(world)
    posted = [k for k, (s, _, _) in outcome.items() if s == "posted"]
    assert len(posted) >= 6
    [row] = stored_rows(world.warehouse, "SELECT count(DISTINCT reservation_id) FROM "
                        "recon.results WHERE run_id = (SELECT max(run_id) FROM recon.runs) "
                        "AND status = 'posted'")
    reservations = int(row[0])
    calls = 2 * reservations + len(posted)  # one folio posted on per reservation here
    reference = {"outcome": outcome, "lines": posted_lines(world.server),
                 "descriptions": _posted_descriptions(world), "counts": _lines_per_charge(world)}
    assert len(reference["lines"]) == lines_before + len(posted)

    # One kill each, on a world of its own: after the first post, in the middle of a
    # reservation's posts, and just before the last call (every post made, one re-read left).
    for n, after in enumerate((2, calls // 2, calls - 1)):
        crashed = _world(make_sandbox, tmp_path / f"kill-{n}")
        _killed(crashed, after)
        made = len(posted_lines(crashed.server)) - lines_before
        assert 0 < made < len(posted) or after == calls - 1, (after, made)
        _completed(crashed)
        _same_end(crashed, reference)

    # Killed again and again on one world (each rerun dies further on), then run to the end.
    crashed = _world(make_sandbox, tmp_path / "kill-again")
    for after in (3, 3, 4):
        _killed(crashed, after)
    _completed(crashed)
    _same_end(crashed, reference)
    print(f"\nreconciliation crash points: {len(posted)} charges on {reservations} "
          f"reservations, {calls} apply calls; killed after 2, {calls // 2}, {calls - 1} "
          f"calls, and after 3, 3, 4 in a row; every rerun ended as the uninterrupted apply")

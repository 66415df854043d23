"""Readers and writers at the same time, as real processes on a real sandbox (issue 15).

- `pmsw report` run again and again during `pmsw sync`s never fails and always reads a complete
  published state (the marts built by the same run as the core tables: meta.published);
- two writers (`pmsw sync`, `pmsw reconcile --apply`) wait for a third instead of failing; with
  the wait lowered, one line names the holder's PID and nothing is written;
- a publish killed by SIGKILL while it patches leaves the previous read copy readable, the next
  one succeeds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipelines.warehouse import read_copy_path
from pipelines.warehouse.connection import read_copy_generations
from tests.patching import kill_while_patching
from tests.pipeline.helpers import REPO, pmsw, pmsw_env
from tests.stored_rows import stored_rows

from .conftest import World, start

pytestmark = pytest.mark.slow

AS_OF = re.compile(r"^As of (?P<published>.+?): .* by run (?P<sync>\S+), marts run "
                   r"(?P<marts>\S+)$", re.MULTILINE)

HOLD = """
import sys
from pipelines.warehouse import connect
conn = connect(sys.argv[1])
print("held", flush=True)
sys.stdin.readline()
conn.close()
"""


def _close_pipes(proc: subprocess.Popen[str]) -> None:
    """Close what the test read from a process it waited for (no unclosed file left)."""
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None and not pipe.closed:
            pipe.close()


def _holder(warehouse: Path) -> subprocess.Popen[str]:
    """A writer process holding the warehouse until a line on its stdin (its PID is in
    DuckDB's lock message)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(warehouse)], env=pmsw_env({}),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def _count(warehouse: Path, sql: str) -> int:
    [(count,)] = stored_rows(warehouse, sql)
    return int(count)


def test_reports_during_syncs_never_fail_and_read_complete_states(world: World) -> None:
    """20 reports, two at a time, each its own process, while syncs of new days run."""
    answers: list[tuple[str, int, str]] = []
    during_sync = 0
    syncs = 0
    report = ["report", "occupancy", "--property", "1", "--format", "json"]
    began = time.monotonic()
    while len(answers) < 20:
        assert syncs < 8, f"only {len(answers)} reports in {syncs} syncs"
        world.advance(1)
        sync = start(["sync", "--no-progress"], world.env)
        syncs += 1
        while len(answers) < 20:
            running = sync.poll() is None
            pair = [start(report, world.env) for _ in range(2)]
            for proc in pair:
                out, err = proc.communicate(timeout=60)
                answers.append((out, proc.returncode, err))
            during_sync += 2 * running
            if not running:
                break
        _, err = sync.communicate(timeout=180)
        assert sync.returncode == 0, err[-3000:]
        print(f"sync {syncs} done at {time.monotonic() - began:.1f} s, {len(answers)} reports")
    last = start(report, world.env)  # after the last sync's publish: it reads the newer copy
    out, err = last.communicate(timeout=60)
    answers.append((out, last.returncode, err))
    failures = [err for _, code, err in answers if code != 0]
    assert failures == []
    states = set()
    for out, _, err in answers:
        assert json.loads(out)["rows"], out[:200]
        match = AS_OF.search(err)
        assert match is not None, err
        # complete: the marts the report read were built by the run that landed the data
        assert match["sync"] == match["marts"], err
        states.add(match["published"])
    assert during_sync >= 6, f"only {during_sync} reports ran while a sync was running"
    assert len(states) >= 2, "the reports never saw a newer publish"


def _wait_for(path: Path, text: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while text not in path.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, f"{path.name}: {path.read_text()[-2000:]}"
        time.sleep(0.2)


def test_two_writers_wait_for_the_holder_then_both_finish(world: World,
                                                           tmp_path: Path) -> None:
    world.advance(1)
    runs_before = _count(world.warehouse, "SELECT count(*) FROM recon.runs")
    holder = _holder(world.warehouse)
    waiting = f"waiting for the warehouse {world.warehouse}: held by "
    logs = {name: tmp_path / f"{name}.err" for name in ("sync", "recon")}
    with logs["sync"].open("w") as sync_log, logs["recon"].open("w") as recon_log:
        sync = subprocess.Popen([sys.executable, "-m", "pipelines.cli", "sync", "--no-progress"],
                                cwd=REPO, env=pmsw_env(world.env), stdout=subprocess.DEVNULL,
                                stderr=sync_log, text=True)
        recon = subprocess.Popen([sys.executable, "-m", "pipelines.cli", "reconcile", "--apply",
                                  "--property", "ROMA01"], cwd=REPO, env=pmsw_env(world.env),
                                 stdout=subprocess.PIPE, stderr=recon_log, text=True)
        try:
            for log in logs.values():  # both writers are waiting, neither failed
                _wait_for(log, waiting)
        finally:
            assert holder.stdin is not None
            holder.stdin.write("release\n")
            holder.stdin.close()
            holder.wait(timeout=30)
            _close_pipes(holder)
        sync.wait(timeout=180)
        recon_out, _ = recon.communicate(timeout=180)
    for log in logs.values():  # each said it waited, naming the holder
        assert f"{waiting}" in log.read_text(encoding="utf-8")
        assert f"(PID {holder.pid})" in log.read_text(encoding="utf-8")
    assert sync.returncode == 0, logs["sync"].read_text()[-3000:]
    assert recon.returncode == 0, logs["recon"].read_text()[-3000:]
    assert "Reconciliation run" in recon_out
    assert _count(world.warehouse, "SELECT count(*) FROM recon.runs") == runs_before + 1
    copy = read_copy_path(world.warehouse)
    assert _count(copy, "SELECT count(*) FROM recon.runs") == runs_before + 1


def test_a_writer_past_the_wait_limit_fails_in_one_line_naming_the_holder(
        world: World) -> None:
    runs_before = _count(world.warehouse, "SELECT count(*) FROM recon.runs")
    copy = read_copy_path(world.warehouse)
    copy_before = copy.stat().st_mtime_ns
    holder = _holder(world.warehouse)
    try:
        began = time.monotonic()
        late = pmsw(["reconcile", "--apply", "--property", "ROMA01"],
                    {**world.env, "PMSW_WAREHOUSE_WAIT": "1"}, timeout=60)
        waited = time.monotonic() - began
        option = pmsw(["sync", "--no-progress", "--wait", "0.5"], world.env, timeout=60)
    finally:
        holder.kill()
        holder.wait(timeout=30)
        _close_pipes(holder)
    assert late.returncode == 1
    lines = [ln for ln in late.stderr.splitlines() if not ln.startswith("waiting for")]
    assert len(lines) == 1, late.stderr
    assert lines[0].startswith(f"Error: the warehouse {world.warehouse} is held by ")
    assert f"(PID {holder.pid})" in lines[0]
    assert "gave up after 1 s" in lines[0]
    assert waited < 15
    assert option.returncode == 1
    assert f"(PID {holder.pid})" in option.stderr
    assert "gave up after 0.5 s" in option.stderr
    assert "Traceback" not in late.stderr + option.stderr
    # nothing half-written: no run recorded, the read copy untouched
    assert _count(world.warehouse, "SELECT count(*) FROM recon.runs") == runs_before
    assert copy.stat().st_mtime_ns == copy_before


def test_sigkill_during_a_publish_leaves_the_previous_copy_readable(world: World) -> None:
    """Killed at the patch step (the publisher and its patch child: tests/patching.py)."""
    copy = read_copy_path(world.warehouse)
    killed_midway = any(kill_while_patching(world.warehouse, copy, read_copy_generations(copy),
                                            REPO, pmsw_env({})) for _ in range(10))
    assert killed_midway, "never killed during a publish"
    # the previous copy is whole: readers open it
    pmsw(["warehouse", "info"], world.env, timeout=60, ok=True)
    pmsw(["report", "occupancy", "--property", "1"], world.env, timeout=60, ok=True)
    assert _count(copy, "SELECT count(*) FROM core.filler") == 1_000_000
    # the next publish succeeds and removes what the killed one left
    pmsw(["warehouse", "publish"], world.env, timeout=120, ok=True)
    assert list(copy.parent.glob(f".{copy.name}.tmp-*")) == []
    assert _count(copy, "SELECT count(*) FROM meta.published") > 0

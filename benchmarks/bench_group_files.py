"""The group layout's parallel runs (issue 51; docs/scaling.md, "A group: one file per property").

    uv run --group bench python -m benchmarks.bench_group_files [--hotels 8] [--days 3]

The sandbox (a child process) serves N hotels of a group, each its own key at the spec's
limit (600/min, burst 120) with 100 ms added latency. Each hotel's initial load alone, one
after another (`pmsw sync --property CODE --warehouse DIR`, its own fresh group directory),
is the baseline: the slowest of them. Then the N hotels as parallel runs into one group
directory (`pmsw sync --warehouse DIR`: a process per property, each its own file), after the
keys' buckets refilled. Printed: the ratio of the group's wall time to the slowest single's
(goal <= 1.2 at 8, <= 1.5 at 50), each property's calls, and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import duckdb
import httpx

from pipelines.demo.sandbox_process import sandbox_process
from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database

REPO = Path(__file__).resolve().parents[1]
RATE, BURST = 600, 120


def _env(work: Path, base_url: str, codes: list[str]) -> dict[str, str]:
    lines, env = ["properties:"], {}
    for code in codes:
        lines += [f"  - code: {code}", f"    base_url: {base_url}",
                  f"    api_key_env: KEY_{code}", f"    rate_per_minute: {RATE}",
                  f"    burst: {BURST}"]
        env[f"KEY_{code}"] = group_key(int(code.removeprefix("GRP")))
    path = work / "properties.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    return {**clean, "PMSW_PROPERTIES_FILE": str(path), **env}


def _sync(env: dict[str, str], group: Path, codes: list[str]) -> float:
    """Wall seconds of `pmsw sync` of `codes` into the group directory `group`."""
    group.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "sync", "--no-progress", "--warehouse",
         str(group), *(a for c in codes for a in ("--property", c))],
        cwd=REPO, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"pmsw sync {codes} failed:\n{done.stderr[-3000:]}")
    return seconds


def _calls(member: Path) -> int:
    conn = duckdb.connect(str(member), read_only=True)
    try:
        row = conn.execute("SELECT sum(calls) FROM meta.sync_runs").fetchone()
    finally:
        conn.close()
    return int(row[0]) if row and row[0] is not None else 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=8)
    parser.add_argument("--days", type=int, default=3, help="simulated days after warm-up")
    parser.add_argument("--warmup-days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--latency-ms", type=int, default=100)
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, load at start {os.getloadavg()}")
    codes = [group_code(n) for n in range(1, args.hotels + 1)]
    ids = tuple(GROUP_FIRST_ID + n for n in range(args.hotels))
    work = Path(tempfile.mkdtemp(prefix="pmsw-bench-group-files-"))
    try:
        began = time.perf_counter()
        simulate_database(str(work / "sim.sqlite"), days=args.days, seed=args.seed,
                          group=args.hotels, property_ids=ids,
                          params=replace(SimParams(), warmup_days=args.warmup_days))
        print(f"simulated {args.days} days (+{args.warmup_days} warm-up) of {args.hotels} "
              f"hotels in {time.perf_counter() - began:.0f} s")
        with sandbox_process(db_path=work / "sim.sqlite", extra_args=[
                "--admin", "--clock", "simulated", "--rate-per-minute", str(RATE),
                "--burst", str(BURST)]) as base_url:
            root = base_url.removesuffix("/v1")
            httpx.put(f"{root}/_sandbox/faults", json={"latency_ms": args.latency_ms},
                      timeout=30).raise_for_status()
            env = _env(work, base_url, codes)
            singles = {code: _sync(env, work / f"alone-{code}", [code]) for code in codes}
            time.sleep(13)  # every key's bucket full again (120 calls at 10/s)
            load = os.getloadavg()
            group = _sync(env, work / "group", codes)
            load_after = os.getloadavg()
        for code in codes:
            print(f"{code}: alone {singles[code]:6.1f} s, "
                  f"{_calls(work / f'alone-{code}' / f'{code}.duckdb')} calls")
        slowest = max(singles.values())
        print(f"{args.hotels} properties as parallel runs: {group:.1f} s against the slowest "
              f"alone {slowest:.1f} s: {group / slowest:.2f}x (load before {load}, after "
              f"{load_after})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""`pmsw sync` on the group layout: one process per property, each writing its own file.

The warehouse named is a directory (pipelines.warehouse.group): property CODE's warehouse is
DIR/<CODE>.duckdb. Each property runs as its own `pmsw sync --property CODE --warehouse
DIR/<CODE>.duckdb` process, the single-file command unchanged (its own Dagster run in its own
ephemeral instance, its own writer lock, its own publish), `at_once` of them at a time.

Processes, not threads nor Dagster's multiprocess executor: a property's run is Python work
(parsing pages, polars transforms) that threads of one process serialise on the interpreter's
lock, and the multiprocess executor runs the steps of ONE run in processes while the asset
steps of a range still share one step per stream; a process per property is the unit Dagster's
run coordinator also runs on a group (one run per partition, docs/scaling.md). Every property's
output is printed once all have ended, in the order asked; one failing stops no other.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import click

from pipelines.warehouse import member_path


def _one(code: str, group: Path, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pipelines.cli", "sync", "--property", code,
               "--warehouse", str(member_path(group, code)), "--no-progress", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def sync_group(codes: Sequence[str], group: Path, args: Sequence[str], at_once: int,
               as_data: bool) -> int:
    """Sync every property of `codes` into its file of the group directory `group`, `at_once`
    processes at a time, with the `pmsw sync` options `args`; print what each printed (with
    `as_data`, one JSON list of all); return the exit code (1 when any property failed)."""
    with ThreadPoolExecutor(max_workers=max(1, min(at_once, len(codes)))) as pool:
        done = list(pool.map(lambda code: _one(code, group, args), codes))
    summary: list[Any] = []
    for code, run in zip(codes, done, strict=True):
        if as_data and run.stdout.strip():
            try:
                summary.extend(json.loads(run.stdout))
            except json.JSONDecodeError:
                summary.append({"property": code, "error": run.stdout.strip()})
        elif run.stdout:
            click.echo(run.stdout, nl=False)
        if run.stderr:
            click.echo(run.stderr, nl=False, err=True)
    if as_data:
        click.echo(json.dumps(summary, indent=2))  # decoded JSON: plain values
    return 1 if any(run.returncode != 0 for run in done) else 0

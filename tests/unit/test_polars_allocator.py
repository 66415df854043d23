"""polars' allocator gives freed memory back promptly in our processes (pipelines/__init__.py;
docs/operations.md, "A group's memory and the allocator"), unless the user said otherwise.

Each case runs in a fresh interpreter: jemalloc reads its options once, when polars is first
imported, and this test process imported polars long ago."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pipelines import POLARS_ALLOCATOR

FREED_AFTER_WORK = """
import time
import pipelines  # first, as `pmsw` and the Dagster code location import it
import polars as pl

def rss_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024

before = rss_mib()
frame = pl.select(a=pl.int_range(40_000_000)).with_columns(b=pl.col("a") * 3)
held = rss_mib()
del frame
began = time.monotonic()
while time.monotonic() - began < 0.3:  # other work: jemalloc purges on its next calls
    pl.select(x=pl.int_range(1000)).sum()
print(before, held, rss_mib())
"""


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    done = subprocess.run([sys.executable, "-c", code], env={**clean, **env},
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_importing_pipelines_first_sets_polars_allocator_options() -> None:
    seen = _run("import pipelines, polars, os; print(os.environ['_RJEM_MALLOC_CONF'])")
    # polars puts its own options first and ours after them: the later ones win in jemalloc.
    assert seen.endswith("," + POLARS_ALLOCATOR), seen


def test_a_users_own_setting_is_kept() -> None:
    seen = _run("import pipelines, polars, os; print(os.environ['_RJEM_MALLOC_CONF'])",
                _RJEM_MALLOC_CONF="dirty_decay_ms:2000")
    assert seen.endswith(",dirty_decay_ms:2000"), seen
    assert POLARS_ALLOCATOR not in seen


POLARS_OWN = "dirty_decay_ms:500,muzzy_decay_ms:1000"
"""polars' own options (polars/__init__.py of polars 2.1): freed pages kept 500 ms, then 1,000 ms
more as lazily freed pages the process still counts."""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_large_frame_freed_leaves_the_process_within_a_third_of_a_second() -> None:
    before, held, after = map(int, _run(FREED_AFTER_WORK).split())
    assert held - before > 400, (before, held)  # the frame was resident: ~610 MiB
    assert after - before < 100, (before, held, after)
    # The control: polars' own options still hold it then. If this fails, polars returns
    # memory sooner by itself and POLARS_ALLOCATOR may no longer be needed.
    before, held, after = map(int, _run(FREED_AFTER_WORK, _RJEM_MALLOC_CONF=POLARS_OWN).split())
    assert after - before > 400, (before, held, after)

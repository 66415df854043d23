"""polars' allocator gives freed memory back promptly in our processes (pipelines/__init__.py;
docs/operations.md, "A group's memory and the allocator"), unless the user said otherwise.

Each case runs in a fresh interpreter: jemalloc reads its options once, when polars is first
imported, and this test process imported polars long ago. What the setting does to memory is
measured, not asserted (benchmarks/results.md, "polars' allocator"): how soon freed pages
leave depends on the allocator's activity and the machine's load, so a test of it would be a
test of time."""

from __future__ import annotations

import os
import subprocess
import sys

from pipelines import POLARS_ALLOCATOR


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

"""The threads of a multi-property step share at most two malloc arenas
(pipelines.defs.malloc_arenas; docs/operations.md, "A writer's memory"). Counted from glibc's
own report (malloc_info: one <heap> per arena) in a fresh process, since arenas, once made,
live as long as the process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("malloc arenas are glibc's", allow_module_level=True)

SCRIPT = textwrap.dedent("""
    import ctypes, sys, tempfile, time
    from concurrent.futures import ThreadPoolExecutor
    from pipelines.defs.each_property import each_property

    def work(code):
        kept = [bytes(64 + n % 900) for n in range(20000)]  # malloc'd by this thread
        time.sleep(0.2)  # every thread alive at once: none inherits another's arena
        return len(kept)

    codes = [f"P{n:02d}" for n in range(12)]
    if sys.argv[1] == "each_property":
        results, errors = each_property(codes, work, at_once=12)
        assert not errors and len(results) == 12
    else:
        with ThreadPoolExecutor(max_workers=12) as pool:
            assert sum(pool.map(work, codes)) == 12 * 20000
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    with tempfile.NamedTemporaryFile(suffix=".xml") as report:
        stream = libc.fopen(report.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        print(open(report.name).read().count("<heap nr="))
""")


def arenas(how: str, env_extra: dict[str, str] | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, how], capture_output=True, text=True,
                          timeout=120, check=False, env={**env, **(env_extra or {})})
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_twelve_threads_without_the_cap_make_an_arena_each() -> None:
    # the control: what each_property's cap prevents (glibc allows 8 arenas per core)
    assert arenas("plain") > 2


def test_a_multi_property_step_holds_at_most_two_arenas() -> None:
    assert arenas("each_property") <= 2


def test_malloc_arena_max_set_by_the_user_is_glibcs_own() -> None:
    assert arenas("each_property", {"MALLOC_ARENA_MAX": "1"}) == 1

"""Importing `pipelines` sets how polars' allocator and glibc's malloc give memory back
(pipelines/allocators.py; docs/operations.md, "A group's memory and the allocator"), unless
the user said otherwise in the environment.

Each case runs in a fresh interpreter: jemalloc reads its options once, when polars is first
imported, and glibc's malloc is set once per process. What the settings do to a run's memory is
measured, not asserted (benchmarks/results.md, "polars' allocator" and "glibc's malloc tuned by
default"): how soon freed pages leave depends on the machine's load, so a test of it would be
a test of time. What is asserted is that each setting reached its allocator."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from pipelines.allocators import GLIBC_MALLOC, GLIBC_USERS_OWN, POLARS_ALLOCATOR

glibc_only = pytest.mark.skipif(
    not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"), reason="glibc's malloc")

OURS = ("_RJEM_MALLOC_CONF", *GLIBC_USERS_OWN)

ARENAS = textwrap.dedent("""
    import ctypes, re, tempfile, threading
    {imports}
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    # glibc gives a thread's first malloc an arena of its own while it may create one more
    all_in = threading.Barrier(9)
    def allocate():
        libc.malloc(1000)
        all_in.wait()
        all_in.wait()
    threads = [threading.Thread(target=allocate) for _ in range(8)]
    for thread in threads:
        thread.start()
    all_in.wait()
    with tempfile.NamedTemporaryFile(suffix=".xml") as info:
        out = libc.fopen(info.name.encode(), b"w")
        libc.malloc_info(0, out)
        libc.fclose(out)
        print(len(re.findall(r'<heap nr="', open(info.name).read())))
    all_in.wait()
""")

MAPPED = textwrap.dedent("""
    import ctypes
    {imports}
    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost")]
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.mallinfo2.restype = MallInfo2
    # Freeing a mapped 4 MiB block raises glibc's own threshold to 4 MiB, unless it was set.
    libc.free(libc.malloc(4 << 20))
    before = libc.mallinfo2().hblks
    block = libc.malloc(1 << 20)
    print(libc.mallinfo2().hblks - before)
""")


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    done = subprocess.run([sys.executable, "-c", code], env={**clean, **env},
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def test_importing_pipelines_first_sets_polars_allocator_options() -> None:
    seen = _run("import pipelines, polars, os; print(os.environ['_RJEM_MALLOC_CONF'])")
    # polars puts its own options first and ours after them: the later ones win in jemalloc.
    assert seen.endswith("," + POLARS_ALLOCATOR), seen


def test_a_users_own_polars_setting_is_kept() -> None:
    seen = _run("import pipelines, polars, os; print(os.environ['_RJEM_MALLOC_CONF'])",
                _RJEM_MALLOC_CONF="dirty_decay_ms:2000")
    assert seen.endswith(",dirty_decay_ms:2000"), seen
    assert POLARS_ALLOCATOR not in seen


@glibc_only
def test_importing_pipelines_caps_glibcs_arenas() -> None:
    assert GLIBC_MALLOC["M_ARENA_MAX"] == 2
    # Without it, 8 threads allocating at once get 8 arenas besides the main one.
    assert _run(ARENAS.format(imports="")) == "9"
    assert _run(ARENAS.format(imports="import pipelines")) == "2"


@glibc_only
def test_importing_pipelines_maps_large_blocks_apart() -> None:
    assert GLIBC_MALLOC["M_MMAP_THRESHOLD"] == 128 * 1024
    # glibc's own threshold follows the largest block freed: 1 MiB then comes from the heap.
    assert _run(MAPPED.format(imports="")) == "0"
    assert _run(MAPPED.format(imports="import pipelines")) == "1"


@glibc_only
def test_a_users_own_glibc_setting_is_kept() -> None:
    with_pipelines = ARENAS.format(imports="import pipelines")
    assert _run(with_pipelines, MALLOC_ARENA_MAX="4") == "4"
    assert _run(with_pipelines, GLIBC_TUNABLES="glibc.malloc.arena_max=3") == "3"
    mapped = MAPPED.format(imports="import pipelines")
    assert _run(mapped, MALLOC_MMAP_THRESHOLD_=str(8 << 20)) == "0"

"""Importing `pipelines` sets how polars' allocator gives memory back, and a writer's process
(`pmsw`, the code location) tunes glibc's malloc (pipelines/allocators.py; docs/operations.md,
"A group's memory and the allocator"), unless the user said otherwise in the environment,
and collects cycles less often.

Each case runs in a fresh interpreter: jemalloc reads its options once, when polars is first
imported, and glibc's malloc is set once per process. What the settings do to a run's memory is
measured, not asserted (b921919:benchmarks/results.md, "polars' allocator" and "glibc's
malloc tuned by default"): how soon freed pages leave depends on the machine's load, so a
test of it would be a test of time. What is asserted is that each setting reached its allocator."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from pipelines.allocators import GC_THRESHOLD, GLIBC_MALLOC, GLIBC_USERS_OWN, POLARS_ALLOCATOR

glibc_only = pytest.mark.skipif(
    not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"), reason="glibc's malloc")

OURS = ("_RJEM_MALLOC_CONF", *GLIBC_USERS_OWN)

ARENAS = textwrap.dedent("""
    import contextlib, ctypes, re, tempfile, threading
    {imports}
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    def arenas():
        with tempfile.NamedTemporaryFile(suffix=".xml") as info:
            out = libc.fopen(info.name.encode(), b"w")
            libc.malloc_info(0, out)
            libc.fclose(out)
            return len(re.findall(r'<heap nr="', open(info.name).read()))
    before = arenas()
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
    print(before, arenas())
    all_in.wait()
""")

MAPPED = textwrap.dedent("""
    import contextlib, ctypes
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


NOTHING = ""
NOTEBOOK = "import pipelines, pipelines.reports.reports, pipelines.warehouse"
CODE_LOCATION = "import pipelines.definitions"
PMSW = """
from pipelines.cli import main
with contextlib.suppress(Exception):  # `pmsw warehouse` alone: the group runs, then its usage
    main(["warehouse"], standalone_mode=False)
"""


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


def _arenas(process: str, **env: str) -> tuple[int, int]:
    """glibc's arenas after `process` started, and after 8 more threads allocated at once."""
    before, after = _run(ARENAS.format(imports=process), **env).splitlines()[-1].split()
    return int(before), int(after)


@glibc_only
@pytest.mark.parametrize("process", [NOTHING, NOTEBOOK])
def test_other_processes_keep_glibcs_arenas(process: str) -> None:
    before, after = _arenas(process)
    # An arena for each new thread, up to glibc's own limit of 8 per core.
    assert after == min(before + 8, 8 * (os.cpu_count() or 1)), (before, after)


@glibc_only
@pytest.mark.parametrize("process", [CODE_LOCATION, PMSW])
def test_a_writers_process_caps_glibcs_arenas(process: str) -> None:
    before, after = _arenas(process)
    # Threads started before the setting keep their arenas; none is created past two.
    assert after == max(before, GLIBC_MALLOC["M_ARENA_MAX"]), (before, after)


@glibc_only
def test_pmsw_sets_it_before_a_third_arena() -> None:
    before, after = _arenas(PMSW)
    assert before <= after == GLIBC_MALLOC["M_ARENA_MAX"], (before, after)


@glibc_only
@pytest.mark.parametrize(("process", "mapped"), [
    (NOTHING, "0"), (NOTEBOOK, "0"), (CODE_LOCATION, "1"), (PMSW, "1")])
def test_only_a_writers_process_maps_large_blocks_apart(process: str, mapped: str) -> None:
    assert GLIBC_MALLOC["M_MMAP_THRESHOLD"] == 128 * 1024
    # glibc's own threshold follows the largest block freed: 1 MiB then comes from the heap.
    assert _run(MAPPED.format(imports=process)).splitlines()[-1] == mapped


@glibc_only
def test_a_users_own_glibc_setting_is_kept() -> None:
    assert _arenas(PMSW, MALLOC_ARENA_MAX="4")[1] == 4
    assert _arenas(PMSW, GLIBC_TUNABLES="glibc.malloc.arena_max=3")[1] == 3
    mapped = MAPPED.format(imports=PMSW)
    assert _run(mapped, MALLOC_MMAP_THRESHOLD_=str(8 << 20)).splitlines()[-1] == "0"


@pytest.mark.parametrize(("process", "threshold"), [
    ("import pipelines.cli", GC_THRESHOLD),
    ("import pipelines.definitions", GC_THRESHOLD),
    ("import pipelines.reports", (700, 10, 10)),
])
def test_a_writers_process_collects_cycles_less_often(process: str,
                                                      threshold: tuple[int, int, int]) -> None:
    """`pmsw` and the code location: the cycle collector every GC_THRESHOLD objects, not
    Python's 700 (pipelines/allocators.py); a reader's process keeps Python's own."""
    seen = _run(f"{process}; import gc; print(tuple(gc.get_threshold()))")
    assert seen.splitlines()[-1] == str(threshold)

"""How our processes' two allocators give memory back (docs/operations.md, "A group's memory and
the allocator"; b921919:benchmarks/results.md, "polars' allocator" and "glibc's malloc tuned by
default"). Neither is made when the user set it already in the environment: theirs is kept.

- polars allocates through its own jemalloc, which keeps freed pages 500 ms and then 1,000 ms
  more as pages the kernel may take back but still counts as the process's. Within 100 ms, the
  peak of a group's run is lower at every size. jemalloc reads `_RJEM_MALLOC_CONF` when polars
  is imported, so `pipelines` sets it when imported: it holds in `pmsw`, the code location and
  a notebook that imports `pipelines` before polars.
- Everything else (Python, DuckDB, httpx, Dagster) allocates through glibc's malloc, whose
  arenas fragment over a long multi-threaded run. Two arenas, and every block of 128 KiB or
  more mapped apart and returned on free, took 28 MiB off the peak of a 40 hotels' run
  (434 MiB against 462; the growth with the properties stays, b921919:benchmarks/results.md, "The
  peak RSS of a child counted its parent's"). glibc reads its environment when the process
  starts, so the same settings are made with `mallopt` where a writer's process starts: the
  `pmsw` command and the code location (pipelines.definitions, whose process and run workers
  write the warehouse). A notebook keeps glibc's own
  behaviour, as it keeps DuckDB's own memory limit (a reader should cache what it reads).
- Python's cycle collector looks at its youngest objects every 700 allocated and not freed;
  the imports and Dagster's run of a `pmsw sync` make millions that live to its end. At every
  20,000 (GC_THRESHOLD; cycles still collected), set where glibc's malloc is, a sync with
  nothing to land took 5.2 CPU-s against 5.7, its peak RSS 349 MiB either way
  (docs/scaling.md, "The fixed CPU of a sync").
"""

from __future__ import annotations

import ctypes
import gc
import os

POLARS_ALLOCATOR = "dirty_decay_ms:100,muzzy_decay_ms:0"
"""jemalloc options appended to polars' own (`_RJEM_MALLOC_CONF`, read when polars is imported)."""

GLIBC_MALLOC = {"M_ARENA_MAX": 2, "M_MMAP_THRESHOLD": 128 * 1024}
"""glibc's malloc parameters set by `mallopt`; the same as `MALLOC_ARENA_MAX=2
MALLOC_MMAP_THRESHOLD_=131072` in the environment of the process."""

GC_THRESHOLD = (20_000, 50, 50)
"""`gc.set_threshold` of a writer's process: Python's default is (700, 10, 10)."""

_MALLOPT_PARAMETER = {"M_MMAP_THRESHOLD": -3, "M_ARENA_MAX": -8}
"""The parameters' numbers in glibc's <malloc.h>."""

GLIBC_USERS_OWN = ("GLIBC_TUNABLES", "MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_")
"""Any of these in the environment means the user tuned glibc's malloc: we leave it alone."""


def set_polars_allocator() -> None:
    os.environ.setdefault("_RJEM_MALLOC_CONF", POLARS_ALLOCATOR)


def tune_gc() -> None:
    gc.set_threshold(*GC_THRESHOLD)


def tune_glibc_malloc() -> bool:
    """Set GLIBC_MALLOC in this process's glibc; False where there is no glibc or the user
    tuned it (GLIBC_USERS_OWN)."""
    if any(name in os.environ for name in GLIBC_USERS_OWN):
        return False
    if not _glibc():
        return False
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return all(mallopt(_MALLOPT_PARAMETER[name], value) == 1
               for name, value in GLIBC_MALLOC.items())


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (AttributeError, ValueError, OSError):  # no confstr, or not this name: not glibc
        return False

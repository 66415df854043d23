"""Fewer malloc arenas for the threads of a multi-property step.

glibc's malloc gives a thread that finds the other arenas busy an arena of its own, up to 8
per core, and an arena keeps for its next allocations what its threads freed. A group run
starts a thread per property and the client's fetching threads in each (pipelines.defs.
each_property), so every arena grows to the largest landing any of its threads made and
stays there: the process's memory grew with the properties of the run, not with those in
flight (benchmarks/results.md, "Memory against the number of properties"). Two arenas are
enough for threads that mostly wait on the network.

MALLOC_ARENA_MAX, when set, is glibc's own setting and is left to it; outside glibc (macOS,
musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import os

M_ARENA_MAX = -8
"""mallopt's parameter number of the arena limit (glibc's malloc.h)."""
ARENAS = 2
ENV = "MALLOC_ARENA_MAX"


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Cap the process's malloc arenas at `arenas` (for arenas made from now on); True when
    glibc took the limit."""
    if ENV in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))

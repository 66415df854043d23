"""Progress of the streams, for whoever shows it (`pmsw sync` draws a bar per stream).

The sync core reports through the hook installed here; with none installed it reports to
nobody. Runs in the same process as the caller (dg.materialize runs in process).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Hook = Callable[[str, str, int, int], None]
"""hook(property code, stream, done, total): `done` of `total` units (total 0: unknown)."""

_hook: Hook | None = None


def report(code: str, stream: str, done: int, total: int) -> None:
    if _hook is not None:
        _hook(code, stream, done, total)


@contextmanager
def progress_hook(hook: Hook) -> Iterator[None]:
    global _hook
    before, _hook = _hook, hook
    try:
        yield
    finally:
        _hook = before

"""Many calls at once: a thread pool whose calls all draw on the client's one token bucket.

A slow server does not slow the rate: while some calls wait for answers, others are sent as
soon as the bucket allows, so the limit stays busy. The pool size only bounds how many calls
are in flight; the bucket alone decides how many are sent per minute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def map_concurrently(
    fn: Callable[[T], R], items: Iterable[T], *, concurrency: int
) -> Iterator[tuple[T, R]]:
    """`(item, fn(item))` in the order of `items`; the first error raised stops the rest."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    todo = list(items)
    if concurrency == 1:
        for item in todo:
            yield item, fn(item)
        return
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="pms-api") as pool:
        futures: list[Future[R]] = [pool.submit(fn, item) for item in todo]
        try:
            for item, future in zip(todo, futures, strict=True):
                yield item, future.result()
        finally:
            for future in futures:
                future.cancel()

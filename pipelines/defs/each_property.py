"""The properties of one step: a run of one partition has one, a run of a range (the hourly
group run, `pmsw sync` of several properties) has them all. Each property runs on its own
thread (its own client, bounded by its own key's limit; its own cursor of the warehouse);
their landings take turns on the process's writer lock (pipelines.warehouse.transaction).

A property that fails does not stop the others: the step waits for every property, then
raises PropertiesFailedError naming each that failed; what the others landed stays landed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TypeVar

import duckdb

from pipelines.warehouse import out_of_memory

T = TypeVar("T")


class PropertiesFailedError(RuntimeError):
    """Properties of a multi-property step that failed, each with its error."""

    def __init__(self, what: str, errors: dict[str, BaseException]) -> None:
        self.what = what
        self.errors = errors
        super().__init__(f"{what}: " + "; ".join(
            f"property {code}: {type(error).__name__}: {error}"
            for code, error in sorted(errors.items())))


def each_property(codes: Sequence[str], work: Callable[[str], T],
                  at_once: int) -> tuple[dict[str, T], dict[str, BaseException]]:
    """`work(code)` for every code, `at_once` at a time: (results, errors) by code. A single
    code runs on the caller's thread and its error is raised as it is."""
    work = _explained(work)
    if len(codes) == 1:
        return {codes[0]: work(codes[0])}, {}
    results: dict[str, T] = {}
    errors: dict[str, BaseException] = {}
    with ThreadPoolExecutor(max_workers=max(1, min(at_once, len(codes))),
                            thread_name_prefix="property") as pool:
        futures = {pool.submit(work, code): code for code in codes}
        for future in as_completed(futures):
            code = futures[future]
            error = future.exception()
            if error is None:
                results[code] = future.result()
            else:
                errors[code] = error
    return results, errors


def _explained(work: Callable[[str], T]) -> Callable[[str], T]:
    """`work`, with DuckDB's out-of-memory error told as the setting that bounds it."""
    def run(code: str) -> T:
        try:
            return work(code)
        except duckdb.OutOfMemoryException as error:
            raise out_of_memory(error) from error
    return run

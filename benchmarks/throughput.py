"""Requests per second the sandbox sustains for the list and the detail of reservations.

The sandbox runs in its own process (`pmsw sandbox serve`, limit lifted, no added latency) on
a copy of the simulated hotel; N client threads, each with its own connection pool, call one
endpoint for a fixed time. Every call must answer 200 (others are counted as errors).
"""

from __future__ import annotations

import itertools
import shutil
import threading
import time
from pathlib import Path

import httpx

from pipelines.demo.sandbox_process import sandbox_process

from .bench_ingest import SERVE
from .results import Throughput

KEY = "sbx_test_other_property"


def _hammer(url_of: list[str], threads: int, seconds: float) -> tuple[int, int, float]:
    """(answers, errors, elapsed) of `threads` clients cycling through the URLs."""
    stop = threading.Event()
    counts = [[0, 0] for _ in range(threads)]

    def client(index: int) -> None:
        urls = itertools.cycle(url_of[index::threads] or url_of)
        with httpx.Client(headers={"Authorization": f"Bearer {KEY}"}, timeout=30) as http:
            while not stop.is_set():
                status = http.get(next(urls)).status_code
                counts[index][0 if status == 200 else 1] += 1

    workers = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    return sum(c[0] for c in counts), sum(c[1] for c in counts), elapsed


def measure(hotel_db: Path, work: Path, threads: int = 8,
            seconds: float = 10.0) -> list[Throughput]:
    db = work / "throughput.sqlite"
    shutil.copyfile(hotel_db, db)
    with sandbox_process(db_path=db, extra_args=SERVE) as base:
        first = httpx.get(f"{base}/reservations", params={"page_size": 200},
                          headers={"Authorization": f"Bearer {KEY}"}).json()
        ids = [r["id"] for r in first["data"]]
        pages = max(1, int(first["pages"]))
        lists = [f"{base}/reservations?page_size=200&page={p}" for p in range(1, pages + 1)]
        details = [f"{base}/reservations/{i}" for i in ids]
        results = []
        for label, urls in (("GET /reservations?page_size=200", lists),
                            ("GET /reservations/{id}", details)):
            answered, errors, elapsed = _hammer(urls, threads, seconds)
            results.append(Throughput(label, threads, elapsed, answered, errors))
        return results

"""Benchmark: folios of many reservations through `PmsClient`, at the server's real limit.

The sandbox runs with the spec's limit (600 calls per minute per key, burst 120) and 200 ms
added to every call. The reservations are created first with the server's limit lifted
(and the server's bucket replaced by a fresh one before timing), so setup spends nothing of
the measured run. Then `folios_for_reservations` fetches one folio list per reservation.

Printed: calls per minute achieved against the calls per minute the server's bucket allows
over the same window (its burst plus its rate), the steady rate after the burst against
600/min, and the 429 answers received (the target: ratio >= 0.95, zero 429s).

    .venv/bin/python benchmarks/bench_client_folios.py                  # 1,500 reservations
    .venv/bin/python benchmarks/bench_client_folios.py --reservations 300
"""

from __future__ import annotations

import argparse
import logging
import time
from datetime import timedelta

from models import NewParty, ReservationCreate, RoomRequest
from pipelines.api import PmsClient, TokenBucket
from sandbox.http.faults import FaultConfig
from sandbox.http.ratelimit import RateLimiter
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings

KEY = "sbx_test_all_scopes"
RATE_PER_MINUTE = 600
BURST = 120


class CallLog(logging.Handler):
    """Counts the client's answers by status, and when each was received."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.statuses: dict[int, int] = {}
        self.times: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.msg, str) and record.msg.startswith("%s %s -> %d"):
            assert isinstance(record.args, tuple)
            status = int(str(record.args[2]))
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.times.append(time.monotonic())


def create_reservations(base_url: str, count: int) -> list[int]:
    setup = PmsClient(base_url, KEY, rate_limiter=TokenBucket(10**7, 10**6, margin=0))
    with setup:
        business_date = setup.get_property().business_date
        types = [t.id for t in setup.list_room_types()]

        def create(n: int) -> int:
            arrival = business_date + timedelta(days=n % 300)
            body = ReservationCreate(
                rooms=[RoomRequest(room_type_id=types[n % len(types)], arrival=arrival,
                                   departure=arrival + timedelta(days=1 + n % 4), adults=2)],
                new_party=NewParty(last_name=f"Guest {n}"), market="leisure", force=True)
            return setup.create_reservation(body).reservation.id

        return [rid for _, rid in setup.fetch_many(create, range(count), concurrency=8)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reservations", type=int, default=1500)
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()

    settings = SandboxSettings(rate_per_minute=RATE_PER_MINUTE, burst=BURST)
    with running_sandbox(settings) as sandbox:
        state = sandbox.state
        state.limiter = RateLimiter(10**7, 10**6)  # setup only
        started = time.monotonic()
        ids = create_reservations(sandbox.base_url, args.reservations)
        print(f"setup: {len(ids)} reservations created in {time.monotonic() - started:.1f} s")

        state.limiter = RateLimiter(RATE_PER_MINUTE, BURST)  # the real limit, a full bucket
        state.faults = FaultConfig(latency_ms=args.latency_ms)
        calls = CallLog()
        logger = logging.getLogger("pipelines.api")
        logger.addHandler(calls)
        logger.setLevel(logging.DEBUG)
        client = PmsClient(sandbox.base_url, KEY, rate_per_minute=RATE_PER_MINUTE, burst=BURST)
        with client:
            start = time.monotonic()
            folios = client.folios_for_reservations(ids, concurrency=args.concurrency)
            elapsed = time.monotonic() - start
        logger.removeHandler(calls)

    answered = sum(calls.statuses.values())
    rate_per_second = RATE_PER_MINUTE / 60
    achieved = answered / elapsed * 60
    allowed = (BURST + rate_per_second * elapsed) / elapsed * 60
    # From the first answer surely sent after the burst (the burst's calls in flight aside).
    settled = BURST + args.concurrency
    after_burst = calls.times[settled:] if len(calls.times) > settled + 1 else []
    print(f"fetched the folios of {len(folios)} reservations: {answered} calls in {elapsed:.1f} s"
          f" ({args.latency_ms} ms added latency, concurrency {args.concurrency})")
    print(f"achieved {achieved:.0f} calls/min / allowed {allowed:.0f} calls/min "
          f"(burst {BURST} + {RATE_PER_MINUTE}/min over the window) = {achieved / allowed:.3f}")
    if after_burst:
        steady = (len(after_burst) - 1) / (after_burst[-1] - after_burst[0]) * 60
        print(f"steady rate after the burst: {steady:.0f} calls/min / {RATE_PER_MINUTE} "
              f"= {steady / RATE_PER_MINUTE:.3f}")
    statuses = dict(sorted(calls.statuses.items()))
    print(f"429 answers: {calls.statuses.get(429, 0)}; statuses: {statuses}")


if __name__ == "__main__":
    main()

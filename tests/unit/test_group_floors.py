"""bench_group_files' floors, on the 50 hotels' figures of docs/scaling.md ("50 hotels,
measured"), worked by hand there: GRP049 alone 257.7 s, the 50 in 1,151.5 s, at most 2,150
calls a property, 744.7 CPU-s of syncs and 161.3 of the sandboxes on 2 cores."""

from __future__ import annotations

from benchmarks.bench_group_files import floors
from benchmarks.group_rig import limit_floor


def test_the_floors_of_the_50_hotels_run() -> None:
    assert limit_floor(2_150) == 203.0  # (2,150 - 120 at once) / 10 a second
    assert limit_floor(100) == 0.0  # within the burst: no wait
    calls = {f"GRP{n:03}": 864 for n in range(1, 51)} | {"GRP031": 2_150, "GRP049": 2_128}
    said = floors(1_151.5, 257.7, calls, 744.7 + 161.3, 2)
    assert "the rate limit 203.0 s (GRP031's 2,150 calls, 120 at once, the rest at 10/s): " \
           "the group 5.67x" in said
    # 906 CPU-s / 2 cores = 453 s: the group 2.54x it, the floor 1.76x the slowest alone;
    # 1.5 x 257.7 = 387 s, 906 / 386.55 = 2.34 cores
    assert "the CPU 453.0 s (906.0 CPU-s of syncs and sandboxes over 2 cores): the group " \
           "2.54x, the floor 1.76x the slowest alone" in said
    assert "within 1.5x the slowest alone (387 s) the group's CPU needs 2.34 idle cores" in said

"""Does Dagster's in-memory event log make a group run's memory grow per property? (issue 18)

    python -m benchmarks.bench_event_log [--hotels 4] [--copies 10]

`pmsw sync` runs the Dagster definitions with `dg.materialize` on an ephemeral instance, whose
event log is an in-memory SQLite database: every event of the run (materializations with
their metadata, checks, step events, logs) stays in the process until the run ends. A group
run of N properties holds N properties' events, so this was a suspect for the peak RSS growing
with the properties of the run at the same number in flight (bench_group --scale).

It simulates a group of N hotels (3 days after 30 booking-only days), serves them from an
in-process sandbox, runs the initial load of the N in one `materialize` with an ephemeral
instance it keeps, then stores the run's own events `--copies` more times into that
instance's event log (each copy as another run), trimming malloc before and after: the RSS
growth per property's events. The ratio is that growth per property against the run's own
RSS per property (RSS after the run / N).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from .machine import describe, rss_mib


def trimmed_rss() -> float:
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    return rss_mib()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=4)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args(argv)

    import dagster as dg
    from dagster._serdes import serialize_value

    from pipelines import materialize as run_module
    from pipelines.ingest import STREAMS
    from sandbox.http.server import serving_simulation
    from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
    from sandbox.simulator.params import SimParams
    from sandbox.simulator.run import simulate_database

    machine = describe()
    print(f"machine: {machine['nproc']} cores, {machine['memory']}, load "
          f"{machine['load average at start (1/5/15 min)']}")
    n = args.hotels
    with tempfile.TemporaryDirectory(prefix="pmsw-bench-events-") as tmp:
        work = Path(tmp)
        db = work / "group.sqlite"
        simulate_database(str(db), days=3, seed=18, group=n,
                          params=replace(SimParams(), warmup_days=30),
                          property_ids=tuple(GROUP_FIRST_ID + i for i in range(n)))
        with serving_simulation(db) as sandbox:
            codes = [group_code(i) for i in range(1, n + 1)]
            properties = {"properties": [
                {"code": code, "base_url": sandbox.base_url, "api_key_env": f"KEY_{code}",
                 "rate_per_minute": 1_000_000, "burst": 1_000_000} for code in codes]}
            path = work / "properties.yaml"
            path.write_text(yaml.safe_dump(properties), encoding="utf-8")
            os.environ["PMSW_PROPERTIES_FILE"] = str(path)
            for i, code in enumerate(codes, start=1):
                os.environ[f"KEY_{code}"] = group_key(i)

            kept: dict[str, Any] = {}
            materialize = dg.materialize

            def keeping_the_instance(*a: Any, **k: Any) -> Any:
                k["instance"] = kept["instance"] = dg.DagsterInstance.ephemeral()
                kept["result"] = materialize(*a, **k)
                return kept["result"]

            dg.materialize = keeping_the_instance
            runs = run_module.materialize(codes, work / "warehouse.duckdb", list(STREAMS))
            assert all(r.error is None for r in runs), [r.error for r in runs]
            instance, result = kept["instance"], kept["result"]
            events = instance.all_logs(result.run_id)
            kinds = Counter(e.dagster_event.event_type_value if e.dagster_event else "log"
                            for e in events)
            size = sum(len(serialize_value(e)) for e in events)
            after_run = trimmed_rss()
            storage = instance.event_log_storage
            for copy in range(args.copies):
                run_id = f"copy{copy:04d}{result.run_id[8:]}"
                for event in events:
                    storage.store_event(event._replace(run_id=run_id))
            grown = trimmed_rss() - after_run
    per_property = grown / (args.copies * n)
    run_per_property = after_run / n
    print(f"\n{n} hotels' initial load in one run: {len(events)} events "
          f"({len(events) / n:.0f} per property), {size / n / 1024:.0f} KiB serialized per "
          f"property; most: {', '.join(f'{k} {v}' for k, v in kinds.most_common(4))}")
    print("| RSS after the run MiB | events stored again | RSS growth MiB | "
          "growth per property's events MiB | vs the run's RSS per property |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {after_run:.0f} | {args.copies} x {n} properties | {grown:.1f} | "
          f"{per_property:.3f} | {per_property / run_per_property:.4f}x |")


if __name__ == "__main__":
    main()

"""The demo's steps in CPU-s (this process: the simulation, the syncs, marts; the sandbox child apart) at a row group size."""
from __future__ import annotations
import contextlib, os, resource, sys, tempfile, time
from pathlib import Path
size = int(sys.argv[1]); repo = sys.argv[2]
sys.path.insert(0, repo)
import pipelines.warehouse.connection as wc
if size:
    wc.ROW_GROUP_SIZE = size
from pipelines.demo import DemoConfig, run_demo
import pipelines.demo.run as dr
cpu = {}
orig = dr.Progress.step
def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
@contextlib.contextmanager
def step(self, key, text):
    c0 = cpu_s()
    with orig(self, key, text) as note:
        yield note
    cpu[key] = cpu_s() - c0
dr.Progress.step = step
root = Path(tempfile.mkdtemp(prefix="s40rg-demo-", dir="/tmp/s40-rg"))
l0 = os.getloadavg()[0]; t0 = time.perf_counter()
res = run_demo(DemoConfig(data_dir=root, warehouse=root / "warehouse.duckdb", progress=False))
print(f"size {wc.ROW_GROUP_SIZE} ({repo}): load {l0:.1f}->{os.getloadavg()[0]:.1f}; wall {time.perf_counter()-t0:.0f}")
for k, v in res.seconds.items():
    print(f"  {k:<12} wall {v:7.1f}  cpu {cpu.get(k, 0):7.1f}")

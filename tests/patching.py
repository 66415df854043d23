"""A publish killed at its patch step (tests/warehouse/test_publish_generations.py,
tests/readers/test_readers_and_writers.py): a process that publishes again and again, each time
after a change of many blocks, started in a session of its own; the session killed (SIGKILL:
the publisher and its patch child) the moment a patch child is seen writing into the read copy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipelines.warehouse import MEMORY_ENV

PUBLISH_FOREVER = """
import sys
from pipelines.warehouse import connect, publish
path = sys.argv[1]
conn = connect(path)
conn.execute("CREATE TABLE IF NOT EXISTS core.filler AS "
             "SELECT range AS i, md5(range::VARCHAR) AS s FROM range(1000000)")
while True:
    conn.execute("UPDATE core.filler SET s = md5(s)")  # every block of the table anew
    done = publish(conn, path)
    print(done.how, flush=True)
"""


def patching(publisher: int, generations: tuple[Path, Path]) -> Path | None:
    """The generation a child of `publisher` running pipelines/warehouse/patch.py writes into."""
    wanted = {str(g).encode(): g for g in generations}
    try:
        children = Path(f"/proc/{publisher}/task/{publisher}/children").read_text().split()
    except OSError:
        return None
    for child in children:
        try:
            argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(a.endswith(b"patch.py") for a in argv):
            for arg in argv:
                if arg in wanted:
                    return wanted[arg]
    return None


def kill_while_patching(warehouse: Path, copy: Path, generations: tuple[Path, Path],
                        cwd: Path, env: dict[str, str], publishes: int = 2) -> bool:
    """Start PUBLISH_FOREVER on `warehouse`; after `publishes` whole publishes, SIGKILL its
    session the moment a patch child appears. True when the kill came before the read copy
    `copy` was pointed at the generation being patched (the publish died midway)."""
    proc = subprocess.Popen([sys.executable, "-c", PUBLISH_FOREVER, str(warehouse)], cwd=cwd,
                            env={**env, MEMORY_ENV: "1GB"},  # the UPDATE of every row
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stdout is not None
    assert proc.stderr is not None
    try:
        for _ in range(publishes):
            line = proc.stdout.readline().strip()
            assert line in ("patch", "copy"), proc.stderr.read()[-3000:]
        deadline = time.monotonic() + 120
        target = None
        while target is None and proc.poll() is None and time.monotonic() < deadline:
            target = patching(proc.pid, generations)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        return target is not None and copy.resolve() != target.resolve()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()

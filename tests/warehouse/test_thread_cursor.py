"""Each property of a group lands on its own cursor of the warehouse (pipelines.defs.ingest.assets):
the cursor keeps connect()'s session, UTC whatever the machine's zone (connect(): "casts to
DATE are UTC whatever the machine's zone"). A bare DuckDB cursor starts in the machine's
zone, where a TIMESTAMPTZ cast to DATE gives the machine's local date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from pipelines.warehouse import connect, thread_cursor
conn = connect(sys.argv[1])
cursor = thread_cursor(conn)
bare = conn.cursor()
sql = "SELECT current_setting('TimeZone'), CAST(TIMESTAMPTZ '2026-03-01 02:30:00+00' AS DATE)"
print(cursor.execute(sql).fetchone(), bare.execute(sql).fetchone())
"""


def test_a_thread_cursor_reads_and_casts_in_utc_on_a_machine_in_new_york(tmp_path: Path
                                                                          ) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "w.duckdb")], cwd=REPO,
                          env={"TZ": "America/New_York", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120, check=True)
    ours, bare = done.stdout.strip().split(") (")
    assert ours == "('UTC', datetime.date(2026, 3, 1)"
    # the bare cursor would have landed the night before: why thread_cursor exists
    assert bare == "'America/New_York', datetime.date(2026, 2, 28))"

"""The soak's reader process (tests/verify/test_soak.py): it opens the read copy every INTERVAL
seconds, as a notebook or a BI tool would, queries it and checks the copy is one complete state,
until STOP exists; then it writes its tally to OUT (JSON).

A complete state: the marts were built from the core tables beside them, so the revenue tie-out
covers exactly the dates the property's business date has closed, with no unexplained cent.

    python -m tests.verify.reader WAREHOUSE STOP OUT INTERVAL
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from pipelines.warehouse import open_read_copy

CHECK = """
SELECT (SELECT max(business_date) FROM core.property WHERE property_id = 1),
       (SELECT max(date) + 1 FROM mart.revenue_tieout WHERE property_id = 1),
       (SELECT count(*) FROM mart.revenue_tieout WHERE unexplained_net <> 0),
       (SELECT count(*) FROM mart.occupancy_daily),
       (SELECT count(*) FROM meta.published)
"""


def main(warehouse: str, stop: str, out: str, interval: float) -> None:
    reads = failures = incomplete = 0
    errors: list[str] = []
    while not Path(stop).exists():
        started = time.monotonic()
        try:
            with open_read_copy(warehouse) as conn:
                row = conn.execute(CHECK).fetchone()
            reads += 1
            assert row is not None
            business_date, closed_to, unexplained, nights, published = row
            if business_date != closed_to or unexplained or not nights or not published:
                incomplete += 1
                errors.append(f"incomplete: {row}")
        except Exception as error:  # every failure is counted and kept, never raised
            failures += 1
            errors.append(f"{type(error).__name__}: {error}")
        time.sleep(max(0.0, interval - (time.monotonic() - started)))
    Path(out).write_text(json.dumps({"reads": reads, "failures": failures,
                                     "incomplete": incomplete, "errors": errors[:10]}),
                         encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))

"""`python -m tests.pipeline.sync_runner DB BASE_URL RUN_ID`: one sync of every stream of the
property of $PMS_API_KEY (the core that the assets run), in a process of its own, so that a
test can SIGKILL it (the meter's test hook, or a signal at any moment)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .helpers import sync


def main() -> None:
    db, base_url, run_id = sys.argv[1:4]
    sync(Path(db), base_url, run_id, key=os.environ["PMS_API_KEY"])


if __name__ == "__main__":
    main()

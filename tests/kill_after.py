"""`python -m tests.kill_after N MODULE [ARG...]`: `python -m MODULE ARG...`, killed with SIGKILL
just before its API call N + 1 (the crash-and-rerun tests: tests/pipeline/test_crash_rerun.py,
tests/reliability/test_recon_crash.py). The production code has no hook: this wraps the calls
the tests count before MODULE runs, all of the process:

- every attempt a sync's meter sends (`pipelines.api.CallMeter.on_request`, retries included:
  the `calls` of meta.sync_runs);
- every call of the reconciliation's apply (`pipelines.recon.Applier`: per reservation a GET
  of its folios, a POST per charge, a GET of each folio posted on), once per call whatever the
  client retries. In `pmsw reconcile --apply` only the apply calls these client methods.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any

from pipelines.api import CallMeter, PmsClient

APPLY_CALLS = ("list_folios", "post_charge", "get_folio")


def install(after: int) -> None:
    lock, calls = threading.Lock(), [0]

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            with lock:
                if calls[0] >= after:
                    os.kill(os.getpid(), signal.SIGKILL)
                calls[0] += 1
            return method(*args, **kwargs)

        return call

    for owner, name in ((CallMeter, "on_request"), *((PmsClient, n) for n in APPLY_CALLS)):
        setattr(owner, name, counted(getattr(owner, name)))


if __name__ == "__main__":
    after, module, *args = sys.argv[1:]
    install(int(after))
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)

"""`python -m tests.kill_after N MODULE [ARG...]`: run `python -m MODULE ARG...` in this process,
killed with SIGKILL just before it sends its API call N + 1 (the crash-and-rerun tests,
tests/pipeline/test_crash_rerun.py and tests/reliability/test_recon_crash.py). The production
code has no hook: this module wraps the two call paths the tests count, before MODULE runs.

The calls counted, all of the process:
- every attempt a sync's meter sends (`pipelines.api.CallMeter.on_request`, retries included:
  the `calls` of meta.sync_runs);
- every call the reconciliation's apply makes on its client (`pipelines.recon.Applier`: per
  reservation a GET of its folios, a POST per charge, a GET of each folio posted on), counted
  once per call whatever the client retries.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from pipelines.api import CallMeter, PmsClient
from pipelines.recon import Applier


class _Killer:
    """Counts calls; the one that would be number `after` + 1 kills the process first."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.calls = 0
        self._lock = threading.Lock()

    def count(self) -> None:
        with self._lock:
            if self.calls >= self.after:
                os.kill(os.getpid(), signal.SIGKILL)
            self.calls += 1


class _CountedClient:
    """The apply's client, each of whose method calls is counted before it is made."""

    def __init__(self, client: PmsClient, killer: _Killer) -> None:
        self._client = client
        self._killer = killer

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._client, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            self._killer.count()
            return value(*args, **kwargs)

        return call


def install(after: int) -> None:
    """Wrap the meters' request hook and the apply's client: SIGKILL before call after + 1."""
    killer = _Killer(after)
    on_request: Callable[[CallMeter, Any], None] = CallMeter.on_request
    applier_init: Callable[..., None] = Applier.__init__

    def counted_request(meter: CallMeter, request: Any) -> None:
        killer.count()
        on_request(meter, request)

    def counted_applier(applier: Applier, client: PmsClient, *args: Any, **kwargs: Any) -> None:
        applier_init(applier, _CountedClient(client, killer), *args, **kwargs)

    CallMeter.on_request = counted_request  # type: ignore[method-assign, assignment]
    Applier.__init__ = counted_applier  # type: ignore[method-assign, assignment]


def main() -> None:
    after, module, *args = sys.argv[1:]
    install(int(after))
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()

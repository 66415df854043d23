"""A webhook receiver's memory: verify each delivery, refuse replays, skip repeats.

- A delivery whose signature (`t`, `v1`) was already accepted is a replay: someone resent a
  captured request within the timestamp tolerance. Refused (WebhookSignatureError).
- A delivery of an event id already handled is a repeat (spec, Webhook delivery 6: at least
  once; a retry carries a new timestamp and signature): accepted, but `receive` returns None
  so the event is not handled twice. Pings (id 0) are never remembered.

Signatures are remembered for the tolerance window only (older ones fail the timestamp check
anyway); event ids up to `max_events`, the oldest forgotten first.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping

from models.events import WebhookPayload
from pipelines.api._exceptions import WebhookSignatureError
from pipelines.api._webhooks import DEFAULT_TOLERANCE, SIGNATURE_HEADER, _header, parse_webhook


class WebhookReceiver:
    """Receive the deliveries of one subscription (its secret is never shown in a repr)."""

    def __init__(self, secret: str, *, tolerance: int = DEFAULT_TOLERANCE,
                 max_events: int = 100_000) -> None:
        self._secret = secret
        self.tolerance = tolerance
        self.max_events = max_events
        self._signatures: dict[str, int] = {}
        self._events: OrderedDict[int, None] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"WebhookReceiver(tolerance={self.tolerance})"

    def receive(self, raw_body: bytes, headers: Mapping[str, str],
                now: int | None = None) -> WebhookPayload | None:
        """The payload to handle, None for a repeat of an event already handled; raises
        WebhookSignatureError for a bad, stale, future or replayed signature."""
        current = int(time.time()) if now is None else now
        payload = parse_webhook(raw_body, headers, self._secret, tolerance=self.tolerance,
                                now=current)
        signature = _header(headers, SIGNATURE_HEADER) or ""
        with self._lock:
            self._forget_before(current - self.tolerance)
            if signature in self._signatures:
                raise WebhookSignatureError(
                    f"replayed delivery: this signature was already received (event "
                    f"{payload.id})")
            timestamp = int(signature.split("t=", 1)[1].split(",", 1)[0])
            self._signatures[signature] = timestamp
            if payload.id == 0:
                return payload
            if payload.id in self._events:
                return None
            self._events[payload.id] = None
            while len(self._events) > self.max_events:
                self._events.popitem(last=False)
        return payload

    def _forget_before(self, oldest: int) -> None:
        for signature in [s for s, t in self._signatures.items() if t < oldest]:
            del self._signatures[signature]

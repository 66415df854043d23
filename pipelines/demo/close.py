"""The demo's daily close: after each played day's sync, the day's POS ledger files and the
folios are landed and every hotel runs the daily close (pipelines/reconcile/close.py): the
date just closed applied for the automatic kinds (POS tickets, city tax), then the folios of
today's departures, so what the POS interface dropped is posted while the guest is in house
and only the truly late postings end up blocked."""

from __future__ import annotations

import uuid
from typing import Any

from pipelines.api import PmsClient
from pipelines.ingest import SyncSettings, sync_property
from pipelines.reconcile import CloseReport, daily_close
from pipelines.transforms.reconcile import load_rules
from pipelines.warehouse import connect

from .config import DemoConfig, DemoError
from .sandbox_admin import hand_over_pos_files

CLOSE_STREAMS = ("folios", "pos_ledger")


def close_day(config: DemoConfig, endpoints: list[Any], settings: SyncSettings
              ) -> list[CloseReport]:
    """Land the folios and the POS files of the day, then close every hotel (the warehouse
    must not be held open by the caller)."""
    hand_over_pos_files(config.pos_incoming, config.pos_root, [h.code for h in config.hotels])
    conn = connect(config.warehouse)
    try:
        for endpoint in endpoints:
            streams = sync_property(endpoint, conn, f"demo-close-{uuid.uuid4().hex[:8]}",
                                    settings, CLOSE_STREAMS)
            failed = [s for s in streams if s.status != "success"]
            if failed:
                raise DemoError(f"{endpoint.code}: stream {failed[0].stream} "
                                f"{failed[0].status}: {failed[0].message}")
    finally:
        conn.close()
    rules = load_rules(None)
    reports = []
    for hotel, endpoint in zip(config.hotels, endpoints, strict=True):
        with PmsClient(endpoint.base_url, endpoint.api_key,
                       rate_per_minute=endpoint.rate_per_minute,
                       burst=endpoint.burst) as client:
            reports.append(daily_close(config.warehouse, rules, client,
                                       property_id=hotel.property_id))
    return reports

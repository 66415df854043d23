"""The demo's daily close: after each played day's sync, the day's POS ledger files and the
folios are landed and every hotel runs the daily close (pipelines/reconcile/close.py): the
date just closed applied for the automatic kinds (POS tickets, city tax), then the folios of
today's departures, so what the POS interface dropped is posted while the guest is in house
and only the truly late postings end up blocked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipelines.properties import load_properties
from pipelines.reconcile import CloseReport, daily_close
from pipelines.transforms.reconcile import load_rules

from .config import DemoConfig
from .sandbox_admin import hand_over_pos_files

CLOSE_STREAMS = ("folios", "pos_ledger")


def close_day(config: DemoConfig, sync: Callable[[str, Sequence[str]], object]
              ) -> list[CloseReport]:
    """Land the folios and the POS files of the day (`sync`: the demo's materialization of
    streams of a property), then close every hotel."""
    hand_over_pos_files(config.pos_incoming, config.pos_root, [h.code for h in config.hotels])
    for hotel in config.hotels:
        sync(hotel.code, CLOSE_STREAMS)
    rules = load_rules(None)
    reports = []
    for prop in load_properties(config.properties_file):
        with prop.endpoint().client() as client:
            reports.append(daily_close(config.warehouse, rules, client,
                                       property_id=client.get_property().id))
    return reports

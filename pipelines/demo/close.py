"""The demo's daily close: the day's POS ledger files are handed over before the day's sync
(which lands them with the folios), then every hotel runs the daily close
(pipelines/recon/close.py): the date just closed applied for the automatic kinds (POS
tickets, city tax), then the folios of today's departures, so what the POS interface dropped
is posted while the guest is in house and only the truly late postings end up blocked."""

from __future__ import annotations

from pipelines.demo.config import DemoConfig
from pipelines.demo.sandbox_admin import hand_over_pos_files
from pipelines.properties import load_properties
from pipelines.recon import CloseReport, daily_close
from pipelines.recon.logic import load_rules

CLOSE_STREAMS = ("folios", "pos_ledger")


def hand_over_the_day(config: DemoConfig) -> None:
    """The POS files the sandbox wrote today, into each hotel's folder, for the day's sync."""
    hand_over_pos_files(config.pos_incoming, config.pos_root, [h.code for h in config.hotels])


def close_day(config: DemoConfig) -> list[CloseReport]:
    """Close every hotel, once the day's sync has landed its folios and POS files
    (CLOSE_STREAMS)."""
    rules = load_rules(None)
    reports = []
    for prop in load_properties(config.properties_file):
        with prop.endpoint().client() as client:
            reports.append(daily_close(config.warehouse, rules, client,
                                       property_id=client.get_property().id,
                                       publish=config.publish_daily))
    return reports

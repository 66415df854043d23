"""All the expected charges of one property over business dates [first, last].

The POS ledger is the more specific source: a breakfast the package rule expects on a
morning for which the ledger holds a ticket line of the same item for the same room entry is
left to the ledger (one expectation, with the ticket's reference), so a dropped ticket is
found once and a breakfast never rung is found by the rule.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.recon.logic.config import PropertyRules
from pipelines.recon.logic.frames import Frame
from pipelines.recon.logic.keys import with_keys
from pipelines.recon.logic.ledger import pos_ledger
from pipelines.recon.logic.rules import breakfast, city_tax, room_nights

SLOT = ["property_id", "reservation_room_id", "business_date", "item_code"]


def expected_charges(*, stays: Frame, items: Frame, age_brackets: Frame, ledger: Frame,
                     rules: PropertyRules, first: date, last: date) -> pl.DataFrame:
    """Every expected charge with its key, ordered by key."""
    if first > last:
        raise ValueError(f"first business date {first} is after the last {last}")
    pos = pos_ledger(ledger, items, first, last)
    package = breakfast(stays, items, age_brackets, rules.breakfast, first, last).join(
        pos.select(SLOT).unique(), on=SLOT, how="anti")
    frames = [pos, city_tax(stays, items, age_brackets, rules.city_tax, first, last),
              package, room_nights(stays, items, rules.room_nights, first, last)]
    return with_keys(pl.concat(frames, how="vertical")).sort("key").collect()

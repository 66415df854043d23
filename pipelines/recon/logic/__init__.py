"""Folio reconciliation, pure: polars frames in, frames out (docs/reconciliation.md).

Expected charges come from the POS ledger (`ledger.pos_ledger`) and from rules
(`rules.city_tax`, `rules.breakfast`, `rules.room_nights`), configured per property
(`config.load_rules`); each has a stable key and Idempotency-Key (`keys`). `matching.match`
pairs them with folio lines, `outcome.outcome` gives the statuses, `reconcile.reconcile`
does all of it. Nothing here knows Dagster, HTTP or DuckDB: `pipelines.recon` reads
the warehouse, posts through the API and stores the results.
"""

from pipelines.recon.logic.city_tax_return import (
    STAY_EXEMPTION_COLUMNS,
    city_tax_return,
    city_tax_stays,
)
from pipelines.recon.logic.config import (
    BreakfastRule,
    CityTaxPeriod,
    CityTaxRule,
    PropertyRules,
    RoomNightsRule,
    RulesConfig,
    RulesConfigError,
    load_rules,
)
from pipelines.recon.logic.expected import expected_charges
from pipelines.recon.logic.frames import (
    AMOUNT_MISMATCH,
    BLOCKED,
    FAILED,
    MATCHED,
    MISSING,
    POSTED,
    RESOLUTION_STATES,
    STATUSES,
)
from pipelines.recon.logic.keys import charge_key, idempotency_key
from pipelines.recon.logic.matching import match, net_lines
from pipelines.recon.logic.outcome import REASON_CODES
from pipelines.recon.logic.reconcile import (
    RESULT_COLUMNS,
    hold_resolved,
    postable,
    reconcile,
    results_frame,
    summarize,
)

__all__ = [
    "AMOUNT_MISMATCH",
    "BLOCKED",
    "FAILED",
    "MATCHED",
    "MISSING",
    "POSTED",
    "REASON_CODES",
    "RESOLUTION_STATES",
    "RESULT_COLUMNS",
    "STATUSES",
    "STAY_EXEMPTION_COLUMNS",
    "BreakfastRule",
    "CityTaxPeriod",
    "CityTaxRule",
    "PropertyRules",
    "RoomNightsRule",
    "RulesConfig",
    "RulesConfigError",
    "charge_key",
    "city_tax_return",
    "city_tax_stays",
    "expected_charges",
    "hold_resolved",
    "idempotency_key",
    "load_rules",
    "match",
    "net_lines",
    "postable",
    "reconcile",
    "results_frame",
    "summarize",
]

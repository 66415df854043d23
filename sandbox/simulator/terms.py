"""Who pays a booking, when and how: drawn once per booking from (seed, hotel, its ref).

Pure: no database. The cashier (cashier.py) acts on these terms through the services.
docs/sandbox.md, "Money", gives the bands and their sources.
"""

from __future__ import annotations

from dataclasses import dataclass

from .demand import BookingPlan
from .params import MoneyParams
from .sampling import rng_for, weighted

CARD = "card"
CASH = "cash"
BANK = "bank transfer"
VCC = "OTA virtual card"
METHODS = (CARD, CASH, BANK, VCC)
"""Payment methods, the word after the colon of a payment line's description."""

OTA_CHANNELS = ("booking_com", "expedia")

ACCOUNTS: dict[str, tuple[tuple[str, str], ...]] = {
    "corporate": (("company", "ACME S.p.A."),),
    "wholesale": (("agency", "Sunway Tours"), ("agency", "Bellavista Tour Operator"),
                  ("agency", "Euroviaggi Wholesale")),
    "gds": (("agency", "Globetrotter Business Travel"),
            ("agency", "Meridian Travel Management")),
    "group": (("agency", "Tour Italia Viaggi"), ("agency", "Grand Tour Incoming")),
    "travel_agent": (("agency", "Agenzia Viaggi Colosseo"), ("agency", "Arno Travel")),
}
"""City ledger accounts (archive records of kind company or agency), by the key of
MoneyParams.account_share."""


@dataclass(frozen=True)
class Terms:
    plan_code: str
    """The rate plan booked: the demand's, or COMP / HOUSE."""
    prepaid: str | None = None
    """Method of a prepayment of the whole stay at booking (non-refundable plans)."""
    collect: str | None = None
    """Method the OTA's collected amount is charged with at check-in (its virtual card)."""
    deposit_pct: int = 0
    """A group's deposit at confirmation, % of each room's stay, by bank transfer."""
    account: tuple[str, str] | None = None
    """(kind, name) of the city ledger account taking room and breakfast at check-out."""
    method: str = CARD
    """What the guest pays the rest with at check-out."""
    skip: bool = False
    """The guest leaves with the balance."""


def account_key(plan: BookingPlan) -> str:
    if plan.group_name:
        return "group"
    if plan.channel == "email" and plan.source == "travel_agent":
        return "travel_agent"
    return plan.channel


def terms_for(plan: BookingPlan, params: MoneyParams, seed: int, property_id: int) -> Terms:
    """The money terms of one booking (deterministic per seed, hotel and ref)."""
    rng = rng_for(seed, property_id, "money", plan.ref)
    draws = [rng.random() for _ in range(6)]
    plan_code = plan.plan_code
    single = plan.room_count == 1 and not plan.group_name
    if single and plan.channel in ("phone", "email"):
        if draws[0] < params.comp_share:
            plan_code = "COMP"
        elif draws[0] < params.comp_share + params.house_share:
            plan_code = "HOUSE"
    prepaid = None
    if plan_code == "NREF":
        prepaid = VCC if plan.channel in OTA_CHANNELS else CARD
    collect = None
    if prepaid is None and plan_code not in ("COMP", "HOUSE"):
        share = dict(params.ota_collect).get(plan.channel, 0.0)
        if draws[1] < share:
            collect = VCC
    key = account_key(plan)
    account = None
    if plan_code not in ("COMP", "HOUSE") and draws[2] < dict(params.account_share).get(key, 0):
        choices = ACCOUNTS[key]
        account = choices[int(draws[3] * len(choices))]
    low, high = params.group_deposit_pct
    deposit = low + int(draws[4] * (high - low + 1)) if plan.group_name else 0
    method = weighted(rng, params.walk_in_methods if plan.channel == "walk_in"
                      else params.guest_methods)
    skip = account is None and draws[5] < params.skip_share
    return Terms(plan_code=plan_code, prepaid=prepaid, collect=collect, deposit_pct=deposit,
                 account=account, method=method, skip=skip)


DEFAULT_TERMS = Terms(plan_code="BAR")
"""A booking the simulator did not make (through the API): the guest pays by card."""

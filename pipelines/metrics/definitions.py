"""The one definition of every figure a user reads (docs/kpi.md): its name (the column every
surface gives it), its basis in words, and, for a ratio, the sums it divides. A ratio is
always recomputed from sums over the period, never averaged, and rounded half-up to the cent.
A figure on another basis has another name (`adr_net`, nights only; `adr_incl_fees_net`,
STR's, fees in). A change against a budget or last year is read in points for a percentage
and in percent of the base for anything else (`change`); a share of a total is `share_pct`."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal

from pipelines.metrics.ahead import AHEAD
from pipelines.metrics.finance import FINANCE
from pipelines.metrics.metric import CENT, NIGHT, POSTED, SNAPSHOT, Metric, at
from pipelines.metrics.warehouse import WAREHOUSE

_SUMS = at(
    NIGHT,
    Metric("rooms_available", "supply: every room of the property each night (STR / USALI; "
           "out-of-order rooms stay in)"),
    Metric("rooms_available_net_ooo", "supply less the rooms out of order that night"),
    Metric("rooms_sold", "room nights sold: not complimentary, not option, not no-show"),
    Metric("rooms_out_of_order", "rooms out of order that night (of the sellable ones)"),
    Metric("rooms_complimentary", "room nights on the books at a stay total of 0.00, house "
           "use included; not sold"),
    Metric("rooms_house_use", "of the complimentary room nights, those on the house-use plan "
           "(HOUSE)"),
    Metric("rooms_in_house", "rooms occupied that night: sold + complimentary (house use in)"),
    Metric("persons", "persons in house that night (adults and children of the rooms in "
           "house)"),
    Metric("arrivals", "room entries arriving that date (on the books, not no-shows)"),
    Metric("departures", "room entries leaving that date (the morning after their last night)"),
    Metric("no_shows", "room entries due to arrive that date that did not come"),
    Metric("walk_ins", "arrivals booked on the walk_in channel (no booking before the desk)"),
    Metric("reservations_made", "firm bookings made that date (local time), whatever came of "
           "them", as_of="the date made"),
    Metric("cancellations_made", "room entries the guest cancelled that date (local date of "
           "the stay.cancelled event)", as_of="the date cancelled"),
    Metric("room_revenue_nights_net", "room revenue of the nights sold, net of VAT, fees apart"),
    Metric("room_revenue_fees_net", "no-show, cancellation and early-departure fees, net of VAT"),
    Metric("room_revenue_net", "rooms revenue: nights and fees, net of VAT (ties to the folios' "
           "accommodation lines)"),
    Metric("food_beverage_revenue_net", "food and beverage revenue posted, net of VAT",
           as_of=POSTED),
    Metric("other_revenue_net", "other revenue posted (not rooms, not F&B), net of VAT",
           as_of=POSTED),
    Metric("total_revenue_net", "rooms + F&B + other revenue, net of VAT; city tax is never "
           "revenue", as_of="rooms by the night, F&B and other by the posting date"),
    Metric("rooms_otb", "room nights on the books at the end of the snapshot date (options "
           "apart)", as_of=SNAPSHOT),
    Metric("revenue_otb_net", "room revenue of the nights on the books at the end of the "
           "snapshot date, net of VAT (options apart)", as_of=SNAPSHOT),
    Metric("ly_actual_rooms_sold", "last year's actual: rooms_sold of the night 364 days "
           "earlier (same weekday; a holiday or event: last year's same one), once lived",
           as_of="last year's night, final"),
    Metric("ly_actual_room_revenue_net", "last year's actual: room_revenue_net (nights and "
           "fees) of last year's same night (as ly_actual_rooms_sold), once lived",
           as_of="last year's night, final"),
)
_RATIOS = at(
    NIGHT,
    Metric("occupancy_pct", "rooms sold over every room of the property", "rooms_sold",
           "rooms_available", 100),
    Metric("occupancy_net_ooo_pct", "rooms sold over the rooms not out of order", "rooms_sold",
           "rooms_available_net_ooo", 100),
    Metric("adr_net", "ADR: the nights' room revenue, fees apart, per room sold",
           "room_revenue_nights_net", "rooms_sold"),
    Metric("adr_incl_fees_net", "STR's ADR: rooms revenue with fees per room sold",
           "room_revenue_net", "rooms_sold"),
    Metric("revpar_net", "rooms revenue with fees per room available", "room_revenue_net",
           "rooms_available"),
    Metric("trevpar_net", "total revenue per room available", "total_revenue_net",
           "rooms_available"),
)
_SHARES = at(
    NIGHT,
    Metric("rooms_share_pct", "a segment's rooms_sold as a share of the period's "
           "(`share_pct`)"),
    Metric("revenue_share_pct", "a segment's room_revenue_net as a share of the period's "
           "(`share_pct`)"),
)
_ALL = (*_SUMS, *_RATIOS, *_SHARES, *AHEAD, *FINANCE, *WAREHOUSE)
METRICS: dict[str, Metric] = {m.name: m for m in _ALL}
if len(METRICS) != len(_ALL):  # one name, one definition
    raise ValueError("pipelines/metrics: a metric name is defined twice: " + ", ".join(
        sorted({m.name for m in _ALL if sum(1 for n in _ALL if n.name == m.name) > 1})))


def ratio(name: str, sums: Mapping[str, object]) -> Decimal | None:
    """METRICS[name] of these sums."""
    return METRICS[name].of(sums)


def share_pct(part: object, whole: object) -> Decimal | None:
    """`part` as a percentage of `whole` (a segment's share of the rooms sold), half-up to the
    cent; None without a whole."""
    if part is None or whole is None or not Decimal(str(whole)):
        return None
    return (Decimal(str(part)) * 100 / Decimal(str(whole))).quantize(CENT, ROUND_HALF_UP)


def whole_rooms(rooms: object) -> int | None:
    """Rooms as the user reads them: whole rooms, half-up (50.50 -> 51, 50.49 -> 50); None
    stays None. Only at display: a figure computed from rooms (occupancy, ADR, RevPAR, a
    total) takes the unrounded rooms, as the marts keep them (docs/kpi.md, "Whole rooms")."""
    if rooms is None:
        return None
    return int(Decimal(str(rooms)).quantize(Decimal(1), ROUND_HALF_UP))


def change_unit(name: str) -> str:
    """How a change of metric `name` is read: "pp" (points) for a percentage, else "%"."""
    return "pp" if METRICS[name].scale == 100 else "%"


def change(name: str, actual: object, base: object) -> Decimal | None:
    """`actual` against `base` of metric `name` as the trade reads it: a percentage in points
    (75.00 % against 76.25 % is -1.25 pp), any other figure in percent of the base (90 rooms
    against 100 is -10.00 %); half-up to the cent; None without a base."""
    if actual is None or base is None:
        return None
    now, then = Decimal(str(actual)), Decimal(str(base))
    if change_unit(name) == "pp":
        return (now - then).quantize(CENT, ROUND_HALF_UP)
    return share_pct(now - then, then)

"""The figures only the warehouse's own relations carry (the marts, the reconciliation and their
views, every one `pmsw export parquet` writes and the notebooks read), defined here once like
every report column; and the names a relation, a notebook or the app gives a METRICS figure
over another period or window (`ALIASES`, `qualified`). A figure column of the warehouse is a
METRICS name on the same basis, an alias declared here, or one of the few clashes listed in
`CLASHES` (table columns whose rename needs a migration); tests/metrics/test_warehouse_columns.py
fails on any other."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipelines.metrics.metric import NIGHT, Metric, at

_BOOKINGS = at(
    "the booking's arrival month (mart.booking_kpis) or lead time: every booking made, "
    "whatever came of it",
    Metric("bookings", "firm bookings made (options, open or lapsed, are not bookings)"),
    Metric("room_nights", "nights of the bookings' firm room entries, cancelled ones included"),
    Metric("cancelled_bookings", "firm bookings the guest cancelled (every firm room)"),
    Metric("cancelled_room_nights", "nights of the room entries the guest cancelled"),
    Metric("cancellation_pct", "share of the firm bookings the guest cancelled (no-shows and "
           "lapsed options apart)", "cancelled_bookings", "bookings", 100),
    Metric("cancellation_rate_room_nights", "cancelled_room_nights / room_nights, a fraction "
           "(0 to 1, four decimals)"),
    Metric("no_show_rate", "no_shows / expected arrivals (room entries on the books plus "
           "no-shows), a fraction (0 to 1, four decimals)"),
    Metric("lapsed_options", "reservations that were only options and lapsed"),
    Metric("avg_lead_time_days", "mean over the bookings of arrival - booking date (the "
           "property's local date), days"),
    Metric("alos", "average length of stay: room nights / room entries on the books"),
    Metric("lead_time_days", "a booking's arrival - booking date, days (mart.booking_outcomes; "
           "the views' bucket of it is lead_time_bucket, text)"),
    Metric("firm_rooms", "a booking's firm room entries: on the books, cancelled by the guest "
           "or the hotel, no-shows (mart.booking_outcomes; a firm booking has one)"),
    Metric("cancelled_rooms", "a booking's room entries cancelled by the guest"),
    Metric("stayed_rooms", "a booking's room entries on the books (complimentary included)"),
    Metric("stayed_room_nights", "nights of a booking's room entries on the books"),
    Metric("hotel_cancelled_rooms", "a booking's firm room entries the hotel cancelled, not "
           "no-shows"),
    Metric("lapsed_option_rooms", "a booking's room entries whose option lapsed"),
)
_NIGHTS = at(
    NIGHT,
    Metric("rooms_sellable", "rooms the PMS sells that night (its availability)"),
    Metric("rooms_option", "room nights in option (never in rooms_sold)"),
    Metric("room_revenue_gross", "room_revenue_net VAT included (nights and fees)"),
    Metric("fee_revenue_gross", "a fee line (no-show, cancellation, early departure) VAT "
           "included"),
    Metric("nights", "a room entry's nights: departure - arrival"),
    Metric("adults", "adults in the room"),
    Metric("children", "children in the room, every age bracket"),
    Metric("days", "the month's nights with a row (mart.v_kpi_by_month)"),
    Metric("stay_dates", "the month's nights with a figure on the books at that many days "
           "before (mart.v_pace_by_month)"),
    Metric("stly_stay_dates", "of them, those with a STLY figure"),
    Metric("rebuilt_stay_dates", "of them, those whose snapshot is rebuilt from history"),
    Metric("stly_rebuilt_stay_dates", "of the STLY nights, those rebuilt from history"),
    Metric("ly_actual_stay_dates", "of them, those with last year's actual"),
)
_OTHERS = at(
    "the row's date: the last sync, the run, the as-of date",
    Metric("capacity", "sellable rooms of the property: what bounds the forecast (not the "
           "supply occupancy divides by)"),
    Metric("rooms_limit", "capacity + the overbooking the hotel practises: the most the "
           "forecast may reach"),
    Metric("month_rooms_low", "the low end of the band of the rooms still to come in the "
           "night's month (the month's nights from the as-of date on); rooms_expected_low adds "
           "its closed nights' rooms_sold"),
    Metric("month_rooms_high", "the high end of that band"),
    Metric("department_revenue_net", "a department's revenue lines by posting date, net of "
           "VAT (mart.revenue_daily; not pickup's revenue_net)"),
    Metric("revenue_gross", "a department's revenue lines by posting date, VAT included "
           "(mart.revenue_daily)"),
    Metric("expected_amount", "the amount a charge is expected at (VAT included): a line's, or "
           "the run's charges summed"),
    Metric("unit_price", "a charge's unit price, VAT included"),
    Metric("found_amount", "the amount found on the folio for an expected charge: the "
           "answering line net of its reversals, VAT included (recon.results; NULL when none)"),
    Metric("records_quarantined", "records the API served broken, left out of the marts"),
)
WAREHOUSE: tuple[Metric, ...] = (*_BOOKINGS, *_NIGHTS, *_OTHERS)


@dataclass(frozen=True)
class Alias:
    """Another name of a METRICS figure: the same basis over what `how` says."""
    metric: str
    how: str
    same_rows: bool = False
    """True: the very figure, so equal to `metric` on every row that holds both."""


ALIASES: dict[str, Alias] = {
    "cancellation_rate_bookings": Alias("cancellation_pct", "a fraction (0 to 1, four "
                                        "decimals), not a percentage"),
    "forecasts": Alias("nights_scored", "mart.forecast_accuracy's name"),
    "rooms_in_property": Alias("rooms_available", "mart.occupancy_daily's column beside "
                               "rooms_sellable (every room, sellable or not: the same figure)",
                               same_rows=True),
    "rooms_sold_actual": Alias("rooms_sold", "of the month's nights lived"),
    "rooms_sold_otb": Alias("rooms_sold", "of the month's nights on the books"),
    "room_revenue_net_actual": Alias("room_revenue_net", "of the month's nights lived"),
    "room_revenue_net_otb": Alias("room_revenue_net", "of the month's nights on the books"),
    "is_actual_days": Alias("nights_closed", "of the month: its nights lived"),
    "folio_accommodation_net": Alias("folio_lines_net", "of the accommodation lines"),
    "shifted_net": Alias("explained_net", "mart.revenue_tieout's name"),
    "fee_revenue_net": Alias("room_revenue_fees_net", "of one fee line"),
    "expected_count": Alias("expected", "recon.runs' name"),
    **{f"{status}_count": Alias(status, "recon.runs' name") for status in (
        "matched", "missing", "posted", "amount_mismatch", "blocked", "failed")},
    "last_year_method_wape_pct": Alias("wape_pct", "of the method last_year (the notebook's "
                                       "comparison)"),
}
"""Names that differ from the figure's METRICS name, each with what it adds."""

_WINDOW = re.compile(r"^(?P<metric>[a-z_]+?)_(?P<days>[0-9]+)d$")
QUALIFIERS = {
    "last_year_": "prefix: over the same calendar dates a year earlier (as "
                  "last_year_rooms_sold)",
    "_per_night": "suffix: the period's figure divided by its nights with a figure",
    "_<W>d": "suffix: a pickup figure over a W-day window (rooms_net_7d)",
}
"""How a name qualifies a METRICS figure without another basis (docs/kpi.md)."""


def qualified(name: str, metrics: frozenset[str]) -> str | None:
    """The METRICS figure `name` qualifies by QUALIFIERS, or None."""
    window = _WINDOW.match(name)
    if window and window["metric"] in metrics:
        return window["metric"]
    if name.startswith("last_year_") and name.removeprefix("last_year_") in metrics:
        return name.removeprefix("last_year_")
    if name.endswith("_per_night") and name.removesuffix("_per_night") in metrics:
        return name.removesuffix("_per_night")
    return None


CLASHES: dict[str, str] = {}
"""Columns of the warehouse named like another figure (table.column: what they are). Known,
not fixed: each rename changes a table (a migration) and the code that writes it. The test
holds this list to the warehouse: a new clash it can tell fails, and so does a fixed one left
here. Empty since migration 0038 renamed the ten there were (docs/kpi.md)."""

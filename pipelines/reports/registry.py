"""Every report, declared once: its name, the tables it reads, its default period and the
function that builds it. The CLI (pipelines/reports/command.py), the xlsx and the demo's summary
run them through `run_report`. The registry imports the report modules; none imports it,
so there is no import circle."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from pipelines.recon import RESOLUTION_STATES
from pipelines.reports import closepack, finance, periods, tieout
from pipelines.reports.ahead import ahead, next_8_nights
from pipelines.reports.alerts import alerts
from pipelines.reports.errors import ReportError
from pipelines.reports.reports import (
    RANGE,
    SEGMENT_DIMENSIONS,
    Option,
    Query,
    Report,
    Table,
    _next_30,
    _next_90,
    _past_30,
    forecast,
    forecast_accuracy,
    occupancy,
    pace,
    pickup,
    reconciliation,
    revenue,
    segments,
)
from pipelines.reports.warehouse import PropertyRow, require_tables

AS_OF = Option("--as-of", "as_of", "As-of date (default: the last closed business date; the "
               "open one is partial).", kind="date")

REPORTS: dict[str, Report] = {r.name: r for r in (
    Report("occupancy", ("mart.occupancy_daily",), _past_30, occupancy, help="""
Occupancy, ADR and RevPAR per night (default: the last 30 nights).

Rooms available on the STR basis; revenue net of VAT; nights before the business date
are actuals (from folios), later ones on the books. The total line divides the sums.
Complimentary rooms (house use included) and house-use rooms stand beside rooms sold,
which leave them out (docs/kpi.md, "Room statistics").
Examples:
  pmsw report occupancy --property ROMA01
  pmsw report occupancy --property ROMA01 --from 2026-08-01 --to 2026-08-31
  pmsw report occupancy --property 2 --format csv"""),
    Report("pickup", ("mart.pickup", "mart.otb_snapshots"), _next_30, pickup, help="""
Pickup by stay date: room nights new, cancelled and net over the window, and revenue
(default: the next 30 stay dates, 7-day window).

Examples:
  pmsw report pickup --property ROMA01
  pmsw report pickup --property ROMA01 --window 30 --from 2026-12-01 --to 2026-12-31
  pmsw report pickup --property ROMA01 --as-of 2026-11-01 --format json""", options=(
        Option("--window", "window", "Pickup window in days.", choices=("1", "7", "14", "30"),
               default="7"),
        AS_OF)),
    Report("pace", ("mart.pace", "mart.otb_snapshots"), _next_30, pace, help="""
On the books per stay date beside the same time last year (STLY: 364 days earlier, same
weekday, or for a holiday or event last year's same one (docs/calendar.md); same days before
arrival); default: the next 30 stay dates.

STLY is empty where the warehouse has no snapshot a year earlier; stly_is_rebuilt marks
a STLY rebuilt from the reservations' history, and last year's actual stands beside.
Examples:
  pmsw report pace --property ROMA01
  pmsw report pace --property ROMA01 --from 2026-12-20 --to 2027-01-06 --format csv""",
           options=(AS_OF,)),
    Report("segments", ("mart.segment_daily", "core.rate_plans", "core.room_types"), _past_30,
           segments, help="""
Rooms sold, room revenue (net), shares and ADR by segment over the stay dates (default: the
last 30 nights).

Examples:
  pmsw report segments --property ROMA01
  pmsw report segments --property ROMA01 --by rate_plan --from 2026-07-01 --to 2026-07-31
  pmsw report segments --property ROMA01 --by room_type --format json""", options=(
        Option("--by", "by", "Segment dimension.", choices=SEGMENT_DIMENSIONS,
               default="channel"),)),
    Report("revenue", ("mart.revenue_daily",), _past_30, revenue, help="""
Revenue per posting date: accommodation, food and beverage, other (net of VAT), total net
and gross, and the city tax collected apart (never revenue); default: the last 30 days.

Examples:
  pmsw report revenue --property ROMA01
  pmsw report revenue --property FIRE01 --from 2026-10-01 --to 2026-10-31 --format csv"""),
    Report("reconciliation", ("recon.runs",), _past_30, reconciliation, help="""
Folio reconciliation runs covering the business dates: mode, and per status (matched,
missing, posted, amount_mismatch, blocked, failed) the count and expected amount; default:
runs covering the last 30 days.

Rows per charge: recon.results (notebooks/finance_reconciliation.ipynb).
Examples:
  pmsw report reconciliation --property ROMA01
  pmsw report reconciliation --property ROMA01 --from 2026-11-01 --format json"""),
    Report("forecast", ("mart.forecast_daily",), _next_30, forecast, help="""
Where each night will end: rooms on the books, rooms forecast with its low/high band,
occupancy, net room revenue and ADR forecast, and the method (default: the next 30 nights).

Methods and their accuracy: docs/forecast.md. Examples:
  pmsw report forecast --property ROMA01
  pmsw report forecast --property ROMA01 --from 2026-12-01 --to 2026-12-31 --format csv"""),
    Report("forecast-accuracy", ("mart.forecast_accuracy",), _past_30, forecast_accuracy,
           takes_range=False, help="""
Backtest of the forecast methods: per horizon (1, 7, 14, 30, 60, 90 days) and method, MAE
in rooms, WAPE and bias over the last 91 nights realized, and how much better than the same
night last year with its 90 % interval. Beside each WAPE the simulator's floor (the WAPE of
its level of each night, which no forecast reads) where the data come from the sandbox's demo.

docs/forecast.md, "How sure the figures are". Examples:
  pmsw report forecast-accuracy --property ROMA01
  pmsw report forecast-accuracy --property FIRE01 --format json"""),
    Report("alerts", ("mart.alerts",), _next_90, alerts, help="""
Nights to look at, as of the last closed business date: pace a fifth or more below last
year, pickup spikes (z-score over the last 8 weeks), on the books above capacity plus
overbooking (default: the next 90 nights).

One row per alert: a stretch of consecutive nights of one kind (first_night, last_night,
alert_nights), its reason in words, its books and STLY (rooms_otb, stly_rooms_otb), beside
stly_is_rebuilt (its STLY rebuilt from the reservations' history) and last year's actual
(ly_actual_rooms_sold, ly_actual_room_revenue_net); docs/alerts.md.
Examples:
  pmsw report alerts --property ROMA01
  pmsw report alerts --property ROMA01 --format csv"""),
    Report("flash", ("mart.occupancy_daily", "mart.revenue_daily", "mart.budget_monthly",
                     "mart.booking_outcomes", "mart.v_cancellations_made",
                     "mart.forecast_history", "mart.forecast_daily"),
           _past_30, periods.flash, takes_range=False, help="""
Manager's flash for a business date: the day, month to date and year to date (rooms sold,
occupancy, ADR, RevPAR, room, F&B and other revenue, net of VAT), each against the budget
(`pmsw budget import`; part of a month spread as last year's nights sold, else pro rata of its
days, as the title says), the same dates last year and, for the month and the year, their
expected end (actual nights plus mart.forecast_daily for the rest; F&B and other ahead at the
recent revenue per room on the books) beside their budget; and against the forecast made before them
(*_forecast, *_vs_forecast: the day's as of the day before, each month's as of its eve, from
mart.forecast_history; rooms and room revenue, the title names any fallback).

Then the room statistics of the day, MTD and YTD against last year, as OPERA's Manager Flash
has them: arrivals, departures, rooms in house, persons, no-shows, walk-ins, rooms out of
order, complimentary (house use included) and house use, from mart.occupancy_daily;
reservations made (firm bookings, mart.booking_outcomes); cancellations made (room entries
the guest cancelled that date, mart.v_cancellations_made). Definitions: docs/kpi.md, "Room
statistics"; the flash: docs/flash.md.

Then, as its section `ahead`, tomorrow and the 7 nights after it, as `pmsw report
flash-ahead` has them (the same computation; JSON under "sections", xlsx its own sheet).

Examples:
  pmsw report flash --property ROMA01
  pmsw report flash --property ROMA01 --date 2026-11-15 --format csv""", options=(
        Option("--date", "date", "Closed business date reported (default: the day before "
               "the business date).", kind="date"),)),
    Report("flash-ahead", ("mart.forecast_daily", "mart.occupancy_daily"), next_8_nights,
           ahead, help="""
The Manager's flash looking ahead: tomorrow (the business date) and the 7 nights after it,
each with its arrivals and departures (mart.occupancy_daily's, docs/kpi.md), its
rooms available, rooms, occupancy, ADR and room revenue on the books and forecast
(mart.forecast_daily of its latest as-of date; --from/--to pick other nights). A night the
forecast does not hold is not shown; the title says so. Examples:
  pmsw report flash-ahead --property ROMA01
  pmsw report flash-ahead --property ROMA01 --format csv"""),
    Report("forecast-months", ("mart.occupancy_daily", "mart.revenue_daily",
                               "mart.forecast_daily", "mart.budget_monthly"),
           periods.next_12_months, periods.forecast_months, help="""
Where each month will end: its closed nights actual and the others forecast (rooms,
occupancy, ADR, RevPAR, net room revenue; F&B and other revenue at the forecast rooms x the
revenue per room on the books at the night's end of the last 91 closed days; total), beside
its budget (`pmsw budget import`) and the same month last year, with a total (default: the
business date's month and the 11 after it; --from/--to pick the months that hold them).

A month the forecast does not cover whole (a night past its end, on the books alone, or
its rooms to come without a rate) is not shown; the title says why. Examples:
  pmsw report forecast-months --property ROMA01
  pmsw report forecast-months --property ROMA01 --from 2027-01-01 --to 2027-03-31
  pmsw report forecast-months --property ROMA01 --format xlsx -o months.xlsx"""),
    Report("worklist", ("recon.v_worklist",), finance.all_closed, finance.worklist, help="""
Charges that cannot be posted (blocked, failed, amount_mismatch) as the latest run left
them: folio id and number, fiscal document, room, party to bill, item, quantity,
net/VAT/gross, reason code, age in days, and the latest resolution (default: every closed
business date).

Resolve one: pmsw reconcile resolve ITEM --as written_off --note TEXT
Examples:
  pmsw report worklist --property ROMA01 --state open
  pmsw report worklist --property ROMA01 --format xlsx -o worklist.xlsx""", options=(
        Option("--state", "state", "Only the charges in this state.",
               choices=("all", *RESOLUTION_STATES), default="all"),)),
    Report("ledger", ("mart.v_guest_ledger",), finance.all_closed, finance.ledger,
           takes_range=False, help="""
Guest ledger: open balances by folio as of the last sync (the property's business date):
in house, departed with a balance, cancelled or future with a balance, deposits (a credit
balance before arrival), house accounts; aging of the oldest posting in buckets 0-30,
31-60, 61-90, over 90 days. Folio balances are the API's. With --date D (a past business
date): the balances at the end of D, from the folio lines posted up to D and each room's
state then (docs/reconciliation.md, Guest ledger). The city ledger (the accounts of
companies and agencies a stay was transferred to, accounts receivable) is kept apart:
--ledger city.

Examples:
  pmsw report ledger --property ROMA01
  pmsw report ledger --property ROMA01 --date 2026-10-31
  pmsw report ledger --property ROMA01 --by category --format xlsx -o ledger.xlsx""",
           options=(
        Option("--by", "by", "One row per folio, or per category with aging.",
               choices=("folio", "category"), default="folio"),
        Option("--ledger", "ledger", "The guest ledger, or the city ledger (accounts "
               "receivable: company and agency accounts).", choices=finance.LEDGERS,
               default="guest"),
        Option("--date", "date", "A past business date: the ledger at its end, from the "
               "landed history (default: as of the last sync).", kind="date"))),
    Report("city-tax", ("core.reservation_rooms", "core.folio_lines", "recon.v_current"),
           finance.all_closed, finance.city_tax, takes_range=False, help="""
City-tax return of a month: persons, person-nights, taxable nights, exempt nights by reason
(age, beyond the nights cap), rate, amount due, amount charged on folios, difference, and
the blocked city tax still due. Each night is taxed under its city's rule in force that
night (the property's city and stars, as the reconciliation resolves it; the title says
which); a city the rules do not name is refused.

Only nights up to the last closed business date count. Examples:
  pmsw report city-tax --property ROMA01 --month 2026-08
  pmsw report city-tax --property FIRE01 --month 2026-08 --format xlsx -o ctax.xlsx
  pmsw report city-tax --property FIRE01 --month 2026-08 --stays""", options=(
        Option("--month", RANGE, "The month of the return.", kind="month", required=True),
        Option("--rules", "rules_file", "Rules YAML merged over the shipped defaults.",
               kind="file"),
        Option("--stays", "stays", "List the stays behind the exemptions (by age, beyond "
               "the nights cap).", kind="flag"))),
    Report("interface-loss", ("recon.v_interface_loss",), _past_30, finance.interface_loss,
           help="""
Interface loss: POS ticket lines the POS never delivered to a folio, per business date and
item: lines and amount, lost (count, amount, % of the amount), recovered by apply runs,
still open; over the reconciled dates (default: the last 30 days).

Reconcile the history first to cover it: pmsw reconcile --from D --to D --backlog
Examples:
  pmsw report interface-loss --property ROMA01
  pmsw report interface-loss --property FIRE01 --from 2026-01-01 --format csv"""),
    Report("close-pack", ("core.folio_lines", "core.folios", "core.items", "mart.v_guest_ledger",
                          "recon.v_worklist", "mart.revenue_daily", "mart.revenue_tieout"),
           tieout.last_closed, closepack.close_pack, takes_range=False, help="""
Close pack of a closed business date or month, one table per section (xlsx: one sheet
each): revenue by item and outlet with VAT by rate, net and gross; VAT by rate; payments by
method; the roll-forward of the guest and city ledgers (opening + charges - payments -
transfers = closing, against `ledger --date`, to the cent); deposits of stays not yet
arrived; the city ledger (accounts receivable) aged; the tie-out; the worklist with each
item's action, departure and age (docs/reconciliation.md, Close pack).

The open business date and the open month are refused. Examples:
  pmsw report close-pack --property ROMA01 --date 2026-10-31
  pmsw report close-pack --property ROMA01 --month 2026-10 --format xlsx -o close.xlsx""",
           options=(
        Option("--date", RANGE, "A closed business date (default: the last closed one).",
               kind="date"),
        Option("--month", RANGE, "A closed month.", kind="month"))),
    Report("tieout", ("core.folio_lines", "core.items", "mart.revenue_daily",
                      "mart.revenue_tieout"), tieout.last_closed, tieout.tieout, help="""
Tie-out a controller signs: the folio lines of each department, summed straight from the
folios, against the revenue reports (rooms against occupancy, nights and fees, the fees
apart; F&B and other against revenue; city tax apart, not revenue), the difference
explained (night charges posted on another date) or listed unexplained with its cause.
Default: the last closed business date.

Examples:
  pmsw report tieout --property ROMA01
  pmsw report tieout --property ROMA01 --month 2026-10 --format xlsx -o tieout.xlsx""",
           options=(
        Option("--date", RANGE, "One business date (the same as --from D --to D).",
               kind="date"),
        Option("--month", "month", "The closed business dates of a month (to date, when "
               "it is the open one).", kind="month"))),
)}


def run_report(conn: duckdb.DuckDBPyConnection, path: Path, name: str, prop: PropertyRow,
               first: date | None, last: date | None, **options: Any) -> Table:
    """Check the tables and the range, then build report `name`."""
    report = REPORTS[name]
    require_tables(conn, path, *report.tables)
    default_first, default_last = report.default_range(prop.business_date)
    span = default_last - default_first
    if first is None and last is None:
        first, last = default_first, default_last
    elif first is None:
        assert last is not None
        first = last - span
    elif last is None:
        last = first + span
    if first > last:
        raise ReportError(f"--from {first} is after --to {last}")
    if (last - first).days > 3660:
        raise ReportError(f"--from {first} to --to {last} spans more than ten years")
    return report.build(conn, Query(prop, first, last, options))

"""The demo's closing summary, read back from the warehouse with the same queries as
`pmsw report` (so the figures printed are the ones a user finds afterwards)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from pipelines.demo.config import DemoConfig
from pipelines.recon.logic import STATUSES
from pipelines.reports import Table, open_warehouse, resolve_property, run_report
from pipelines.vocabulary import counted
from pipelines.warehouse import read_copy_path


@dataclass(frozen=True)
class HotelSummary:
    code: str
    name: str
    currency: str
    business_date: Any
    last_30: tuple[Any, ...]
    """occupancy total row: ('total', available, sold, occ %, revenue, ADR, RevPAR, '')."""
    next_30: tuple[Any, ...]
    pickup_7: tuple[Any, ...]
    """pickup total row: ('total', '', otb, new, cancelled, net, revenue)."""
    recon: list[tuple[Any, ...]]
    """recon.runs rows of the final reconciliation: run, mode, dates, expected, per status
    count/amount."""
    checks: dict[str, tuple[bool, str]]
    """The asset checks of the hotel's syncs: name -> (passed, description)."""
    close: tuple[Any, ...] | None = None
    """The daily close's runs summed: ('close', runs, first date, last date, expected, per
    status count/amount), or None when the demo ran none."""


@dataclass(frozen=True)
class Summary:
    hotels: list[HotelSummary]
    warehouse: str
    notebooks: str

    def text(self) -> str:
        lines = []
        for h in self.hotels:
            lines.append(f"\n{h.name} ({h.code}), business date {h.business_date}, net of VAT, "
                         f"{h.currency}")
            lines.append(f"  {'':<34}{'occupancy':>10}{'ADR':>10}{'RevPAR':>10}"
                         f"{'rooms sold':>12}")
            for label, row in (("last 30 nights (actual)", h.last_30),
                               ("next 30 nights (on the books)", h.next_30)):
                lines.append(f"  {label:<34}{_pct(row[3]):>10}{_money(row[5]):>10}"
                             f"{_money(row[6]):>10}{row[2]:>12}")
            p = h.pickup_7
            lines.append(f"  7-day pickup, next 30 nights: {counted(p[5], 'room night', '+')} "
                         f"({p[3]} new, {p[4]} cancelled), {_money(p[6], signed=True)} revenue")
            if h.close is not None:
                lines.append(f"  daily close, {h.close[1]} runs, {h.close[2]} to {h.close[3]}: "
                             + _recon_counts(h.close))
            for run in h.recon:
                lines.append(f"  reconciliation {run[1]:<8} {run[2]} to {run[3]}: "
                             + _recon_counts(run))
            failed = [f"{name} ({why})" for name, (ok, why) in h.checks.items() if not ok]
            lines.append(f"  asset checks: {len(h.checks) - len(failed)} passed"
                         + (f", failed: {'; '.join(failed)}" if failed else ""))
        lines.append(f"\nWarehouse: {self.warehouse}  (pmsw report occupancy --property "
                     f"{self.hotels[0].code}; pmsw sql, or duckdb -readonly "
                     f"{read_copy_path(self.warehouse)})")
        lines.append(f"Notebooks: {self.notebooks}/revenue_manager.ipynb, "
                     f"{self.notebooks}/finance_reconciliation.ipynb "
                     "(PMSW_WAREHOUSE names another warehouse)")
        return "\n".join(lines)


def _recon_counts(run: tuple[Any, ...]) -> str:
    found = []
    for i, status in enumerate(STATUSES):
        count, amount = run[5 + 2 * i], run[6 + 2 * i]
        if count:
            found.append(f"{count} {status} ({_money(amount)})")
    return ", ".join(found) or "nothing expected"


def _summed(runs: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The daily close's runs as one row shaped like a recon.runs report row."""
    if not runs:
        return None
    sums = [sum(r[i] for r in runs) for i in range(4, 5 + 2 * len(STATUSES))]
    return ("close", len(runs), min(r[2] for r in runs), max(r[3] for r in runs), *sums)


def _pct(value: Decimal | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _money(value: Decimal | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+,.2f}" if signed else f"{value:,.2f}"


SUMMARY_COLUMNS = ("rooms_available", "rooms_sold", "occupancy_pct", "room_revenue_net",
                   "adr_net", "revpar_net")


def _total(table: Table) -> tuple[Any, ...]:
    """The occupancy report's total, its figures picked by column name (HotelSummary.last_30)."""
    if table.total is None:
        return ("total", 0, 0, None, Decimal("0.00"), None, None, "")
    by_name = dict(zip(table.columns, table.total, strict=True))
    return ("total", *(by_name[c] for c in SUMMARY_COLUMNS), "")


def read_summary(config: DemoConfig,
                 checks: dict[str, dict[str, tuple[bool, str]]]) -> Summary:
    conn = open_warehouse(config.warehouse)
    path = config.warehouse
    with conn:
        hotels = []
        for hotel in config.hotels:
            prop = resolve_property(conn, path, hotel.code)
            bd = prop.business_date
            last_30 = _total(run_report(conn, path, "occupancy", prop,
                                        bd - timedelta(days=30), bd - timedelta(days=1)))
            next_30 = _total(run_report(conn, path, "occupancy", prop,
                                        bd, bd + timedelta(days=29)))
            pickup = run_report(conn, path, "pickup", prop, bd, bd + timedelta(days=29),
                                window=7)
            pickup_7 = pickup.total or ("total", "", 0, 0, 0, 0, Decimal("0.00"))
            recon = run_report(conn, path, "reconciliation", prop, bd - timedelta(days=400),
                               bd).rows
            final, closes = recon[-2:], recon[:-2]
            hotels.append(HotelSummary(prop.code, prop.name, prop.currency, bd, last_30,
                                       next_30, pickup_7, final, checks.get(hotel.code, {}),
                                       _summed(closes)))
    return Summary(hotels, str(config.warehouse), str(config.notebooks))

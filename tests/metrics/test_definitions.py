"""The metrics layer (pipelines/metrics): each ratio by hand, and docs/kpi.md held to it."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.metrics import METRICS, change, change_unit, ratio, share_pct
from pipelines.metrics.catalog import BEGIN, END, catalog

KPI_PAGE = Path(__file__).resolve().parents[2] / "docs" / "kpi.md"

# A night of a 10-room hotel, 1 room out of order: 8 sold for 800.00 (nights), a no-show fee
# of 60.00, F&B and other 230.00: rooms revenue 860.00, total 1,090.00.
NIGHT = {"rooms_available": 10, "rooms_available_net_ooo": 9, "rooms_sold": 8,
         "room_revenue_nights_net": Decimal("800.00"), "room_revenue_net": Decimal("860.00"),
         "total_revenue_net": Decimal("1090.00")}


@pytest.mark.parametrize(("name", "by_hand"), [
    ("occupancy_pct", "80.00"),            # 8 / 10 x 100
    ("occupancy_net_ooo_pct", "88.89"),    # 8 / 9 x 100 = 88.888...
    ("adr_net", "100.00"),                 # 800.00 / 8: the nights, fees apart
    ("adr_incl_fees_net", "107.50"),       # 860.00 / 8: STR's, fees in
    ("revpar_net", "86.00"),               # 860.00 / 10
    ("trevpar_net", "109.00"),             # 1,090.00 / 10
])
def test_each_ratio_by_hand(name: str, by_hand: str) -> None:
    assert ratio(name, NIGHT) == Decimal(by_hand)


def test_ratios_round_half_up_and_have_no_value_without_a_base() -> None:
    assert ratio("adr_net", {"room_revenue_nights_net": Decimal("1.00"), "rooms_sold": 8}) \
        == Decimal("0.13")  # 0.125 half-up
    assert ratio("occupancy_pct", {"rooms_sold": 0, "rooms_available": 0}) is None
    assert ratio("revpar_net", {"rooms_available": 10}) is None


def test_a_sum_metric_is_its_sum() -> None:
    assert ratio("rooms_sold", NIGHT) == 8
    assert not METRICS["rooms_sold"].is_ratio


def test_one_name_one_basis() -> None:
    """Two bases, two names: the ADRs differ by their numerator."""
    assert METRICS["adr_net"].numerator != METRICS["adr_incl_fees_net"].numerator
    assert len({m.formula for m in METRICS.values() if m.is_ratio}) == sum(
        1 for m in METRICS.values() if m.is_ratio)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_docs_kpi_states_each_metric_as_it_is_defined(name: str) -> None:
    """docs/kpi.md writes each ratio's formula as the metric divides (a metric missing from
    the page, or documented on another basis, fails here)."""
    page = KPI_PAGE.read_text(encoding="utf-8")
    metric = METRICS[name]
    assert (f"`{metric.formula}" if metric.is_ratio else f"`{name}") in page


def test_each_metric_says_its_basis_and_as_of() -> None:
    assert [m.name for m in METRICS.values() if not m.basis or not m.as_of] == []


def test_docs_kpi_holds_the_catalog_as_generated() -> None:
    """The section "Every figure, by name" is `python -m pipelines.metrics.catalog`'s output:
    a metric added, renamed or given another basis without regenerating it fails here."""
    page = KPI_PAGE.read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    assert page[start:end] == catalog()


def test_a_change_is_in_points_for_a_percentage_and_in_percent_otherwise() -> None:
    """The trade reads occupancy 75.00 % against 76.25 % as -1.25 points, not -1.64 %; 90 rooms
    against 100 as -10.00 %; no base, no change."""
    assert change("occupancy_pct", Decimal("75.00"), Decimal("76.25")) == Decimal("-1.25")
    assert change_unit("occupancy_pct") == "pp"
    assert change("rooms_sold", 90, 100) == Decimal("-10.00")
    assert change("room_revenue_net", Decimal("1000.01"), Decimal("3000")) == Decimal("-66.67")
    assert change_unit("adr_net") == "%"
    assert change("rooms_sold", 5, 0) is None
    assert change("rooms_sold", None, 10) is None


def test_a_share_is_half_up_to_the_cent() -> None:
    """1 of 8 is 12.50 %; 1 of 3 is 33.33 %; 2 of 3 is 66.67 %; nothing of nothing is none."""
    assert (share_pct(1, 8), share_pct(1, 3), share_pct(2, 3)) == (
        Decimal("12.50"), Decimal("33.33"), Decimal("66.67"))
    assert share_pct(0, 0) is None

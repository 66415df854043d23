"""The departments of revenue: the one definition used by the marts (`mart.revenue_daily`), the
reports (`pmsw report revenue`), the SQL views (the table `mart.departments`, refilled from
this list whenever the views are applied) and the notebooks.

A department is the `department` of the line's item (`core.items.department`), as the PMS names
it. Change a name here and every reader follows; tests/marts/test_departments.py fails if
any of them spells a department that is not in this list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Department:
    code: str
    """As stored in core.items.department and mart.revenue_daily.department."""
    label: str
    """What a person reads (report titles, notebook legends)."""
    is_revenue: bool
    """False for city tax: collected for the city, outside VAT, never revenue."""
    position: int
    """Order of the columns in reports and views."""

    @property
    def column(self) -> str:
        """The stem of a report or view column: `<column>_net`, `<column>_gross`."""
        return self.code


ACCOMMODATION = "accommodation"
FOOD_BEVERAGE = "food_beverage"
OTHER = "other"
CITY_TAX = "city_tax"

DEPARTMENTS: tuple[Department, ...] = (
    Department(ACCOMMODATION, "Rooms", True, 1),
    Department(FOOD_BEVERAGE, "Food and beverage", True, 2),
    Department(OTHER, "Other", True, 3),
    Department(CITY_TAX, "City tax (not revenue)", False, 4),
)
CODES: tuple[str, ...] = tuple(d.code for d in DEPARTMENTS)
REVENUE_DEPARTMENTS: tuple[str, ...] = tuple(d.code for d in DEPARTMENTS if d.is_revenue)
NON_ROOM_REVENUE: tuple[str, ...] = tuple(c for c in REVENUE_DEPARTMENTS if c != ACCOMMODATION)
"""Revenue other than rooms: what total revenue adds to room revenue."""


def department(code: str) -> Department:
    """The department of `code`; KeyError naming the known ones otherwise."""
    for dep in DEPARTMENTS:
        if dep.code == code:
            return dep
    raise KeyError(f"unknown department {code!r}: known are {', '.join(CODES)}")


def line_department_sql(line: str = "l", item: str = "i") -> str:
    """The department of a folio line, in SQL over core.folio_lines `line` LEFT JOIN core.items
    `item`: its item's department; a line of no known item (a rebate, a free line) is
    accommodation when its type is, else other. The tie-out and the close pack read it."""
    codes = ", ".join(f"'{c}'" for c in CODES)
    return (f"CASE WHEN {item}.department IN ({codes}) THEN {item}.department "
            f"WHEN {line}.type = '{ACCOMMODATION}' THEN '{ACCOMMODATION}' ELSE '{OTHER}' END")

"""`pmsw budget import FILE`: load a monthly budget into mart.budget_monthly.

Every fault in the file is ONE line on stderr naming the row and the field, exit status 1,
and nothing is written."""

from __future__ import annotations

from pathlib import Path

import click

from pipelines.cli.options import warehouse_option


@click.group()
def budget() -> None:
    """Budgets: the monthly targets the flash report compares with."""


@budget.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@warehouse_option("DuckDB warehouse file, or a group directory (one file a property)")
def import_(file: Path, warehouse: Path) -> None:
    """Import a monthly budget from FILE (CSV in UTF-8, or the first sheet of an XLSX): it replaces
    the budget of every property and month the file holds, all or nothing.

    \b
    Columns (header row, any order): property (code or id), month (YYYY-MM), rooms_sold,
    room_revenue_net; optional: segment (a market segment; empty = the whole property),
    food_beverage_revenue_net, other_revenue_net. Amounts net of VAT.
    Refused with one line naming the row and field: an unknown property, month, segment or
    column, a duplicate row, a negative figure, a figure that is not a number.
    On a group directory the file is checked whole against the group's properties, then each
    property's rows go to its own file (all or nothing per property).
    Example:
      pmsw budget import budget-2027.csv
    """
    from pipelines.forecast import import_budget, import_budget_group
    from pipelines.forecast.logic import BudgetError
    from pipelines.warehouse import WarehouseError, writer

    if not warehouse.exists():
        raise click.ClickException(f"no warehouse at {warehouse}: run `make demo` or "
                                   "`pmsw sync` first, or pass --warehouse")
    try:
        if warehouse.is_dir():  # the group layout: each property's rows in its own file
            rows = import_budget_group(warehouse, file)
        else:
            with writer(warehouse) as conn:  # the flash report reads the copy it publishes
                rows = import_budget(conn, file)
    except (BudgetError, WarehouseError) as error:
        raise click.ClickException(str(error)) from None
    months = rows.select("property_id", "month").unique().height
    click.echo(f"{file.name}: {rows.height} budget rows imported ({months} property-months "
               "replaced)")

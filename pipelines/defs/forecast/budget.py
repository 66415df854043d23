"""The budget as an asset: `mart/budget_monthly`, imported from a budget file given as run
config (CSV or the first sheet of an XLSX; docs/flash.md, "Budget"), the same import as
`pmsw budget import`: all or nothing, then the read copy published (one writing path); on a
group directory each property's rows in its own file (`import_budget_group`).

    ops:
      mart__budget_monthly:
        config: {file: /srv/finance/budget-2027.xlsx}
"""

from pathlib import Path

import dagster as dg

from pipelines.defs.keys import OWNERS, POOL
from pipelines.defs.resources import WarehouseResource
from pipelines.forecast import BudgetError
from pipelines.warehouse import WarehouseError, resolve, writer

BUDGET_KEY = dg.AssetKey(["mart", "budget_monthly"])


class BudgetFile(dg.Config):
    file: str
    """The budget file: columns property, month, rooms_sold, room_revenue_net, optional
    segment, food_beverage_revenue_net, other_revenue_net (docs/flash.md, "Budget")."""


@dg.asset(key=BUDGET_KEY, pool=POOL, owners=OWNERS, group_name="forecast", kinds={"duckdb"},
          description="The monthly budget per property (and segment) the flash and the "
                      "months ahead compare with: a file imported whole, replacing the "
                      "property-months it holds.")
def budget_monthly(context: dg.AssetExecutionContext, config: BudgetFile,
                   warehouse: WarehouseResource
                   ) -> dg.MaterializeResult:  # type: ignore[type-arg]
    from pipelines.forecast import import_budget, import_budget_group  # openpyxl: not in a sync

    path = Path(config.file)
    try:
        if warehouse.grouped():  # one file a property: each property's rows in its own
            rows = import_budget_group(resolve(warehouse.path), path,
                                       wait=warehouse.wait_seconds)
        else:
            with writer(warehouse.file(), wait=warehouse.wait_seconds) as conn:
                rows = import_budget(conn, path)
    except (BudgetError, WarehouseError) as error:
        raise dg.Failure(str(error)) from None  # one line naming the row and field
    months = rows.select("property_id", "month").unique().height
    context.log.info(f"{path.name}: {rows.height} budget rows, {months} property-months")
    return dg.MaterializeResult(metadata={
        "file": path.name, "rows": rows.height, "property_months": months})

"""How far off the F&B and other revenue forecast per room sold is (issue 49, item 3).

forecast-months and the flash forecast a month's F&B and other revenue as the forecast rooms
of its nights ahead x the department's net revenue per room sold of the 91 closed days
before the business date (pipelines/reports/periods.py, `_per_room`). This replays that
rule on each warehouse given: as of the first day S of every month with 91 closed days
before it, for S's month and the 3 after it held whole, the month's actual rooms sold x the
rate of the 91 days before S, against the revenue the month posted (mart.revenue_daily).
With the actual rooms, the error is the rule's own (the rooms' is the forecast's,
docs/forecast.md). Prints per department and months ahead the WAPE % over the months, and
its bias (sum forecast - actual over sum actual, %).

    uv run --locked --no-sync python -m benchmarks.forecast_fnb DIR/warehouse.duckdb ...
"""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import polars as pl

from pipelines.reports.periods import PER_ROOM_DAYS

MONTHS_AHEAD = 3

DAILY = """
SELECT o.property_id, o.stay_date AS day, o.rooms_sold,
       coalesce(sum(r.revenue_net) FILTER (WHERE r.department = 'food_beverage'), 0) AS fnb,
       coalesce(sum(r.revenue_net) FILTER (WHERE r.is_revenue AND r.department NOT IN
                ('accommodation', 'food_beverage')), 0) AS other
FROM mart.occupancy_daily o
JOIN core.property p ON p.property_id = o.property_id AND o.stay_date < p.business_date
LEFT JOIN mart.revenue_daily r ON r.property_id = o.property_id AND r.date = o.stay_date
GROUP BY ALL
"""


def daily(path: Path) -> pl.DataFrame:
    """property_id, day, rooms_sold, fnb, other of every closed night the warehouse holds
    (mart.occupancy_daily holds the nights ahead on the books too)."""
    read = path.with_name(path.stem + ".read.duckdb")
    con = duckdb.connect(str(read if read.exists() else path), read_only=True)
    try:
        frame: pl.DataFrame = con.sql(DAILY).pl()
    finally:
        con.close()
    return frame.with_columns(pl.col("fnb", "other", "rooms_sold").cast(pl.Float64))


def errors(days: pl.DataFrame) -> pl.DataFrame:
    """One row per property, as-of month start S, months ahead and department: forecast and
    actual revenue of the month."""
    rows: list[dict[str, object]] = []
    for (pid,), nights in days.group_by("property_id"):
        nights = nights.sort("day")
        months = nights.group_by(month=pl.col("day").dt.truncate("1mo")).agg(
            n=pl.len(), rooms=pl.col("rooms_sold").sum(), fnb=pl.col("fnb").sum(),
            other=pl.col("other").sum(),
            days_in=pl.col("day").dt.month_end().dt.day().first()).filter(
            pl.col("n") == pl.col("days_in")).sort("month")
        whole = {r["month"]: r for r in months.iter_rows(named=True)}
        for start in sorted(whole):
            window = nights.filter(pl.col("day") < start,
                                   pl.col("day") >= start - pl.duration(days=PER_ROOM_DAYS))
            if window.height < PER_ROOM_DAYS:  # 91 closed days held before S
                continue
            sold = window["rooms_sold"].sum()
            if not sold:
                continue
            rate = {d: float(window[d].sum()) / float(sold) for d in ("fnb", "other")}
            ahead = [m for m in sorted(whole) if m >= start][:MONTHS_AHEAD + 1]
            for k, month in enumerate(ahead):
                for dept in ("fnb", "other"):
                    rows.append({"property_id": pid, "as_of": start, "ahead": k,
                                 "department": dept,
                                 "forecast": whole[month]["rooms"] * rate[dept],
                                 "actual": whole[month][dept]})
    return pl.DataFrame(rows)


def table(frame: pl.DataFrame) -> str:
    cells = frame.group_by("department", "ahead").agg(
        months=pl.len(),
        wape=(pl.col("forecast") - pl.col("actual")).abs().sum() / pl.col("actual").sum() * 100,
        bias=(pl.col("forecast").sum() - pl.col("actual").sum()) / pl.col("actual").sum() * 100,
    ).sort("department", "ahead")
    lines = ["| department | months ahead | months | WAPE % | bias % |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {r['department']} | {r['ahead']} | {r['months']} | {r['wape']:.2f} | "
              f"{r['bias']:+.2f} |" for r in cells.iter_rows(named=True)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    args = parser.parse_args()
    print(table(pl.concat([errors(daily(path)) for path in args.warehouses])))


if __name__ == "__main__":
    main()

"""The Manager Flash's look ahead (`pmsw report flash-ahead`): tomorrow and the 7 nights
after it, each as it stands on the books and as it is forecast (mart.forecast_daily of its
latest as-of date)."""

from __future__ import annotations

from datetime import date, timedelta

import duckdb

from pipelines.metrics import ratio, whole_rooms
from pipelines.reports.reports import NOT_PRICED, Query, Table
from pipelines.vocabulary import counted

AHEAD_COLUMNS = ("stay_date", "weekday", "arrivals", "departures", "rooms_available", "rooms_otb",
                 "occupancy_otb_pct", "adr_otb_net", "revenue_otb_net", "rooms_forecast",
                 "occupancy_forecast_pct", "adr_forecast_net", "room_revenue_forecast_net")


def next_8_nights(business_date: date) -> tuple[date, date]:
    """Tomorrow of the flash (the business date: the flash is of the day before) and the 7
    nights after it."""
    return business_date, business_date + timedelta(days=7)


def ahead(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    pid = q.prop.property_id
    rows = conn.execute(
        "SELECT f.stay_date, coalesce(o.arrivals, 0), coalesce(o.departures, 0), "
        "o.rooms_available, f.rooms_otb, f.revenue_otb_net, coalesce(o.rooms_complimentary, 0), "
        "f.rooms_forecast, f.occupancy_forecast_pct, f.adr_forecast_net, "
        "f.room_revenue_forecast_net FROM mart.forecast_daily f "
        "LEFT JOIN mart.occupancy_daily o ON o.property_id = f.property_id "
        "AND o.stay_date = f.stay_date WHERE f.property_id = ? "
        "AND f.stay_date BETWEEN ? AND ? AND f.as_of_date = (SELECT max(as_of_date) "
        "FROM mart.forecast_daily WHERE property_id = ?) ORDER BY f.stay_date",
        [pid, q.first, q.last, pid]).fetchall()
    out = []
    for night, arriving, departing, supply, otb, otb_revenue, comp, fc, fc_occ, fc_adr, \
            fc_revenue in rows:
        # the books hold the complimentary rooms; rooms sold, occupancy and ADR leave them out
        books = {"rooms_sold_otb": otb - comp, "revenue_otb_net": otb_revenue,
                 "rooms_available": supply}
        out.append((night, f"{night:%a}", arriving, departing, supply, otb,
                    ratio("occupancy_otb_pct", books), ratio("adr_otb_net", books), otb_revenue,
                    whole_rooms(fc), fc_occ,
                    *((fc_adr, fc_revenue) if fc_revenue is not None
                      else (NOT_PRICED, NOT_PRICED))))
    held = {r[0] for r in rows}
    nights = (q.last - q.first).days + 1
    missing = [q.first + timedelta(days=i) for i in range(nights)
               if q.first + timedelta(days=i) not in held]
    gap = (f"; {len(missing)} of the {counted(nights, 'night')} "
           f"{'has' if len(missing) == 1 else 'have'} no forecast (first {missing[0]})"
           if missing else "")
    return Table(f"Manager's flash ahead {q.first} to {q.last} - {q.prop.name} "
                 f"({q.prop.code}), {q.prop.currency}, net of VAT: on the books and forecast "
                 f"(mart.forecast_daily; rooms forecast as whole rooms, half-up, its "
                 f"occupancy, ADR and revenue of the unrounded forecast), arrivals and "
                 f"departures (mart.occupancy_daily){gap}",
                 AHEAD_COLUMNS, out)

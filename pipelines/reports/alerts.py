"""The alerts report: one row per alert, a stretch of consecutive nights of one kind
(docs/alerts.md), each beside what mart.pace says of those nights at the alert's days before:
the books and STLY, whether STLY was rebuilt, and last year's actual."""

from __future__ import annotations

from typing import Any

import duckdb

from pipelines.forecast.logic import alert_stretches
from pipelines.reports.reports import Query, Table, _title, as_of_date
from pipelines.warehouse import query_frame

SAME_NIGHT = "364 days earlier, or last year's same holiday or event"
ALERTS_COLUMNS = ("first_night", "last_night", "alert_nights", "alert", "value", "threshold",
                  "message", "rooms_otb", "stly_rooms_otb", "stly_is_rebuilt",
                  "ly_actual_rooms_sold", "ly_actual_room_revenue_net")


def _sum(values: list[Any]) -> Any:
    return None if None in values else sum(values)


def alerts(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """Alerts of q.first..q.last, a stretch of nights each (`alert_stretches`); rooms_otb and
    stly_rooms_otb are its nights' books and STLY at the alert's days before, stly_is_rebuilt
    says the STLY of one of its nights or more was rebuilt from the reservations' history (no
    snapshot that day), the ly_actual columns are last year's same nights as they ended (364
    days earlier, or the same holiday or event a year earlier: docs/calendar.md; rooms sold
    and room revenue net), summed over the stretch."""
    built = conn.execute("SELECT max(as_of_date) FROM mart.alerts WHERE property_id = ?",
                         [q.prop.property_id]).fetchall()[0][0]
    nights = query_frame(
        conn,
        "SELECT a.property_id, a.as_of_date, a.stay_date, a.alert, a.value, a.threshold, "
        "a.message, p.rooms_otb, p.stly_rooms_otb, p.stly_is_rebuilt, p.ly_actual_rooms_sold, "
        "p.ly_actual_room_revenue_net FROM mart.alerts a "
        "LEFT JOIN mart.pace p ON p.property_id = a.property_id AND p.stay_date = a.stay_date "
        "AND p.days_before = a.stay_date - a.as_of_date "
        "WHERE a.property_id = ? AND a.stay_date BETWEEN ? AND ? ORDER BY a.stay_date, a.alert",
        [q.prop.property_id, q.first, q.last])
    # mart.alerts is built as of the last closed business date (docs/kpi.md, "As of"): with
    # no alert in it, that is still the date it stands on
    basis = as_of_date(q.prop, built)[1]
    rows = []
    for a in alert_stretches(nights).to_dicts():
        held = [n for n in nights.to_dicts() if n["alert"] == a["alert"]
                and a["first_night"] <= n["stay_date"] <= a["last_night"]]
        rows.append((a["first_night"], a["last_night"], a["alert_nights"], a["alert"],
                     round(float(a["value"]), 4), round(float(a["threshold"]), 4),
                     a["message"], a["rooms_otb"], a["stly_rooms_otb"],
                     any(bool(n["stly_is_rebuilt"]) for n in held),
                     _sum([n["ly_actual_rooms_sold"] for n in held]),
                     _sum([n["ly_actual_room_revenue_net"] for n in held])))
    rebuilt = sum(1 for r in rows if r[9])
    said = (f"; STLY rebuilt from the reservations' history on {rebuilt} of {len(rows)} "
            f"alerts (stly_is_rebuilt); last year's actual: {SAME_NIGHT}") if rebuilt else (
        f"; last year's actual: {SAME_NIGHT}")
    return Table(_title(q, "Alerts (pace below last year, pickup spikes, over capacity), "
                        "one per stretch of nights" + f" as of {basis}" + said),
                 ALERTS_COLUMNS, rows, as_of=basis)

"""The alerts report: mart.alerts' nights to look at, each beside what mart.pace says of last
year at the same days before (whether STLY was rebuilt, and last year's actual)."""

from __future__ import annotations

import duckdb

from pipelines.reports.reports import Query, Table, _title, as_of_date

SAME_NIGHT = "364 days earlier, or last year's same holiday or event"
ALERTS_COLUMNS = ("stay_date", "weekday", "alert", "value", "threshold", "message",
                  "stly_is_rebuilt", "ly_actual_rooms_sold", "ly_actual_room_revenue_net")


def alerts(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """Alerts of q.first..q.last; stly_is_rebuilt says the STLY a pace alert compares with was
    rebuilt from the reservations' history (no snapshot that day), the ly_actual columns are
    last year's same nights as they ended (364 days earlier, or the same holiday or event a
    year earlier: docs/calendar.md; rooms sold and room revenue net)."""
    rows = conn.execute(
        "SELECT a.stay_date, a.alert, a.value, a.threshold, a.message, p.stly_is_rebuilt, "
        "p.ly_actual_rooms_sold, p.ly_actual_room_revenue_net FROM mart.alerts a "
        "LEFT JOIN mart.pace p ON p.property_id = a.property_id AND p.stay_date = a.stay_date "
        "AND p.days_before = a.stay_date - a.as_of_date "
        "WHERE a.property_id = ? AND a.stay_date BETWEEN ? AND ? ORDER BY a.stay_date, a.alert",
        [q.prop.property_id, q.first, q.last]).fetchall()
    built = conn.execute("SELECT max(as_of_date) FROM mart.alerts WHERE property_id = ?",
                         [q.prop.property_id]).fetchone()
    # mart.alerts is built as of the last closed business date (docs/kpi.md, "As of"): with
    # no alert in it, that is still the date it stands on
    basis = as_of_date(q.prop, None if built is None else built[0])[1]
    rebuilt = sum(1 for r in rows if r[5])
    said = (f"; STLY rebuilt from the reservations' history on {rebuilt} of {len(rows)} "
            f"alerts (stly_is_rebuilt); last year's actual: {SAME_NIGHT}") if rebuilt else (
        f"; last year's actual: {SAME_NIGHT}")
    return Table(_title(q, "Alerts (pace below last year, pickup spikes, over capacity)"
                        + f" as of {basis}" + said),
                 ALERTS_COLUMNS,
                 [(r[0], f"{r[0]:%a}", r[1], round(float(r[2]), 4), round(float(r[3]), 4),
                   r[4], r[5], r[6], r[7]) for r in rows], as_of=basis)

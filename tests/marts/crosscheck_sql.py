"""The marts' definitions written again, directly in DuckDB SQL from docs/kpi.md, to cross-check
the polars transforms (tests/marts/test_crosscheck.py). Nothing here calls pipelines.marts.logic.

The SQL takes the simplest reading of each definition rather than the transforms' algorithms:
OTB is a join of snapshot dates with the versions valid at their end (no change stream, no
running sums); pickup counts, day by day, each room night that was on the books at the end of
a day and not at the end of the day before (new) or the reverse (cancelled). Money is integer
cents, every rounding half-up (half away from zero) in integer arithmetic.

`build(conn, property_id)` creates temp tables x_<mart> with the columns of mart.<mart>.
"""

from __future__ import annotations

from typing import Any

import duckdb

DEFINED = ("stay_nights", "revenue_daily", "room_fees", "occupancy_daily",
           "occupancy_by_room_type", "segment_daily", "revenue_tieout", "otb_snapshots",
           "pickup", "pace", "booking_outcomes", "booking_kpis")
"""The marts written again here (`build` creates x_<mart> for each)."""
NOT_DEFINED = ("forecast_daily", "forecast_accuracy", "alerts")
"""Not definitions of docs/kpi.md: tested by hand in tests/forecast/test_forecast.py and
test_alerts.py (docs/forecast.md, docs/alerts.md)."""

ON_THE_BOOKS = "('confirmed', 'checked_in', 'checked_out')"
HORIZON = 365
WINDOWS = (1, 7, 14, 30)
ITALY_SAME_NIGHT = (
    # Italy's public holidays from 2026 to the cross-check's last stay date (a year after its
    # last business date, 5 January 2027), each with its night of the same name a year earlier
    # (docs/calendar.md): fixed dates a year back; Easter Sunday and Monday with Easter 2025
    # (20 April), 2026 (5 April); Saint Francis, a holiday from 2026 on, has no 2025 night
    # (4 October 2026: 364 days back); National Unity Day, the first Sunday of November, was
    # 1 November in 2026, a night named for All Saints too.
    ("2026-01-01", "2025-01-01"), ("2026-01-06", "2025-01-06"), ("2026-04-05", "2025-04-20"),
    ("2026-04-06", "2025-04-21"), ("2026-04-25", "2025-04-25"), ("2026-05-01", "2025-05-01"),
    ("2026-06-02", "2025-06-02"), ("2026-08-15", "2025-08-15"), ("2026-11-01", "2025-11-01"),
    ("2026-12-08", "2025-12-08"), ("2026-12-25", "2025-12-25"), ("2026-12-26", "2025-12-26"),
    ("2027-01-01", "2026-01-01"), ("2027-01-06", "2026-01-06"), ("2027-03-28", "2026-04-05"),
    ("2027-03-29", "2026-04-06"), ("2027-04-25", "2026-04-25"), ("2027-05-01", "2026-05-01"),
    ("2027-06-02", "2026-06-02"), ("2027-08-15", "2026-08-15"), ("2027-10-04", "2026-10-04"),
    ("2027-11-01", "2026-11-01"), ("2027-11-07", "2026-11-01"), ("2027-12-08", "2026-12-08"),
    ("2027-12-25", "2026-12-25"), ("2027-12-26", "2026-12-26"), ("2028-01-01", "2027-01-01"),
    ("2028-01-06", "2027-01-06"))
CITY_SAME_NIGHT = {
    # The city's patron saint: Rome (RM) Saints Peter and Paul, 29 June; Florence (FI) Saint
    # John the Baptist, 24 June.
    "RM": (("2026-06-29", "2025-06-29"), ("2027-06-29", "2026-06-29")),
    "FI": (("2026-06-24", "2025-06-24"), ("2027-06-24", "2026-06-24")),
}
"""Same night last year of the holidays the cross-check's stay dates (2026-01 to 2028-01)
meet at a property in Italy, by its province; every other night: 364 days back."""


def half_up(num: str, den: str) -> str:
    """SQL: integer num / positive integer den, rounded half away from zero."""
    return f"(sign({num}) * ((abs({num}) * 2 + ({den})) // (2 * ({den}))))"


def cents_to_money(cents: str) -> str:
    return f"CAST(CAST({cents} AS DECIMAL(18, 0)) * 0.01 AS DECIMAL(18, 2))"


def money_ratio(cents: str, den: str) -> str:
    return f"CASE WHEN ({den}) > 0 THEN {cents_to_money(half_up(cents, den))} END"


def pct(part: str, whole: str) -> str:
    """part / whole x 100, two decimals half-up, as DECIMAL(7,2); NULL when whole is 0."""
    return (f"CASE WHEN ({whole}) > 0 THEN CAST(CAST({half_up(f'({part}) * 10000', whole)} "
            f"AS DECIMAL(18, 0)) * 0.01 AS DECIMAL(7, 2)) END")


def rate(part: str, whole: str) -> str:
    """part / whole, four decimals half-up; NULL when whole is 0."""
    return (f"CASE WHEN ({whole}) > 0 THEN CAST(CAST({half_up(f'({part}) * 10000', whole)} "
            f"AS DECIMAL(18, 0)) * 0.0001 AS DECIMAL(7, 4)) END")


def net(gross: str, vat_bp: int) -> str:
    return half_up(f"({gross}) * 10000", str(10000 + vat_bp))


def build(conn: duckdb.DuckDBPyConnection, property_id: int) -> None:
    p = int(property_id)
    tz, vat_bp = _facts(conn, p)
    for sql in _statements(p, tz, vat_bp):
        conn.execute(sql)


def differences(conn: duckdb.DuckDBPyConnection, mart: str, property_id: int, limit: int,
                ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], int]:
    """After `build`: up to `limit` rows of mart.<mart> of the property that x_<mart> lacks,
    up to `limit` the other way round (every column, EXCEPT ALL), and the rows of x_<mart>."""
    names = conn.execute("SELECT column_name FROM duckdb_columns() WHERE schema_name = 'mart' "
                         "AND table_name = ? ORDER BY column_index", [mart]).fetchall()
    cols = ", ".join(f'"{n}"' for (n,) in names)
    ours = f"SELECT {cols} FROM mart.{mart} WHERE property_id = {int(property_id)}"
    theirs = f"SELECT {cols} FROM x_{mart}"
    return (conn.execute(f"{ours} EXCEPT ALL {theirs} LIMIT {limit}").fetchall(),
            conn.execute(f"{theirs} EXCEPT ALL {ours} LIMIT {limit}").fetchall(),
            conn.execute(f"SELECT count(*) FROM x_{mart}").fetchall()[0][0])


def _facts(conn: duckdb.DuckDBPyConnection, p: int) -> tuple[str, int]:
    tz = conn.execute("SELECT timezone FROM core.property WHERE property_id = ?",
                      [p]).fetchall()[0][0]
    vats = conn.execute("SELECT DISTINCT tax_pct FROM core.items WHERE property_id = ? AND "
                        "department = 'accommodation'", [p]).fetchall()
    vat_bp = int(vats[0][0] * 100) if len(vats) == 1 else 1000
    return str(tz), vat_bp


def _local(column: str, tz: str) -> str:
    return f"CAST(timezone('{tz}', {column}) AS DATE)"


def _statements(p: int, tz: str, vat_bp: int) -> list[str]:
    bd = f"(SELECT business_date FROM core.property WHERE property_id = {p})"
    return [
        # Cancellation times from the event log (the rebuild's faster path): the last
        # stay.cancelled of each room entry.
        f"""CREATE OR REPLACE TEMP TABLE x_cancel AS
        SELECT entity_id AS reservation_room_id, max(created_at) AS cancelled_at
        FROM core.events WHERE property_id = {p} AND type = 'stay.cancelled' AND entity = 'stay'
        GROUP BY 1""",
        # No-shows from the kept state (docs/kpi.md, No-show): cancelled by the hotel, its
        # first cancelled version starting (local date) on or after the arrival, and the
        # version before not an option; no version before: an accommodation charge of the
        # room entry, or of its reservation without a room entry, posted on the arrival.
        f"""CREATE OR REPLACE TEMP TABLE x_no_show AS
        WITH fc AS (
            SELECT reservation_room_id, min(valid_from) AS cancelled_at
            FROM core.reservation_room_versions
            WHERE property_id = {p} AND status = 'cancelled' GROUP BY 1
        ), prior AS (
            SELECT v.reservation_room_id, arg_max(v.status, v.valid_from) AS status_before
            FROM core.reservation_room_versions v JOIN fc USING (reservation_room_id)
            WHERE v.property_id = {p} AND v.valid_from < fc.cancelled_at GROUP BY 1
        ), charge AS (
            SELECT l.reservation_id, l.reservation_room_id, l.posted_on
            FROM core.folio_lines l
            LEFT JOIN core.items i ON i.property_id = l.property_id
                                  AND i.item_id = l.service_item_id
            WHERE l.property_id = {p} AND l.type <> 'payment' AND l.amount_gross > 0
              AND coalesce(i.department, CASE WHEN l.type = 'accommodation'
                                              THEN 'accommodation' END) = 'accommodation'
        )
        SELECT r.reservation_room_id,
               {_local('coalesce(fc.cancelled_at, r.updated_at)', tz)} >= r.arrival
               AND CASE WHEN pr.status_before IS NOT NULL THEN pr.status_before <> 'option'
                        ELSE EXISTS (
                            SELECT 1 FROM charge c
                            WHERE c.posted_on = r.arrival
                              AND (c.reservation_room_id = r.reservation_room_id
                                   OR (c.reservation_room_id IS NULL
                                       AND c.reservation_id = r.reservation_id)))
                   END AS is_no_show,
               pr.status_before
        FROM core.reservation_rooms r
        LEFT JOIN fc USING (reservation_room_id)
        LEFT JOIN prior pr USING (reservation_room_id)
        WHERE r.property_id = {p} AND r.status = 'cancelled' AND r.cancelled_by = 'hotel'""",
        # Room entries with persons, is_no_show, is_complimentary.
        f"""CREATE OR REPLACE TEMP TABLE x_rooms AS
        WITH kids AS (
            SELECT r.reservation_room_id,
                   sum(CAST(json_extract_string(r.brackets, '$."' || k || '"') AS INTEGER))
                       FILTER (WHERE coalesce(a.counts_as_person, true)) AS counted
            FROM core.reservation_rooms r CROSS JOIN unnest(json_keys(r.brackets)) AS t(k)
            LEFT JOIN core.age_brackets a
              ON a.property_id = r.property_id AND a.age_bracket_id = CAST(k AS BIGINT)
            WHERE r.property_id = {p} GROUP BY 1)
        SELECT r.*, r.adults + coalesce(kids.counted, 0) AS persons,
               coalesce(ns.is_no_show, false) AS is_no_show,
               coalesce(NOT ns.is_no_show AND (ns.status_before IS NULL
                                               OR ns.status_before = 'option'), false)
                   AS is_lapsed_option,
               r.total = 0 AND r.status <> 'cancelled' AS is_complimentary,
               CAST(round(r.total * 100) AS BIGINT) AS total_cents
        FROM core.reservation_rooms r
        LEFT JOIN kids USING (reservation_room_id)
        LEFT JOIN x_no_show ns USING (reservation_room_id)
        WHERE r.property_id = {p}""",
        # Charge lines with their department and room entry (the single entry of the
        # reservation when the line has none).
        f"""CREATE OR REPLACE TEMP TABLE x_lines AS
        WITH single AS (
            SELECT reservation_id, min(reservation_room_id) AS only_entry
            FROM core.reservation_rooms WHERE property_id = {p}
            GROUP BY 1 HAVING count(*) = 1)
        SELECT l.folio_line_id, l.reservation_id, l.posted_on,
               coalesce(l.reservation_room_id, s.only_entry) AS reservation_room_id,
               CASE WHEN i.department IN ('accommodation', 'food_beverage', 'other', 'city_tax')
                    THEN i.department
                    WHEN l.type = 'accommodation' THEN 'accommodation' ELSE 'other' END
                   AS department,
               CAST(round(l.amount_gross * 100) AS BIGINT) AS gross,
               CAST(round(l.amount_net * 100) AS BIGINT) AS net
        FROM core.folio_lines l
        LEFT JOIN core.items i ON i.property_id = l.property_id AND i.item_id = l.service_item_id
        LEFT JOIN single s ON s.reservation_id = l.reservation_id
        WHERE l.property_id = {p} AND l.type <> 'payment'""",
        f"""CREATE OR REPLACE TEMP TABLE x_revenue_daily AS
        SELECT {p} AS property_id, posted_on AS date, department,
               department <> 'city_tax' AS is_revenue,
               {cents_to_money('sum(net)')} AS department_revenue_net,
               {cents_to_money('sum(gross)')} AS revenue_gross,
               {cents_to_money('sum(gross) - sum(net)')} AS vat
        FROM x_lines GROUP BY ALL""",
        # Accommodation lines: a line still without entry pays the reservation's no-show
        # entry of the same rank (lines by id, no-show entries arrived by then by id); then
        # each is a night charge or a fee (docs/kpi.md, Fees).
        """CREATE OR REPLACE TEMP TABLE x_acc AS
        WITH open AS (
            SELECT * FROM x_lines
            WHERE department = 'accommodation' AND reservation_room_id IS NULL),
        pairs AS (
            SELECT o.folio_line_id, c.reservation_room_id AS entry,
                   dense_rank() OVER (PARTITION BY o.reservation_id, o.posted_on
                                      ORDER BY o.folio_line_id) AS line_rank,
                   dense_rank() OVER (PARTITION BY o.reservation_id, o.posted_on
                                      ORDER BY c.reservation_room_id) AS entry_rank
            FROM open o JOIN x_rooms c
              ON c.reservation_id = o.reservation_id AND c.is_no_show
             AND c.arrival <= o.posted_on),
        a AS (
            SELECT l.* REPLACE (coalesce(l.reservation_room_id, p.entry) AS reservation_room_id)
            FROM x_lines l
            LEFT JOIN (SELECT * FROM pairs WHERE line_rank = entry_rank) p USING (folio_line_id)
            WHERE l.department = 'accommodation')
        SELECT a.*,
               CASE WHEN r.reservation_room_id IS NULL THEN 'unattributed'
                    WHEN r.is_no_show THEN 'no_show'
                    WHEN r.status = 'cancelled' THEN 'cancellation'
                    WHEN r.status = 'option' THEN 'other'
                    WHEN a.posted_on >= r.departure THEN 'early_departure'
                    WHEN r.departure <= r.arrival THEN 'other'
                    ELSE 'night' END AS kind
        FROM a LEFT JOIN x_rooms r USING (reservation_room_id)""",
        f"""CREATE OR REPLACE TEMP TABLE x_room_fees AS
        SELECT {p} AS property_id, a.folio_line_id, a.reservation_id, a.reservation_room_id,
               a.posted_on AS date, a.kind AS fee_kind,
               {cents_to_money('a.net')} AS fee_revenue_net,
               {cents_to_money('a.gross')} AS fee_revenue_gross,
               r.room_type_id, r.room_id, r.channel, r.source, r.market, r.rate_plan_id,
               r.rate_plan_code
        FROM x_acc a LEFT JOIN x_rooms r USING (reservation_room_id)
        WHERE a.kind <> 'night'""",
        # One row per room entry and night.
        f"""CREATE OR REPLACE TEMP TABLE x_stay_nights AS
        WITH n AS (
            SELECT r.*, CAST(s AS DATE) AS stay_date,
                   datediff('day', r.arrival, r.departure) AS n_nights
            FROM x_rooms r CROSS JOIN unnest(generate_series(r.arrival, r.departure - 1,
                                                             INTERVAL 1 DAY)) AS t(s)
            WHERE r.departure > r.arrival
        ), split AS (
            SELECT *, datediff('day', arrival, stay_date) AS idx,
                   {half_up('total_cents', 'n_nights')} AS per_night FROM n
        ), priced AS (
            SELECT *, CASE WHEN idx = n_nights - 1 THEN total_cents - per_night * (n_nights - 1)
                           ELSE per_night END AS split_gross FROM split
        ), posted AS (
            SELECT l.reservation_room_id,
                   least(greatest(l.posted_on, r.arrival), r.departure - 1) AS stay_date,
                   sum(l.gross) AS gross, sum(l.net) AS net
            FROM x_acc l JOIN x_rooms r USING (reservation_room_id)
            WHERE l.kind = 'night' AND l.posted_on < {bd}
            GROUP BY 1, 2)
        SELECT p.property_id, p.reservation_id, p.reservation_room_id, p.stay_date, p.arrival,
               p.departure, p.n_nights AS nights, p.idx AS night_index, p.status,
               p.status = 'option' AS is_option, p.status = 'cancelled' AS is_cancelled,
               p.is_no_show, p.is_complimentary, p.room_type_id, p.room_id, p.room_code,
               p.rate_plan_id, p.rate_plan_code, p.channel, p.source, p.market, p.adults,
               p.children, p.persons,
               {cents_to_money('''CASE WHEN p.stay_date < BD THEN coalesce(x.gross, 0)
                                      WHEN p.status = 'cancelled' THEN 0
                                      ELSE p.split_gross END'''.replace('BD', bd))}
                   AS room_revenue_gross,
               {cents_to_money(f'''CASE WHEN p.stay_date < {bd} THEN coalesce(x.net, 0)
                                       WHEN p.status = 'cancelled' THEN 0
                                       ELSE {net('p.split_gross', vat_bp)} END''')}
                   AS room_revenue_net,
               CASE WHEN p.stay_date < {bd} THEN 'folio' ELSE 'stay' END AS room_revenue_source,
               p.stay_date < {bd} AS is_actual
        FROM priced p LEFT JOIN posted x USING (reservation_room_id, stay_date)""",
        # Occupancy per date (and per room type).
        f"""CREATE OR REPLACE TEMP TABLE x_night_facts AS
        SELECT s.*, coalesce(rm.room_type_id, s.room_type_id) AS eff_type,
               s.status IN {ON_THE_BOOKS} AND NOT s.is_no_show AS in_house,
               CAST(round(s.room_revenue_net * 100) AS BIGINT) AS net_cents,
               CAST(round(s.room_revenue_gross * 100) AS BIGINT) AS gross_cents
        FROM x_stay_nights s
        LEFT JOIN core.rooms rm ON rm.property_id = {p} AND rm.room_id = s.room_id""",
        f"""CREATE OR REPLACE TEMP TABLE x_supply AS
        WITH bounds AS (
            SELECT min(d) AS first, max(d) AS last FROM (
                SELECT stay_date AS d FROM x_stay_nights
                UNION ALL SELECT stay_date + 1 FROM x_stay_nights
                UNION ALL SELECT stay_date FROM core.availability WHERE property_id = {p}
                UNION ALL SELECT date FROM x_room_fees)
        ), dates AS (
            SELECT CAST(unnest(generate_series(first, last, INTERVAL 1 DAY)) AS DATE) AS date
            FROM bounds WHERE first IS NOT NULL
        ), types AS (
            SELECT DISTINCT room_type_id FROM (
                SELECT room_type_id FROM core.rooms WHERE property_id = {p}
                UNION ALL SELECT room_type_id FROM core.availability WHERE property_id = {p})
        ), snap AS (
            SELECT d.date, a.room_type_id,
                   arg_max(a.total, a.snapshot_date) AS total,
                   arg_max(a.out_of_order, a.snapshot_date) AS ooo
            FROM dates d JOIN core.availability a
              ON a.property_id = {p} AND a.stay_date = d.date AND a.snapshot_date <= d.date
            GROUP BY 1, 2
        ), listed AS (
            SELECT room_type_id, count(*) FILTER (WHERE sellable) AS n, count(*) AS built
            FROM core.rooms WHERE property_id = {p} GROUP BY 1)
        SELECT d.date, t.room_type_id, coalesce(listed.built, 0) AS in_property,
               coalesce(snap.total, listed.n, 0) AS sellable, coalesce(snap.ooo, 0) AS ooo
        FROM dates d CROSS JOIN types t
        LEFT JOIN snap ON snap.date = d.date AND snap.room_type_id = t.room_type_id
        LEFT JOIN listed ON listed.room_type_id = t.room_type_id""",
        """CREATE OR REPLACE TEMP TABLE x_demand AS
        SELECT stay_date AS date, eff_type AS room_type_id,
               count(*) FILTER (WHERE in_house AND NOT is_complimentary) AS sold,
               count(*) FILTER (WHERE in_house AND is_complimentary) AS comp,
               count(*) FILTER (WHERE in_house AND is_complimentary
                                AND rate_plan_code = 'HOUSE') AS house,
               count(*) FILTER (WHERE status = 'option') AS opt,
               count(*) FILTER (WHERE in_house AND night_index = 0) AS arrivals,
               0 AS departures,
               coalesce(sum(persons) FILTER (WHERE in_house), 0) AS persons,
               count(*) FILTER (WHERE is_no_show AND night_index = 0) AS no_shows,
               count(*) FILTER (WHERE in_house AND night_index = 0
                                AND channel = 'walk_in') AS walk_ins,
               coalesce(sum(net_cents) FILTER (WHERE status <> 'option'), 0) AS net,
               coalesce(sum(gross_cents) FILTER (WHERE status <> 'option'), 0) AS gross
        FROM x_night_facts GROUP BY 1, 2
        UNION ALL
        SELECT stay_date + 1, eff_type, 0, 0, 0, 0, 0, count(*), 0, 0, 0, 0, 0
        FROM x_night_facts WHERE in_house AND night_index = nights - 1 GROUP BY 1, 2""",
        # Other revenue: by date from the lines; by type through the night the line falls on.
        """CREATE OR REPLACE TEMP TABLE x_other AS
        SELECT l.posted_on AS date, NULL::BIGINT AS room_type_id, sum(l.net) AS net, true AS daily
        FROM x_lines l WHERE l.department IN ('food_beverage', 'other') GROUP BY 1
        UNION ALL
        SELECT l.posted_on, f.eff_type, sum(l.net), false
        FROM x_lines l JOIN x_rooms r USING (reservation_room_id)
        JOIN x_night_facts f ON f.reservation_room_id = l.reservation_room_id
         AND f.stay_date = least(greatest(l.posted_on, r.arrival), r.departure - 1)
        WHERE l.department IN ('food_beverage', 'other') AND r.departure > r.arrival
        GROUP BY 1, 2""",
        # Fees by posting date, and by the type of the entry's assigned room, else booked.
        f"""CREATE OR REPLACE TEMP TABLE x_fees AS
        SELECT f.date, coalesce(rm.room_type_id, f.room_type_id) AS room_type_id,
               CAST(round(f.fee_revenue_net * 100) AS BIGINT) AS net,
               CAST(round(f.fee_revenue_gross * 100) AS BIGINT) AS gross
        FROM x_room_fees f
        LEFT JOIN core.rooms rm ON rm.property_id = {p} AND rm.room_id = f.room_id""",
        _occupancy_sql(p, bd, by_type=False),
        _occupancy_sql(p, bd, by_type=True),
        # History before the first sync, rebuilt (docs/kpi.md), and the snapshot dates.
        f"""CREATE OR REPLACE TEMP TABLE x_versions AS
        WITH v AS (SELECT * FROM core.reservation_room_versions WHERE property_id = {p}),
        first AS (SELECT * FROM v QUALIFY row_number() OVER (
                      PARTITION BY reservation_room_id ORDER BY valid_from) = 1),
        rebuilt AS (
            SELECT f.reservation_room_id, f.arrival, f.departure, f.total,
                   CASE WHEN f.status = 'cancelled' THEN 'confirmed' ELSE f.status END AS status,
                   f.created_at AS valid_from,
                   CASE WHEN f.status = 'cancelled'
                        THEN least(coalesce(c.cancelled_at, f.valid_from), f.valid_from)
                        ELSE f.valid_from END AS valid_to
            FROM first f LEFT JOIN x_cancel c USING (reservation_room_id))
        SELECT reservation_room_id, arrival, departure, total, status, valid_from, valid_to
        FROM v
        UNION ALL SELECT * FROM rebuilt WHERE valid_from < valid_to""",
        f"""CREATE OR REPLACE TEMP TABLE x_range AS
        WITH seen AS (
            SELECT business_date AS d FROM core.property WHERE property_id = {p}
            UNION ALL SELECT CAST(payload ->> 'business_date' AS DATE) FROM raw.payloads
                      WHERE property_id = {p} AND stream = 'property'
            UNION ALL SELECT snapshot_date FROM core.availability WHERE property_id = {p})
        SELECT least((SELECT min(d) FROM seen),
                     (SELECT min({_local('valid_from', tz)}) FROM x_versions)) AS first,
               (SELECT max(d) FROM seen) AS last,
               (SELECT min(d) FROM seen) AS observed""",
        # Each version night with the local snapshot dates it counts on: [from, to).
        f"""CREATE OR REPLACE TEMP TABLE x_version_nights AS
        WITH v AS (
            SELECT *, {_local('valid_from', tz)} AS s_from, {_local('valid_to', tz)} AS s_to,
                   datediff('day', arrival, departure) AS n_nights,
                   CAST(round(total * 100) AS BIGINT) AS total_cents
            FROM x_versions
            WHERE status IN {ON_THE_BOOKS} OR status = 'option'),
        n AS (
            SELECT v.*, CAST(s AS DATE) AS stay_date,
                   {half_up('total_cents', 'n_nights')} AS per_night
            FROM v CROSS JOIN unnest(generate_series(arrival, departure - 1, INTERVAL 1 DAY))
                 AS t(s)
            WHERE departure > arrival)
        SELECT reservation_room_id, stay_date, s_from, s_to, status = 'option' AS is_option,
               {net('''CASE WHEN datediff('day', arrival, stay_date) = n_nights - 1
                           THEN total_cents - per_night * (n_nights - 1) ELSE per_night END''',
                    vat_bp)} AS net_cents
        FROM n""",
        # On the books at the end of each day (wide range for the pickup windows).
        f"""CREATE OR REPLACE TEMP TABLE x_on AS
        SELECT CAST(s AS DATE) AS snapshot_date, vn.reservation_room_id, vn.stay_date,
               vn.is_option, vn.net_cents
        FROM x_range r
        CROSS JOIN unnest(generate_series(r.first - {max(WINDOWS) + 1}, r.last,
                                          INTERVAL 1 DAY)) AS t(s)
        JOIN x_version_nights vn
          ON vn.s_from <= CAST(s AS DATE) AND (vn.s_to IS NULL OR CAST(s AS DATE) < vn.s_to)""",
        f"""CREATE OR REPLACE TEMP TABLE x_otb_snapshots AS
        WITH grid AS (
            SELECT CAST(s AS DATE) AS snapshot_date,
                   CAST(s AS DATE) + CAST(k AS INTEGER) AS stay_date
            FROM x_range r CROSS JOIN unnest(generate_series(r.first, r.last, INTERVAL 1 DAY))
                 AS t(s) CROSS JOIN range(0, {HORIZON + 1}) AS o(k)),
        books AS (
            SELECT snapshot_date, stay_date,
                   count(*) FILTER (WHERE NOT is_option) AS rooms,
                   sum(net_cents) FILTER (WHERE NOT is_option) AS net,
                   count(*) FILTER (WHERE is_option) AS opt
            FROM x_on GROUP BY 1, 2)
        SELECT {p} AS property_id, g.snapshot_date, g.stay_date,
               coalesce(b.rooms, 0) AS rooms_otb,
               {cents_to_money('coalesce(b.net, 0)')} AS revenue_otb_net,
               coalesce(b.opt, 0) AS rooms_option,
               g.snapshot_date < (SELECT observed FROM x_range) AS is_rebuilt
        FROM grid g LEFT JOIN books b USING (snapshot_date, stay_date)""",
        # Pickup: per day, room nights that came on / went off the books, and revenue change.
        """CREATE OR REPLACE TEMP TABLE x_daily AS
        WITH b AS (SELECT * FROM x_on WHERE NOT is_option),
        today AS (
            SELECT t.snapshot_date AS day, t.stay_date, t.reservation_room_id,
                   t.net_cents AS net_now, y.net_cents AS net_before,
                   y.reservation_room_id IS NULL AS came
            FROM b t LEFT JOIN b y ON y.reservation_room_id = t.reservation_room_id
             AND y.stay_date = t.stay_date AND y.snapshot_date = t.snapshot_date - 1),
        gone AS (
            SELECT y.snapshot_date + 1 AS day, y.stay_date, y.net_cents
            FROM b y LEFT JOIN b t ON t.reservation_room_id = y.reservation_room_id
             AND t.stay_date = y.stay_date AND t.snapshot_date = y.snapshot_date + 1
            WHERE t.reservation_room_id IS NULL
              AND y.snapshot_date + 1 <= (SELECT last FROM x_range))
        SELECT day, stay_date, sum(new) AS new, sum(cancelled) AS cancelled, sum(rc) AS rc
        FROM (SELECT day, stay_date, CAST(came AS INTEGER) AS new, 0 AS cancelled,
                     net_now - coalesce(net_before, 0) AS rc FROM today
              UNION ALL SELECT day, stay_date, 0, 1, -net_cents FROM gone)
        GROUP BY 1, 2""",
        f"""CREATE OR REPLACE TEMP TABLE x_pickup AS
        WITH w AS (SELECT unnest({list(WINDOWS)}) AS window_days),
        spread AS (
            SELECT d.day + CAST(k AS INTEGER) AS as_of_date, d.stay_date, w.window_days,
                   d.new, d.cancelled, d.rc
            FROM x_daily d CROSS JOIN w CROSS JOIN range(0, 31) AS o(k)
            WHERE k < w.window_days)
        SELECT {p} AS property_id, as_of_date, stay_date, window_days,
               sum(new) AS rooms_new, sum(cancelled) AS rooms_cancelled,
               sum(new) - sum(cancelled) AS rooms_net, {cents_to_money('sum(rc)')} AS revenue_net,
               as_of_date - window_days < r.observed AND r.first < r.observed AS is_rebuilt
        FROM spread, x_range r
        WHERE as_of_date BETWEEN r.first AND r.last
          AND stay_date BETWEEN as_of_date AND as_of_date + {HORIZON}
        GROUP BY ALL
        HAVING sum(new) <> 0 OR sum(cancelled) <> 0 OR sum(rc) <> 0""",
        # Pace: OTB and STLY (last year's same night L: the same holiday a year earlier, else
        # 364 days earlier; at the same days before, L - k), each with whether its snapshot
        # is rebuilt; last year's final actual = the lived night L of x_occupancy_daily.
        f"""CREATE OR REPLACE TEMP TABLE x_pace AS
        WITH named AS (
            SELECT CAST(night AS DATE) AS stay_date, CAST(ly AS DATE) AS ly_date
            FROM (VALUES {', '.join(f"('{n}', '{ly}', '{province}')"
                                    for province, city in CITY_SAME_NIGHT.items()
                                    for n, ly in ITALY_SAME_NIGHT + city)})
                 AS t(night, ly, province)
            WHERE (province, 'IT') = (SELECT (province, country) FROM core.property
                                      WHERE property_id = {p})),
        o AS (
            SELECT s.*, coalesce(n.ly_date, s.stay_date - 364) AS ly_date
            FROM x_otb_snapshots s LEFT JOIN named n USING (stay_date))
        SELECT o.property_id, o.stay_date,
               CAST(datediff('day', o.snapshot_date, o.stay_date) AS INTEGER) AS days_before,
               o.rooms_otb, o.revenue_otb_net,
               ly.rooms_otb AS stly_rooms_otb, ly.revenue_otb_net AS stly_revenue_otb_net,
               o.is_rebuilt, ly.is_rebuilt AS stly_is_rebuilt,
               a.rooms_sold AS ly_actual_rooms_sold,
               a.room_revenue_net AS ly_actual_room_revenue_net
        FROM o LEFT JOIN x_otb_snapshots ly
          ON ly.stay_date = o.ly_date
         AND ly.snapshot_date = o.ly_date - CAST(o.stay_date - o.snapshot_date AS INTEGER)
        LEFT JOIN x_occupancy_daily a ON a.stay_date = o.ly_date AND a.is_actual""",
        f"""CREATE OR REPLACE TEMP TABLE x_segment_daily AS
        WITH n AS (
            SELECT stay_date, channel, source, market, rate_plan_id, rate_plan_code,
                   room_type_id,
                   count(*) FILTER (WHERE status IN {ON_THE_BOOKS} AND NOT is_complimentary
                                    AND NOT is_no_show) AS sold,
                   sum(CAST(round(room_revenue_net * 100) AS BIGINT)) AS net
            FROM x_stay_nights WHERE status <> 'option' GROUP BY ALL),
        f AS (
            SELECT date AS stay_date, channel, source, market, rate_plan_id, rate_plan_code,
                   room_type_id, sum(CAST(round(fee_revenue_net * 100) AS BIGINT)) AS fee
            FROM x_room_fees GROUP BY ALL),
        j AS (
            SELECT coalesce(n.stay_date, f.stay_date) AS stay_date,
                   coalesce(n.channel, f.channel) AS channel,
                   coalesce(n.source, f.source) AS source,
                   coalesce(n.market, f.market) AS market,
                   coalesce(n.rate_plan_id, f.rate_plan_id) AS rate_plan_id,
                   coalesce(n.rate_plan_code, f.rate_plan_code) AS rate_plan_code,
                   coalesce(n.room_type_id, f.room_type_id) AS room_type_id,
                   coalesce(n.sold, 0) AS sold, coalesce(n.net, 0) AS net,
                   coalesce(f.fee, 0) AS fee
            FROM n FULL JOIN f
              ON n.stay_date = f.stay_date AND n.channel IS NOT DISTINCT FROM f.channel
             AND n.source IS NOT DISTINCT FROM f.source
             AND n.market IS NOT DISTINCT FROM f.market
             AND n.rate_plan_id IS NOT DISTINCT FROM f.rate_plan_id
             AND n.rate_plan_code IS NOT DISTINCT FROM f.rate_plan_code
             AND n.room_type_id IS NOT DISTINCT FROM f.room_type_id)
        SELECT {p} AS property_id, stay_date, channel, source, market, rate_plan_id,
               rate_plan_code, room_type_id, sold AS rooms_sold,
               {cents_to_money('net')} AS room_revenue_nights_net,
               {cents_to_money('fee')} AS room_revenue_fees_net,
               {cents_to_money('net + fee')} AS room_revenue_net,
               {money_ratio('net', 'sold')} AS adr_net
        FROM j WHERE sold <> 0 OR net <> 0 OR fee <> 0""",
        # The tie-out: folio accommodation by posting date against the occupancy's nights
        # and fees; night charges counted on another night than their posting date explain.
        f"""CREATE OR REPLACE TEMP TABLE x_revenue_tieout AS
        WITH folio AS (
            SELECT posted_on AS date, sum(net) AS folio FROM x_lines
            WHERE department = 'accommodation' GROUP BY 1),
        occ AS (
            SELECT stay_date AS date,
                   CAST(round(room_revenue_nights_net * 100) AS BIGINT) AS nights,
                   CAST(round(room_revenue_fees_net * 100) AS BIGINT) AS fees
            FROM x_occupancy_daily),
        spans AS (
            SELECT reservation_room_id, min(stay_date) AS first_night,
                   max(stay_date) AS last_night
            FROM x_stay_nights GROUP BY 1),
        moved AS (
            SELECT a.posted_on, a.net,
                   CASE WHEN least(greatest(a.posted_on, s.first_night), s.last_night) < {bd}
                        THEN least(greatest(a.posted_on, s.first_night), s.last_night)
                        END AS counted_on
            FROM x_acc a LEFT JOIN spans s USING (reservation_room_id)
            WHERE a.kind = 'night' AND a.posted_on < {bd}),
        shifted AS (
            SELECT date, sum(cents) AS shifted FROM (
                SELECT posted_on AS date, net AS cents FROM moved
                WHERE counted_on IS NULL OR counted_on <> posted_on
                UNION ALL SELECT counted_on, -net FROM moved
                WHERE counted_on IS NOT NULL AND counted_on <> posted_on)
            GROUP BY 1),
        dates AS (SELECT date FROM folio UNION SELECT date FROM occ
                  UNION SELECT date FROM shifted),
        t AS (
            SELECT d.date, coalesce(f.folio, 0) AS folio, coalesce(o.nights, 0) AS nights,
                   coalesce(o.fees, 0) AS fees, coalesce(x.shifted, 0) AS shifted
            FROM dates d LEFT JOIN folio f USING (date) LEFT JOIN occ o USING (date)
            LEFT JOIN shifted x USING (date)
            WHERE d.date < {bd})
        SELECT {p} AS property_id, date,
               {cents_to_money('folio')} AS folio_accommodation_net,
               {cents_to_money('nights')} AS room_revenue_nights_net,
               {cents_to_money('fees')} AS room_revenue_fees_net,
               {cents_to_money('folio - nights - fees')} AS difference_net,
               {cents_to_money('shifted')} AS shifted_net,
               {cents_to_money('folio - nights - fees - shifted')} AS unexplained_net,
               CASE WHEN folio - nights - fees - shifted <> 0 THEN 'unexplained'
                    WHEN folio - nights - fees <> 0
                    THEN 'night charges posted on another date than the night they pay'
                    END AS reason
        FROM t WHERE folio <> 0 OR nights <> 0 OR fees <> 0 OR shifted <> 0""",
        # Booking outcomes (docs/kpi.md): each room entry on the books, cancelled by the guest,
        # a no-show, a lapsed option, cancelled by the hotel, or an option; firm = on the
        # books, guest, no-show or hotel cancellation. Per reservation.
        f"""CREATE OR REPLACE TEMP TABLE x_booking_outcomes AS
        WITH e AS (
            SELECT *, departure - arrival AS n,
                   status IN {ON_THE_BOOKS} AS stayed,
                   status = 'cancelled' AND coalesce(cancelled_by, '') <> 'hotel' AS guest,
                   status = 'cancelled' AND cancelled_by = 'hotel' AND is_no_show AS ns,
                   status = 'cancelled' AND cancelled_by = 'hotel' AND NOT is_no_show
                       AND is_lapsed_option AS lapsed,
                   status = 'cancelled' AND cancelled_by = 'hotel' AND NOT is_no_show
                       AND NOT is_lapsed_option AS hotel
            FROM x_rooms),
        f AS (SELECT *, stayed OR guest OR ns OR hotel AS firm FROM e),
        h AS (
            SELECT reservation_id, min(channel) AS channel, min(arrival) AS arrival,
                   min({_local('created_at', tz)}) AS booked_on,
                   count(*) FILTER (WHERE firm) AS rooms,
                   coalesce(sum(n) FILTER (WHERE firm), 0) AS room_nights,
                   count(*) FILTER (WHERE guest) AS cancelled_rooms,
                   coalesce(sum(n) FILTER (WHERE guest), 0) AS cancelled_room_nights,
                   count(*) FILTER (WHERE stayed) AS stayed_rooms,
                   coalesce(sum(n) FILTER (WHERE stayed), 0) AS stayed_room_nights,
                   count(*) FILTER (WHERE ns) AS no_shows,
                   count(*) FILTER (WHERE hotel) AS hotel_cancelled_rooms,
                   count(*) FILTER (WHERE lapsed) AS lapsed_option_rooms
            FROM f GROUP BY 1),
        l AS (SELECT *, datediff('day', booked_on, arrival) AS lead_time_days,
                     rooms > 0 AS is_booking,
                     rooms > 0 AND cancelled_rooms = rooms AS is_cancelled FROM h)
        SELECT {p} AS property_id, reservation_id, channel, arrival,
               CAST(date_trunc('month', arrival) AS DATE) AS arrival_month, booked_on,
               lead_time_days,
               CASE WHEN lead_time_days <= 1 THEN '0-1' WHEN lead_time_days <= 7 THEN '2-7'
                    WHEN lead_time_days <= 14 THEN '8-14' WHEN lead_time_days <= 30 THEN '15-30'
                    WHEN lead_time_days <= 60 THEN '31-60' WHEN lead_time_days <= 90 THEN '61-90'
                    WHEN lead_time_days <= 180 THEN '91-180' ELSE '181+' END
                   AS lead_time_bucket,
               CASE WHEN lead_time_days <= 1 THEN 1 WHEN lead_time_days <= 7 THEN 2
                    WHEN lead_time_days <= 14 THEN 3 WHEN lead_time_days <= 30 THEN 4
                    WHEN lead_time_days <= 60 THEN 5 WHEN lead_time_days <= 90 THEN 6
                    WHEN lead_time_days <= 180 THEN 7 ELSE 8 END AS lead_time_order,
               CASE WHEN stayed_rooms > 0 THEN 'on_the_books'
                    WHEN is_cancelled THEN 'cancelled'
                    WHEN no_shows > 0 THEN 'no_show'
                    WHEN is_booking THEN 'hotel_cancelled'
                    WHEN lapsed_option_rooms > 0 THEN 'lapsed_option'
                    ELSE 'option' END AS outcome,
               is_booking, is_cancelled, NOT is_booking AND lapsed_option_rooms > 0
                   AS is_lapsed_option,
               rooms AS firm_rooms, room_nights, cancelled_rooms, cancelled_room_nights,
               stayed_rooms,
               stayed_room_nights, no_shows, hotel_cancelled_rooms, lapsed_option_rooms
        FROM l""",
        f"""CREATE OR REPLACE TEMP TABLE x_booking_kpis AS
        WITH c AS (
            SELECT arrival_month, channel,
                   count(*) FILTER (WHERE is_booking) AS bookings,
                   coalesce(sum(room_nights) FILTER (WHERE is_booking), 0) AS room_nights,
                   count(*) FILTER (WHERE is_cancelled) AS cancelled_bookings,
                   coalesce(sum(cancelled_room_nights) FILTER (WHERE is_booking), 0)
                       AS cancelled_room_nights,
                   coalesce(sum(lead_time_days) FILTER (WHERE is_booking), 0) AS leads,
                   coalesce(sum(stayed_rooms) FILTER (WHERE is_booking), 0) AS stayed_rooms,
                   coalesce(sum(stayed_room_nights) FILTER (WHERE is_booking), 0)
                       AS stayed_nights,
                   coalesce(sum(no_shows) FILTER (WHERE is_booking), 0) AS no_shows,
                   count(*) FILTER (WHERE is_lapsed_option) AS lapsed_options
            FROM x_booking_outcomes WHERE is_booking OR is_lapsed_option GROUP BY ALL)
        SELECT {p} AS property_id, arrival_month, channel, bookings, room_nights,
               cancelled_bookings, cancelled_room_nights,
               {rate('cancelled_bookings', 'bookings')} AS cancellation_rate_bookings,
               {rate('cancelled_room_nights', 'room_nights')} AS cancellation_rate_room_nights,
               CASE WHEN bookings > 0 THEN CAST(CAST({half_up('leads * 100', 'bookings')}
                    AS DECIMAL(18, 0)) * 0.01 AS DECIMAL(9, 2)) END AS avg_lead_time_days,
               {rate('stayed_nights', 'stayed_rooms')} AS alos,
               no_shows,
               {rate('no_shows', 'stayed_rooms + no_shows')} AS no_show_rate,
               lapsed_options
        FROM c""",
    ]


def _occupancy_sql(p: int, bd: str, *, by_type: bool) -> str:
    name = "x_occupancy_by_room_type" if by_type else "x_occupancy_daily"
    key = "s.date, s.room_type_id" if by_type else "s.date"
    out_key = "s.date AS stay_date, s.room_type_id" if by_type else "s.date AS stay_date"
    other = ("o.room_type_id = s.room_type_id AND NOT o.daily" if by_type
             else "o.daily")
    fee_key = ("f.date = s.date AND f.room_type_id = s.room_type_id" if by_type
               else "f.date = s.date")
    fee_types = "WHERE room_type_id IS NOT NULL" if by_type else ""
    fee_group = "date, room_type_id" if by_type else "date"
    fee_select = "date, room_type_id" if by_type else "date"
    # STR / USALI supply: the rooms in the property; net of OOO: sellable - out of order.
    avail, net_avail = "sum(s.in_property)", "sum(s.sellable) - sum(s.ooo)"
    sold = "coalesce(sum(d.sold), 0)"
    nights, fees = "coalesce(sum(d.net), 0)", "coalesce(max(f.net), 0)"
    rooms = f"({nights} + {fees})"
    total = f"({rooms} + coalesce(max(o.net), 0))"
    return f"""CREATE OR REPLACE TEMP TABLE {name} AS
        WITH d AS (SELECT date, room_type_id, sum(sold) AS sold, sum(comp) AS comp,
                          sum(house) AS house, sum(opt) AS opt,
                          sum(arrivals) AS arrivals, sum(departures) AS departures,
                          sum(persons) AS persons, sum(no_shows) AS no_shows,
                          sum(walk_ins) AS walk_ins,
                          sum(net) AS net, sum(gross) AS gross
                   FROM x_demand GROUP BY 1, 2),
        f AS (SELECT {fee_select}, sum(net) AS net, sum(gross) AS gross
              FROM x_fees {fee_types} GROUP BY {fee_group})
        SELECT {p} AS property_id, {out_key},
               sum(s.in_property) AS rooms_in_property, sum(s.sellable) AS rooms_sellable,
               {avail} AS rooms_available, sum(s.ooo) AS rooms_out_of_order,
               {net_avail} AS rooms_available_net_ooo,
               {sold} AS rooms_sold, coalesce(sum(d.comp), 0) AS rooms_complimentary,
               coalesce(sum(d.opt), 0) AS rooms_option,
               {pct(sold, avail)} AS occupancy_pct,
               {pct(sold, net_avail)} AS occupancy_net_ooo_pct,
               {cents_to_money(nights)} AS room_revenue_nights_net,
               {cents_to_money(fees)} AS room_revenue_fees_net,
               {cents_to_money(rooms)} AS room_revenue_net,
               {cents_to_money('coalesce(sum(d.gross), 0) + coalesce(max(f.gross), 0)')}
                   AS room_revenue_gross,
               {money_ratio(nights, sold)} AS adr_net,
               {money_ratio(rooms, sold)} AS adr_incl_fees_net,
               {money_ratio(rooms, avail)} AS revpar_net,
               {cents_to_money(total)} AS total_revenue_net,
               {money_ratio(total, avail)} AS trevpar_net,
               coalesce(sum(d.arrivals), 0) AS arrivals,
               coalesce(sum(d.departures), 0) AS departures,
               coalesce(sum(d.persons), 0) AS persons,
               s.date < {bd} AS is_actual,
               coalesce(sum(d.house), 0) AS rooms_house_use,
               {sold} + coalesce(sum(d.comp), 0) AS rooms_in_house,
               coalesce(sum(d.no_shows), 0) AS no_shows,
               coalesce(sum(d.walk_ins), 0) AS walk_ins
        FROM x_supply s
        LEFT JOIN d ON d.date = s.date AND d.room_type_id = s.room_type_id
        LEFT JOIN f ON {fee_key}
        LEFT JOIN x_other o ON o.date = s.date AND {other}
        GROUP BY {key}"""

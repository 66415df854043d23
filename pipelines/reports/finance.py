"""Finance reports (issue 16): the worklist of charges that cannot be posted. Each reads a
view or table of the warehouse for one property; registered in REPORTS
(pipelines/reports/registry.py)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import duckdb

from pipelines.reports.errors import ReportError
from pipelines.reports.reports import Query, Table, _title

if TYPE_CHECKING:
    from pipelines.recon.logic import CityTaxRule

WORKLIST_COLUMNS = (
    "item", "business_date", "age_days", "status", "reason_code", "state", "folio_id",
    "folio_number", "fiscal_document_number", "fiscal_document_date", "reservation_id",
    "room", "bill_to", "item_code", "quantity", "net", "vat", "gross", "resolved_by",
    "resolved_at", "resolution_note", "reason")


def all_closed(business_date: date) -> tuple[date, date]:
    """Every closed business date (ten years back)."""
    return business_date - timedelta(days=3650), business_date - timedelta(days=1)


def worklist(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    state = str(q.options.get("state") or "all")
    rows = conn.execute(
        f"SELECT {', '.join(WORKLIST_COLUMNS)} FROM recon.v_worklist WHERE property_id = ? "
        "AND business_date BETWEEN ? AND ? AND (? = 'all' OR state = ?) "
        "ORDER BY business_date, reservation_id, item_code, item",
        [q.prop.property_id, q.first, q.last, state, state]).fetchall()
    out = [tuple(str(v) if i == WORKLIST_COLUMNS.index("resolved_at") and v is not None
                 else v for i, v in enumerate(r)) for r in rows]
    zero = Decimal("0.00")
    sums = {c: sum((Decimal(r[WORKLIST_COLUMNS.index(c)] or 0) for r in rows), zero)
            for c in ("net", "vat", "gross")}
    total = tuple("total" if c == "item" else sums.get(c, "")
                  for c in WORKLIST_COLUMNS) if rows else None
    return Table(_title(q, "Worklist: charges that cannot be posted (latest run), with "
                           f"their resolution ({state})"), WORKLIST_COLUMNS, out, total)


LEDGER_CATEGORIES = ("in_house", "departed", "cancelled", "future", "deposit", "house",
                     "city_ledger")
DEPOSIT = "deposit"
"""A credit balance on a stay not yet arrived: money held for a future stay (the close pack's
deposits ledger). A credit on a cancelled stay is no deposit: it is owed back to the guest
(or forfeited by a fee still to post), category `cancelled` (docs/reconciliation.md)."""
CITY_LEDGER = "city_ledger"
"""A company's or agency's account (accounts receivable, mart.is_city_ledger): the city
ledger, kept apart from the guest ledger (`ledger --ledger city`)."""
LEDGERS = ("guest", "city")
AGING_BUCKETS = ("0_30", "31_60", "61_90", "over_90")
LEDGER_COLUMNS = (
    "category", "folio_id", "folio_number", "folio_status", "reservation_id",
    "reservation_status", "rooms", "holder", "arrival", "departure", "charges", "payments",
    "balance", "oldest_posting", "age_days", "aging_bucket")

_LEDGER_SQL = f"""
SELECT {", ".join(LEDGER_COLUMNS)} FROM mart.v_guest_ledger WHERE property_id = $p
   AND (category = '{CITY_LEDGER}') = $city
 ORDER BY list_position($categories, category), folio_id
"""


# The ledger at the end of a past business date D, from the landed history: the lines
# posted on or before D (charges less payments), each room entry's version in force when D
# closed, the folio closed by then if its fiscal document is dated on or before D. D closes
# with its night audit, in the small hours of D + 1 (the sandbox's at 02:00; it cancels the
# no-shows of D), before the front desk's next day: DAY_CLOSED_BY, local time of D + 1.
DAY_CLOSED_BY = "06:00"
FOLIOS_AS_OF_SQL = f"""
WITH t AS (
    SELECT timezone(timezone, CAST($d + 1 AS TIMESTAMP) + INTERVAL '{DAY_CLOSED_BY}')
               AS at FROM core.property
     WHERE property_id = $p
), entries AS (
    -- each room entry's version in force at t; an entry the warehouse first saw after t
    -- (before its first sync) has none: its first version then, its status at D read from
    -- its dates (it arrived if it was later checked in or out: in house or departed by D)
    SELECT v.reservation_id, v.room_code, v.arrival, v.departure,
           CASE WHEN v.valid_from < t.at THEN v.status
                WHEN v.status IN ('checked_in', 'checked_out') AND v.arrival <= $d
                    THEN CASE WHEN $d < v.departure THEN 'checked_in' ELSE 'checked_out' END
                WHEN v.status = 'cancelled' AND v.arrival <= $d THEN 'cancelled'
                ELSE 'confirmed' END AS status
      FROM core.reservation_room_versions v, t
     WHERE v.property_id = $p AND (v.valid_to IS NULL OR v.valid_to > t.at)
   QUALIFY row_number() OVER (PARTITION BY v.reservation_room_id ORDER BY v.valid_from) = 1
), rooms AS (
    SELECT reservation_id, bool_or(status = 'checked_in') AS in_house,
           bool_or(status = 'checked_out') AS departed,
           bool_and(status = 'cancelled') AS cancelled,
           count(*) AS entries, min(room_code) AS only_room,
           min(arrival) AS arrival, max(departure) AS departure
      FROM entries GROUP BY ALL
), lines AS (
    SELECT folio_id,
           coalesce(sum(total) FILTER (WHERE type <> 'payment'), 0) AS charges,
           coalesce(sum(total) FILTER (WHERE type = 'payment'), 0) AS payments,
           min(posted_on) AS oldest_posting,
           string_agg(DISTINCT nullif(room, ''), ' ' ORDER BY nullif(room, '')) AS rooms
      FROM core.folio_lines WHERE property_id = $p AND posted_on <= $d GROUP BY ALL
), numbered AS (
    SELECT *, row_number() OVER (PARTITION BY reservation_id ORDER BY folio_id)
                  AS folio_number
      FROM core.folios WHERE property_id = $p
), folios AS (
    SELECT f.folio_id, f.folio_number,
           CASE WHEN f.status = 'closed' AND f.issue_date <= $d THEN 'closed'
                WHEN f.status = 'closed' THEN 'open' ELSE f.status END AS folio_status,
           f.reservation_id,
           CASE WHEN f.reservation_id IS NULL THEN NULL
                WHEN r.in_house THEN 'checked_in' WHEN r.departed THEN 'checked_out'
                WHEN r.cancelled THEN 'cancelled' ELSE 'confirmed' END AS reservation_status,
           coalesce(l.rooms, CASE WHEN r.entries = 1 THEN r.only_room END, '') AS rooms,
           f.guest_name AS holder, r.arrival, r.departure,
           CAST(l.charges AS DECIMAL(12, 2)) AS charges,
           CAST(l.payments AS DECIMAL(12, 2)) AS payments,
           CAST(l.charges - l.payments AS DECIMAL(12, 2)) AS balance, l.oldest_posting,
           CASE WHEN f.reservation_id IS NULL THEN 'house'
                WHEN mart.is_city_ledger(f.description) THEN 'city_ledger'
                WHEN coalesce(r.in_house, false) THEN 'in_house'
                WHEN coalesce(r.departed, false) THEN 'departed'
                WHEN coalesce(r.cancelled, false) THEN 'cancelled'
                WHEN l.charges - l.payments < 0 THEN 'deposit'
                ELSE 'future' END AS category
      FROM numbered f
      JOIN lines l ON l.folio_id = f.folio_id
      LEFT JOIN rooms r ON r.reservation_id = f.reservation_id
)
SELECT category, folio_id, folio_number, folio_status, reservation_id, reservation_status,
       rooms, holder, arrival, departure, charges, payments, balance, oldest_posting,
       $d - oldest_posting AS age_days,
       CASE WHEN $d - oldest_posting <= 30 THEN '0_30'
            WHEN $d - oldest_posting <= 60 THEN '31_60'
            WHEN $d - oldest_posting <= 90 THEN '61_90' ELSE 'over_90' END AS aging_bucket
  FROM folios
"""
"""Every folio with a line posted on or before business date $d of property $p, as it stood
at the end of $d: the one definition of the ledgers of a past date (ledger --date, the close
pack). Parameters: p, d, categories."""

_LEDGER_AS_OF_SQL = f"""
SELECT * FROM ({FOLIOS_AS_OF_SQL}) WHERE balance <> 0 AND (category = '{CITY_LEDGER}') = $city
 ORDER BY list_position($categories, category), folio_id
"""


def ledger(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """Open balances by folio as of the last sync (the property's business date): every
    folio whose balance is not zero, its category and the age of its oldest posting. With
    the option `date` before the business date: as they stood at the end of that business
    date, from the landed history (_LEDGER_AS_OF_SQL)."""
    by = str(q.options.get("by") or "folio")
    city = str(q.options.get("ledger") or "guest") == "city"
    bd = q.prop.business_date
    day: date | None = q.options.get("date")
    if day is not None and day >= bd:
        raise ReportError(f"--date {day}: business date {day} of {q.prop.code} is not closed "
                          f"(the last closed one is {bd - timedelta(days=1)}); without --date "
                          "the ledger is as of the last sync")
    params: dict[str, Any] = {"p": q.prop.property_id, "categories": list(LEDGER_CATEGORIES),
                              "city": city}
    if day is None:
        rows = conn.execute(_LEDGER_SQL, params).fetchall()
        when = f"business date {bd} (last sync)"
    else:
        rows = conn.execute(_LEDGER_AS_OF_SQL, {**params, "d": day}).fetchall()
        when = f"the end of business date {day} (from the landed history)"
    zero = Decimal("0.00")
    title = (f"{'City ledger (accounts receivable)' if city else 'Guest ledger'}: open "
             f"balances by folio as of {when} - "
             f"{q.prop.name} ({q.prop.code}), {q.prop.currency}")
    if by == "folio":
        i = LEDGER_COLUMNS.index
        total = ("total", len(rows), *[""] * 8,
                 *[sum((Decimal(r[i(c)]) for r in rows), zero)
                   for c in ("charges", "payments", "balance")], "", "", "") if rows else None
        return Table(title, LEDGER_COLUMNS, [tuple(r) for r in rows], total)
    columns = ("category", "folios", *[f"balance_{b}" for b in AGING_BUCKETS], "balance")
    out: list[tuple[Any, ...]] = []
    counts: list[int] = []
    sums: list[list[Decimal]] = []
    for category in LEDGER_CATEGORIES:
        mine = [r for r in rows if r[0] == category]
        if not mine:
            continue
        buckets = [sum((Decimal(r[12]) for r in mine if r[15] == b), zero)
                   for b in AGING_BUCKETS]
        buckets.append(sum(buckets, zero))
        counts.append(len(mine))
        sums.append(buckets)
        out.append((category, len(mine), *buckets))
    total = ("total", sum(counts),
             *[sum((s[n] for s in sums), zero) for n in range(len(AGING_BUCKETS) + 1)]
             ) if out else None
    return Table(title.replace("by folio", "by category with aging"), columns, out, total)


CITY_TAX_COLUMNS = (
    "month", "guests", "person_nights", "taxable_nights", "exempt_age_nights",
    "exempt_cap_nights", "rate", "city_tax_due", "city_tax_charged", "difference",
    "missing_still_due", "blocked_still_due", "mismatch_still_due", "unexplained")
"""`difference` = city_tax_due - city_tax_charged, then its parts, which sum to it to the cent:
by the latest reconciliation of each city-tax charge of the month's nights, and the rest."""

_CITY_TAX_PARTS = """
WITH charges AS (
    SELECT status, expected_amount, found_amount FROM recon.v_current
    WHERE property_id = $pid AND item_code = $code AND business_date BETWEEN $first AND $last)
SELECT
    (SELECT coalesce(sum(expected_amount), 0) FROM charges
     WHERE status IN ('missing', 'failed')),
    (SELECT coalesce(sum(expected_amount), 0) FROM charges WHERE status = 'blocked'),
    (SELECT coalesce(sum(expected_amount - found_amount), 0) FROM charges
     WHERE status = 'amount_mismatch'),
    (SELECT count(DISTINCT d) FROM range($first, $last + 1, INTERVAL 1 DAY) t(d)
     JOIN recon.runs r ON r.property_id = $pid
      AND CAST(d AS DATE) BETWEEN r.first_date AND r.last_date)
"""


def city_tax(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """The city-tax return of the month [q.first, q.last] (nights lived, up to the last
    closed business date), each night under its city's rule in force that night, resolved
    as the reconciliation resolves it (the property's city and stars); with the option
    `stays`, the stays behind its exemptions instead."""
    from pipelines.recon import property_place, read_inputs
    from pipelines.recon.logic import (
        STAY_EXEMPTION_COLUMNS,
        RulesConfigError,
        city_tax_return,
        city_tax_stays,
        load_rules,
    )

    try:
        rule = load_rules(q.options.get("rules_file")).city_tax_to_file(
            q.prop.code, *property_place(conn, q.prop.property_id))
    except RulesConfigError as error:
        raise ReportError(str(error)) from None
    last = min(q.last, q.prop.business_date - timedelta(days=1))
    if last < q.first:
        raise ReportError(f"--month {q.first:%Y-%m}: none of its nights is closed yet; the last "
                          f"closed business date of {q.prop.code} is {last}")
    inputs = read_inputs(conn, q.prop.property_id, q.first, last)
    if q.options.get("stays"):
        found = city_tax_stays(stays=inputs.stays, items=inputs.items,
                               age_brackets=inputs.age_brackets, rule=rule, first=q.first,
                               last=last)
        rows = [tuple(r) for r in found.iter_rows()]
        total = ("total", len(rows), "", "", "", *[int(found[c].sum()) for c in
                                                   STAY_EXEMPTION_COLUMNS[5:]]) if rows else None
        return Table(f"City-tax return {q.first:%Y-%m} (nights {q.first} to {last}): the stays "
                     f"behind its exemptions - {q.prop.name} ({q.prop.code}); rule applied: "
                     f"{rule.describe()}", STAY_EXEMPTION_COLUMNS, rows, total)
    figures = city_tax_return(stays=inputs.stays, items=inputs.items,
                              age_brackets=inputs.age_brackets, rule=rule, first=q.first,
                              last=last)
    item = conn.execute("SELECT item_id, price FROM core.items WHERE property_id = ? AND "
                        "code = ?", [q.prop.property_id, rule.item_code]).fetchone()
    rate = _rate_of_month(rule, q.first, last, None if item is None else Decimal(item[1]))
    charged_row = conn.execute(
        "SELECT coalesce(sum(total), 0) FROM core.folio_lines WHERE property_id = ? AND "
        "service_item_id = ? AND type <> 'payment' AND posted_on BETWEEN ? AND ?",
        [q.prop.property_id, None if item is None else item[0], q.first, last]).fetchone()
    parts_row = conn.execute(_CITY_TAX_PARTS, {
        "pid": q.prop.property_id, "code": rule.item_code, "first": q.first,
        "last": last}).fetchone()
    assert charged_row is not None
    assert parts_row is not None
    cent = Decimal("0.01")
    due = (Decimal(figures["due_cents"]) / 100).quantize(cent)
    charged = Decimal(charged_row[0]).quantize(cent)
    parts = [Decimal(v).quantize(cent) for v in parts_row[:3]]
    row = (f"{q.first:%Y-%m}", figures["persons"], figures["person_nights"],
           figures["taxable_nights"], figures["exempt_age_nights"],
           figures["exempt_cap_nights"], rate, due, charged, due - charged, *parts,
           due - charged - sum(parts, Decimal(0)))
    days = (last - q.first).days + 1
    title = (f"City-tax return {q.first:%Y-%m} (nights {q.first} to {last}) - {q.prop.name} "
             f"({q.prop.code}), {q.prop.currency}: {rule.item_code}; rule applied: "
             f"{rule.describe()} (the stays behind the exemptions: --stays); the difference "
             f"by the reconciliation of {parts_row[3]} of its {days} dates")
    return Table(title, CITY_TAX_COLUMNS, [row])


def _rate_of_month(rule: CityTaxRule, first: date, last: date,
                   list_price: Decimal | None) -> Decimal | None:
    """The amount per person-night of the month's nights; None when it changes within the
    month (the title names each period's)."""
    amounts = set()
    for start, end, period in rule.schedule():
        if (start is not None and start > last) or (end is not None and end <= first):
            continue
        amount = rule.amount_per_person_night if period is None \
            else period.amount_per_person_night
        amounts.add(list_price if amount is None else amount)
    return amounts.pop() if len(amounts) == 1 else None


INTERFACE_LOSS_COLUMNS = (
    "business_date", "item_code", "ticket_lines", "amount", "lost_lines", "lost_amount",
    "loss_pct", "recovered_lines", "recovered_amount", "open_lines", "open_amount")


def interface_loss(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """POS ticket lines never delivered to a folio, per business date and item."""
    rows = conn.execute(
        "SELECT business_date, item_code, ticket_lines, amount, lost_lines, lost_amount, "
        "recovered_lines, recovered_amount, open_lines, open_amount "
        "FROM recon.v_interface_loss WHERE property_id = ? AND business_date BETWEEN ? AND ? "
        "ORDER BY business_date, item_code", [q.prop.property_id, q.first, q.last]).fetchall()
    zero = Decimal("0.00")

    def pct(lost: Decimal, amount: Decimal) -> Decimal | None:
        return None if not amount else (100 * lost / amount).quantize(Decimal("0.01"))

    out = [(r[0], r[1], int(r[2]), Decimal(r[3]), int(r[4]), Decimal(r[5]),
            pct(Decimal(r[5]), Decimal(r[3])), int(r[6]), Decimal(r[7]), int(r[8]),
            Decimal(r[9])) for r in rows]
    total = None
    if out:
        amount = sum((r[3] for r in out), zero)
        lost = sum((r[5] for r in out), zero)
        total = ("total", "", sum(r[2] for r in out), amount, sum(r[4] for r in out), lost,
                 pct(lost, amount), sum(r[7] for r in out), sum((r[8] for r in out), zero),
                 sum(r[9] for r in out), sum((r[10] for r in out), zero))
    return Table(_title(q, "Interface loss: POS ticket lines not delivered to a folio, by "
                           "business date and item (reconciled dates only)"),
                 INTERFACE_LOSS_COLUMNS, out, total)

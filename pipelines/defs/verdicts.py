"""The bodies of the asset checks, and the metadata of the assets, without Dagster.

Each check is a function of its scope (the properties of the run and what reaches them) that
returns a `Verdict`; the Dagster checks (pipelines/defs/ingest/checks.py, the marts' in
pipelines/defs/marts/assets.py) turn it into an AssetCheckResult, and a sync without a run
(pipelines.materialize: `pmsw sync` of one property, the demo's days) reads it as it is, so it
need not import Dagster (about 1.2 CPU-s a process: docs/scaling.md, "The fixed CPU of a
sync").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import duckdb
import polars as pl

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.forecast import alert_stretches
from pipelines.ingest import StreamResult
from pipelines.ingest.store import get_timestamp_cursor, property_row
from pipelines.properties import DEFAULT_CODE, Endpoint
from pipelines.vocabulary import CODES


class Files(Protocol):
    """The warehouse as the checks open it (pipelines.defs.resources.WarehouseResource)."""

    def connect(self, code: str | None = None
                ) -> AbstractContextManager[duckdb.DuckDBPyConnection]: ...

    def each(self, codes: Sequence[str] | None
             ) -> Iterator[tuple[str | None, duckdb.DuckDBPyConnection]]: ...


class Endpoints(Protocol):
    """The properties' APIs as the checks reach them (pipelines.defs.resources.PmsApiResource)."""

    def endpoint(self, code: str) -> Endpoint: ...


@dataclass(frozen=True)
class Scope:
    """What a check looks at: the properties of the run (None: every one) and what reaches
    them."""

    codes: list[str] | None
    warehouse: Files
    pms: Endpoints | None = None
    """Only for the checks that ask the API (the SQL checks do not take the resource)."""
    run_id: str = ""
    """The run whose marts a check reads (no_alerts finds the run's property by it)."""


@dataclass(frozen=True)
class Verdict:
    """An asset check's result: dagster.AssetCheckResult's fields, Dagster apart."""

    passed: bool
    description: str
    metadata: dict[str, Any] = field(default_factory=dict)
    warn: bool = False
    """Severity WARN (never fails a run), else ERROR."""


Body = Callable[[Scope], Verdict]
VERDICTS: dict[str, tuple[str, bool, Body]] = {}
"""Check name -> (its asset's path, "pms/reservations" or "mart/alerts"; blocking; its body).
A run evaluates an asset's checks after it, by name (pipelines.materialize.sync_alone)."""


def landed_checks(assets: Sequence[str], scope: Scope) -> dict[str, Verdict]:
    """The checks of the assets `assets` (paths), evaluated as a run of `scope.codes`
    evaluates them, without the run: name -> result."""
    return {name: body(scope) for name, (asset, _, body) in VERDICTS.items() if asset in assets}


def markdown(names: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A preview table for the metadata of a materialization (ingestion and marts)."""
    lines = ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
    lines += ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def stream_metadata(result: StreamResult) -> dict[str, Any]:
    """The metadata of a stream's asset (its preview as markdown text)."""
    meta: dict[str, Any] = {
        "calls": result.calls, "rows": result.rows, "seconds": result.seconds,
        "errors": result.errors, "status": result.status,
        **{f"detail_{k}": v for k, v in result.details.items()},
    }
    if result.cursor is not None:
        meta["cursor"] = result.cursor
    if result.message:
        meta["message"] = result.message
    if result.preview:
        meta["preview"] = markdown(list(result.preview[0]),
                                   [list(r.values()) for r in result.preview])
    return meta


EVENT_GAP_CHECK = "event_gap"


def event_gap(results: dict[str, StreamResult]) -> Verdict:
    """The event_gap check of the event log's results by property."""
    gaps = {code: r.message for code, r in sorted(results.items()) if r.status == "gap"}
    said = "; ".join(f"{code}: {message}" for code, message in gaps.items())
    return Verdict(not gaps, said or "no gap", {"message": said or "no gap"})


def _violations(conn: duckdb.DuckDBPyConnection, sql: str) -> tuple[int, list[str]]:
    rows = conn.execute(sql).fetchall()
    return len(rows), [str(tuple(r)) for r in rows[:5]]


def _result(count: int, examples: list[str], what: str,
            extra: dict[str, Any] | None = None) -> Verdict:
    return Verdict(count == 0, f"{count} {what}" if count else f"no {what}",
                   {"violations": count, "examples": ", ".join(examples) or "none",
                    **(extra or {})})


@dataclass(frozen=True)
class SqlCheck:
    """A blocking check whose violations a query lists (each row one)."""

    name: str
    stream: str
    what: str
    sql: str
    description: str

    def __call__(self, scope: Scope) -> Verdict:
        count, examples = 0, list[str]()
        # The file; in the group layout the files of the run's properties only: a run never
        # opens another property's file, which that property's own run may be writing.
        for _, conn in scope.warehouse.each(scope.codes):
            found, shown = _violations(conn, self.sql)
            count, examples = count + found, examples + shown
        return _result(count, examples[:5], self.what)


_STATUS_RANK = ("CASE r.status WHEN 'option' THEN 0 WHEN 'confirmed' THEN 1 "
                "WHEN 'checked_in' THEN 2 WHEN 'checked_out' THEN 3 END")

SQL_CHECKS = [
    SqlCheck("unique_keys", "reservations", "repeated keys", """
    SELECT 'reservation', property_id, reservation_id FROM core.reservations
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'room entry', property_id, reservation_room_id FROM core.reservation_rooms
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'version', property_id, reservation_room_id
     FROM core.reservation_room_versions GROUP BY 2, 3, valid_from HAVING count(*) > 1
    UNION ALL SELECT 'event', property_id, event_id FROM core.events
     GROUP BY 2, 3 HAVING count(*) > 1
    """, "Reservations, room entries, room versions and events are each landed once."),
    SqlCheck("rooms_have_reservation", "reservations", "room entries without their "
             "reservation", """
    SELECT r.property_id, r.reservation_room_id, r.reservation_id
    FROM core.reservation_rooms r
    WHERE NOT EXISTS (SELECT 1 FROM core.reservations h
        WHERE h.property_id = r.property_id AND h.reservation_id = r.reservation_id)
    """, "Every room entry's reservation exists in core.reservations."),
    SqlCheck("status_is_least_advanced", "reservations", "reservations whose status is not "
             "the least advanced status of their rooms not cancelled", f"""
    WITH least AS (
        SELECT property_id, reservation_id,
               coalesce(arg_min(r.status, {_STATUS_RANK}) FILTER (WHERE r.status <> 'cancelled'),
                        'cancelled') AS expected
        FROM core.reservation_rooms r GROUP BY property_id, reservation_id)
    SELECT h.property_id, h.reservation_id, h.status, l.expected FROM core.reservations h
    JOIN least l USING (property_id, reservation_id)
    WHERE h.status <> l.expected
    """, "spec, Reservation: status is the least advanced status among the rooms not "
         "cancelled."),
    SqlCheck("nights_match_dates", "reservations", "rows whose nights are not departure - "
             "arrival", """
    SELECT 'reservation', property_id, reservation_id, nights FROM core.reservations
     WHERE nights <> departure - arrival
    UNION ALL SELECT 'room entry', property_id, reservation_room_id, nights
     FROM core.reservation_rooms WHERE nights <> departure - arrival
    """, "spec, conventions 2: nights = departure - arrival (departure exclusive)."),
    SqlCheck("versions_never_overlap", "reservations", "room versions overlapping or left "
             "open twice", """
    WITH v AS (
        SELECT property_id, reservation_room_id, valid_from, valid_to,
               lead(valid_from) OVER (PARTITION BY property_id, reservation_room_id
                                      ORDER BY valid_from) AS next_from
        FROM core.reservation_room_versions)
    SELECT property_id, reservation_room_id, valid_from, valid_to, next_from FROM v
    WHERE (next_from IS NOT NULL AND (valid_to IS NULL OR valid_to > next_from))
       OR (valid_to IS NOT NULL AND valid_to <= valid_from)
    """, "Each room entry's versions follow one another: [valid_from, valid_to) never "
         "overlap and only the last is open."),
    SqlCheck("folio_unique_keys", "folios", "repeated folio or line keys, or lines without "
             "folio", """
    SELECT 'folio', property_id, folio_id FROM core.folios
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'line', property_id, folio_line_id FROM core.folio_lines
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'orphan line', l.property_id, l.folio_line_id FROM core.folio_lines l
     WHERE NOT EXISTS (SELECT 1 FROM core.folios f
        WHERE f.property_id = l.property_id AND f.folio_id = l.folio_id)
    """, "Folios and folio lines are landed once; every line's folio exists."),
]


def quarantined(scope: Scope) -> Verdict:
    """no_quarantined_records: no record of the run's properties held in quarantine."""
    pids: list[int] | None = None
    if scope.codes is not None:  # a run of some properties: theirs only
        assert scope.pms is not None
        pids = []
        for code in scope.codes:
            with scope.pms.endpoint(code).client() as client:
                pids.append(client.get_property().id)
    rows: list[tuple[Any, ...]] = []
    for _, conn in scope.warehouse.each(scope.codes):  # the file, or each property's
        rows += conn.execute(
            "SELECT coalesce(p.code, q.property_id::VARCHAR), q.stream, q.record_key, q.error "
            "FROM meta.quarantine q LEFT JOIN core.property p USING (property_id) "
            "WHERE q.released_at IS NULL AND ($all OR list_contains($p, q.property_id)) "
            "ORDER BY q.property_id, q.stream, q.record_id NULLS LAST, q.record_key",
            {"all": pids is None, "p": pids or []}).fetchall()
    whose = pids is None or len(pids) > 1  # several properties: each record says whose
    named = [f"{code + ' ' if whose else ''}{stream} {key}: {error}"
             for code, stream, key, error in rows]
    return Verdict(not rows, (f"{len(rows)} record(s) in quarantine: " + "; ".join(named))
                   if rows else "no record in quarantine",
                   {"in_quarantine": len(rows), "records": "\n".join(named) or "none"})


def counted(scope: Scope) -> Verdict:
    """count_matches_api: as many reservations created before the cursor as the API counts."""
    codes, pms, warehouse = scope.codes or [], scope.pms, scope.warehouse
    assert pms is not None
    found, errors = each_property(codes, lambda code: _count_one(code, pms, warehouse),
                                  at_once=len(codes))
    if errors:
        raise PropertiesFailedError("check count_matches_api", errors)
    results = [found[code] for code in codes]
    missing = sum(abs(api - landed - held) for _, api, landed, held in results)
    said = {c: f"api {a}, warehouse {w}" + (f", quarantined {q}" if q else "")
            for c, a, w, q in results}
    return _result(missing, [f"{c}: {text}" for c, text in said.items()],
                   "reservations missing or extra", dict(said))


def _count_one(code: str, pms: Endpoints, warehouse: Files) -> tuple[str, int, int, int]:
    with warehouse.connect(code) as conn, pms.endpoint(code).client() as client:
        pid = client.get_property().id
        cursor = get_timestamp_cursor(conn, pid, "reservations")
        if cursor is None:
            return code, 0, 0, 0
        # Reservations are never deleted and created_since is inclusive: those created
        # before the cursor are all - created_since(cursor), whatever is booked meanwhile.
        total = client.list_reservations(page_size=1).total
        later = client.list_reservations(page_size=1, created_since=cursor).total
        row = conn.execute("SELECT count(*) FROM core.reservations WHERE property_id = ? AND "
                           "created_at < ?", [pid, cursor]).fetchone()
        # Held in quarantine, not landed, and created before the cursor (or of unknown
        # creation time: its created_at may be the field at fault).
        held = conn.execute(
            "SELECT count(*) FROM meta.quarantine q WHERE property_id = $p AND released_at IS "
            "NULL AND stream = 'reservations' AND coalesce(TRY_CAST(json_extract_string("
            "payload, '$.created_at') AS TIMESTAMPTZ) < $c, true) AND NOT EXISTS (SELECT 1 "
            "FROM core.reservations r WHERE r.property_id = q.property_id "
            "AND r.reservation_id = q.record_id)", {"p": pid, "c": cursor}).fetchone()
    return (code, total - later, 0 if row is None else int(row[0]),
            0 if held is None else int(held[0]))


def property_of_partition(conn: duckdb.DuckDBPyConnection, code: str, run_id: str) -> int:
    """The property id of partition `code`: as this run's ingestion logged it, else the
    warehouse's property of that PMS code (its only one for the default property)."""
    found = conn.execute("SELECT DISTINCT property_id FROM meta.sync_runs WHERE run_id = ?",
                         [run_id]).fetchall()
    if len(found) == 1:
        return int(found[0][0])
    return property_row(conn, None if code == DEFAULT_CODE else code)[0]


_KNOWN = ", ".join(f"'{code}'" for code in CODES)
TIEOUT_VIOLATIONS = f"""
    WITH folio AS (
        SELECT l.property_id, l.posted_on AS date, sum(l.amount_net) AS net
        FROM core.folio_lines l
        LEFT JOIN core.items i ON i.property_id = l.property_id AND i.item_id = l.service_item_id
        WHERE l.type <> 'payment'
          AND CASE WHEN i.department IN ({_KNOWN})
                   THEN i.department
                   WHEN l.type = 'accommodation' THEN 'accommodation' END = 'accommodation'
        GROUP BY ALL)
    SELECT t.property_id, t.date, t.folio_accommodation_net, f.net AS folio_lines_net,
           t.unexplained_net, t.reason
    FROM mart.revenue_tieout t
    LEFT JOIN folio f USING (property_id, date)
    WHERE t.unexplained_net <> 0 OR f.net IS DISTINCT FROM t.folio_accommodation_net
    ORDER BY t.property_id, t.date
"""
"""Dates whose room revenue does not tie: an unexplained cent in mart.revenue_tieout, or its
folio column differing from the accommodation lines of core.folio_lines summed again here."""


def tieout_violations(conn: duckdb.DuckDBPyConnection) -> tuple[int, list[str]]:
    return _violations(conn, TIEOUT_VIOLATIONS)


def tieout(scope: Scope) -> Verdict:
    """revenue_tieout_has_no_unexplained_cent: every business date closed ties."""
    count, examples = 0, list[str]()
    # The file, or the files of the run's properties (never another property's file).
    for _, conn in scope.warehouse.each(scope.codes):
        found, shown = tieout_violations(conn)
        count, examples = count + found, examples + shown
    return Verdict(count == 0, f"{count} date(s) with an unexplained difference" if count
                   else "every date ties to the cent",
                   {"violations": count, "examples": ", ".join(examples) or "none"})


NIGHTS_SCHEMA = {"property_id": pl.Int64, "as_of_date": pl.Date, "stay_date": pl.Date,
                 "alert": pl.String, "value": pl.Float64, "threshold": pl.Float64,
                 "message": pl.String, "rooms_otb": pl.Int64, "stly_rooms_otb": pl.Int64}
"""mart.alerts' nights as `alert_stretches` reads them (no books needed to count them)."""


def alerts(scope: Scope) -> Verdict:
    """no_alerts: mart.alerts holds no night to look at (WARN), alerts counted as stretches."""
    codes = scope.codes
    pids: dict[int, str] = {}
    rows: list[tuple[Any, ...]] = []
    for member, conn in scope.warehouse.each(codes):  # the file, or each property's
        mine = {property_of_partition(conn, code, scope.run_id): code
                for code in ([member] if member else codes)} if codes else {}
        pids.update(mine)
        where = f"WHERE property_id IN ({', '.join('?' * len(mine))})" if mine else ""
        nights = pl.DataFrame(conn.execute(
            "SELECT property_id, as_of_date, stay_date, alert, value, threshold, message, NULL, "
            f"NULL FROM mart.alerts {where}", list(mine)).fetchall(), orient="row",
            schema=NIGHTS_SCHEMA)
        rows += (alert_stretches(nights).group_by("property_id", "alert").len()
                 .sort("property_id", "alert").rows())  # an alert is a stretch of nights
    counts: dict[str, int] = {}
    said: dict[int, list[str]] = {}
    for pid, alert, n in rows:
        counts[str(alert)] = counts.get(str(alert), 0) + int(n)
        said.setdefault(int(pid), []).append(f"{n} {alert}")
    total = sum(counts.values())
    if len(pids) == 1 or not said:
        description = ", ".join(f"{n} {a}" for a, n in counts.items()) if total else "no alerts"
    else:
        description = "; ".join(f"{pids.get(pid, pid)}: {', '.join(what)}"
                                for pid, what in said.items())
    return Verdict(total == 0, description, {"alerts": total, **counts}, warn=True)


for _check in SQL_CHECKS:
    VERDICTS[_check.name] = (f"pms/{_check.stream}", True, _check)
VERDICTS["no_quarantined_records"] = ("pms/reservations", False, quarantined)
VERDICTS["count_matches_api"] = ("pms/reservations", True, counted)
VERDICTS["no_alerts"] = ("mart/alerts", False, alerts)
VERDICTS["revenue_tieout_has_no_unexplained_cent"] = ("mart/revenue_tieout", False, tieout)

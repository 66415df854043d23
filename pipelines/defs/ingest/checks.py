"""Asset checks of the landed PMS data, per property partition.

Blocking (the marts built on them would be wrong): unique keys, every room entry's
reservation exists, reservation status = least advanced status of its non-cancelled rooms,
nights = departure - arrival, room versions never overlap, reservation count = the API's
`total`. The event gap check lives on the event log asset (pipelines.defs.ingest.assets).

Not blocking: `no_quarantined_records`, red while a record of the property is held in
quarantine (meta.quarantine), naming each; the marts still build from what landed.

Each check's body is a function of its scope (VERDICTS), which `landed_checks` also evaluates
without a Dagster run: the demo's days (pipelines.materialize.sync_direct).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg
import duckdb

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.defs.keys import POOL, stream_key
from pipelines.defs.partitions import codes_of_run, known_codes
from pipelines.defs.resources import PmsApiResource, WarehouseResource
from pipelines.ingest.store import get_timestamp_cursor

RESERVATIONS = stream_key("reservations")
FOLIOS = stream_key("folios")


@dataclass(frozen=True)
class Scope:
    """What a check looks at: the properties of the run (None: every one) and the resources
    that reach them."""

    codes: list[str] | None
    warehouse: WarehouseResource
    pms: PmsApiResource | None = None
    """Only for the checks that ask the API (the SQL checks do not take the resource)."""


Verdict = Callable[[Scope], dg.AssetCheckResult]
VERDICTS: dict[str, tuple[dg.AssetKey, bool, Verdict]] = {}
"""Check name -> (its asset, blocking, its body)."""


def landed_checks(assets: Sequence[dg.AssetKey], scope: Scope) -> dict[str, dg.AssetCheckResult]:
    """The checks of `assets`, evaluated as a run of `scope.codes` evaluates them, without the
    run: name -> result."""
    return {name: verdict(scope) for name, (asset, _, verdict) in VERDICTS.items()
            if asset in assets}


_STATUS_RANK = ("CASE r.status WHEN 'option' THEN 0 WHEN 'confirmed' THEN 1 "
                "WHEN 'checked_in' THEN 2 WHEN 'checked_out' THEN 3 END")


def _violations(conn: duckdb.DuckDBPyConnection, sql: str) -> tuple[int, list[str]]:
    rows = conn.execute(sql).fetchall()
    return len(rows), [str(tuple(r)) for r in rows[:5]]


def _result(count: int, examples: list[str], what: str,
            extra: dict[str, Any] | None = None) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(
        passed=count == 0, severity=dg.AssetCheckSeverity.ERROR,
        description=f"{count} {what}" if count else f"no {what}",
        metadata={"violations": count, "examples": ", ".join(examples) or "none",
                  **(extra or {})})


def _sql_check(name: str, asset: dg.AssetKey, what: str, sql: str,
               description: str) -> dg.AssetChecksDefinition:
    def verdict(scope: Scope) -> dg.AssetCheckResult:
        count, examples = 0, list[str]()
        # The file; in the group layout the files of the run's properties only: a run never
        # opens another property's file, which that property's own run may be writing.
        for _, conn in scope.warehouse.each(scope.codes):
            found, shown = _violations(conn, sql)
            count, examples = count + found, examples + shown
        return _result(count, examples[:5], what)

    VERDICTS[name] = (asset, True, verdict)

    @dg.asset_check(asset=asset, name=name, description=description, blocking=True,
                    pool=POOL)
    def _check(context: dg.AssetCheckExecutionContext,
               warehouse: WarehouseResource) -> dg.AssetCheckResult:
        return verdict(Scope(codes_of_run(context.run.tags, context.instance), warehouse))

    return _check


unique_keys = _sql_check(
    "unique_keys", RESERVATIONS, "repeated keys", """
    SELECT 'reservation', property_id, reservation_id FROM core.reservations
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'room entry', property_id, reservation_room_id FROM core.reservation_rooms
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'version', property_id, reservation_room_id
     FROM core.reservation_room_versions GROUP BY 2, 3, valid_from HAVING count(*) > 1
    UNION ALL SELECT 'event', property_id, event_id FROM core.events
     GROUP BY 2, 3 HAVING count(*) > 1
    """, "Reservations, room entries, room versions and events are each landed once.")

rooms_have_reservation = _sql_check(
    "rooms_have_reservation", RESERVATIONS, "room entries without their reservation", """
    SELECT r.property_id, r.reservation_room_id, r.reservation_id
    FROM core.reservation_rooms r
    WHERE NOT EXISTS (SELECT 1 FROM core.reservations h
        WHERE h.property_id = r.property_id AND h.reservation_id = r.reservation_id)
    """, "Every room entry's reservation exists in core.reservations.")

status_is_least_advanced = _sql_check(
    "status_is_least_advanced", RESERVATIONS, "reservations whose status is not the least "
    "advanced status of their rooms not cancelled", f"""
    WITH least AS (
        SELECT property_id, reservation_id,
               coalesce(arg_min(r.status, {_STATUS_RANK}) FILTER (WHERE r.status <> 'cancelled'),
                        'cancelled') AS expected
        FROM core.reservation_rooms r GROUP BY property_id, reservation_id)
    SELECT h.property_id, h.reservation_id, h.status, l.expected FROM core.reservations h
    JOIN least l USING (property_id, reservation_id)
    WHERE h.status <> l.expected
    """, "spec, Reservation: status is the least advanced status among the rooms not "
         "cancelled.")

nights_match_dates = _sql_check(
    "nights_match_dates", RESERVATIONS, "rows whose nights are not departure - arrival", """
    SELECT 'reservation', property_id, reservation_id, nights FROM core.reservations
     WHERE nights <> departure - arrival
    UNION ALL SELECT 'room entry', property_id, reservation_room_id, nights
     FROM core.reservation_rooms WHERE nights <> departure - arrival
    """, "spec, conventions 2: nights = departure - arrival (departure exclusive).")

versions_never_overlap = _sql_check(
    "versions_never_overlap", RESERVATIONS, "room versions overlapping or left open twice", """
    WITH v AS (
        SELECT property_id, reservation_room_id, valid_from, valid_to,
               lead(valid_from) OVER (PARTITION BY property_id, reservation_room_id
                                      ORDER BY valid_from) AS next_from
        FROM core.reservation_room_versions)
    SELECT property_id, reservation_room_id, valid_from, valid_to, next_from FROM v
    WHERE (next_from IS NOT NULL AND (valid_to IS NULL OR valid_to > next_from))
       OR (valid_to IS NOT NULL AND valid_to <= valid_from)
    """, "Each room entry's versions follow one another: [valid_from, valid_to) never "
         "overlap and only the last is open.")

folio_keys = _sql_check(
    "folio_unique_keys", FOLIOS, "repeated folio or line keys, or lines without folio", """
    SELECT 'folio', property_id, folio_id FROM core.folios
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'line', property_id, folio_line_id FROM core.folio_lines
     GROUP BY 2, 3 HAVING count(*) > 1
    UNION ALL SELECT 'orphan line', l.property_id, l.folio_line_id FROM core.folio_lines l
     WHERE NOT EXISTS (SELECT 1 FROM core.folios f
        WHERE f.property_id = l.property_id AND f.folio_id = l.folio_id)
    """, "Folios and folio lines are landed once; every line's folio exists.")


@dg.asset_check(asset=RESERVATIONS, name="no_quarantined_records", blocking=False, pool=POOL,
                description="No record of the property is held in quarantine (meta.quarantine): "
                            "each one held is named with the field at fault. Not blocking: "
                            "the rest of the stream landed and the marts build from it.")
def no_quarantined_records(context: dg.AssetCheckExecutionContext, pms: PmsApiResource,
                           warehouse: WarehouseResource) -> dg.AssetCheckResult:
    return _quarantined(Scope(codes_of_run(context.run.tags, context.instance), warehouse, pms))


def _quarantined(scope: Scope) -> dg.AssetCheckResult:
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
    return dg.AssetCheckResult(
        passed=not rows, severity=dg.AssetCheckSeverity.ERROR,
        description=(f"{len(rows)} record(s) in quarantine: " + "; ".join(named)) if rows
        else "no record in quarantine",
        metadata={"in_quarantine": len(rows), "records": "\n".join(named) or "none"})


@dg.asset_check(asset=RESERVATIONS, name="count_matches_api", blocking=True, pool=POOL,
                description="Reservations created before the cursor: the warehouse holds as "
                            "many as the API's `total` counts (GET /reservations, 3 calls "
                            "per property), those held in quarantine counted apart.")
def count_matches_api(context: dg.AssetCheckExecutionContext, pms: PmsApiResource,
                      warehouse: WarehouseResource) -> dg.AssetCheckResult:
    codes = codes_of_run(context.run.tags, context.instance) or known_codes(context.instance)
    return _counted(Scope(codes, warehouse, pms))


def _counted(scope: Scope) -> dg.AssetCheckResult:
    codes, pms, warehouse = scope.codes or [], scope.pms, scope.warehouse
    assert pms is not None
    counted, errors = each_property(codes, lambda code: _count_one(code, pms, warehouse),
                                    at_once=len(codes))
    if errors:
        raise PropertiesFailedError("check count_matches_api", errors)
    results = [counted[code] for code in codes]
    missing = sum(abs(api - landed - held) for _, api, landed, held in results)
    said = {c: f"api {a}, warehouse {w}" + (f", quarantined {q}" if q else "")
            for c, a, w, q in results}
    return _result(missing, [f"{c}: {text}" for c, text in said.items()],
                   "reservations missing or extra", dict(said))


def _count_one(code: str, pms: PmsApiResource,
               warehouse: WarehouseResource) -> tuple[str, int, int, int]:
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


VERDICTS["no_quarantined_records"] = (RESERVATIONS, False, _quarantined)
VERDICTS["count_matches_api"] = (RESERVATIONS, True, _counted)

defs = dg.Definitions(asset_checks=[
    unique_keys, rooms_have_reservation, status_is_least_advanced, nights_match_dates,
    versions_never_overlap, folio_keys, no_quarantined_records, count_matches_api])

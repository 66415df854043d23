"""Asset checks of the landed PMS data, per property partition.

Blocking (the marts built on them would be wrong): unique keys, every room entry's
reservation exists, reservation status = least advanced status of its non-cancelled rooms,
nights = departure - arrival, room versions never overlap, reservation count = the API's
`total`. The event gap check lives on the event log asset (pipelines.defs.ingest.assets).

Not blocking: `no_quarantined_records`, red while a record of the property is held in
quarantine (meta.quarantine), naming each; the marts still build from what landed.

Each check's body is a function of its scope (pipelines.defs.verdicts), which a sync without
a Dagster run also evaluates (pipelines.materialize).
"""

import dagster as dg

from pipelines.defs.keys import POOL, stream_key
from pipelines.defs.partitions import codes_of_run, known_codes
from pipelines.defs.resources import PmsApiResource, WarehouseResource
from pipelines.defs.verdicts import (
    SQL_CHECKS,
    Scope,
    SqlCheck,
    Verdict,
    counted,
    quarantined,
)

RESERVATIONS = stream_key("reservations")


def check_result(verdict: Verdict) -> dg.AssetCheckResult:
    """A check's verdict as Dagster records it."""
    return dg.AssetCheckResult(
        passed=verdict.passed, description=verdict.description, metadata=verdict.metadata,
        severity=dg.AssetCheckSeverity.WARN if verdict.warn else dg.AssetCheckSeverity.ERROR)


def _sql_check(sql: SqlCheck) -> dg.AssetChecksDefinition:
    @dg.asset_check(asset=stream_key(sql.stream), name=sql.name, description=sql.description,
                    blocking=True, pool=POOL)
    def _check(context: dg.AssetCheckExecutionContext,
               warehouse: WarehouseResource) -> dg.AssetCheckResult:
        return check_result(sql(Scope(codes_of_run(context.run.tags, context.instance),
                                      warehouse)))

    return _check


@dg.asset_check(asset=RESERVATIONS, name="no_quarantined_records", blocking=False, pool=POOL,
                description="No record of the property is held in quarantine (meta.quarantine): "
                            "each one held is named with the field at fault. Not blocking: "
                            "the rest of the stream landed and the marts build from it.")
def no_quarantined_records(context: dg.AssetCheckExecutionContext, pms: PmsApiResource,
                           warehouse: WarehouseResource) -> dg.AssetCheckResult:
    return check_result(quarantined(Scope(codes_of_run(context.run.tags, context.instance),
                                          warehouse, pms)))


@dg.asset_check(asset=RESERVATIONS, name="count_matches_api", blocking=True, pool=POOL,
                description="Reservations created before the cursor: the warehouse holds as "
                            "many as the API's `total` counts (GET /reservations, 3 calls "
                            "per property), those held in quarantine counted apart.")
def count_matches_api(context: dg.AssetCheckExecutionContext, pms: PmsApiResource,
                      warehouse: WarehouseResource) -> dg.AssetCheckResult:
    codes = codes_of_run(context.run.tags, context.instance) or known_codes(context.instance)
    return check_result(counted(Scope(codes, warehouse, pms)))


defs = dg.Definitions(asset_checks=[*(_sql_check(sql) for sql in SQL_CHECKS),
                                    no_quarantined_records, count_matches_api])

"""The ingestion assets: one per sync stream, partitioned by property, all in pool `duckdb`.

A run of a range of partitions (the hourly group run, `pmsw sync` of several properties)
syncs its properties concurrently in each step (pipelines.defs.each_property).

Each asset runs `pipelines.ingest` for its stream and reports calls, rows, seconds and a
preview as metadata. The event log asset carries the `event_gap` check.
"""

from typing import Any

import dagster as dg

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.defs.ingest.checks import check_result
from pipelines.defs.keys import INGESTION_GROUP, OWNERS, POOL, stream_key
from pipelines.defs.partitions import ONE_RUN, PROPERTIES, one_run_accepted
from pipelines.defs.resources import PmsApiResource, SyncSettingsResource, WarehouseResource
from pipelines.defs.verdicts import EVENT_GAP_CHECK, event_gap, stream_metadata
from pipelines.ingest import StreamResult, sync_stream

DESCRIPTIONS = {
    "reference": "Property, room types, rooms, rate plans, age brackets, items and "
                 "classifications (core.property ... core.classifications), replaced each run.",
    "events": "The event log after the last landed id (core.events), each event once; an "
              "event cursor fallen out of the 30-day log is a gap: recorded, the check "
              "fails, and the reservations are fully resynced.",
    "reservations": "Reservations changed since the cursor less the overlap window "
                    "(core.reservations, core.reservation_rooms, room versions, stay guests).",
    "folios": "Folios and lines of reservations changed, rooms in house or departed lately, "
              "and folios not closed yet (core.folios, core.folio_lines).",
    "availability": "Availability of the next 365 nights per room type, snapshot on the "
                    "property's business date (core.availability).",
    "pos_ledger": "POS ledger CSV files of the property's folder, each once; bad files "
                  "quarantined (core.pos_ledger, core.pos_ledger_files).",
}
DEPS: dict[str, list[str]] = {
    "reference": [], "events": [], "reservations": ["events"], "folios": ["reservations"],
    "availability": ["reference"], "pos_ledger": [],
}


def _metadata(result: StreamResult) -> dict[str, Any]:
    meta = stream_metadata(result)
    if "preview" in meta:
        meta["preview"] = dg.MetadataValue.md(meta["preview"])
    return meta


def _run(context: dg.AssetExecutionContext, stream: str, pms: PmsApiResource,
         warehouse: WarehouseResource,
         sync_settings: SyncSettingsResource) -> dict[str, StreamResult]:
    """The stream of every property of the step, concurrently (each_property); raises
    PropertiesFailedError naming the properties that failed once the others have landed."""
    with warehouse.per_property() as opened:
        def one(code: str) -> StreamResult:
            endpoint = pms.endpoint(code)
            with opened(code) as cursor:  # a cursor of the step's file, or the property's own
                result = sync_stream(endpoint, cursor, context.run.run_id, stream, sync_settings)
            context.log.info(f"{stream} of {endpoint.code}: {result.calls} calls, "
                             f"{result.rows} rows, {result.seconds} s"
                             + (f" ({result.message})" if result.message else ""))
            return result

        results, errors = each_property(context.partition_keys, one,
                                        sync_settings.properties_at_once)
    if errors:
        raise PropertiesFailedError(f"stream {stream}", errors)
    return results


def _stream_asset(stream: str) -> dg.AssetsDefinition:
    check_specs = ([dg.AssetCheckSpec(EVENT_GAP_CHECK, asset=stream_key(stream),
                                      description="The event cursor is still inside the "
                                                  "30-day log (no event lost).")]
                   if stream == "events" else None)

    def _asset(context: dg.AssetExecutionContext, pms: PmsApiResource,
               warehouse: WarehouseResource,
               sync_settings: SyncSettingsResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
        results = _run(context, stream, pms, warehouse, sync_settings)
        for code, result in results.items():
            context.add_asset_metadata(_metadata(result), partition_key=code)
        return dg.MaterializeResult(
            check_results=[check_result(event_gap(results))] if stream == "events" else None)

    with one_run_accepted():
        return dg.asset(
            key=stream_key(stream), group_name=INGESTION_GROUP, description=DESCRIPTIONS[stream],
            owners=OWNERS, kinds={"python", "duckdb"}, pool=POOL, partitions_def=PROPERTIES,
            backfill_policy=ONE_RUN, deps=[stream_key(d) for d in DEPS[stream]],
            check_specs=check_specs,
        )(_asset)


reference_asset = _stream_asset("reference")
events_asset = _stream_asset("events")
reservations_asset = _stream_asset("reservations")
folios_asset = _stream_asset("folios")
availability_asset = _stream_asset("availability")
pos_ledger_asset = _stream_asset("pos_ledger")

defs = dg.Definitions(assets=[reference_asset, events_asset, reservations_asset, folios_asset,
                              availability_asset, pos_ledger_asset])

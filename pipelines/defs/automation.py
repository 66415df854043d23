"""Jobs, schedules and the event sensor: the whole automation of the ingestion and the marts.

- `pms_sync`: every ingestion asset but the availability snapshot, their checks, then every
  mart, then the read copy. On the single file the schedules start ONE run of every property
  (a range of the partitions), whose steps sync the properties concurrently in one writer
  process; in the group layout (the warehouse a directory, one file a property) ONE RUN PER
  PROPERTY, which the run queue runs at once, one at a time per property (dagster.group.yaml,
  docs/scaling.md). The event sensor starts one run per property with new events. The
  checks are blocking, so in the same run a failed check stops the marts built on it.
  Started by the hourly schedule `pms_sync_hourly`, and by the `pms_events_sensor` when a
  property's log has new events.
- `pms_availability_snapshot`: the 365-night availability snapshot, then every mart (the
  occupancy marts read it), daily after the night audit (06:00 UTC by default: the business
  date has moved by then in European hotels).
- `properties_sensor`: keeps the instance's property partitions equal to the properties file
  (pipelines.defs.partitions), so a hotel added to the file is synced with no reload. It runs
  by default: it only adds and deletes partitions, it starts no run.
No asset carries an automation condition: a schedule or the event sensor is the one switch,
nothing depends on the automation condition sensor. Schedules and the event sensor start
stopped; switch them on in the UI (Automation) or with `dagster schedule start`.
"""

import json
from typing import Any

import dagster as dg

from pipelines.api import PmsClient, PmsError
from pipelines.defs.keys import INGESTION_GROUP, MARTS_GROUP, READ_COPY_KEY, stream_key
from pipelines.defs.partitions import RANGE_END, RANGE_START, known_codes, partition_requests
from pipelines.defs.resources import PmsApiResource, WarehouseResource
from pipelines.properties import PropertyConfigError

AVAILABILITY = stream_key("availability")

MARTS = dg.AssetSelection.groups(MARTS_GROUP) | dg.AssetSelection.assets(READ_COPY_KEY)
"""The marts, then the read copy published from them (docs/operations.md)."""

pms_sync = dg.define_asset_job(
    "pms_sync", selection=dg.AssetSelection.groups(INGESTION_GROUP)
    - dg.AssetSelection.assets(AVAILABILITY) | MARTS,
    description="Land every PMS stream but availability, check it, then rebuild the marts.")

pms_availability_snapshot = dg.define_asset_job(
    "pms_availability_snapshot", selection=dg.AssetSelection.assets(AVAILABILITY) | MARTS,
    description="Snapshot 365 nights of availability, then rebuild the marts.")


ONE_PROCESS: dict[str, Any] = {"execution": {"config": {"in_process": {}}}}
"""The run config of a group-layout run: its steps in the run's own process. They open one
file, the property's, and take turns on its lock, so a process per step (the default
executor) only adds a Python start per step; one process per property is also what
`pmsw sync --warehouse DIR` runs. At load 28 on the 2 cores here a step's process took 80-85 s
from its start to the step's success; a whole run in one process, 89 s (docs/operations.md,
"A group under the Dagster daemon")."""
EVENT_PAGES_PER_TICK = 20
"""Pages of GET /events (500 events each) the event sensor follows per property and tick."""


WAITING = [dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.QUEUED]


def waiting(instance: dg.DagsterInstance, job: str, code: str) -> bool:
    """True when a run of `job` for property `code` is asked and not yet started: it will read
    whatever a new run would, so no other is asked (the queue would only pile them up behind
    the property's run in progress)."""
    return bool(instance.get_runs(dg.RunsFilter(job_name=job, statuses=WAITING,
                                                tags={"dagster/partition": code}), limit=1))


def every_property(stamp: str, instance: dg.DagsterInstance, grouped: bool, job: str
                   ) -> list[dg.RunRequest] | dg.SkipReason:
    """The runs of a schedule's tick over every property partition.

    The single file: ONE run (a range over them all), whose steps sync the properties
    concurrently (pipelines.defs.each_property): the file has one writer process, so runs of
    one property each would only queue behind the pool `duckdb` of size 1. The group layout:
    one run per property (run key `<CODE>:<stamp>`), each writing its own file; the run queue
    (dagster.group.yaml) starts them at once, never two of one property; a property whose run
    of `job` still waits in the queue is left to it."""
    codes = known_codes(instance)
    if not codes:
        return dg.SkipReason("no property partition yet: properties_sensor adds them")
    if grouped:
        return [dg.RunRequest(run_key=f"{code}:{stamp}", partition_key=code,
                              run_config=ONE_PROCESS) for code in codes
                if not waiting(instance, job, code)]
    if len(codes) == 1:
        return [dg.RunRequest(run_key=f"all:{stamp}", partition_key=codes[0])]
    return [dg.RunRequest(run_key=f"all:{stamp}",
                          tags={RANGE_START: codes[0], RANGE_END: codes[-1]})]


def _stamp(context: dg.ScheduleEvaluationContext) -> str:
    when = context.scheduled_execution_time
    return when.isoformat() if when else ""


@dg.schedule(job=pms_sync, cron_schedule="0 * * * *", name="pms_sync_hourly",
             description="Sync every property each hour: one run (a single file), or one run "
                         "per property (a group directory).")
def pms_sync_hourly(context: dg.ScheduleEvaluationContext, warehouse: WarehouseResource
                    ) -> list[dg.RunRequest] | dg.SkipReason:
    return every_property(_stamp(context), context.instance, warehouse.grouped(),
                          pms_sync.name)


@dg.schedule(job=pms_availability_snapshot, cron_schedule="0 6 * * *",
             name="pms_availability_daily",
             description="Snapshot availability once a day, after the night audits: one run "
                         "(a single file), or one run per property (a group directory).")
def pms_availability_daily(context: dg.ScheduleEvaluationContext, warehouse: WarehouseResource
                           ) -> list[dg.RunRequest] | dg.SkipReason:
    return every_property(_stamp(context), context.instance, warehouse.grouped(),
                          pms_availability_snapshot.name)


def newest_event(client: PmsClient, after: int, *, limit: int = 500,
                 pages: int = EVENT_PAGES_PER_TICK) -> int | None:
    """The id of the newest event after `after`, the log followed up to `pages` pages of
    `limit`: a backlog (a new property, a long stop) asks one run, not one per page; past the
    cap the next tick reads on."""
    newest = None
    for _ in range(pages):
        batch = client.get_events(after, limit=limit)
        if batch.data:
            newest = batch.data[-1].id
        if not batch.has_more or batch.next_after <= after:
            break
        after = batch.next_after
    return newest


@dg.sensor(job=pms_sync, name="pms_events_sensor", minimum_interval_seconds=60,
           description="Start a sync of a property when GET /events shows events after the "
                       "last one seen (one call per property and tick, more on a backlog).")
def pms_events_sensor(context: dg.SensorEvaluationContext, pms: PmsApiResource,
                      warehouse: WarehouseResource) -> dg.SensorResult:
    seen: dict[str, int] = json.loads(context.cursor) if context.cursor else {}
    requests: list[dg.RunRequest] = []
    run_config = ONE_PROCESS if warehouse.grouped() else {}
    for code in known_codes(context.instance):
        try:
            with pms.endpoint(code).client(max_attempts=2) as client:
                newest = newest_event(client, seen.get(code, 0))
        except (PmsError, ValueError) as error:
            context.log.warning(f"property {code}: events not read: {error}")
            continue
        if newest is not None:
            seen[code] = newest  # a run still queued for the property will read them
            if waiting(context.instance, pms_sync.name, code):
                continue
            requests.append(dg.RunRequest(run_key=f"{code}:events:{newest}",
                                          partition_key=code, run_config=run_config))
    return dg.SensorResult(run_requests=requests, cursor=json.dumps(seen, sort_keys=True))


@dg.sensor(name="properties_sensor", minimum_interval_seconds=30,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Keep one property partition per property of the properties file: add "
                       "a property that appeared, delete one that left (starts no run).")
def properties_sensor(context: dg.SensorEvaluationContext,
                      pms: PmsApiResource) -> dg.SensorResult | dg.SkipReason:
    try:
        in_file = pms.codes()
    except PropertyConfigError as error:  # keep the partitions until the file is mended
        return dg.SkipReason(f"properties file not read: {error}")
    requests = partition_requests(in_file, known_codes(context.instance))
    if not requests:
        return dg.SkipReason("the property partitions are the file's")
    return dg.SensorResult(dynamic_partitions_requests=requests)


defs = dg.Definitions(jobs=[pms_sync, pms_availability_snapshot],
                      schedules=[pms_sync_hourly, pms_availability_daily],
                      sensors=[pms_events_sensor, properties_sensor])

"""The reconciliation in Dagster: the asset `recon/results` (recon.runs and recon.results of
one property per run), downstream of the folios, reservations and POS ledger it reads, so the
UI shows its lineage and every run of it; the job `reconcile` materializes it
(docs/reconciliation.md).

- Dry run every morning after the night audit and the sync that follows it
  (`reconcile_daily`, 06:45 UTC; starts stopped like every schedule): the last closed
  business date, results in recon.*, nothing posted.
- Apply is launched by a person from the launchpad, with the dates as run config:

      ops:
        reconcile_folios:
          config: {mode: apply, first_date: "2026-03-01", last_date: "2026-03-03"}

  `rules_file` (a YAML file merged over the shipped defaults) and `rules_yaml` (YAML text
  merged last) override the rules for the run.
"""

from contextlib import nullcontext
from datetime import date
from typing import Any, Literal

import dagster as dg
from pydantic import Field

from pipelines.defs.keys import OWNERS, POOL, RECON_KEY, stream_key
from pipelines.defs.partitions import PROPERTIES, known_codes
from pipelines.defs.resources import PmsApiResource, WarehouseResource
from pipelines.properties import DEFAULT_CODE
from pipelines.recon import DEFAULT_AUTO_SOURCES, Mode, daily_close, run_reconciliation
from pipelines.recon.logic import STATUSES, load_rules


class ReconcileConfig(dg.Config):
    mode: Literal["dry_run", "apply", "close"] = "dry_run"
    """dry_run writes the results and posts nothing; apply posts each missing charge; close
    is the daily close (pipelines/recon/close.py): the last closed date applied for the
    `auto_apply` kinds, then the folios of today's departures (dates ignored)."""
    auto_apply: list[str] = Field(default=list(DEFAULT_AUTO_SOURCES))
    """The close's apply policy: kinds posted without a person (pos, rule:city_tax,
    rule:breakfast, rule:room_nights); the others stay missing."""
    first_date: str | None = None
    """First business date (YYYY-MM-DD); default the last one closed."""
    last_date: str | None = None
    """Last business date (YYYY-MM-DD); default first_date, else the last one closed."""
    rules_file: str | None = None
    """A rules YAML file merged over pipelines/recon/logic/defaults.yaml."""
    rules_yaml: str | None = None
    """Rules as YAML text, merged last (e.g. `properties: {ROMA01: {room_nights: {repost:
    true}}}`)."""


def _date(value: str | None, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise dg.Failure(f"{name}: {value!r} is not a date YYYY-MM-DD") from None


RECON_READS = ("reference", "reservations", "folios", "pos_ledger")
"""The streams whose landed rows a reconciliation reads: its upstream assets."""


@dg.multi_asset(
    name="reconcile_folios", pool=POOL, partitions_def=PROPERTIES, can_subset=False,
    specs=[dg.AssetSpec(
        RECON_KEY, deps=[stream_key(s) for s in RECON_READS], owners=OWNERS,
        group_name="reconciliation", kinds={"duckdb"},
        description="Folio reconciliation of the property: recon.runs and recon.results "
                    "(expected charges matched with the folio lines); apply posts each missing "
                    "charge through the API exactly once.")])
def reconcile_folios(context: dg.AssetExecutionContext, config: ReconcileConfig,
                     pms: PmsApiResource, warehouse: WarehouseResource
                     ) -> dg.MaterializeResult:  # type: ignore[type-arg]
    rules = load_rules(config.rules_file, text=config.rules_yaml)
    code = context.partition_key
    apply = config.mode in ("apply", "close")
    with pms.endpoint(code).client() if apply else nullcontext() as client:
        if config.mode == "close":
            assert client is not None
            done = daily_close(warehouse.file(code), rules, client,
                               property_id=client.get_property().id,
                               auto_sources=config.auto_apply)
            pre = done.pre_departure
            context.log.info(f"daily close {done.closed.property_code} of "
                             f"{done.closed.last}: pre-departure run "
                             f"{'none' if pre is None else pre.run_id}")
            return dg.MaterializeResult(asset_key=RECON_KEY, metadata={
                "run_id": done.closed.run_id, "mode": "close",
                "property": done.closed.property_code,
                "closed_date": done.closed.last.isoformat(),
                **{f"{s}_count": done.closed.summary[s][0] for s in STATUSES},
                "pre_departure_run_id": -1 if pre is None else pre.run_id,
                "pre_departure_posted": 0 if pre is None else pre.summary["posted"][0]})
        report = run_reconciliation(
            warehouse.file(code), rules, mode=Mode(config.mode),
            first=_date(config.first_date, "first_date"),
            last=_date(config.last_date, "last_date"),
            property_ref=None if code == DEFAULT_CODE else code, client=client)
    context.log.info(
        f"reconcile {report.property_code} {report.first}..{report.last} ({report.mode}): "
        + ", ".join(f"{s} {report.summary[s][0]}" for s in STATUSES))
    metadata: dict[str, Any] = {
        "run_id": report.run_id, "property": report.property_code, "mode": report.mode.value,
        "first_date": report.first.isoformat(), "last_date": report.last.isoformat(),
        **{f"{s}_count": report.summary[s][0] for s in STATUSES},
        **{f"{s}_amount": dg.MetadataValue.float(report.summary[s][1] / 100)
           for s in STATUSES},
    }
    return dg.MaterializeResult(asset_key=RECON_KEY, metadata=metadata)


reconcile_job = dg.define_asset_job(
    "reconcile", selection=dg.AssetSelection.assets(RECON_KEY), tags={"kind": "reconciliation"},
    description="Folio reconciliation of one property: recon.runs and recon.results; apply "
                "mode posts missing charges exactly once.")


@dg.schedule(job=reconcile_job, cron_schedule="45 6 * * *", name="reconcile_daily",
             description="Dry run of the last closed business date of every property, after "
                         "the night audit and the sync that follows it.")
def reconcile_daily(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    stamp = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time \
        else ""
    return [dg.RunRequest(run_key=f"{code}:{stamp}", partition_key=code,
                          run_config={"ops": {"reconcile_folios": {"config": {"mode": "dry_run"}}}})
            for code in known_codes(context.instance)]


# job_name, not job=: rebinding an op job's resources into a sensor passes `owners` to a
# SensorDefinition, which Dagster 1.13 warns about (BetaWarning).
@dg.sensor(job_name="reconcile", name="reconcile_close_sensor", minimum_interval_seconds=120,
           description="The daily close of a property when its PMS business date (GET "
                       "/property) has moved and the warehouse has synced it: apply the date "
                       "just closed for the automatic kinds, then today's departures.")
def reconcile_close_sensor(context: dg.SensorEvaluationContext, pms: PmsApiResource,
                           warehouse: WarehouseResource) -> dg.SensorResult:
    import json

    import duckdb

    from pipelines.api import PmsError
    from pipelines.warehouse import WarehouseError, open_read_copy

    closed: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    requests: list[dg.RunRequest] = []
    for code in known_codes(context.instance):
        try:
            with pms.endpoint(code).client() as client:
                prop = client.get_property()
            with open_read_copy(warehouse.file(code)) as conn:  # never a writer's lock
                row = conn.execute("SELECT business_date FROM core.property WHERE "
                                   "property_id = ?", [prop.id]).fetchone()
        except (PmsError, ValueError, WarehouseError, duckdb.Error) as error:
            context.log.warning(f"property {code}: business date not read: {error}")
            continue
        pms_date = prop.business_date.isoformat()
        synced = None if row is None else row[0].isoformat()
        if synced != pms_date or closed.get(code) == pms_date:
            continue  # not synced since the night audit yet, or closed already
        closed[code] = pms_date
        requests.append(dg.RunRequest(
            run_key=f"{code}:close:{pms_date}", partition_key=code,
            run_config={"ops": {"reconcile_folios": {"config": {"mode": "close"}}}}))
    return dg.SensorResult(run_requests=requests, cursor=json.dumps(closed, sort_keys=True))


defs = dg.Definitions(assets=[reconcile_folios], jobs=[reconcile_job],
                      schedules=[reconcile_daily], sensors=[reconcile_close_sensor])

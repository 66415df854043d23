"""The `reconcile` job: folio reconciliation of one property per run (docs/reconciliation.md).

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

from pipelines.properties import DEFAULT_CODE
from pipelines.reconcile import Mode, run_reconciliation
from pipelines.transforms.reconcile import STATUSES, load_rules

from .keys import POOL
from .partitions import PROPERTIES, PROPERTY_CODES
from .resources import PmsApiResource, WarehouseResource


class ReconcileConfig(dg.Config):
    mode: Literal["dry_run", "apply"] = "dry_run"
    """dry_run writes the results and posts nothing; apply posts each missing charge."""
    first_date: str | None = None
    """First business date (YYYY-MM-DD); default the last one closed."""
    last_date: str | None = None
    """Last business date (YYYY-MM-DD); default first_date, else the last one closed."""
    rules_file: str | None = None
    """A rules YAML file merged over pipelines/transforms/reconcile/defaults.yaml."""
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


@dg.op(pool=POOL, tags={"kind": "reconciliation"},
       description="Reconcile the folios of the run's property (partition) over the business "
                   "dates of the config; apply posts missing charges through the API.")
def reconcile_folios(context: dg.OpExecutionContext, config: ReconcileConfig, pms: PmsApiResource,
              warehouse: WarehouseResource) -> dg.Output[dict[str, Any]]:
    rules = load_rules(config.rules_file, text=config.rules_yaml)
    code = context.partition_key
    apply = config.mode == "apply"
    with pms.endpoint(code).client() if apply else nullcontext() as client:
        report = run_reconciliation(
            warehouse.file(), rules, mode=Mode(config.mode),
            first=_date(config.first_date, "first_date"),
            last=_date(config.last_date, "last_date"),
            property_ref=None if code == DEFAULT_CODE else code, client=client)
    summary = {status: {"count": n, "amount": f"{cents / 100:.2f}"}
               for status, (n, cents) in report.summary.items()}
    context.log.info(
        f"reconcile {report.property_code} {report.first}..{report.last} ({report.mode}): "
        + ", ".join(f"{s} {report.summary[s][0]}" for s in STATUSES))
    metadata: dict[str, Any] = {
        "run_id": report.run_id, "property": report.property_code, "mode": report.mode.value,
        "first_date": report.first.isoformat(), "last_date": report.last.isoformat(),
        **{f"{s}_count": report.summary[s][0] for s in STATUSES},
    }
    return dg.Output({"run_id": report.run_id, "summary": summary}, metadata=metadata)


@dg.job(name="reconcile", partitions_def=PROPERTIES, tags={"kind": "reconciliation"},
        description="Folio reconciliation of one property: recon.runs and recon.results; "
                    "apply mode posts missing charges exactly once.")
def reconcile_job() -> None:
    reconcile_folios()


@dg.schedule(job=reconcile_job, cron_schedule="45 6 * * *", name="reconcile_daily",
             description="Dry run of the last closed business date of every property, after "
                         "the night audit and the sync that follows it.")
def reconcile_daily(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    stamp = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time \
        else ""
    return [dg.RunRequest(run_key=f"{code}:{stamp}", partition_key=code,
                          run_config={"ops": {"reconcile_folios": {"config": {"mode": "dry_run"}}}})
            for code in PROPERTY_CODES]


defs = dg.Definitions(jobs=[reconcile_job], schedules=[reconcile_daily])

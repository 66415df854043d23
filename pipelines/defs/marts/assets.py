"""The revenue marts (issue 6): one asset per mart.* table, partitioned by property like the
ingestion assets they follow, all in pool `duckdb`, built by one step (a multi-asset).

For each property of the run the step reads core.* once into polars, and builds each selected
mart in dependency order with the transforms of `pipelines.marts.logic`, each mart replacing
the property's rows in its own transaction (`pipelines.marts.built_marts`); `marts_at_once`
properties (sync settings) at a time, each on its own thread and cursor. Definitions:
docs/kpi.md. The jobs of `pipelines.defs.automation` build them after each sync; `pms_marts`
rebuilds them alone.
"""

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import dagster as dg
import polars as pl

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.defs.ingest.checks import check_result
from pipelines.defs.keys import (
    MARTS_GROUP as MARTS_GROUP,  # pmsw sync selects the group by this name
)
from pipelines.defs.keys import OWNERS, POOL, READ_COPY_KEY, stream_key
from pipelines.defs.partitions import ONE_RUN, PROPERTIES, codes_of_run, one_run_accepted
from pipelines.defs.resources import SyncSettingsResource, WarehouseResource
from pipelines.defs.verdicts import Scope, alerts, markdown, property_of_partition, tieout
from pipelines.marts import MARTS, MartSettings, Replaced, built_marts

PREVIEW_ROWS = 5

DESCRIPTIONS = {
    "stay_nights": "One row per room entry and night with status, segments, persons and the "
                   "night's room revenue (folio postings for nights lived, the stay total split "
                   "evenly for nights to come).",
    "revenue_daily": "Revenue by posting date and department (accommodation, food and "
                     "beverage, other; city tax apart, never revenue), net, gross and VAT.",
    "room_fees": "No-show, cancellation and early-departure fees: accommodation lines that "
                 "are rooms revenue but not the revenue of a night sold, by posting date.",
    "occupancy_daily": "Rooms in the property, sellable, out of order; sold, complimentary, "
                       "in option; occupancy, ADR (nights sold; and with fees), RevPAR, TRevPAR "
                       "per night.",
    "revenue_tieout": "Per business date closed: folio accommodation net against the room "
                      "revenue of the nights sold plus the fees, the difference and its "
                      "reason.",
    "occupancy_by_room_type": "mart.occupancy_daily per room type.",
    "segment_daily": "Rooms sold, room revenue and ADR per night by channel, source, market, "
                     "rate plan and room type.",
    "otb_snapshots": "On the books at the end of every business date for the next 365 nights "
                     "(rooms, net revenue, options apart), rebuilt from the room versions.",
    "pickup": "Pickup over 1, 7, 14 and 30 days per stay date: new, cancelled and net room "
              "nights, net revenue.",
    "pace": "On the books by days before arrival beside the same time last year (STLY).",
    "booking_outcomes": "How each reservation ended (on the books, cancelled by the guest, "
                        "no-show, lapsed option, ...), its local booking date and lead time "
                        "bucket: the one classification of cancellations.",
    "booking_kpis": "Firm bookings by month of arrival and channel: room nights, guest "
                    "cancellation rates, lead time, ALOS; no-shows and lapsed options beside.",
    "forecast_daily": "Where each of the next 365 nights will end as of the business date: "
                      "rooms, room revenue, ADR and occupancy forecast with a low/high band, "
                      "by the method the backtest chose for the horizon (docs/forecast.md).",
    "forecast_accuracy": "Rolling-origin backtest of the forecast methods and the choice: "
                         "MAE, WAPE and bias per horizon over the last 91 nights realized.",
    "alerts": "Nights whose pace is well below last year, pickup spikes, on the books above "
              "capacity plus overbooking.",
}
INGESTED = ("reference", "events", "reservations", "folios", "availability")
"""Ingestion streams every mart follows (the POS ledger feeds the reconciliation only)."""


def mart_key(name: str) -> dg.AssetKey:
    return dg.AssetKey(["mart", name])


class MartConfig(dg.Config):
    """Run config of a mart asset (docs/kpi.md); e.g. `accommodation_vat_pct: "10"`."""

    accommodation_vat_pct: str | None = None
    """Accommodation VAT in percent; unset: the VAT of the property's accommodation item."""
    horizon_days: int = 365

    def settings(self) -> MartSettings:
        vat = None if self.accommodation_vat_pct is None else Decimal(self.accommodation_vat_pct)
        return MartSettings(vat_pct=vat, horizon_days=self.horizon_days)


def _metadata(property_id: int, rows: pl.DataFrame, written: Replaced) -> dict[str, Any]:
    return {"property_id": property_id, "rows": written.rows, "columns": len(rows.columns),
            "preview": dg.MetadataValue.md(markdown(rows.columns,
                                                    rows.head(PREVIEW_ROWS).iter_rows())),
            "inserted": written.inserted, "deleted": written.deleted,
            "computed_from": "all" if written.since is None else written.since.isoformat()}


def _spec(name: str) -> dg.AssetSpec:
    return dg.AssetSpec(
        mart_key(name), group_name=MARTS_GROUP, description=DESCRIPTIONS[name], owners=OWNERS,
        kinds={"polars", "duckdb"}, partitions_def=PROPERTIES,
        deps=[*(stream_key(s) for s in INGESTED), *(mart_key(m) for m in MARTS[name][1])])


def _marts(context: dg.AssetExecutionContext, warehouse: WarehouseResource,
           sync_settings: SyncSettingsResource,
           config: MartConfig) -> Iterator[dg.MaterializeResult]:  # type: ignore[type-arg]
    names = [n for n in MARTS if mart_key(n) in context.selected_asset_keys]
    codes = context.partition_keys
    built: dict[str, dict[str, dict[str, Any]]] = {code: {} for code in codes}
    # One connection for the step: what DuckDB keeps of the properties built before is
    # bounded by the writer's memory limit (docs/operations.md, "A writer's memory").
    with warehouse.per_property() as opened:
        def one(code: str) -> None:
            with opened(code) as cursor:  # a cursor of the step's file, or the property's own
                pid = property_of_partition(cursor, code, context.run.run_id)
                for name, rows, written in built_marts(cursor, pid, config.settings(), names,
                                                       context.run.run_id):
                    computed = "" if written.since is None else f", from {written.since}"
                    context.log.info(f"mart.{name} of property {pid}: {written.rows} rows "
                                     f"({rows.height} computed{computed}, {written.inserted} "
                                     f"inserted, {written.deleted} deleted)")
                    built[code][name] = _metadata(pid, rows, written)

        # A few properties at a time, each with all its marts together (they share its
        # core.* reads); their writes take turns on the writer's lock. The memory of the
        # step is that of `at_once` properties whatever the group's size.
        at_once = min(sync_settings.marts_at_once, sync_settings.properties_at_once)
        try:
            _, errors = each_property(codes, one, at_once)
        except Exception as error:  # a run of one property: its error, as it was raised
            errors = {codes[0]: error}
    for name in names:  # a mart built for every property of the run is materialized
        if all(name in built[code] for code in codes):
            for code in codes:
                context.add_asset_metadata(built[code][name], asset_key=mart_key(name),
                                           partition_key=code)
            yield dg.MaterializeResult(asset_key=mart_key(name))
    if errors:
        stopped = {code: [n for n in names if n not in built[code]] for code in errors}
        raise PropertiesFailedError("marts (stopped: " + ", ".join(
            f"{code} at mart.{left[0]}" for code, left in sorted(stopped.items()) if left)
            + ")", errors)


with one_run_accepted():
    marts_asset = dg.multi_asset(
        name="marts", specs=[_spec(name) for name in MARTS], can_subset=True, pool=POOL,
        partitions_def=PROPERTIES, backfill_policy=ONE_RUN,
        description="Every mart.* table of the run's properties, `marts_at_once` properties at "
                    "a time, each its marts in dependency order, in one step (a subset when "
                    "fewer are selected)."
    )(_marts)
MART_ASSETS = [marts_asset]

pms_marts = dg.define_asset_job(
    "pms_marts", selection=dg.AssetSelection.groups(MARTS_GROUP)
    | dg.AssetSelection.assets(READ_COPY_KEY),
    description="Rebuild every mart of a property from the warehouse (no API call).")


@dg.asset_check(asset=mart_key("revenue_tieout"), name="revenue_tieout_has_no_unexplained_cent",
                pool=POOL, description="Every business date closed ties: folio accommodation "
                "net = room revenue of the nights sold + fees, any difference explained "
                "(docs/kpi.md, Revenue tie-out).")
def revenue_tieout_has_no_unexplained_cent(context: dg.AssetCheckExecutionContext,
                                            warehouse: WarehouseResource
                                            ) -> dg.AssetCheckResult:
    # The file, or the files of the run's properties (never another property's file).
    return check_result(tieout(Scope(codes_of_run(context.run.tags, context.instance),
                                     warehouse)))


@dg.asset_check(asset=mart_key("alerts"), name="no_alerts", blocking=False, pool=POOL,
                description="Warns (never blocks) when mart.alerts holds a night to look at, "
                            "counting alerts (stretches of nights, docs/alerts.md): "
                            "pace well below last year, a pickup spike, on the books above "
                            "capacity plus overbooking (`pmsw report alerts`).")
def no_alerts(context: dg.AssetCheckExecutionContext,
              warehouse: WarehouseResource) -> dg.AssetCheckResult:
    return check_result(alerts(Scope(codes_of_run(context.run.tags, context.instance),
                                     warehouse, run_id=context.run.run_id)))


defs = dg.Definitions(assets=MART_ASSETS,
                      asset_checks=[revenue_tieout_has_no_unexplained_cent, no_alerts],
                      jobs=[pms_marts])

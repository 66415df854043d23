"""The daily close (issue 16, item 1) on the simulated stretch: the last closed date applied
for the automatic kinds, then the folios of today's departures, over real HTTP."""

from __future__ import annotations

import polars as pl

from pipelines.recon import DEFAULT_AUTO_SOURCES, Mode, daily_close
from pipelines.recon.close import todays_departures

from .conftest import RULES, World


def test_close_posts_the_automatic_kinds_of_today_departures_before_check_out(
        world: World) -> None:
    dry = world.run()
    pid, business_date, leaving, _ = todays_departures(world.warehouse, None)
    assert leaving, "the stretch should have departures on its business date"
    todo = dry.results.filter((pl.col("status") == "missing")
                              & pl.col("source").is_in(list(DEFAULT_AUTO_SOURCES)))
    due = todo.filter(pl.col("reservation_id").is_in(leaving)
                      | (pl.col("business_date") == business_date.fromordinal(
                          business_date.toordinal() - 1)))
    others = dry.results.filter((pl.col("status") == "missing")
                                & ~pl.col("source").is_in(list(DEFAULT_AUTO_SOURCES)))
    assert due.height > 0

    done = daily_close(world.warehouse, RULES, world.client, property_id=pid)
    assert done.pre_departure is not None
    posted = pl.concat([done.closed.results, done.pre_departure.results]).filter(
        pl.col("status") == "posted")
    # every automatic charge due (yesterday's, or of a guest leaving today) is posted, once
    assert sorted(set(posted["key"])) == sorted(due["key"])
    assert set(posted["source"]) <= set(DEFAULT_AUTO_SOURCES)
    # the pre-departure run reads only today's departures' charges
    assert set(done.pre_departure.results["reservation_id"]) <= set(leaving)
    # kinds not automatic (room nights) stay missing for a person
    if others.height:
        still = done.closed.results.filter(pl.col("key").is_in(others["key"].to_list()))
        assert set(still["status"]) <= {"missing"}

    again = daily_close(world.warehouse, RULES, world.client, property_id=pid)
    assert again.closed.apply is not None
    assert again.closed.apply.posts == 0
    assert again.pre_departure is not None
    assert again.pre_departure.apply is not None
    assert again.pre_departure.apply.posts == 0
    world.sync(["folios"])
    after = world.run(Mode.DRY_RUN)
    assert set(after.results.filter(pl.col("key").is_in(due["key"].to_list()))["status"]) \
        == {"matched"}


def test_the_close_sensor_requests_one_close_per_business_date(world: World) -> None:
    """Dagster: the sensor starts the close when the PMS business date (GET /property) is the
    one the warehouse synced, once per date (its cursor)."""
    import dagster as dg

    from pipelines.defs.partitions import instance_with
    from pipelines.defs.recon.jobs import reconcile_close_sensor
    from pipelines.defs.resources import PmsApiResource, WarehouseResource
    from tests.conftest import ALL_SCOPES_KEY

    resources = {"pms": PmsApiResource(base_url=world.sandbox.base_url,
                                       api_key=ALL_SCOPES_KEY),
                 "warehouse": WarehouseResource(path=str(world.warehouse))}
    with instance_with(["default"]) as instance:  # the properties sensor's work
        with dg.build_sensor_context(resources=resources, instance=instance) as context:
            first = reconcile_close_sensor(context)
        assert isinstance(first, dg.SensorResult)
        [request] = first.run_requests or []
        business_date = world.client.get_property().business_date
        assert request.partition_key == "default"
        assert request.run_key == f"default:close:{business_date}"
        assert request.run_config["ops"]["reconcile_folios"]["config"]["mode"] == "close"
        with dg.build_sensor_context(resources=resources, instance=instance,
                                     cursor=first.cursor) as context:
            again = reconcile_close_sensor(context)
        assert isinstance(again, dg.SensorResult)
        assert not again.run_requests  # this date is closed already

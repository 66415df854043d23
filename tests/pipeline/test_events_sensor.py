"""The event sensor (pipelines.defs.automation.pms_events_sensor) on the sandbox over HTTP: a
backlog of events asks ONE run of the property, not one per page of GET /events (the daemon
test saw five runs for two hotels before); on a group directory the run is one process
(`ONE_PROCESS`), on the single file the job's default executor."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import httpx
import pytest

from pipelines.definitions import defs
from pipelines.defs.automation import ONE_PROCESS, newest_event
from pipelines.defs.resources import PmsApiResource, WarehouseResource
from pipelines.properties import Endpoint
from sandbox.http.server import RunningSandbox
from tests.conftest import ALL_SCOPES_KEY, MakeSandbox, auth

from .helpers import CLIENT_BURST, CLIENT_RATE, advance, clock, write_properties


@pytest.fixture
def lived(make_sandbox: MakeSandbox) -> RunningSandbox:
    """The seeded sandbox after one simulated day: a log of a few dozen events."""
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url, 1)
    return sandbox


def _log_ids(sandbox: RunningSandbox) -> list[int]:
    """Every event id of the log, read with httpx in one page of the spec's largest (500)."""
    body = httpx.get(f"{sandbox.base_url}/events", params={"limit": 500}, headers=auth(),
                     timeout=30).json()
    assert body["has_more"] is False
    return [event["id"] for event in body["data"]]


def test_the_newest_event_is_read_through_every_page_up_to_the_cap(
        lived: RunningSandbox) -> None:
    ids = _log_ids(lived)
    assert len(ids) > 30, len(ids)  # several pages of 10 below
    endpoint = Endpoint("ROMA01", lived.base_url, ALL_SCOPES_KEY, CLIENT_RATE, CLIENT_BURST)
    with endpoint.client() as client:
        assert newest_event(client, 0, limit=10) == ids[-1]
        assert newest_event(client, ids[-1], limit=10) is None  # nothing after the last
        assert newest_event(client, 0, limit=10, pages=2) == ids[19]  # the cap: 2 pages of 10
        assert newest_event(client, ids[19], limit=10) == ids[-1]  # the next tick reads on


@pytest.mark.parametrize("grouped", [True, False])
def test_a_backlog_asks_one_run_of_the_property(
        lived: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        grouped: bool) -> None:
    monkeypatch.setenv("KEY_ROMA01", ALL_SCOPES_KEY)
    properties = write_properties(tmp_path / "properties.yaml", lived.base_url,
                                  codes={"ROMA01": "KEY_ROMA01"})
    warehouse = tmp_path / "group" if grouped else tmp_path / "warehouse.duckdb"
    if grouped:
        warehouse.mkdir()
    resources = {"pms": PmsApiResource(properties_file=str(properties)),
                 "warehouse": WarehouseResource(path=str(warehouse))}
    sensor = defs.resolve_sensor_def("pms_events_sensor")
    last = _log_ids(lived)[-1]
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("properties", ["ROMA01"])
        with dg.build_sensor_context(instance=instance, resources=resources) as context:
            first = sensor(context)
        assert isinstance(first, dg.SensorResult)
        assert [(r.run_key, r.partition_key, r.run_config) for r in first.run_requests or []] \
            == [(f"ROMA01:events:{last}", "ROMA01", ONE_PROCESS if grouped else {})]
        assert json.loads(first.cursor or "{}") == {"ROMA01": last}
        with dg.build_sensor_context(instance=instance, resources=resources,
                                     cursor=first.cursor) as context:
            again = sensor(context)
        assert isinstance(again, dg.SensorResult)
        assert not again.run_requests  # no event since: no run


def test_a_property_whose_run_waits_in_the_queue_is_asked_no_other(
        lived: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of the property asked and not started yet will read the new events: the tick
    moves the cursor on and asks nothing more (the queue would pile runs up behind it)."""
    monkeypatch.setenv("KEY_ROMA01", ALL_SCOPES_KEY)
    properties = write_properties(tmp_path / "properties.yaml", lived.base_url,
                                  codes={"ROMA01": "KEY_ROMA01"})
    (tmp_path / "group").mkdir()
    resources = {"pms": PmsApiResource(properties_file=str(properties)),
                 "warehouse": WarehouseResource(path=str(tmp_path / "group"))}
    sensor = defs.resolve_sensor_def("pms_events_sensor")
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("properties", ["ROMA01"])
        instance.add_run(dg.DagsterRun(job_name="pms_sync", status=dg.DagsterRunStatus.NOT_STARTED,
                                       tags={"dagster/partition": "ROMA01"}))
        with dg.build_sensor_context(instance=instance, resources=resources) as context:
            result = sensor(context)
        assert isinstance(result, dg.SensorResult)
        assert not result.run_requests
        assert json.loads(result.cursor or "{}") == {"ROMA01": _log_ids(lived)[-1]}

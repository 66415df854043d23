"""The property partitions follow the properties file with no reload (issue 47, item 4;
docs/ingestion.md, "Dagster"): the definitions' own `properties_sensor` adds a property that
appeared in the file and deletes one that left it; the schedules then request the range of the
instance's partitions (one run on a single file; on a group directory one run per partition),
and a run of that range covers exactly those properties."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from pipelines.definitions import defs
from pipelines.defs.automation import ONE_PROCESS
from pipelines.defs.partitions import RANGE_END, RANGE_START, codes_of_run, known_codes
from pipelines.defs.resources import PmsApiResource, WarehouseResource


def _entry(code: str) -> str:
    return f"  - {{code: {code}, base_url: 'http://127.0.0.1:9/v1', api_key_env: KEY_{code}}}\n"


def _tick(instance: dg.DagsterInstance, path: Path) -> dg.SensorResult | dg.SkipReason:
    """One tick of the sensor; its partition requests applied as Dagster's daemon does."""
    sensor = defs.resolve_sensor_def("properties_sensor")
    resources = {"pms": PmsApiResource(properties_file=str(path))}
    with dg.build_sensor_context(instance=instance, resources=resources) as context:
        result = sensor(context)
    assert isinstance(result, (dg.SensorResult, dg.SkipReason))
    if isinstance(result, dg.SensorResult):
        for request in result.dynamic_partitions_requests or []:
            if isinstance(request, dg.AddDynamicPartitionsRequest):
                instance.add_dynamic_partitions(request.partitions_def_name,
                                                list(request.partition_keys))
            else:
                for key in request.partition_keys:
                    instance.delete_dynamic_partition(request.partitions_def_name, key)
    return result


def _requests(instance: dg.DagsterInstance, warehouse: Path,
              name: str = "pms_sync_hourly") -> list[dg.RunRequest] | dg.SkipReason:
    """The run requests of one tick of schedule `name`, the warehouse resource on `warehouse`
    (a file: the single layout; a directory: the group layout)."""
    schedule = defs.resolve_schedule_def(name)
    with dg.build_schedule_context(instance=instance,
                                   resources={"warehouse": WarehouseResource(path=str(warehouse))},
                                   scheduled_execution_time=datetime(2026, 11, 29, 3, tzinfo=UTC)
                                   ) as context:
        result = schedule(context)
    assert isinstance(result, (list, dg.SkipReason))
    return result


def _hourly_request(instance: dg.DagsterInstance, warehouse: Path
                    ) -> dg.RunRequest | dg.SkipReason:
    """The single file's one run request of the hourly schedule (or its skip)."""
    result = _requests(instance, warehouse)
    if isinstance(result, dg.SkipReason):
        return result
    assert len(result) == 1, result
    return result[0]


def test_a_property_added_to_the_file_becomes_a_partition_at_the_next_tick(
        tmp_path: Path) -> None:
    path = tmp_path / "properties.yaml"
    with dg.instance_for_test() as instance:
        before = _hourly_request(instance, tmp_path / "w.duckdb")
        assert isinstance(before, dg.SkipReason)  # no partition yet: nothing to sync

        path.write_text("properties:\n" + _entry("ROMA01") + _entry("FIRE01"), encoding="utf-8")
        _tick(instance, path)
        assert known_codes(instance) == ["ROMA01", "FIRE01"]
        request = _hourly_request(instance, tmp_path / "w.duckdb")
        assert isinstance(request, dg.RunRequest)
        assert (request.tags[RANGE_START], request.tags[RANGE_END]) == ("ROMA01", "FIRE01")

        # A hotel joins, another leaves: the same code location, no reload.
        path.write_text("properties:\n" + _entry("FIRE01") + _entry("MILA01"), encoding="utf-8")
        _tick(instance, path)
        assert known_codes(instance) == ["FIRE01", "MILA01"]
        request = _hourly_request(instance, tmp_path / "w.duckdb")
        assert isinstance(request, dg.RunRequest)
        assert codes_of_run(request.tags, instance) == ["FIRE01", "MILA01"]

        unchanged = _tick(instance, path)
        assert isinstance(unchanged, dg.SkipReason)


def test_a_broken_file_keeps_the_partitions_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "properties.yaml"
    path.write_text("properties:\n" + _entry("ROMA01"), encoding="utf-8")
    with dg.instance_for_test() as instance:
        _tick(instance, path)
        path.write_text("properties:\n  - {code: ROMA01, burst: 0\n", encoding="utf-8")
        skipped = _tick(instance, path)
        assert isinstance(skipped, dg.SkipReason)
        assert skipped.skip_message is not None
        assert str(path) in skipped.skip_message
        assert "not valid YAML" in skipped.skip_message
        assert known_codes(instance) == ["ROMA01"]


def test_on_a_group_directory_the_schedules_request_one_run_per_property(
        tmp_path: Path) -> None:
    """The group layout (docs/scaling.md): each property its own run, keyed by property and
    tick, so the run queue of dagster.group.yaml runs them at once, never two of one."""
    path = tmp_path / "properties.yaml"
    path.write_text("properties:\n" + _entry("ROMA01") + _entry("FIRE01") + _entry("MILA01"),
                    encoding="utf-8")
    group = tmp_path / "group"
    group.mkdir()
    with dg.instance_for_test() as instance:
        assert isinstance(_requests(instance, group), dg.SkipReason)  # no partition yet
        _tick(instance, path)
        for name in ("pms_sync_hourly", "pms_availability_daily", "warehouse_upkeep_weekly"):
            requests = _requests(instance, group, name)
            assert isinstance(requests, list)
            assert [r.partition_key for r in requests] == ["ROMA01", "FIRE01", "MILA01"]
            assert [r.run_key for r in requests] == [
                f"{code}:2026-11-29T03:00:00+00:00" for code in ("ROMA01", "FIRE01", "MILA01")]
            assert all(RANGE_START not in r.tags for r in requests)
            assert all(r.run_config == ONE_PROCESS for r in requests)  # a process a run
        # A property whose run still waits in the queue is left to that run.
        instance.add_run(dg.DagsterRun(job_name="pms_sync", status=dg.DagsterRunStatus.NOT_STARTED,
                                       tags={"dagster/partition": "FIRE01"}))
        requests = _requests(instance, group)
        assert isinstance(requests, list)
        assert [r.partition_key for r in requests] == ["ROMA01", "MILA01"]
        daily = _requests(instance, group, "pms_availability_daily")  # another job: not held
        assert isinstance(daily, list)
        assert len(daily) == 3
        single = _requests(instance, tmp_path / "w.duckdb")  # the single file: one range
        assert isinstance(single, list)
        assert len(single) == 1
        assert single[0].run_config == {}  # the job's default executor
        assert codes_of_run(single[0].tags, instance) == ["ROMA01", "FIRE01", "MILA01"]

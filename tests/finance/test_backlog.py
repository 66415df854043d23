"""Backlog mode (issue 16, item 5): `pmsw reconcile --from --to --backlog` reconciles the
history chunk by chunk, carries on after an interruption without redoing the chunks done,
and sums to the same figures as one run over the whole range; apply posts nothing twice."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.recon import Mode, run_backlog
from tests.stored_rows import stored_rows

from .conftest import FIRST, LAST, RULES, World


class KilledError(Exception):
    pass


def test_an_interrupted_backlog_resumes_and_sums_to_one_run(world: World) -> None:
    seen: list[object] = []

    def die_after_two(chunk: object, report: object) -> None:
        seen.append(chunk)
        if len(seen) == 2:
            raise KilledError

    with pytest.raises(KilledError):
        run_backlog(world.warehouse, RULES, first=FIRST, last=LAST, chunk_days=3,
                    on_chunk=die_after_two)
    result = CliRunner().invoke(main, [
        "reconcile", "--from", str(FIRST), "--to", str(LAST), "--backlog", "--chunk-days",
        "3", "--warehouse", str(world.warehouse)], env={"PMS_API_BASE_URL": "",
                                                        "PMS_API_KEY": ""})
    assert result.exit_code == 0, result.output + result.stderr
    assert "4 chunks of 3 days, 2 run now" in result.stdout
    assert "2 done before" in result.stdout
    whole = world.run()
    for status, (n, cents) in whole.summary.items():
        assert f"  {status:<16}{n:>9}{cents / 100:>14.2f}" in result.stdout
    chunks = stored_rows(world.warehouse, "SELECT first_date, last_date FROM recon.runs WHERE "
                         "mode = 'dry_run' AND last_date - first_date < 3 ORDER BY 1")
    assert len(chunks) == 4  # each chunk run once: the two done were not redone


def test_backlog_apply_posts_each_charge_once(world: World) -> None:
    dry = world.run()
    missing = dry.results.filter(pl.col("status") == "missing")
    first = run_backlog(world.warehouse, RULES, first=FIRST, last=LAST, chunk_days=4,
                        mode=Mode.APPLY, client=world.client)
    assert first.posts == missing.height > 0
    again = run_backlog(world.warehouse, RULES, first=FIRST, last=LAST, chunk_days=4,
                        mode=Mode.APPLY, client=world.client, redo=True)
    assert again.posts == 0
    assert again.summary["posted"] == (0, 0)

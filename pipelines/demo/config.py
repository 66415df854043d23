"""What the demo builds and where: the hotels, the stretch simulated, the files it owns."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import yaml

from pipelines.forecast import EVENTS_FILE_ENV, EVENTS_FILE_NAME
from pipelines.properties import PROPERTIES_FILE_ENV
from pipelines.warehouse import DEFAULT_PATH, read_copy_files

UNLIMITED_RATE = 1_000_000
"""The demo's sandbox lifts the rate limit (a real PMS allows 600 calls a minute, burst 120:
`benchmarks/bench_demo.py --real-limit` runs the demo at that limit)."""


class DemoError(RuntimeError):
    """The demo cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class DemoHotel:
    property_id: int
    code: str
    key_env: str
    default_key: str
    """The sandbox's shared test key of the property (docs/sandbox.md, Keys)."""

    def entry(self, base_url: str, pos_root: Path, rate_per_minute: int = UNLIMITED_RATE,
              burst: int = UNLIMITED_RATE) -> dict[str, object]:
        """The hotel in the properties file (its key stays in the environment)."""
        return {"code": self.code, "base_url": base_url, "api_key_env": self.key_env,
                "pos_ledger_dir": str(pos_root / self.code), "rate_per_minute": rate_per_minute,
                "burst": burst}


HOTELS = (
    DemoHotel(1, "ROMA01", "PMSW_DEMO_KEY_ROMA01", "sbx_test_all_scopes"),
    DemoHotel(2, "FIRE01", "PMSW_DEMO_KEY_FIRE01", "sbx_test_other_property"),
)


@dataclass(frozen=True)
class DemoConfig:
    data_dir: Path = Path("data")
    warehouse: Path = DEFAULT_PATH
    days: int = 337
    """Days simulated before the daily syncs start (a year with the daily stretch)."""
    daily_syncs: int = 28
    """Days played one at a time, each followed by a sync (pickup and pace snapshots)."""
    seed: int = 42
    daily_close: bool = True
    """After each daily sync, land folios and POS files and run the daily close."""
    folio_sweep_days: int | None = None
    """The daily syncs read each open folio of the future book at least once in this many days
    (SyncSettings.folio_sweep_hours); None: the whole stretch (`daily_syncs`). Nobody reads
    the future book's folios before the stretch ends, where every open folio is read again
    (the final sync); the daily close reads only folios of rooms in house and departed, read
    on every run. 1 reads what the product reads by default (the whole future book at each
    business date's first run, SyncSettings.future_folios_daily, which the demo turns off):
    1,400 more folio calls a day (docs/operations.md, "The demo's time")."""
    final_full_refresh: bool = False
    """After the stretch, read the folios of every reservation again (`full_folio_refresh`,
    19,000 calls for the two hotels); by default the final sync reads those of the run's
    classes and every open folio (the sweep made due at once): a folio closed in the
    warehouse is final, and the other reservations' folios were read on the first daily sync
    and whenever they changed since (docs/operations.md, "The demo's time")."""
    publish_daily: bool = False
    """Publish the read copy after each daily close run; by default the demo publishes once,
    with the marts, as nobody reads the copy before the demo ends."""
    end: date | None = None
    """The business date the demo ends on (default: today, so the data look current)."""
    hotels: tuple[DemoHotel, ...] = HOTELS
    progress: bool = True
    notebooks: Path = field(default=Path("notebooks"))
    rate_per_minute: int = UNLIMITED_RATE
    """The sandbox's limit per key and the client's (lifted by default; the spec's is 600)."""
    burst: int = UNLIMITED_RATE

    @property
    def demo_dir(self) -> Path:
        return self.data_dir / "demo"

    @property
    def sandbox_db(self) -> Path:
        return self.demo_dir / "sandbox.sqlite"

    @property
    def pos_incoming(self) -> Path:
        """Where the sandbox writes the POS ledger files (all hotels, as a POS would)."""
        return self.demo_dir / "pos-export"

    @property
    def pos_root(self) -> Path:
        """One folder per property, as the ingestion reads them."""
        return self.demo_dir / "pos"

    @property
    def properties_file(self) -> Path:
        return self.demo_dir / "properties.yaml"

    @property
    def events_file(self) -> Path:
        """The hotels' events (the simulator's, written by the simulation), where the marts
        look for them: beside the properties file (docs/calendar.md)."""
        return self.demo_dir / EVENTS_FILE_NAME

    @contextmanager
    def properties_in_use(self, base_url: str) -> Iterator[None]:
        """Write the hotels to the demo's properties file and make it the process's while the
        block runs, so the Dagster definitions have one partition per hotel (they read the
        file when first imported: the demo runs in a process of its own)."""
        entries = [h.entry(base_url, self.pos_root, self.rate_per_minute, self.burst)
                   for h in self.hotels]
        self.properties_file.write_text(yaml.safe_dump({"properties": entries}),
                                        encoding="utf-8")
        saved = dict(os.environ)
        os.environ[PROPERTIES_FILE_ENV] = str(self.properties_file)
        os.environ.pop(EVENTS_FILE_ENV, None)  # the demo hotels' events, beside it
        for hotel in self.hotels:
            os.environ.setdefault(hotel.key_env, hotel.default_key)
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)

    @property
    def marker(self) -> Path:
        """Names the warehouse the demo made: only that file is ever deleted by a rerun."""
        return self.demo_dir / "warehouse-made-by-demo"

    def start(self) -> date:
        end = self.end or date.today()
        return end - timedelta(days=self.days + self.daily_syncs)


def start_clean(config: DemoConfig) -> None:
    """Remove what an earlier demo left (data/demo/ and the warehouse it made).

    A warehouse the demo did not make (say, one `pmsw sync` filled from a real PMS) is never
    deleted: the demo stops and says so."""
    warehouse = config.warehouse.resolve()
    made_by_demo = (config.marker.is_file()
                    and config.marker.read_text(encoding="utf-8").strip() == str(warehouse))
    if warehouse.exists() and not made_by_demo:
        raise DemoError(f"{config.warehouse} exists and was not made by the demo: move it "
                        "away, or pass --warehouse with another file")
    for path in (warehouse, warehouse.with_name(warehouse.name + ".wal"),
                 *read_copy_files(warehouse)):
        path.unlink(missing_ok=True)
    if config.demo_dir.exists():
        shutil.rmtree(config.demo_dir)
    config.demo_dir.mkdir(parents=True)
    config.pos_incoming.mkdir()
    for hotel in config.hotels:
        (config.pos_root / hotel.code).mkdir(parents=True)
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    config.marker.write_text(f"{warehouse}\n", encoding="utf-8")

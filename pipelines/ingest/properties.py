"""Which PMS properties to sync: a properties file, or one property from the environment.

The file (YAML; `PMSW_PROPERTIES_FILE`, default `properties.yaml` in the working directory):

    properties:
      - code: rome                      # the partition key in Dagster, `pmsw sync --property`
        base_url: https://pms.example/api/v1
        api_key_env: PMS_KEY_ROME       # NAME of the environment variable holding the key
        pos_ledger_dir: data/pos/rome   # optional; default PMS_POS_LEDGER_DIR
        rate_per_minute: 600            # optional (spec, Limits)
        burst: 120                      # optional

Without a file: one property, code `default`, from `PMS_API_BASE_URL` and `PMS_API_KEY`.
Keys are read from the environment when a sync starts, never stored in the file or in code.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PROPERTIES_FILE_ENV = "PMSW_PROPERTIES_FILE"
DEFAULT_PROPERTIES_FILE = Path("properties.yaml")
BASE_URL_ENV = "PMS_API_BASE_URL"
API_KEY_ENV = "PMS_API_KEY"
POS_LEDGER_DIR_ENV = "PMS_POS_LEDGER_DIR"
DEFAULT_CODE = "default"
_CODE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class PropertyConfigError(ValueError):
    """The properties file, or the environment, does not say how to reach a property."""


@dataclass(frozen=True)
class Endpoint:
    """Where and how to call one property's API: resolved from the environment at run time."""

    code: str
    base_url: str
    api_key: str = field(repr=False)
    rate_per_minute: int = 600
    burst: int = 120
    pos_ledger_dir: Path | None = None


@dataclass(frozen=True)
class PropertyConfig:
    code: str
    base_url: str | None
    """None: read `base_url_env` when the sync starts."""
    api_key_env: str
    base_url_env: str | None = None
    pos_ledger_dir: str | None = None
    rate_per_minute: int = 600
    burst: int = 120

    def endpoint(self, environ: dict[str, str] | None = None) -> Endpoint:
        """The endpoint, with its key read from the environment now."""
        env = os.environ if environ is None else environ
        base_url = self.base_url or (env.get(self.base_url_env) if self.base_url_env else None)
        if not base_url:
            raise PropertyConfigError(
                f"property {self.code}: no base URL: set {self.base_url_env or 'base_url'}")
        key = env.get(self.api_key_env)
        if not key:
            raise PropertyConfigError(
                f"property {self.code}: no API key: set the environment variable "
                f"{self.api_key_env}")
        ledger = self.pos_ledger_dir or env.get(POS_LEDGER_DIR_ENV)
        return Endpoint(self.code, base_url, key, self.rate_per_minute, self.burst,
                        Path(ledger) if ledger else None)


def properties_file(environ: dict[str, str] | None = None) -> Path | None:
    """The properties file in use: `PMSW_PROPERTIES_FILE`, else `properties.yaml` if present."""
    env = os.environ if environ is None else environ
    named = env.get(PROPERTIES_FILE_ENV)
    if named:
        path = Path(named)
        if not path.is_file():
            raise PropertyConfigError(f"{PROPERTIES_FILE_ENV}={named}: no such file")
        return path
    return DEFAULT_PROPERTIES_FILE if DEFAULT_PROPERTIES_FILE.is_file() else None


def default_property() -> PropertyConfig:
    return PropertyConfig(code=DEFAULT_CODE, base_url=None, api_key_env=API_KEY_ENV,
                          base_url_env=BASE_URL_ENV)


def load_properties(path: Path | None = None) -> list[PropertyConfig]:
    """The properties of `path` (default: `properties_file()`), or the one default property."""
    path = path if path is not None else properties_file()
    if path is None:
        return [default_property()]
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise PropertyConfigError(f"{path}: not valid YAML: {exc}") from None
    entries = document.get("properties") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        raise PropertyConfigError(f"{path}: expected a non-empty list under 'properties'")
    found = [_parse(path, i, entry) for i, entry in enumerate(entries)]
    codes = [p.code for p in found]
    repeated = sorted({c for c in codes if codes.count(c) > 1})
    if repeated:
        raise PropertyConfigError(f"{path}: property code {repeated[0]} appears twice")
    return found


def _parse(path: Path, index: int, entry: Any) -> PropertyConfig:
    where = f"{path}: properties[{index}]"
    if not isinstance(entry, dict):
        raise PropertyConfigError(f"{where}: expected a mapping")
    unknown = sorted(set(entry) - {"code", "base_url", "api_key_env", "pos_ledger_dir",
                                   "rate_per_minute", "burst"})
    if unknown:
        raise PropertyConfigError(f"{where}: unknown field {unknown[0]}")
    code, base_url, key_env = entry.get("code"), entry.get("base_url"), entry.get("api_key_env")
    if not isinstance(code, str) or not _CODE.match(code):
        raise PropertyConfigError(f"{where}.code: letters, digits, - and _ (1-64)")
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
        raise PropertyConfigError(f"{where}.base_url: an http(s) URL ending in /v1")
    if not isinstance(key_env, str) or not _ENV_NAME.match(key_env):
        raise PropertyConfigError(
            f"{where}.api_key_env: the NAME of an environment variable (never the key)")
    rate, burst = entry.get("rate_per_minute", 600), entry.get("burst", 120)
    if not isinstance(rate, int) or rate < 1 or not isinstance(burst, int) or burst < 1:
        raise PropertyConfigError(f"{where}: rate_per_minute and burst are positive integers")
    ledger = entry.get("pos_ledger_dir")
    if ledger is not None and not isinstance(ledger, str):
        raise PropertyConfigError(f"{where}.pos_ledger_dir: a folder path")
    return PropertyConfig(code, base_url, key_env, None, ledger, rate, burst)


def find_property(properties: list[PropertyConfig], code: str) -> PropertyConfig:
    for prop in properties:
        if prop.code == code:
            return prop
    known = ", ".join(p.code for p in properties)
    raise PropertyConfigError(f"unknown property {code!r}: known {known}")

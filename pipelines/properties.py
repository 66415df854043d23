"""Which PMS properties to reach, and how: the one home of property settings, the one lookup
(`find_property`) and the one way to make a client of a property (`Endpoint.client`).

The properties file (YAML; `PMSW_PROPERTIES_FILE`, default `./properties.yaml`; its shape:
docs/ingestion.md, Properties) lists each property by its PMS code with its URL and the NAME
of the environment variable holding its key. Without a file: one property, code `default`,
from `PMS_API_BASE_URL` and `PMS_API_KEY`. Keys are read when an endpoint is made.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator

from pipelines.api import API_KEY_ENV, DEFAULT_BURST, DEFAULT_RATE_PER_MINUTE, PmsClient

PROPERTIES_FILE_ENV = "PMSW_PROPERTIES_FILE"
DEFAULT_PROPERTIES_FILE = Path("properties.yaml")
BASE_URL_ENV = "PMS_API_BASE_URL"
POS_LEDGER_DIR_ENV = "PMS_POS_LEDGER_DIR"
DEFAULT_CODE = "default"


class PropertyConfigError(ValueError):
    """The properties file, or the environment, does not say how to reach a property."""


@dataclass(frozen=True)
class Endpoint:
    """Where and how to call one property's API: resolved from the environment at run time."""

    code: str
    base_url: str
    api_key: str = field(repr=False)
    rate_per_minute: int = DEFAULT_RATE_PER_MINUTE
    burst: int = DEFAULT_BURST
    pos_ledger_dir: Path | None = None

    def client(self, **options: Any) -> PmsClient:
        """A client of this property's API (options: those of PmsClient, e.g. `retry`)."""
        return PmsClient(self.base_url, self.api_key, rate_per_minute=self.rate_per_minute,
                         burst=self.burst, **options)


class PropertyConfig(BaseModel):
    """One entry of the properties file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    base_url: Annotated[str, Field(pattern=r"^https?://")] | None
    """None only for the default property: PMS_API_BASE_URL, read when the endpoint is made."""
    api_key_env: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
    pos_ledger_dir: str | None = None
    rate_per_minute: PositiveInt = DEFAULT_RATE_PER_MINUTE
    burst: PositiveInt = DEFAULT_BURST

    def endpoint(self, environ: Mapping[str, str] | None = None) -> Endpoint:
        """The endpoint, with its key (and the default property's URL) read from the
        environment now."""
        env = os.environ if environ is None else environ
        base_url = self.base_url or env.get(BASE_URL_ENV)
        if not base_url:
            raise PropertyConfigError(f"property {self.code}: no base URL: set {BASE_URL_ENV}")
        key = env.get(self.api_key_env)
        if not key:
            raise PropertyConfigError(f"property {self.code}: no API key: set the environment "
                                      f"variable {self.api_key_env}")
        ledger = self.pos_ledger_dir or env.get(POS_LEDGER_DIR_ENV)
        return Endpoint(self.code, base_url, key, self.rate_per_minute, self.burst,
                        Path(ledger) if ledger else None)


class PropertiesFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    properties: Annotated[list[PropertyConfig], Field(min_length=1)]

    @field_validator("properties")
    @classmethod
    def _codes_once(cls, properties: list[PropertyConfig]) -> list[PropertyConfig]:
        codes = [p.code for p in properties]
        repeated = sorted({c for c in codes if codes.count(c) > 1})
        if repeated:
            raise ValueError(f"property code {repeated[0]} appears twice")
        return properties


def properties_file() -> Path | None:
    """The properties file in use: `PMSW_PROPERTIES_FILE`, else `properties.yaml` if present."""
    named = os.environ.get(PROPERTIES_FILE_ENV)
    if named:
        if not Path(named).is_file():
            raise PropertyConfigError(f"{PROPERTIES_FILE_ENV}={named}: no such file")
        return Path(named)
    return DEFAULT_PROPERTIES_FILE if DEFAULT_PROPERTIES_FILE.is_file() else None


def default_property() -> PropertyConfig:
    return PropertyConfig(code=DEFAULT_CODE, base_url=None, api_key_env=API_KEY_ENV)


def _one_line(exc: yaml.YAMLError) -> str:
    """A YAML error as one line: what is wrong and where (PyYAML's text spans lines)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = "" if mark is None else f" at line {mark.line + 1}, column {mark.column + 1}"
    return f"{problem}{where}"


def load_properties(path: Path | None = None) -> list[PropertyConfig]:
    """The properties of `path` (default: `properties_file()`), or the one default property.
    An invalid file raises PropertyConfigError naming the file and the key."""
    path = path if path is not None else properties_file()
    if path is None:
        return [default_property()]
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        return list(PropertiesFile.model_validate(document).properties)
    except UnicodeDecodeError as exc:
        raise PropertyConfigError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} "
                                  f"at offset {exc.start}): save it as UTF-8") from None
    except OSError as exc:
        raise PropertyConfigError(f"{path}: cannot be read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise PropertyConfigError(f"{path}: not valid YAML: {_one_line(exc)}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
        raise PropertyConfigError(f"{path}: {where.lstrip('.') or 'file'}: "
                                  f"{error['msg']}") from None


def find_property(properties: list[PropertyConfig], code: str | None) -> PropertyConfig:
    """The property of PMS code `code` (the only one when None). Without a properties file
    the default property answers for any code (its API tells which property it is)."""
    if code is None:
        if len(properties) == 1:
            return properties[0]
        raise PropertyConfigError("several properties in the properties file: give "
                                  "--property, one of " + ", ".join(p.code for p in properties))
    for prop in properties:
        if prop.code.lower() == code.lower():
            return prop
    if [p.code for p in properties] == [DEFAULT_CODE]:
        return properties[0]
    known = ", ".join(p.code for p in properties)
    raise PropertyConfigError(f"unknown property {code!r}: known {known}")

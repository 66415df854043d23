"""Debian's headless Chromium for the tests that load a page as a browser would (the Dagster
UI, the web app): installed by apt when missing and we are root (the CI's case)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def find_chromium() -> Path:
    """/usr/bin/chromium, installed by `apt-get install chromium` when missing."""
    if not CHROMIUM.exists():
        if os.geteuid() != 0:
            pytest.fail("/usr/bin/chromium is missing: `apt-get install -y chromium` as root")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600,
                       capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env,
                       timeout=900, capture_output=True)
    return CHROMIUM

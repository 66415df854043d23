"""`pmsw demo` (issue 2: `make demo` starts the sandbox and shows what it serves)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest


def pmsw() -> list[str]:
    script = Path(sys.executable).parent / "pmsw"
    if script.exists():
        return [str(script)]
    found = shutil.which("pmsw")
    if found is None:
        pytest.fail("the pmsw console script is not installed")
    return [found]


def test_demo_starts_the_sandbox_shows_it_and_stops_it() -> None:
    result = subprocess.run([*pmsw(), "demo", "--nights", "7"], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr + result.stdout
    out = result.stdout
    base_url = re.search(r"Sandbox PMS API v1 at (http://127\.0\.0\.1:\d+/v1)", out)
    assert base_url is not None, out
    assert "Hotel Aurelia Roma (ROMA01)" in out
    for code in ("STD", "SUP", "DLX", "JSU"):
        assert re.search(rf"^  {code}\s+.+\s\d+ rooms", out, re.M), code
    assert "DUS" not in out  # the virtual type is not listed
    assert re.search(r"^  BAR\s+Best Available Rate\s+daily\s+default$", out, re.M)
    assert "CORP" not in out  # contract plans are hidden
    rows = re.findall(r"^  (STD|SUP|DLX|JSU)((?:\s+-?\d+){7})$", out, re.M)
    assert len(rows) == 4, out  # availability: one row per type, 7 nights
    nights = re.findall(r"^  \w{3} \d{4}-\d{2}-\d{2}\s+(\d+\.\d{2}) EUR$", out, re.M)
    total = re.search(r"^  total\s+(\d+\.\d{2}) EUR$", out, re.M)
    assert len(nights) == 3
    assert total is not None
    assert sum(float(n) for n in nights) == pytest.approx(float(total.group(1)))
    assert out.rstrip().endswith("Sandbox stopped.")
    # The server was stopped: nothing answers on its port any more.
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{base_url.group(1)}/openapi.json", timeout=2)

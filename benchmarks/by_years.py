"""Run a benchmark once per size (history length, hotels), each in its own process (its peak RSS
its own, and one size's build does not weigh on the next)."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from benchmarks.machine import describe

REPO = Path(__file__).resolve().parents[1]
YEARS = (1, 2, 3)


def main_by_years(module: str, description: str, prefix: str,
                  one_size: Callable[[int], None]) -> None:
    """`--years N`: run `one_size(N)` here; without it print the machine, run `module` once per
    length in YEARS and print the lines of its output that start with `prefix: `."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--years", type=int, help="One size in this process.")
    args = parser.parse_args()
    if args.years is not None:
        one_size(args.years)
        return
    print(describe())
    line = re.compile(rf"^{re.escape(prefix)}: .*$", re.M)
    for years in YEARS:
        done = subprocess.run([sys.executable, "-m", module, "--years", str(years)], cwd=REPO,
                              capture_output=True, text=True, check=True)
        print("\n".join(line.findall(done.stdout)), flush=True)


def each_in_own_process(module: str, sizes: Iterable[tuple[int, int]]) -> None:
    """Run `module --hotels H --years Y` for each (H, Y) of `sizes`, each in its own process."""
    for hotels, years in sizes:
        subprocess.run([sys.executable, "-m", module, "--hotels", str(hotels), "--years",
                        str(years)], cwd=REPO, check=True)

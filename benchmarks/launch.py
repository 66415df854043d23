"""Run a command from a small process and tell its own peak memory.

    python benchmarks/launch.py LOG -- COMMAND [ARG...]

Prints the command's pid on the first line, then its exit code and its peak RSS in KiB
(`wait4`'s ru_maxrss) on the second; the command's output goes to LOG.

Why a launcher: Linux starts a child's peak RSS at the memory of the process it was spawned
from. `subprocess` spawns with vfork, and at exec the kernel records the high-water mark of the
spawning process's memory as the child's; with a real fork it is that process's resident
memory. A benchmark that simulated 40 hotels in its own process (about 400 MiB) saw every
`pmsw sync` it started report at least that, whatever the sync used (b921919:benchmarks/results.md,
"The peak RSS of a child counted its parent's"). This script imports nothing of the project:
the command starts from an interpreter of about 10 MiB.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: launch.py LOG -- COMMAND [ARG...]\n")
        return 2
    log, command = argv[0], argv[2:]
    with open(log, "ab") as out:
        pid = os.posix_spawn(command[0], command, dict(os.environ), file_actions=[
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, out.fileno(), 2)])
    print(pid, flush=True)
    _, status, usage = os.wait4(pid, 0)
    print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

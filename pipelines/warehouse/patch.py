"""Bring a read copy's spare generation up to the checkpointed warehouse file by writing only
the blocks that differ (pipelines.warehouse.publish; docs/operations.md, "Reading while
syncing").

    python -I -S patch.py SOURCE TARGET HEADER BLOCK

Run as a child process of the writer, from its path, on the standard library alone (it starts
in some 10 ms): the writer must not open its own file (closing any descriptor of it drops
DuckDB's POSIX lock), and the target's locks are taken where they cannot be lost either.
TARGET is compared with SOURCE piece by piece, the file's HEADER bytes first and then every
BLOCK bytes (DuckDB's header and blocks, so one changed block is one piece); a piece that
differs is written, TARGET is cut to SOURCE's length and fsynced. Prints the bytes written, the
pieces written and the pieces. Exit IN_USE, nothing written, when a reader may hold TARGET:

- a DuckDB reader holds a read lock (fcntl) on the file it opened read-only: a write lock
  that cannot be had means one holds it;
- a process that had two connections to the file and closed one has lost that lock while the
  other still reads (POSIX record locks go with any close), so the lock alone is not enough:
  a write lease is granted only when no other process has the file open at all (Linux
  `F_SETLEASE`; refused on a file system without leases, which counts as held).

The write lock is kept to the end, so a reader opening TARGET meanwhile (only one that
resolved the read copy's name two publishes ago can) is refused by DuckDB's lock rather than
read a half-written file. A SIGKILL at any point leaves TARGET unnamed by the read copy: the
next publish compares it whole again.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys

IN_USE = 3


def pieces(size: int, header: int, block: int) -> list[tuple[int, int]]:
    """(offset, length) of the header and of each block of a file of `size` bytes."""
    spans = [(0, min(header, size))] if size else []
    spans += [(offset, min(block, size - offset)) for offset in range(header, size, block)]
    return spans


def _free(fd: int) -> bool:
    """True when no other process holds the file open (module doc); keeps the write lock."""
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    except OSError:
        return False
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    return True


def patch(source: str, target: str, header: int, block: int) -> tuple[int, int, int] | None:
    """Write into `target` the pieces of `source` that differ; None when it is in use."""
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # a lease broken meanwhile must not kill us
    out = os.open(target, os.O_RDWR)
    try:
        if not _free(out):
            return None
        into = os.open(source, os.O_RDONLY)
        try:
            size = os.fstat(into).st_size
            written = changed = total = 0
            for offset, length in pieces(size, header, block):
                total += 1
                wanted = os.pread(into, length, offset)
                if os.pread(out, length, offset) != wanted:
                    os.pwrite(out, wanted, offset)
                    written, changed = written + length, changed + 1
        finally:
            os.close(into)
        if os.fstat(out).st_size != size:
            os.ftruncate(out, size)
        os.fsync(out)
    finally:
        os.close(out)
    return written, changed, total


def main() -> None:
    source, target, header, block = sys.argv[1:]
    done = patch(source, target, int(header), int(block))
    if done is None:
        sys.exit(IN_USE)
    print(*done)


if __name__ == "__main__":
    main()

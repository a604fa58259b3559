"""Measurements of ``tact-memory bench`` that need other processes or the disk itself.

- :func:`fdatasync_ms`: one ``fdatasync`` of a small temporary file on the bench's disk, the unit
  of the write targets.
- :func:`sync_calls`: ``fdatasync`` plus ``fsync`` calls of one operation, counted by running it
  in a child process under ``strace -f -c -e trace=fdatasync,fsync`` and subtracting a child that
  does the same set-up without the operation (Linux; None where ``strace`` is missing or fails).
  Neither child closes its connection, so a WAL checkpoint at close is not counted.
- :func:`scans_per_second`: total scans per second of 1, 2, 4 or 8 processes, each with its own
  :class:`~tact_memory.store.sqlite.MemoryStore` on the same file, or (``engine="fts5"``) its own
  connection to an FTS5 baseline file scanning the way :meth:`~tact_memory.cli.bench.Fts5Baseline.scan`
  does: the whole scan inside ``BEGIN IMMEDIATE`` at ``DELETE``/``EXTRA``, the lock-holding design
  the store's throughput is compared with.
- :class:`OtherWriter`: a second process that writes on request, to time the first scan after
  another process changed the corpus.
- :func:`cold_ratio`: a command's cold time over ``python -c pass``, with bytecode cached as an
  installed package has it (:func:`compiled_env`).
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

__all__ = ["OtherWriter", "cold_ratio", "compiled_env", "fdatasync_ms", "parse_strace_summary", "scans_per_second", "sync_calls"]


def fdatasync_ms(folder: Path, runs: int = 20, *, append: bool = False) -> float:
    """Median milliseconds of writing 4 KiB to a temporary file in ``folder`` and ``fdatasync``-ing it.

    The 4 KiB overwrite the same bytes each time, or with ``append`` go after the end, so each sync
    also records the file's new size, as the sync of a WAL commit that grows the WAL does.
    """
    seen = []
    fd, name = tempfile.mkstemp(dir=folder, prefix="sync-")
    try:
        for i in range(runs):
            os.pwrite(fd, os.urandom(4096), 4096 * i if append else 0)
            start = time.perf_counter()
            os.fdatasync(fd)
            seen.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        os.unlink(name)
    return round(statistics.median(seen) * 1000, 4)


def parse_strace_summary(text: str) -> int:
    """The number of ``fdatasync`` and ``fsync`` calls in a ``strace -c`` summary table."""
    calls = 0
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[-1] in ("fdatasync", "fsync") and fields[3].isdigit():
            calls += int(fields[3])
    return calls


# The child ends with os._exit and closes nothing: closing a WAL connection checkpoints, which
# would charge the one operation with syncs that a long-running process spreads over many.
_CHILD = """
import os, sys
from tact_memory.cli.bench_fts5 import Fts5Baseline
from tact_memory.store.sqlite import MemoryStore
path, op = sys.argv[1], sys.argv[2]
if op.startswith("fts5"):
    db = Fts5Baseline(path, wal=op.startswith("fts5-wal"))
    db.rank("deploy")
    if op.endswith(":scan"):
        db.scan("deploy release billing-api")
else:
    store = MemoryStore(path)
    store.scan("deploy")
    key = store.list_records(order="id")[0].key
    if op == "scan":
        store.scan("deploy release billing-api")
    elif op == "read":
        store.read([1, 2, 3])
    elif op == "put":
        store.put("a short new record about the release calendar")
    elif op == "replace":
        store.put("a short revision about the release calendar", replace=key)
    elif op == "delete":
        store.delete(key)
os._exit(0)
"""


def _strace_count(path: Path, op: str) -> int | None:
    out = path.with_suffix(".strace")
    done = subprocess.run(
        ["strace", "-f", "-c", "-e", "trace=fdatasync,fsync", "-o", str(out), sys.executable, "-c", _CHILD, str(path), op],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0 or not out.exists():
        return None
    return parse_strace_summary(out.read_text(encoding="utf-8"))


def sync_calls(store_file: Path, fts_files: dict[str, Path], folder: Path) -> dict[str, int] | None:
    """Sync calls per operation (see the module docstring); None when ``strace`` is not usable.

    ``fts_files`` maps ``"fts5-wal"`` and ``"fts5-extra"`` to FTS5 baseline files. Each count runs
    on a fresh copy, so the originals are not changed.
    """
    if shutil.which("strace") is None:
        return None

    def count(source: Path, op: str) -> int | None:
        copy = folder / f"strace-{op.replace(':', '-')}.sqlite3"
        shutil.copyfile(source, copy)
        try:
            return _strace_count(copy, op)
        finally:
            for leftover in folder.glob(copy.name + "*"):
                leftover.unlink()
            copy.with_suffix(".strace").unlink(missing_ok=True)

    result: dict[str, int] = {}
    base = count(store_file, "none")
    if base is None:
        return None
    for op in ("scan", "read", "put", "replace", "delete"):
        n = count(store_file, op)
        if n is None:
            return None
        result[op] = n - base
    for name, source in fts_files.items():
        before, after = count(source, f"{name}:none"), count(source, f"{name}:scan")
        if before is None or after is None:
            return None
        result[f"{name} scan"] = after - before
    return result


def _context() -> multiprocessing.context.SpawnContext:
    return multiprocessing.get_context("spawn")


def _scanner(path: str, engine: str, queries: Sequence[str], barrier: Any, seconds: float, results: Any) -> None:
    """One process: warm its own store, wait for the others, scan for ``seconds``; report counts."""
    import sqlite3

    from .. import errors
    from ..store.sqlite import MemoryStore
    from .bench_fts5 import Fts5Baseline

    scan: Any
    if engine == "fts5":
        baseline = Fts5Baseline(path, wal=False)
        scan, close = baseline.scan, baseline.conn.close
    else:
        store = MemoryStore(path)
        scan, close = store.scan, store.close
    scan(queries[0])
    barrier.wait()
    done = failed = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        try:
            scan(queries[done % len(queries)])
            done += 1
        except (errors.StoreUnavailable, sqlite3.OperationalError):  # the lock stayed busy
            failed += 1
    close()
    results.put((done, failed))


def scans_per_second(
    path: Path, queries: Sequence[str], processes: int, seconds: float, *, engine: str = "store"
) -> dict[str, float]:
    """``{"scans_per_s", "busy"}``: total scans per second of ``processes`` processes on one file
    (busy: scans that gave up waiting for the lock). ``engine``: ``"store"`` or ``"fts5"``."""
    ctx = _context()
    barrier = ctx.Barrier(processes + 1)
    results = ctx.Queue()
    workers = [
        ctx.Process(target=_scanner, args=(str(path), engine, list(queries), barrier, seconds, results)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    barrier.wait()
    counts = [results.get(timeout=60 + seconds) for _ in workers]
    for worker in workers:
        worker.join()
    return {"scans_per_s": round(sum(c[0] for c in counts) / seconds, 1), "busy": sum(c[1] for c in counts)}


def _writer(path: str, pipe: Connection) -> None:
    """The other process: on each text, put it; on each ``None``, delete what it put last; stop on ``""``."""
    from ..store.sqlite import MemoryStore

    store = MemoryStore(path)
    last = None
    while True:
        text = pipe.recv()
        if text == "":
            break
        if text is None and last is not None:
            store.delete(last)
            last = None
        elif text is not None:
            last = store.put(text).memory.key
        pipe.send(True)
    store.close()
    pipe.send(True)


class OtherWriter:
    """A second process writing to the same store file, one request at a time."""

    def __init__(self, path: Path) -> None:
        ctx = _context()
        self._pipe, theirs = ctx.Pipe()
        self._process = ctx.Process(target=_writer, args=(str(path), theirs))
        self._process.start()

    def put(self, text: str) -> None:
        """Put ``text`` and wait until it is committed."""
        self._pipe.send(text)
        self._pipe.recv()

    def delete_last(self) -> None:
        """Delete what the last :meth:`put` added and wait."""
        self._pipe.send(None)
        self._pipe.recv()

    def close(self) -> None:
        """Stop the process."""
        self._pipe.send("")
        self._pipe.recv()
        self._process.join()


def compiled_env(cache: Path) -> dict[str, str]:
    """The environment to time a cold process in as an installed package runs: with its bytecode
    cached, here under ``cache`` (``PYTHONPYCACHEPREFIX``), whatever ``PYTHONDONTWRITEBYTECODE``
    says and however stale the source tree's own ``__pycache__`` is. A first run fills the cache."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def cold_ratio(argv: Sequence[str], runs: int, *, data: bytes = b"", env: dict[str, str] | None = None) -> float:
    """Median cold wall time of ``argv`` over the median of ``python -c pass``, both run in ``env``
    (see :func:`compiled_env`) after one run each that is not timed."""

    def once(command: Sequence[str]) -> float:
        start = time.perf_counter()
        subprocess.run(list(command), input=data, check=True, capture_output=True, env=env)
        return time.perf_counter() - start

    bare_argv = [sys.executable, "-c", "pass"]
    once(argv)  # the bytecode cache, the page cache, and a first prompt's side effects
    once(bare_argv)
    # In turns, so that a machine that speeds up or slows down meanwhile weighs on both alike.
    pairs = [(once(bare_argv), once(argv)) for _ in range(runs)]
    return round(statistics.median(m for _, m in pairs) / statistics.median(b for b, _ in pairs), 2)

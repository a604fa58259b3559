"""The bounds probe: what memory does at each of its hard bounds.

The specification asks the evaluation to measure failure behaviour at every bound. The scenarios
never come near one (a few records each), so :func:`probe_bounds` reaches each on purpose, through
the store's own API and a real SQLite file in a temporary folder: it fills a store to the bound,
attempts the one operation that would cross it, and records the error code it got, whether anything
changed (live rows, content bytes, and the main file's size and bytes, read with the store closed so
that nothing waits in a WAL), and how long the refusal took. It then deletes a record at the bound,
since delete must always work.

The bounds are the shipped ones (:data:`~tact_memory.limits.DEFAULT_LIMITS`): 1,024 bytes a record,
512 live rows, 262,144 bytes of content, a 4 MiB file. The file bound sits above what the other
bounds let a store hold, so that probe alone lifts the row and content bounds to reach it, with
about 1,200 records of 1,024 bytes; it is the slowest step, a second or two. Records are written in batches with
:meth:`~tact_memory.store.sqlite.MemoryStore.put_many`, graduated (not on probation), so that no
pruning makes room and the bound is met as it stands.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import MemoryOperationError
from ..limits import DEFAULT_LIMITS, Limits
from ..store.sqlite import MemoryStore
from ..values import replace
from .verdict import Check

__all__ = ["PROBED", "BoundProbe", "check_bounds", "probe_bounds"]

_CLOCK_MS = 1_700_000_000_000
PROBED = ("record_bytes", "rows", "content_bytes", "file_bytes")
"""The bounds :func:`probe_bounds` reaches, in its order."""
_FILLER = "the probe fills the store with plain words so that no screening rule refuses them "


@dataclass(frozen=True)
class BoundProbe:
    """One bound, reached and pushed against."""

    bound: str
    """The :class:`~tact_memory.limits.Limits` field: ``record_bytes``, ``rows``, ``content_bytes``
    or ``file_bytes``."""
    limit: int
    """Its value."""
    attempt: str
    """The operation that would cross it."""
    error: str | None
    """The error code it got (``None``: it was accepted, which is a defect)."""
    unchanged: bool
    """Rows, content bytes and the main file are the same before and after the attempt."""
    before: dict[str, Any]
    after: dict[str, Any]
    latency_ms: float
    """How long the refused operation took."""
    delete_works: bool
    """A delete at the bound succeeded."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object."""
        return {
            "bound": self.bound, "limit": self.limit, "attempt": self.attempt, "error": self.error,
            "unchanged": self.unchanged, "before": self.before, "after": self.after,
            "latency_ms": round(self.latency_ms, 3), "delete_works": self.delete_works,
        }  # fmt: skip


def _clock() -> int:
    """A fixed time: nothing the probe does depends on probation."""
    return _CLOCK_MS


def _record(number: int, size: int) -> str:
    """A distinct record of exactly ``size`` UTF-8 bytes (ASCII), numbered so that no two are duplicates."""
    text = (f"Probe record {number:06d}: " + _FILLER * (size // len(_FILLER) + 1))[:size]
    return text[:-1] + "."  # ends in a word or a stop, never in white space


def _state(store: MemoryStore) -> dict[str, Any]:
    """Rows, content bytes and the main file (size and digest), with the store closed first so the
    file holds every committed page."""
    store.close()
    status = store.status()  # opens, reads and closes again: the WAL is folded back in
    data = store.path.read_bytes() if store.path.exists() else b""
    return {"rows": status.rows, "content_bytes": status.content_bytes, "file_bytes": status.file_bytes,
            "file_sha256": hashlib.sha256(data).hexdigest()[:16]}  # fmt: skip


def _fill(store: MemoryStore, count: int, size: int, *, start: int = 0) -> int:
    """Add ``count`` records of ``size`` bytes in batches; returns the next record number."""
    batch = 256
    for first in range(start, start + count, batch):
        store.put_many([_record(n, size) for n in range(first, min(first + batch, start + count))])
    return start + count


def _fill_file(store: MemoryStore, size: int) -> int:
    """Add records of ``size`` bytes until the file bound refuses one; returns the next record number.

    Batches shrink (256, 16, then 1) as the file nears its bound, so the last put that fits is a
    single record. Records of the largest size fill the file fastest: screening and tokenizing cost
    by the byte, and smaller records need more content bytes per byte of file."""
    number = 0
    for batch in (256, 16, 1):
        while True:
            try:
                store.put_many([_record(n, size) for n in range(number, number + batch)])
            except MemoryOperationError as exc:
                if exc.code != "database_capacity":
                    raise
                break
            number += batch
    return number


def _push(store: MemoryStore, bound: str, limit: int, attempt: str, operation: Callable[[], object]) -> BoundProbe:
    before = _state(store)
    store.list_records(order="id")  # open the store, so the timing is the refusal's, not the open's
    error: str | None = None
    begin = time.perf_counter()
    try:
        operation()
    except MemoryOperationError as exc:
        error = exc.code
    elapsed = (time.perf_counter() - begin) * 1000
    after = _state(store)
    first = store.list_records(order="id")
    deleted = False
    if first:
        store.delete(first[0].key)
        deleted = True
    return BoundProbe(bound, limit, attempt, error, before == after, before, after, elapsed, deleted)


def probe_bounds(limits: Limits = DEFAULT_LIMITS) -> list[BoundProbe]:
    """Reach each bound of ``limits`` in a fresh temporary store and try to cross it.

    Returns:
        One :class:`BoundProbe` for each of ``record_bytes``, ``rows``, ``content_bytes`` and
        ``file_bytes``, in that order.
    """
    probes = []
    size = limits.record_bytes
    with tempfile.TemporaryDirectory(prefix="tact-eval-bounds-") as folder:
        root = Path(folder)

        with MemoryStore(root / "record.sqlite3", limits=limits, clock=_clock) as store:
            _fill(store, 1, 64)
            probes.append(_push(store, "record_bytes", size, f"put of {size + 1} bytes",
                                lambda: store.put(_record(1, size + 1), probation=False)))  # fmt: skip

        small = max(1, min(size, limits.content_bytes // (limits.rows + 1) or 1))
        with MemoryStore(root / "rows.sqlite3", limits=limits, clock=_clock) as store:
            after = _fill(store, limits.rows, small)
            probes.append(_push(store, "rows", limits.rows, f"put of row {limits.rows + 1}",
                                lambda: store.put(_record(after, small), probation=False)))  # fmt: skip

        full = limits.content_bytes // size
        with MemoryStore(root / "content.sqlite3", limits=limits, clock=_clock) as store:
            after = _fill(store, full, size)
            rest = limits.content_bytes - full * size
            if rest:
                after = _fill(store, 1, rest, start=after)
            probes.append(_push(store, "content_bytes", limits.content_bytes, "put of 64 bytes more",
                                lambda: store.put(_record(after, 64), probation=False)))  # fmt: skip

        roomy = replace(limits, rows=10**6, content_bytes=10**12)
        with MemoryStore(root / "file.sqlite3", limits=roomy, clock=_clock) as store:
            after = _fill_file(store, size)
            probes.append(_push(store, "file_bytes", limits.file_bytes, f"put of {size} bytes into a full file",
                                lambda: store.put(_record(after, size), probation=False)))  # fmt: skip
    return probes


def check_bounds(probes: tuple[BoundProbe, ...] | list[BoundProbe]) -> Check:
    """The verdict's check of the probes: a bound that let its crossing through, changed anything
    when it refused it, or kept a delete from working is a defect, and the check fails; a bound not
    probed (a run told not to probe) was not measured, and the check is inconclusive."""
    names = [probe.bound for probe in probes]
    broken = [
        f"{probe.bound} " + ("accepted its crossing" if probe.error is None else "changed the store when it refused"
                             if not probe.unchanged else "kept a delete from working")
        for probe in probes
        if probe.error is None or not probe.unchanged or not probe.delete_works
    ]  # fmt: skip
    if broken:
        return Check("bounds", "fail", names, list(PROBED), "; ".join(broken))
    missing = [name for name in PROBED if name not in names]
    if missing:
        return Check("bounds", "inconclusive", names, list(PROBED), f"bounds not probed: {', '.join(missing)}")
    return Check("bounds", "pass", names, list(PROBED),
                 "each hard bound refused its crossing and changed nothing, and a delete worked at each")  # fmt: skip

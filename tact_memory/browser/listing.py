"""One read of the store for the list: the records in order and which of them agents cannot see.

:func:`fetch` runs on the browser's store thread (:mod:`.calls`). A read usually does not wait in
WAL mode, but it can: a file an older version left in rollback-journal mode is unreadable while
another process commits or holds an exclusive lock, a process may hold the file in exclusive
locking mode, and a team store answers over the network. The store also serves one call at a
time, so a read waits behind a delete that waits for the write lock. The screen keeps drawing
meanwhile. Reading changes no telemetry (invariant I10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..backend import MemoryBackend, RecordOrder
from ..errors import TactMemoryError
from ..records import MemoryRecord, RecordKey

__all__ = ["Listing", "fetch"]


@dataclass(frozen=True)
class Listing:
    """What one read found: the records, why each hidden one is hidden, or the error instead."""

    records: tuple[MemoryRecord, ...] = ()
    hidden: Mapping[RecordKey, str] = field(default_factory=dict)
    """The reason (a secret kind, or imitation of the checkpoint) for each record agents cannot see."""
    error: TactMemoryError | None = None


def fetch(store: MemoryBackend, order: RecordOrder) -> Listing:
    """Every live record of ``store`` in ``order``, with the hidden ones named; errors are kept."""
    try:
        records = tuple(store.list_records(order=order))
        hidden = {r.key: kind for r in records if (kind := store.hidden_reason(r)) is not None}
    except TactMemoryError as exc:
        return Listing(error=exc)
    return Listing(records, hidden)

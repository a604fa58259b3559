"""Runtime records the store hands out, and the orders a listing of them can take.

These are frozen values (:class:`~tact_memory.values.Value`: equality, hashing, ``repr`` and
immutability as a frozen dataclass has them, without importing :mod:`dataclasses` into every tool
process): they are produced by the store, never parsed from untrusted input, so they need no
validation. The tool writes them as JSON, and publishes their schema, from
these declarations (:mod:`tact_memory.tool.results`, :mod:`tact_memory.tool.schemas`), which keeps
one definition of a record for Python callers and for the JSON a model reads.

The protocol every backend speaks, :class:`~tact_memory.backend.MemoryBackend`, is in
:mod:`tact_memory.backend`, with the order names its listing takes: this module imports no
:mod:`typing`, since every ``tact-memory tool`` process imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from .limits import DEFAULT_LIMITS, Limits
from .values import OrderedValue, Value

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from .backend import RecordOrder

__all__ = [
    "BROWSABLE_ORDERS",
    "ORDERS",
    "Candidate",
    "MemoryRecord",
    "PutResult",
    "RecordKey",
    "StoreStatus",
    "matches",
    "order_key",
]

ORDERS: Mapping[RecordOrder, tuple[tuple[str, bool], ...]] = MappingProxyType(
    {
        "most_useful": (("read_count", True), ("updated_at_ms", True), ("id", True)),
        "newest": (("updated_at_ms", True), ("id", True)),
        "oldest": (("updated_at_ms", False), ("id", False)),
        "least_useful": (("read_count", False), ("updated_at_ms", False), ("id", False)),
        "id": (("id", False),),
    }
)
"""Every listing order by name, as its sort keys: ``(field, descending)``, most significant first.

This is the one definition of the orders: a store sorts by it (the SQL stores build their
``ORDER BY`` from it, :data:`tact_memory.store.policy.ORDER_BY`; their column names are these field
names) and the faces offer its names.
``id`` is the id of :attr:`MemoryRecord.key`; every order ends with it, so no two records tie.
"""

BROWSABLE_ORDERS: tuple[RecordOrder, ...] = ("most_useful", "newest", "oldest", "least_useful")
"""The orders a person pages through, the first the default; ``id`` is the order of an export."""


def order_key(order: RecordOrder) -> Callable[[MemoryRecord], tuple[int, ...]]:
    """A ``sorted`` key that puts records in ``order``, for a backend that sorts in Python.

    Raises:
        KeyError: ``order`` is not one of :data:`ORDERS`.
    """
    keys = ORDERS[order]

    def key(record: MemoryRecord) -> tuple[int, ...]:
        values = (record.key.id if name == "id" else getattr(record, name) for name, _ in keys)
        return tuple(-value if descending else value for value, (_, descending) in zip(values, keys))

    return key


class RecordKey(OrderedValue, uncompared=("namespace",), omit_when_none=("namespace",)):
    """The identity of one version of a record; ordered by id, then version."""

    __slots__ = ("id", "version", "namespace")

    id: int
    """Stable logical id; never reused, even after the record is deleted."""
    version: int
    """Starts at 1 and grows by one with every replacement."""
    namespace: str | None
    """The author's namespace on a team store; ``None`` for local stores, whose keys keep their shape.

    Ids come from one sequence across namespaces, so an id alone still names one record and
    ``(id, version)`` one version of it: the namespace says who wrote it and who may change it, and
    takes no part in equality, hashing or order. It is serialised only when set.
    """

    def __init__(self, id: int, version: int, namespace: str | None = None) -> None:
        self._fill(id, version, namespace)


class MemoryRecord(Value):
    """A complete record: content, times and telemetry."""

    __slots__ = (
        "key", "content", "created_at_ms", "updated_at_ms", "scan_count", "last_scanned_at_ms",
        "read_count", "last_read_at_ms", "probation_until_ms",
    )  # fmt: skip

    key: RecordKey
    """Id and current version."""
    content: str
    """The stored conclusion, at most 1,024 UTF-8 bytes."""
    created_at_ms: int
    """When version 1 was written (Unix milliseconds)."""
    updated_at_ms: int
    """When the current version was written."""
    scan_count: int
    """How many scans returned the current version as a candidate (a replacement starts at 0)."""
    last_scanned_at_ms: int | None
    """When a scan last returned the current version."""
    read_count: int
    """How many deliberate reads returned the current version's full content (a replacement starts at 0)."""
    last_read_at_ms: int | None
    """When the current version was last read."""
    probation_until_ms: int | None
    """Until when the current version is on unread probation; ``None`` once read."""

    def __init__(
        self,
        key: RecordKey,
        content: str,
        created_at_ms: int,
        updated_at_ms: int,
        scan_count: int,
        last_scanned_at_ms: int | None,
        read_count: int,
        last_read_at_ms: int | None,
        probation_until_ms: int | None,
    ) -> None:
        self._fill(
            key, content, created_at_ms, updated_at_ms, scan_count, last_scanned_at_ms,
            read_count, last_read_at_ms, probation_until_ms,
        )  # fmt: skip


def matches(record: MemoryRecord, query: str) -> bool:
    """Whether ``record`` passes a person's filter: every word of ``query``, in any order.

    A word passes if the content contains it, ignoring case, or if it is the record's id, written
    ``12`` or ``#12``. An empty query keeps every record. The browser's filter line and
    ``tact-memory list --grep`` both use this one rule.
    """
    content = record.content.casefold()
    return all(word in content or word.removeprefix("#") == str(record.key.id) for word in query.casefold().split())


class Candidate(Value):
    """One compact card returned by a scan."""

    __slots__ = ("key", "score", "preview")

    key: RecordKey
    """Id and version, enough to read, replace or delete it."""
    score: float
    """BM25 score, rounded to four decimals."""
    preview: str
    """The content if it is at most 64 bytes, otherwise a UTF-8-safe prefix of at most 64 bytes."""

    def __init__(self, key: RecordKey, score: float, preview: str) -> None:
        self._fill(key, score, preview)


class PutResult(Value):
    """What a successful put wrote."""

    __slots__ = ("memory", "replaced")

    memory: MemoryRecord
    """The record as stored."""
    replaced: bool
    """True when an existing record was replaced (its version grew)."""

    def __init__(self, memory: MemoryRecord, replaced: bool) -> None:
        self._fill(memory, replaced)


class StoreStatus(Value):
    """Usage against each bound, and the state of the database file. Reading it changes nothing."""

    __slots__ = (
        "path", "exists", "rows", "content_bytes", "file_bytes", "sidecar_bytes", "on_probation",
        "expired_probation", "hidden", "problem", "detail", "limits",
    )  # fmt: skip

    path: Path
    """The database path."""
    exists: bool
    """Whether the main file exists yet (it is created by the first operation)."""
    rows: int
    """Live rows."""
    content_bytes: int
    """UTF-8 bytes of content across live rows."""
    file_bytes: int
    """Size of the main database file."""
    sidecar_bytes: int
    """Size of any ``-journal``, ``-wal`` or ``-shm`` files beside it (not covered by the file bound)."""
    on_probation: int
    """Rows whose current version has not been read yet."""
    expired_probation: int
    """Unread rows past their probation deadline: the first to be pruned when space is needed."""
    hidden: int
    """Rows that match a secret pattern or imitate the checkpoint; hidden from scan and read, still deletable."""
    problem: str | None
    """A degraded state by name (``not_a_database``, ``newer_schema``, ``permission_denied`` …)."""
    detail: str | None
    """A sentence explaining :attr:`problem`."""
    limits: Limits
    """The bounds in force."""

    def __init__(
        self,
        path: Path,
        exists: bool,
        rows: int = 0,
        content_bytes: int = 0,
        file_bytes: int = 0,
        sidecar_bytes: int = 0,
        on_probation: int = 0,
        expired_probation: int = 0,
        hidden: int = 0,
        problem: str | None = None,
        detail: str | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self._fill(
            path, exists, rows, content_bytes, file_bytes, sidecar_bytes, on_probation,
            expired_probation, hidden, problem, detail, limits,
        )  # fmt: skip

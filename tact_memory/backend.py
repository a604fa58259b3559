"""The protocol every memory backend speaks, and the order names its listing takes.

:class:`MemoryBackend` is the seam between the tool (and the browser, the command line and the
adapters) and storage. The SQLite :class:`~tact_memory.store.sqlite.MemoryStore` implements it, as
do the team service's PostgreSQL store and its HTTP client; any store that passes
``tests/backend_contract`` can stand behind the same methods, raising the same
:mod:`tact_memory.errors`.

It lives apart from the records (:mod:`tact_memory.records`) because a protocol needs
:mod:`typing`, which a cold ``tact-memory tool`` process never imports: the modules on its path
name :class:`MemoryBackend` and :data:`RecordOrder` in annotations only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, Protocol, runtime_checkable

from .limits import Limits
from .records import Candidate, MemoryRecord, PutResult, RecordKey, StoreStatus

__all__ = ["MemoryBackend", "RecordOrder"]

RecordOrder = Literal["most_useful", "newest", "oldest", "least_useful", "id"]
"""Orders a listing can use; the keys of :data:`~tact_memory.records.ORDERS`."""


@runtime_checkable
class MemoryBackend(Protocol):
    """Semantic operations on one corpus; failures raise :mod:`tact_memory.errors` exceptions.

    The tool, the browser, the CLI, the benchmark and every adapter use only these members, so
    any store that implements them (and passes ``tests/backend_contract``) can stand in for the
    local SQLite store. Model-facing operations (scan, read, put, delete) update telemetry as the
    specification says; the people's views (get, list_records, export, status, hidden_reason)
    never change anything.
    """

    @property
    def limits(self) -> Limits:
        """The bounds this store enforces."""
        ...

    def scan(self, query: str, *, limit: int = 5) -> list[Candidate]:
        """Rank visible records against ``query``; bump scan telemetry of the returned ones only."""
        ...

    def read(self, ids: Sequence[int]) -> list[MemoryRecord]:
        """Return full visible records for the ids that exist (first-seen order); bump read telemetry."""
        ...

    def put(self, content: str, *, replace: RecordKey | None = None, probation: bool = True) -> PutResult:
        """Add a record, or replace the one ``replace`` names if it is still at that version.

        ``probation`` false marks a version a person wrote: it starts graduated, never pruned.
        """
        ...

    def delete(self, key: RecordKey) -> None:
        """Remove the record if it is still at ``key.version``; works at every bound."""
        ...

    def get(self, id_: int) -> MemoryRecord | None:
        """One record by id, hidden or not, telemetry untouched; ``None`` if there is none."""
        ...

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        """Every live record, hidden ones included, telemetry untouched (the browser and ``list``)."""
        ...

    def export(self) -> Iterator[MemoryRecord]:
        """Every live record in id order, telemetry untouched (``export``)."""
        ...

    def hidden_reason(self, record: MemoryRecord) -> str | None:
        """Why a stored record is withheld from scan and read (a secret kind, or control text), or ``None``."""
        ...

    def status(self) -> StoreStatus:
        """Usage and health, without creating or changing anything."""
        ...

    def close(self) -> None:
        """Release connections; the next operation opens them again."""
        ...

"""The corpus index cache: what the store knows about every live row without asking the file.

The store ranks in process (:mod:`tact_memory.retrieval.bm25`), so each process keeps an index of
the corpus and must notice when any process changed it. The file's ``meta.generation`` grows with
every content change (put, replace, delete, prune) and not with telemetry; :class:`CorpusIndex`
remembers the generation it was built from, so scans reuse it until the corpus changes, and a
refresh reads only ids and versions and fetches the content of the versions it has not seen.

That works because a version is immutable: ids come from ``AUTOINCREMENT`` and are never reused, and
every replacement raises the version, so ``(id, version)`` names one content for good. Per version
the cache keeps what the store decides from content, and nothing of the content itself:

- its UTF-8 size (the capacity bounds),
- a 128-bit digest of its duplicate key (:func:`~tact_memory.store.policy.duplicate_key`), so a put
  finds a duplicate without folding the corpus again,
- its visibility verdict (:func:`~tact_memory.store.policy.hidden_reason`); hidden versions are
  left out of the BM25 index, so a scan can never rank them.

The only copy of the corpus in memory is the BM25 index's own term counts; previews and records are
read from the file when they are served. A refresh that fails half way forgets everything, so the
next one rebuilds from the file. Not thread-safe: the store calls it under its lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..records import RecordKey
from .policy import content_size, duplicate_key, hidden_reason

if TYPE_CHECKING:
    from ..retrieval.bm25 import Hit, Index

__all__ = ["CorpusIndex"]

Fetch = Callable[[Sequence[int]], Iterable[tuple[int, str]]]
"""Reads ``(id, content)`` of the given ids from the store, in the caller's transaction."""


class _Version(NamedTuple):
    version: int
    size: int
    duplicate: bytes


def _digest(content: str) -> bytes:
    from hashlib import (
        blake2b,  # on first refresh only: keeps `import tact_memory` light
    )

    return blake2b(duplicate_key(content).encode("utf-8"), digest_size=16).digest()


class CorpusIndex:
    """The live rows of one corpus by id, their per-version verdicts, and the BM25 index over them."""

    def __init__(self) -> None:
        self._index: Index | None = None
        self._generation: int | None = None
        self._rows: dict[int, _Version] = {}
        # (id, version) -> hidden reason or None; a version's content never changes, so this is exact.
        self._verdicts: dict[tuple[int, int], str | None] = {}

    def _forget(self) -> None:
        self._index = None
        self._generation = None
        self._rows = {}
        self._verdicts = {}

    @property
    def index(self) -> Index:
        """The BM25 index over the visible live rows (empty until the first refresh)."""
        if self._index is None:
            from ..retrieval.bm25 import Index

            self._index = Index()
        return self._index

    def invalidate(self) -> None:
        """Forget the generation, so the next refresh compares every id and version with the file.

        Called when a transaction rolls back: the file's generation went back with it and a later
        commit could reach the same number with a different corpus.
        """
        self._generation = None

    def refresh(self, generation: int, versions: Iterable[tuple[int, int]], fetch: Fetch) -> None:
        """Bring the cache up to ``generation``, unless it is there already.

        Args:
            generation: The file's ``meta.generation``, read in the caller's transaction.
            versions: ``(id, version)`` of every live row (only read when the generation moved).
            fetch: Reads the content of the rows whose version the cache has not seen.
        """
        if generation == self._generation:
            return
        try:
            self._rebuild(dict(versions), fetch)
        except BaseException:
            self._forget()  # a half-applied refresh is never trusted
            raise
        self._generation = generation

    def _rebuild(self, versions: dict[int, int], fetch: Fetch) -> None:
        new = [id_ for id_, version in versions.items() if self.version_of(id_) != version]
        contents = dict(fetch(new)) if new else {}
        rows: dict[int, _Version] = {}
        for id_, version in versions.items():
            if id_ in contents:
                content = contents[id_]
                rows[id_] = _Version(version, content_size(content), _digest(content))
                self.verdict(id_, version, content)
            else:
                rows[id_] = self._rows[id_]
        self._rows = rows
        live = {(id_, row.version) for id_, row in rows.items()}
        self._verdicts = {key: kind for key, kind in self._verdicts.items() if key in live}
        # A version the index already holds is not tokenized again, so its content is not needed.
        self.index.sync(
            (id_, row.version, contents.get(id_, ""))
            for id_, row in rows.items()
            if self._verdicts[id_, row.version] is None
        )

    def verdict(self, id_: int, version: int, content: str) -> str | None:
        """Why this version is hidden from models, or ``None``; computed once per version."""
        key = (id_, version)
        if key not in self._verdicts:
            self._verdicts[key] = hidden_reason(content)
        return self._verdicts[key]

    def version_of(self, id_: int) -> int | None:
        """The current version of a live row, or ``None`` when there is no such row."""
        row = self._rows.get(id_)
        return None if row is None else row.version

    def key_of(self, id_: int) -> RecordKey:
        """The key of a live row at its current version."""
        return RecordKey(id_, self._rows[id_].version)

    def size_of(self, id_: int) -> int:
        """UTF-8 bytes of a live row's current content."""
        return self._rows[id_].size

    def visible(self, id_: int) -> bool:
        """Whether ``id_`` is a live row that models may see."""
        row = self._rows.get(id_)
        return row is not None and self._verdicts.get((id_, row.version)) is None

    def duplicate_of(self, content: str, *, besides: int | None = None) -> tuple[int, int] | None:
        """``(id, version)`` of the first live row, by id, saying the same as ``content``, if any.

        ``besides`` (the record being replaced) does not count.
        """
        digest = _digest(content)
        for id_, row in self._rows.items():
            if row.duplicate == digest and id_ != besides:
                return id_, row.version
        return None

    def search(self, query: str, *, limit: int) -> list[Hit]:
        """The best visible rows for ``query`` (see :meth:`~tact_memory.retrieval.bm25.Index.search`)."""
        return self.index.search(query, limit=limit)

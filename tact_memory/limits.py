"""The hard bounds of one memory corpus.

Every number here is a product constant from the specification. They are grouped in one frozen
value (:class:`~tact_memory.values.Value`) so a test (or a benchmark) can build a store with
smaller bounds and reach each limit in a few operations, while production code always uses
:data:`DEFAULT_LIMITS`.
"""

from __future__ import annotations

from .values import Value

__all__ = ["DEFAULT_LIMITS", "DEFAULT_RANKING", "PROBATION_MS", "Limits", "Ranking"]


PROBATION_MS = 7 * 24 * 60 * 60 * 1000
"""Seven days of unread probation for a newly model-written version, in milliseconds."""


class Limits(Value):
    """Bounds that apply to the single global corpus."""

    __slots__ = (
        "record_bytes", "rows", "content_bytes", "file_bytes", "page_size",
        "scan_results", "preview_bytes", "query_bytes", "probation_ms",
    )  # fmt: skip

    record_bytes: int
    """Largest content of one record, in UTF-8 bytes."""
    rows: int
    """Most live rows in the database."""
    content_bytes: int
    """Most UTF-8 bytes of content across all live rows."""
    file_bytes: int
    """Largest main database file; enforced by SQLite's ``max_page_count``."""
    page_size: int
    """SQLite page size used when the database is created."""
    scan_results: int
    """Most candidate cards one scan returns."""
    preview_bytes: int
    """Longest preview on a candidate card, in UTF-8 bytes."""
    query_bytes: int
    """Longest scan query, in UTF-8 bytes."""
    probation_ms: int
    """How long a new or replaced version stays on unread probation."""

    def __init__(
        self,
        record_bytes: int = 1024,
        rows: int = 512,
        content_bytes: int = 262_144,
        file_bytes: int = 4 * 1024 * 1024,
        page_size: int = 4096,
        scan_results: int = 5,
        preview_bytes: int = 64,
        query_bytes: int = 512,
        probation_ms: int = PROBATION_MS,
    ) -> None:
        self._fill(record_bytes, rows, content_bytes, file_bytes, page_size, scan_results, preview_bytes, query_bytes, probation_ms)

    @property
    def max_pages(self) -> int:
        """The ``max_page_count`` that keeps a new file (pages of :attr:`page_size`) within
        :attr:`file_bytes`; a store opening a file with other pages divides by their size."""
        return self.file_bytes // self.page_size


DEFAULT_LIMITS = Limits()
"""The bounds every real store uses."""


class Ranking(Value):
    """The ranking constants: standard BM25 (the values SQLite FTS5 documents) and the lexer's options."""

    __slots__ = ("k1", "b", "stop_words", "fold")

    k1: float
    """BM25 term-frequency saturation."""
    b: float
    """BM25 length normalisation, from 0 (none) to 1 (full)."""
    stop_words: bool
    """Common English words of a query count only once a content word has matched."""
    fold: bool
    """Fold English inflections (plural, -ed, -ing) in records and queries."""

    def __init__(self, k1: float = 1.2, b: float = 0.75, stop_words: bool = True, fold: bool = True) -> None:
        self._fill(k1, b, stop_words, fold)


DEFAULT_RANKING = Ranking()
"""The ranking every real store uses; the index's defaults and the evaluation read it."""

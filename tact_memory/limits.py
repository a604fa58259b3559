"""The hard bounds of one memory corpus.

Every number here is a product constant from the specification. They are grouped in one frozen
dataclass so a test (or a benchmark) can build a store with smaller bounds and reach each limit in
a few operations, while production code always uses :data:`DEFAULT_LIMITS`.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DEFAULT_LIMITS", "DEFAULT_RANKING", "PROBATION_MS", "Limits", "Ranking"]


class FrozenValue:
    """Base of the package's internal immutable values: a frozen dataclass's behaviour, built cheaply.

    Each ``@dataclass`` compiles its methods when its module is imported (about a millisecond a
    class), which every ``tact-memory tool`` process pays before it does anything. Internal value
    types therefore subclass this instead: they list their fields, in order, in ``__slots__``, and
    their typed ``__init__`` hands the values, in that order, to :meth:`_fill`. Equality, hashing, ``repr`` and copying
    then work from those fields as a frozen dataclass's do, and assigning an attribute raises
    :class:`dataclasses.FrozenInstanceError`. The public record types stay dataclasses.
    """

    __slots__: tuple[str, ...] = ()

    def _fill(self, *values: object) -> None:
        """Set every field, in ``__slots__`` order (``__init__`` calls it once)."""
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[FrozenValue], tuple[Any, ...]]:
        return self.__class__, self._values()


PROBATION_MS = 7 * 24 * 60 * 60 * 1000
"""Seven days of unread probation for a newly model-written version, in milliseconds."""


@dataclass(frozen=True)
class Limits:
    """Bounds that apply to the single global corpus."""

    record_bytes: int = 1024
    """Largest content of one record, in UTF-8 bytes."""
    rows: int = 512
    """Most live rows in the database."""
    content_bytes: int = 262_144
    """Most UTF-8 bytes of content across all live rows."""
    file_bytes: int = 4 * 1024 * 1024
    """Largest main database file; enforced by SQLite's ``max_page_count``."""
    page_size: int = 4096
    """SQLite page size used when the database is created."""
    scan_results: int = 5
    """Most candidate cards one scan returns."""
    preview_bytes: int = 64
    """Longest preview on a candidate card, in UTF-8 bytes."""
    query_bytes: int = 512
    """Longest scan query, in UTF-8 bytes."""
    probation_ms: int = PROBATION_MS
    """How long a new or replaced version stays on unread probation."""

    @property
    def max_pages(self) -> int:
        """The ``max_page_count`` that keeps the main file within :attr:`file_bytes`."""
        return self.file_bytes // self.page_size


DEFAULT_LIMITS = Limits()
"""The bounds every real store uses."""


@dataclass(frozen=True)
class Ranking:
    """The ranking constants: standard BM25 (the values SQLite FTS5 documents) and the lexer's options."""

    k1: float = 1.2
    """BM25 term-frequency saturation."""
    b: float = 0.75
    """BM25 length normalisation, from 0 (none) to 1 (full)."""
    stop_words: bool = True
    """Common English words of a query count only once a content word has matched."""
    fold: bool = True
    """Fold English inflections (plural, -ed, -ing) in records and queries."""


DEFAULT_RANKING = Ranking()
"""The ranking every real store uses; the index's defaults and the evaluation read it."""

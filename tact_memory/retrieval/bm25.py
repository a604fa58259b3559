"""BM25 ranking of memory records, in process, over an inverted index.

Tact computes lexical ranking itself instead of using an SQLite FTS table, so the data
model stays one plain table. This module holds the whole ranking side and imports nothing from
storage: the store adds and removes one record at a time (:meth:`Index.add`, :meth:`Index.remove`),
or hands :meth:`Index.sync` the ``(id, version, content)`` of every live record, and asks
:meth:`Index.search` for hits.

Scoring is Okapi BM25 with ``k1 = 1.2`` and ``b = 0.75`` (the constants SQLite FTS5 documents), and
``IDF = ln(1 + (N - df + 0.5) / (df + 0.5))``, which stays positive even for a term in every record.
Query terms are a set, so repeating a word does not weigh it more. A term a record lacks adds
nothing rather than vetoing the record: a verbose query still finds records that match part of it,
and records matching more or rarer terms rank higher. Records that share no term score zero and are
dropped; ties break by id so results are deterministic.

Stop words (see :mod:`tact_memory.retrieval.lexer`) decide candidacy, not weight. A record becomes a
candidate only by sharing a content term with the query, so a query whose shared terms are all
stop words abstains; once a record is a candidate, every shared term adds its BM25 gain, stop
words included, so "read-only replica" ranks a record that says "read-only" above one that only
says "read".

Cost. Tokenizing is the expensive part, so it is cached per ``(id, version)``: a version is an
immutable snapshot of a record's content, and a sync re-tokenizes only new or replaced versions.
A caller that already has a version's term counts (the store keeps them in the file) hands them to
:meth:`Index.add` instead of the text. Postings map a term to ``{id: term frequency}``; they are
made for a term the first time a search asks for it and then kept up to date, so an index loaded
from stored counts costs no more than holding them. A posting holds the record's term frequency
and its length, so a search finds a record's length normalisation
``k1 * (1 - b + b * length / average_length)`` by its length, in a table with one entry per
distinct length. The average moves with every change, so that table is made again after one, at
the cost of the few distinct lengths rather than of every record: adding or removing a record
touches only that record's own terms, the first search after it costs what any other does, and a
search touches only the postings of its terms.
An index grown one change at a time ranks exactly like one built from scratch on the same records:
every score is computed from the same integers in the same order.

An :class:`Index` is not thread-safe; its owner serialises sync and search.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

from ..limits import DEFAULT_RANKING
from ..values import Value
from .lexer import document_terms, split_query

__all__ = ["Hit", "Index", "Words", "count_terms"]


TIE_DIGITS = 9
"""Decimal places two scores are compared to: scores equal in exact arithmetic, summed in floating
point, differ far below this, and scores that differ at all differ far above it (a card shows 4)."""

_TIE_SLACK = 10.0**-(TIE_DIGITS - 1)
"""Wider than any gap rounding to :data:`TIE_DIGITS` places can close."""

_MAX_PAIRS = 8192
"""How many distinct ``(frequency, length)`` tuples an index shares before it starts a new set."""


class Hit(Value):
    """One ranked record."""

    __slots__ = ("id", "score")

    id: int
    """Stable id of the record."""
    score: float
    """BM25 score, positive; larger is more relevant."""

    def __init__(self, id: int, score: float) -> None:
        self._fill(id, score)


class Words(str):
    """A record's terms as one string, each term once per occurrence, separated by single spaces.

    The form the store keeps them in. :meth:`Index.add` takes it without counting: a record's
    length is its number of words, and a term's frequency is counted in the string (in C) only
    when a search first asks for that term.
    """

    __slots__ = ()


class _Doc:
    """One indexed version: its term counts, or its words (spaced so counting never overlaps)."""

    __slots__ = ("counts", "length", "spaced", "version")

    def __init__(self, version: int, counts: Mapping[str, int] | None, words: str = "") -> None:
        self.version = version
        self.counts = counts
        self.spaced = "" if counts is not None or not words else f" {words.replace(' ', '  ')} "
        self.length = sum(counts.values()) if counts is not None else (words.count(" ") + 1 if words else 0)

    def frequency(self, term: str) -> int:
        if self.counts is not None:
            return self.counts.get(term, 0)
        return self.spaced.count(f" {term} ")

    def has(self, term: str) -> bool:
        return term in self.counts if self.counts is not None else f" {term} " in self.spaced


def count_terms(content: str, *, fold: bool = DEFAULT_RANKING.fold) -> Counter[str]:
    """How often each search term occurs in ``content``: what the index keeps of a record."""
    return Counter(document_terms(content, fold=fold))


class Index:
    """An in-memory BM25 index over the live records of one corpus.

    Example:
        >>> index = Index()
        >>> index.sync([(1, 1, "In `billing-api`, deploys need approval"), (2, 1, "Use ruff")])
        >>> [hit.id for hit in index.search("how do we deploy billing?", limit=5)]
        [1]
    """

    def __init__(
        self,
        *,
        k1: float = DEFAULT_RANKING.k1,
        b: float = DEFAULT_RANKING.b,
        stop_words: bool = DEFAULT_RANKING.stop_words,
        fold: bool = DEFAULT_RANKING.fold,
    ) -> None:
        """Create an empty index.

        Args:
            k1: BM25 term-frequency saturation.
            b: BM25 length normalisation, from 0 (none) to 1 (full).
            stop_words: Let common English words of a query add to a record's score only once
                a content term has matched it (see :mod:`tact_memory.retrieval.lexer`).
            fold: Fold English inflections in records and queries.

        Raises:
            ValueError: ``k1`` is negative or ``b`` is outside ``[0, 1]``.
        """
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError(f"need k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self._k1 = k1
        self._b = b
        self._stop_words = stop_words
        self._fold = fold
        self._docs: dict[int, _Doc] = {}
        self._postings: dict[str, dict[int, tuple[int, int]]] = {}
        """term -> {id: (frequency, length)}; each distinct pair is one shared tuple (:attr:`_pairs`)."""
        self._pairs: dict[tuple[int, int], tuple[int, int]] = {}
        self._lengths: Counter[int] = Counter()
        """How many records have each length."""
        self._total_length = 0
        self._tokenizations = 0
        self._norms: dict[int, float] | None = None
        """The length norm of each length in :attr:`_lengths` for the current average; dropped by any change."""

    def __len__(self) -> int:
        """Return how many records the index holds."""
        return len(self._docs)

    @property
    def fold(self) -> bool:
        """Whether records and queries are folded (term counts handed to :meth:`add` must agree)."""
        return self._fold

    def version_of(self, doc_id: int) -> int | None:
        """The version of ``doc_id`` the index holds, or ``None``."""
        doc = self._docs.get(doc_id)
        return None if doc is None else doc.version

    @property
    def tokenizations(self) -> int:
        """How many record versions this index has tokenized since it was created."""
        return self._tokenizations

    def sync(self, docs: Iterable[tuple[int, int, str]]) -> None:
        """Make the index hold exactly ``docs``.

        A record already indexed at the same version is not tokenized again; records missing
        from ``docs`` are removed.

        Args:
            docs: ``(id, version, content)`` of every live, visible record.

        Raises:
            ValueError: The same id appears twice.
        """
        seen: set[int] = set()
        for doc_id, version, content in docs:
            if doc_id in seen:
                raise ValueError(f"record id {doc_id} appears twice in one sync")
            seen.add(doc_id)
            if self.version_of(doc_id) != version:
                self.add(doc_id, version, content)
        for doc_id in [doc_id for doc_id in self._docs if doc_id not in seen]:
            self.remove(doc_id)

    def add(self, doc_id: int, version: int, content: str | Words | Mapping[str, int]) -> None:
        """Index one record at ``version``, in place of any version of it the index holds.

        Args:
            doc_id: The record id.
            version: Its version.
            content: Its text; or its terms as :func:`count_terms` makes them (with this index's
                ``fold``), as :class:`Words` or as counts: a :class:`~collections.Counter` is taken
                as it is (the caller vouches that its counts are positive); of another mapping,
                counts that are not positive integers are ignored.
        """
        if isinstance(content, Words):
            doc = _Doc(version, None, content)
        elif isinstance(content, str):
            doc = _Doc(version, count_terms(content, fold=self._fold))
            self._tokenizations += 1
        elif isinstance(content, Counter):
            doc = _Doc(version, content)
        else:
            doc = _Doc(version, {term: n for term, n in content.items() if type(n) is int and n > 0})
        self.remove(doc_id)
        self._docs[doc_id] = doc
        self._total_length += doc.length
        self._lengths[doc.length] += 1
        self._norms = None
        for term in self._made(doc):
            self._postings[term][doc_id] = self._pair(doc.frequency(term), doc.length)

    def apply(self, upserts: Iterable[tuple[int, int, str]] = (), removals: Iterable[int] = ()) -> None:
        """Change only the given records: index ``upserts`` (``(id, version, content)``) not already
        held at that version, and drop ``removals`` (an id the index does not hold is ignored).

        What :meth:`sync` would do for a corpus known to differ only in these records, at a cost
        proportional to them.
        """
        for doc_id in removals:
            self.remove(doc_id)
        for doc_id, version, content in upserts:
            if self.version_of(doc_id) != version:
                self.add(doc_id, version, content)

    def remove(self, doc_id: int) -> None:
        """Remove one record from the index, if it is there."""
        doc = self._docs.pop(doc_id, None)
        if doc is None:
            return
        self._total_length -= doc.length
        left = self._lengths[doc.length] - 1
        if left:
            self._lengths[doc.length] = left
        else:
            del self._lengths[doc.length]
        self._norms = None
        for term in self._made(doc):
            postings = self._postings[term]
            del postings[doc_id]
            if not postings:
                del self._postings[term]

    def _made(self, doc: _Doc) -> list[str]:
        """The terms of one record whose postings have been made."""
        made = self._postings
        if doc.counts is not None and len(doc.counts) < len(made):
            return [term for term in doc.counts if term in made]
        return [term for term in made if doc.has(term)]

    def _pair(self, frequency: int, length: int) -> tuple[int, int]:
        """The one shared ``(frequency, length)`` tuple of these values (postings repeat few pairs)."""
        pair = (frequency, length)
        if len(self._pairs) >= _MAX_PAIRS:  # pairs of records long gone; postings keep the ones they use
            self._pairs = {}
        return self._pairs.setdefault(pair, pair)

    def _postings_of(self, term: str) -> dict[int, tuple[int, int]]:
        """``{id: (frequency, length)}`` of ``term``, made from the records' counts on first use
        (kept when not empty)."""
        postings = self._postings.get(term)
        if postings is None:
            found = ((doc_id, doc.frequency(term), doc.length) for doc_id, doc in self._docs.items())
            postings = {doc_id: self._pair(frequency, length) for doc_id, frequency, length in found if frequency}
            if postings:
                self._postings[term] = postings
        return postings

    def search(self, query: str, *, limit: int) -> list[Hit]:
        """Rank the indexed records against ``query``.

        Args:
            query: The scan query.
            limit: Most hits to return.

        Returns:
            At most ``limit`` hits with a positive score, by score descending, then id ascending;
            empty when the query has no searchable term or no record shares one.

        Raises:
            ValueError: ``limit`` is negative.
        """
        if limit < 0:
            raise ValueError(f"limit must not be negative, got {limit}")
        if limit == 0:
            return []
        content, stop = split_query(query, stop_words=self._stop_words, fold=self._fold)
        scores: dict[int, float] = {}
        # In sorted order, not the sets' own: floating-point sums depend on their order, and a
        # set's order on the process's hash seed, so two records that tie could otherwise come out
        # a rounding error apart, in an order that changes from one process to the next.
        for term in sorted(content):
            self._add(scores, term, new=True)
        # Stop words only add to records a content term has already made candidates.
        for term in sorted(stop):
            self._add(scores, term, new=False)
        # Scores that are equal in exact arithmetic can differ in their last bits (a record with
        # three times the term and a longer length can score exactly what a short one with the
        # term once does), so records are ordered by their score rounded to TIE_DIGITS places:
        # those tie, and the lower id comes first. Only a score at least the limit-th largest can
        # be among the best; the few such records are then ordered by score and id. (Two sorts
        # in C cost less than a heap fed in Python.)
        # The floor is taken a little below, so that every record tying with the limit-th after
        # rounding is among those sorted; only those few are rounded.
        floor = sorted(scores.values(), reverse=True)[limit - 1] - _TIE_SLACK if len(scores) > limit else 0.0
        best = sorted(
            [(-round(score, TIE_DIGITS), doc_id) for doc_id, score in scores.items() if score >= floor and score > 0]
        )[:limit]
        return [Hit(doc_id, scores[doc_id]) for _, doc_id in best]

    def _add(self, scores: dict[int, float], term: str, *, new: bool) -> None:
        """Add the BM25 gain of ``term`` to ``scores``, for any record or only those present."""
        postings = self._postings_of(term)
        if not postings:
            return
        count, frequency_in_corpus = len(self._docs), len(postings)
        idf = math.log(1 + (count - frequency_in_corpus + 0.5) / (frequency_in_corpus + 0.5))
        lift = idf * (self._k1 + 1)
        norms = self._length_norms()
        if new:
            for doc_id, (frequency, length) in postings.items():
                scores[doc_id] = scores.get(doc_id, 0.0) + lift * frequency / (frequency + norms[length])
        else:
            for doc_id, (frequency, length) in postings.items():
                if doc_id in scores:
                    scores[doc_id] += lift * frequency / (frequency + norms[length])

    def _length_norms(self) -> dict[int, float]:
        """``k1 * (1 - b + b * length / average length)`` of every record length, kept until the corpus changes."""
        if self._norms is None:
            k1, b = self._k1, self._b
            # A corpus of empty records has no average length; any ratio works since no record can
            # match, and 1 keeps the formula finite.
            average = self._total_length / len(self._docs) if self._docs else 0
            self._norms = {length: k1 * (1 - b + b * (length / average if average else 1.0)) for length in self._lengths}
        return self._norms

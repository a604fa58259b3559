"""The corpus index cache: what the store knows about every live row without asking the file.

The store ranks in process (:mod:`tact_memory.retrieval.bm25`), so each process keeps an index of
the corpus and must notice when any process changed it. The file's ``meta.generation`` grows with
every content change (put, replace, delete, prune) and not with telemetry; :class:`CorpusIndex`
remembers the generation it was built from, so scans reuse it until the corpus changes, and a
refresh reads only ids and versions and fetches the rows whose version it has not seen. The
process's own changes never need a refresh: a mutation holds the write lock from its refresh to its
commit, so it knows the generation it commits (the one it read, plus one) and exactly what changed,
and :meth:`CorpusIndex.committed` applies that to the cache after the commit (and only then: a
rolled-back transaction leaves the cache at the generation it read).

That works because a version is immutable: ids come from ``AUTOINCREMENT`` and are never reused, and
every replacement raises the version, so ``(id, version)`` names one content for good. Per version
the cache keeps the content (at most 256 KiB for the whole corpus, so a scan builds its previews
without reading the file) and what the store decides from it:

- its UTF-8 size (the capacity bounds),
- a 128-bit digest of its duplicate key (:func:`~tact_memory.store.policy.duplicate_key`), so a put
  finds a duplicate without folding the corpus again,
- its visibility verdict (:func:`~tact_memory.store.policy.hidden_reason`); hidden versions are
  left out of the BM25 index, so a scan can never rank them.

Verdicts, digests and term counts come from the row's ``derived`` column when it is current
(:mod:`.derived`), so a cold process neither screens nor tokenizes the corpus; the versions it had
to derive itself are handed back (:meth:`CorpusIndex.unsaved`) for the store to keep. A stored
verdict only decides what is ranked: what is served is screened again from the served content
(:meth:`CorpusIndex.served_verdict`).

A row the store refuses as it fetches it (a cell of the wrong kind, content over the record bound:
only a hand-edited file has one) is held as refused (:data:`REFUSED`): counted in the totals, never
ranked, and a read that names it goes to the file and is refused there, so one bad row does not
take the rows beside it out of use.

A scan's previews come from the held content; full records (with their telemetry) are read from
the file when they are served. Content edited in the file without a new version (only by hand:
every writer here raises the version) is therefore not seen until the row's version changes, as
its terms would not be either. A refresh that fails half way forgets everything, so the next one
rebuilds from the file. Not thread-safe: the store calls it under its lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..records import RecordKey
from . import derived as stored
from .policy import content_size, hidden_reason

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from ..retrieval.bm25 import Hit, Index

__all__ = ["REFUSED", "CorpusIndex", "Fetch"]

Fetch = Callable[[Sequence[int]], Iterable[tuple[int, "str | None", object]]]
"""Reads ``(id, content, derived)`` of the given ids from the store, in the caller's transaction;
``content`` is ``None`` for a row the store refuses (a cell of the wrong kind, content over the
record bound), with its size in place of ``derived``."""

REFUSED = "malformed_row"
"""The verdict held for a row the store refused as it fetched it: never ranked, and a read or a
replacement that names it goes to the file and is refused there."""


class _Version:
    """What the index holds of one row's live version; never changed once made."""

    __slots__ = ("version", "content", "size", "duplicate", "hidden")

    def __init__(self, version: int, content: str, size: int, duplicate: bytes, hidden: str | None) -> None:
        self.version = version
        self.content = content
        self.size = size
        self.duplicate = duplicate
        self.hidden = hidden


class CorpusIndex:
    """The live rows of one corpus by id, their per-version verdicts, and the BM25 index over them."""

    def __init__(self) -> None:
        self._index: Index | None = None
        self._generation: int | None = None
        self._rows: dict[int, _Version] = {}
        self._used = 0  # the UTF-8 bytes of every live row's content, kept with _rows
        self._by_duplicate: dict[bytes, set[int]] = {}  # duplicate digest -> live ids, kept with _rows
        # Versions this process derived itself and the file does not hold yet: id -> (version, stored form).
        self._unsaved: dict[int, tuple[int, str]] = {}
        # (id, version) -> (digest of the content screened, verdict, that content): verdicts this
        # process computed. The content is kept by reference (the held row's own string, mostly),
        # so the row's current version is told by identity, without hashing its content again.
        self._served: dict[tuple[int, int], tuple[bytes, str | None, str]] = {}
        # id -> (key, preview limit, preview) of the version a scan last served as a card.
        self._cards: dict[int, tuple[RecordKey, int, str]] = {}
        self.derivations = 0
        """How many versions this cache screened and tokenized itself (the rest came from the file)."""

    def _forget(self) -> None:
        self._index = None
        self._generation = None
        self._rows = {}
        self._cards = {}
        self._used = 0
        self._by_duplicate = {}
        self._unsaved = {}

    @property
    def index(self) -> Index:
        """The BM25 index over the visible live rows (empty until the first refresh)."""
        if self._index is None:
            from ..retrieval.bm25 import Index

            self._index = Index()
        return self._index

    @property
    def generation(self) -> int | None:
        """The generation the cache is at, or ``None`` when it must compare versions with the file."""
        return self._generation

    def invalidate(self) -> None:
        """Forget the generation, so the next refresh compares every id and version with the file."""
        self._generation = None

    def refresh(self, generation: int, versions: Iterable[tuple[int, int]], fetch: Fetch) -> None:
        """Bring the cache up to ``generation``, unless it is there already.

        Args:
            generation: The file's ``meta.generation``, read in the caller's transaction.
            versions: ``(id, version)`` of every live row (only read when the generation moved).
            fetch: Reads the rows whose version the cache has not seen.
        """
        if generation == self._generation:
            return
        try:
            self._catch_up(dict(versions), fetch)
        except BaseException:
            self._forget()  # a half-applied refresh is never trusted
            raise
        self._generation = generation

    def _catch_up(self, versions: dict[int, int], fetch: Fetch) -> None:
        known = {id_: row.version for id_, row in self._rows.items()}
        for id_ in known.keys() - versions.keys():
            self._drop(id_)
        new = sorted(id_ for id_, _ in versions.items() - known.items())
        if not new:
            return
        for id_, content, derived in fetch(new):
            if content is None:
                self._refuse(id_, versions[id_], derived if type(derived) is int else 0)
            else:
                self._take(id_, versions[id_], content, stored.decode(derived, versions[id_]))
        if any(self.version_of(id_) != versions[id_] for id_ in new):
            raise RuntimeError("a row listed in this transaction could not be fetched")

    def _take(self, id_: int, version: int, content: str, derived: stored.Derived | None) -> None:
        """Hold ``version`` of row ``id_``, deriving what the file did not hold for it."""
        if derived is None:
            derived = stored.derive(content)
            self.derivations += 1
            self._served[id_, version] = (stored.content_digest(content), derived.hidden, content)
            text = stored.encode(version, derived)
            if text is not None:
                self._unsaved[id_] = (version, text)
        else:
            self._unsaved.pop(id_, None)
        old = self._rows.get(id_)
        if old is not None:
            self._untrack(id_, old)
            if old.version != version:
                self._served.pop((id_, old.version), None)
        row = self._rows[id_] = _Version(version, content, content_size(content), derived.duplicate, derived.hidden)
        self._used += row.size
        self._by_duplicate.setdefault(row.duplicate, set()).add(id_)
        if derived.hidden is None:
            self.index.add(id_, version, derived.terms)
        else:
            self.index.remove(id_)

    def _refuse(self, id_: int, version: int, size: int) -> None:
        """Hold ``version`` of row ``id_`` as refused (:data:`REFUSED`): counted, never ranked."""
        self._unsaved.pop(id_, None)
        self._cards.pop(id_, None)
        old = self._rows.get(id_)
        if old is not None:
            self._untrack(id_, old)
            self._served.pop((id_, old.version), None)
        self._rows[id_] = _Version(version, "", size, b"", REFUSED)
        self._used += size
        self.index.remove(id_)

    def _untrack(self, id_: int, row: _Version) -> None:
        """Take ``row``'s size and duplicate digest out of the running totals."""
        self._used -= row.size
        same = self._by_duplicate.get(row.duplicate)
        if same is not None:
            same.discard(id_)
            if not same:
                del self._by_duplicate[row.duplicate]

    def _drop(self, id_: int) -> None:
        row = self._rows.pop(id_, None)
        self._unsaved.pop(id_, None)
        self._cards.pop(id_, None)
        self.index.remove(id_)
        if row is not None:
            self._untrack(id_, row)
            self._served.pop((id_, row.version), None)

    def committed(
        self,
        read: int | None,
        *,
        written: tuple[int, int, str, stored.Derived] | None = None,
        removed: Iterable[int] = (),
    ) -> None:
        """Apply this process's own committed change, made under the write lock at generation ``read``.

        The file is now at ``read + 1``. Unless the cache was at ``read`` (it refreshed in that
        transaction), it is only told to compare versions again.

        Args:
            read: The generation the mutation's transaction read (:attr:`generation` after its refresh).
            written: ``(id, version, content, derived)`` of the row the mutation inserted or
                replaced; its verdict must have been computed from ``content`` in this process.
            removed: Ids the mutation deleted (a delete, or the rows a put pruned).
        """
        if read is None or self._generation != read:
            self._generation = None
            return
        try:
            for id_ in removed:
                self._drop(id_)
            if written is not None:
                id_, version, content, derived = written
                self._take(id_, version, content, derived)
                self._unsaved.pop(id_, None)  # the mutation wrote its derived column itself
                # The mutation screened this very content before writing it.
                self._served[id_, version] = (stored.content_digest(content), derived.hidden, content)
        except BaseException:
            self._forget()
            raise
        self._generation = read + 1

    def unsaved(self) -> list[tuple[int, int, str]]:
        """``(id, version, derived)`` of versions this process derived that the file does not hold."""
        return [(id_, version, text) for id_, (version, text) in self._unsaved.items()]

    def saved(self) -> None:
        """The store wrote :meth:`unsaved` (or gave up on it for now)."""
        self._unsaved = {}

    def served_verdict(self, id_: int, version: int, content: str) -> str | None:
        """Why this content is hidden from models, or ``None``, screened from ``content`` itself.

        Computed by this process from exactly this content (remembered by a digest of the content,
        never taken from the file); a row whose content turns out hidden leaves the BM25 index.
        """
        key = (id_, version)
        known = self._served.get(key)
        if known is not None and known[2] is content:
            return known[1]  # the very string that was screened
        fingerprint = stored.content_digest(content)
        if known is not None and known[0] == fingerprint:
            return known[1]
        verdict = hidden_reason(content)
        self._served[key] = (fingerprint, verdict, content)
        row = self._rows.get(id_)
        if verdict is not None and row is not None and row.version == version:
            self._rows[id_] = _Version(row.version, row.content, row.size, row.duplicate, verdict)
            self.index.remove(id_)
        return verdict

    def current_verdict(self, id_: int) -> str | None:
        """:meth:`served_verdict` of a live row's current version and the content held for it."""
        row = self._rows[id_]
        return self.served_verdict(id_, row.version, row.content)

    def verdict(self, id_: int, version: int, content: str) -> str | None:
        """Why this version is hidden from models, or ``None`` (see :meth:`served_verdict`)."""
        return self.served_verdict(id_, version, content)

    def version_of(self, id_: int) -> int | None:
        """The current version of a live row, or ``None`` when there is no such row."""
        row = self._rows.get(id_)
        return None if row is None else row.version

    def content_of(self, id_: int) -> str:
        """The content of a live row at its current version."""
        return self._rows[id_].content

    def key_of(self, id_: int) -> RecordKey:
        """The key of a live row at its current version."""
        return RecordKey(id_, self._rows[id_].version)

    def card_of(self, id_: int, preview_bytes: int) -> tuple[RecordKey, str]:
        """The key and the preview of a live row at its current version, as a scan's card shows them.

        Both depend only on the version (its content never changes), so each is made once per
        version and kept while the row stays at it.
        """
        version = self._rows[id_].version
        card = self._cards.get(id_)
        if card is None or card[0].version != version or card[1] != preview_bytes:
            from ..retrieval.lexer import preview

            card = self._cards[id_] = (self.key_of(id_), preview_bytes, preview(self._rows[id_].content, preview_bytes))
        return card[0], card[2]

    def size_of(self, id_: int) -> int:
        """UTF-8 bytes of a live row's current content."""
        return self._rows[id_].size

    def totals(self) -> tuple[int, int]:
        """Live rows and the UTF-8 bytes of their content."""
        return len(self._rows), self._used

    def found_refused(self, id_: int) -> None:
        """A live row turned out malformed after it was held (a cell changed by hand, which moves no
        version): hold it as refused from now on, so no later scan ranks it."""
        row = self._rows.get(id_)
        if row is not None:
            self._refuse(id_, row.version, row.size)

    def refused(self, id_: int) -> bool:
        """Whether ``id_`` is a live row the store refused as it fetched it (:data:`REFUSED`)."""
        row = self._rows.get(id_)
        return row is not None and row.hidden is REFUSED

    def visible(self, id_: int) -> bool:
        """Whether ``id_`` is a live row that models may see, by the verdict the cache holds."""
        row = self._rows.get(id_)
        return row is not None and row.hidden is None

    def duplicate_of(self, content: str, *, besides: int | None = None) -> tuple[int, int] | None:
        """``(id, version)`` of the first live row, by id, saying the same as ``content``, if any.

        ``besides`` (the record being replaced) does not count.
        """
        same = [id_ for id_ in self._by_duplicate.get(stored.digest(content), ()) if id_ != besides]
        if not same:
            return None
        first = min(same)
        return first, self._rows[first].version

    def search(self, query: str, *, limit: int) -> list[Hit]:
        """The best visible rows for ``query`` (see :meth:`~tact_memory.retrieval.bm25.Index.search`)."""
        return self.index.search(query, limit=limit)

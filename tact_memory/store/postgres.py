"""The team store: one shared corpus on PostgreSQL, split into namespaces by author.

Every record belongs to the namespace of the credential that wrote it. A store is opened *as* one
namespace with one role: it reads every namespace it may read (all of them, or the chosen ones of a
limited reader; its own always), and a writer changes only its own. Ids come from one identity
sequence shared by every namespace, so an id alone names one record and is never reused; keys the
store hands out carry the namespace (``RecordKey(id, version, namespace)``).

Invariants in SQL
-----------------
Every change runs in one transaction that first locks its namespace's row in ``generations``
(``SELECT … FOR UPDATE``). Changes to one namespace therefore take turns across every connection
and every server process, and, at ``READ COMMITTED``, each statement after the lock sees every
change committed before it: the version check, the duplicate check (per namespace), the bounds
(rows and content bytes per namespace, the same :class:`~tact_memory.limits.Limits` as a local
store) and pruning the fewest expired probation rows all hold exactly, with one winner per
version. Telemetry (scan and read counts) is updated in its own statements on the returned rows,
locked in id order (a scan's only on those still at the version it ranked), and does not touch the
generation.

Ranking
-------
Scans rank with the same in-process BM25 (:class:`tact_memory.retrieval.bm25.Index`) over the
visible corpus, so local and team scans of the same records give the same order. The store keeps
the documents of each visible namespace with the generation they were read at, and reloads only
the namespaces whose number changed (each change takes a new number from one sequence, so none is
ever reused), re-tokenizing only new versions. The current numbers come from the change listener
of the server process when it has one (``known_generations``, fed by PostgreSQL notifications:
:mod:`tact_memory.team.watch`), so a scan reads no table to learn of other processes' writes;
otherwise, or while the listener is down, each operation reads the small ``generations`` table in
its own transaction. A read of an id the cache does not know, and a change, always ask the table.

A change costs the namespace lock (one statement, which also tells whether the cached namespace
is current; it is reread only when another store changed it) and one statement that writes the
record and moves the generation. Duplicates and bounds are checked against the cached namespace,
exact under the lock; after the commit the cache and the index take that one change
(:meth:`~tact_memory.retrieval.bm25.Index.apply`), never the whole corpus.

Rows are screened again when served, as in the local store: a row that looks like a secret or
imitates the checkpoint (written before a rule existed, or directly into the table) is hidden from
scan and read but listed, counted and deletable. Database errors are reported as
:class:`~tact_memory.errors.StoreUnavailable` with a fixed message: the server's diagnostics, which
may quote values or the connection string, are never repeated.

Why this module is longer than ~300 lines: it is one class implementing the whole storage protocol
in SQL, and each operation's statements sit next to their transaction; policy, ranking and screening
are imported.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import deadline, errors
from ..backend import RecordOrder
from ..clock import now_ms
from ..limits import DEFAULT_LIMITS, Limits
from ..records import (
    Candidate,
    MemoryRecord,
    PutResult,
    RecordKey,
    StoreStatus,
)
from .pg_pool import held, no_connection, open_pool, unavailable
from .policy import (
    MAX_INTEGER,
    ORDER_BY,
    Row,
    check_changed,
    check_ids,
    check_key,
    fits_as_is,
    hidden_reason,
    plan_put,
    validate_content,
    version_conflict,
)

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

    from ..retrieval.bm25 import Index

__all__ = ["ROLES", "PostgresStore"]

OWN_POOL_WAIT_S = 30.0
"""How long an operation of a store opened with a connection string waits for a connection."""

ROLES = ("reader", "writer")
"""A reader scans and reads; a writer also puts and deletes in its own namespace."""

_COLUMNS = (
    "id, namespace, version, content, created_at_ms, updated_at_ms, scan_count, last_scanned_at_ms,"
    " read_count, last_read_at_ms, probation_until_ms"
)
_VISIBLE = "(%(all)s OR namespace = ANY(%(readable)s))"
_LOWER_STATEMENT_TIMEOUT = (
    "SELECT set_config('statement_timeout', least("
    "nullif(extract(epoch FROM current_setting('statement_timeout')::interval) * 1000, 0), %s)::bigint::text, true)"
)
"""Lower the transaction's ``statement_timeout`` to the milliseconds the request has left, never
raise it: a shorter limit the connection already has (the service's, or one an operator set on the
role or database) stays; ``0``, no limit, counts as the longest."""


def _record(row: Sequence[Any]) -> MemoryRecord:
    (id_, namespace, version, content, created, updated, scans, scanned, reads, read_at, probation) = row
    return MemoryRecord(
        key=RecordKey(int(id_), int(version), str(namespace)),
        content=str(content),
        created_at_ms=int(created),
        updated_at_ms=int(updated),
        scan_count=int(scans),
        last_scanned_at_ms=None if scanned is None else int(scanned),
        read_count=int(reads),
        last_read_at_ms=None if read_at is None else int(read_at),
        probation_until_ms=None if probation is None else int(probation),
    )


class PostgresStore:
    """One namespace's view of the team corpus; implements :class:`~tact_memory.backend.MemoryBackend`.

    Thread-safe (one lock around the in-process index; connections come from a pool). The schema
    must exist (:func:`tact_memory.team.migrations.migrate`).

    Args:
        pool_or_dsn: A ``psycopg_pool.ConnectionPool`` (shared, not closed by this store) or a
            connection string (the store opens its own small pool, closed by :meth:`close`).
        namespace: The author namespace this store writes as.
        role: ``"reader"`` or ``"writer"``.
        readable_namespaces: The namespaces it may read besides its own; ``None`` for all.
        limits: The bounds, applied per namespace.
        clock: Milliseconds since the epoch; tests pass a fake clock.
        known_generations: Every namespace's latest generation as a listener on change
            notifications knows it (:meth:`tact_memory.team.watch.GenerationWatch.generations`),
            or ``None`` while it does not; without it, each operation reads the table.
    """

    def __init__(
        self,
        pool_or_dsn: ConnectionPool[Any] | str,
        *,
        namespace: str,
        role: str = "writer",
        readable_namespaces: frozenset[str] | None = None,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], int] = now_ms,
        known_generations: Callable[[], dict[str, int] | None] | None = None,
    ) -> None:
        if role not in ROLES:
            raise errors.InvalidArguments(f"role must be one of {', '.join(ROLES)}")
        if not isinstance(namespace, str) or not namespace:
            raise errors.InvalidArguments("namespace must be a non-empty string")
        self.namespace = namespace
        self.role = role
        self.readable = None if readable_namespaces is None else frozenset(readable_namespaces) | {namespace}
        self._limits = limits
        self._clock = clock
        self._known_generations = known_generations
        self._dsn = pool_or_dsn if isinstance(pool_or_dsn, str) else None
        self._pool: ConnectionPool[Any] | None = None if isinstance(pool_or_dsn, str) else pool_or_dsn
        self._lock = threading.RLock()
        self._index_: Index | None = None
        self._generations: dict[str, int] = {}
        self._docs: dict[str, dict[int, tuple[int, str]]] = {}
        self._bytes: dict[str, int] = {}
        self._secret_cache: dict[tuple[int, int], str | None] = {}
        self._folds: dict[tuple[int, int], str] = {}

    @property
    def limits(self) -> Limits:
        """The bounds, per namespace."""
        return self._limits

    # -- connections ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the store's own pool (a shared pool is left open); the next operation reopens it."""
        with self._lock:
            if self._dsn is not None and self._pool is not None:
                self._pool.close()
                self._pool = None
            self._generations = {}

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _params(self, **extra: Any) -> dict[str, Any]:
        return {"all": self.readable is None, "readable": sorted(self.readable or ()), **extra}

    @contextmanager
    def _transaction(self) -> Iterator[Connection[Any]]:
        """A connection inside one transaction; database errors become ``StoreUnavailable``."""
        import psycopg

        with self._lock:
            if self._pool is None:
                assert self._dsn is not None
                self._pool = open_pool(self._dsn, size=2, wait_s=OWN_POOL_WAIT_S)
            pool = self._pool
        limit = deadline.current()
        if limit is not None and limit.remaining() <= 0:
            raise unavailable("timeout", "the request ran out of time before it reached the database; nothing was changed")
        # The wait for a connection is the pool's own (the team service's pool waits half a
        # request's time, so a request is answered unavailable during an outage, not timed out),
        # and never longer than the request has left.
        wait = pool.timeout if limit is None else min(pool.timeout, limit.remaining())
        from psycopg_pool import PoolTimeout

        try:
            with held(pool, timeout=wait) as conn, conn.transaction():
                if limit is not None:
                    # No statement may outlast the request, and nothing commits once it has timed out.
                    conn.execute(_LOWER_STATEMENT_TIMEOUT, (max(1, int(limit.remaining() * 1000)),))
                yield conn
                if limit is not None and not limit.begin_commit():
                    raise unavailable("timeout", "the request timed out before its change could commit; nothing was changed")
        except errors.TactMemoryError:
            raise  # the caches changed only with what was read whole, or after a commit
        except PoolTimeout as exc:  # before OperationalError, which it is
            raise no_connection(pool, limit, "nothing was changed") from exc
        except psycopg.errors.DeadlockDetected as exc:
            raise unavailable("busy", "another change held the same rows; nothing was changed, try again") from exc
        except psycopg.errors.QueryCanceled as exc:
            raise unavailable("timeout", "the database cancelled the statement (its statement timeout ran out, or an operator cancelled it); nothing was changed") from exc
        except psycopg.OperationalError as exc:
            raise unavailable("unreachable", "the database could not be reached; nothing was changed") from exc
        except psycopg.Error as exc:
            raise unavailable("database_error", "the database refused the operation; nothing was changed") from exc

    # -- the index -----------------------------------------------------------------------------

    @property
    def _index(self) -> Index:
        if self._index_ is None:
            from ..retrieval.bm25 import Index

            self._index_ = Index()
        return self._index_

    def _secret_kind(self, id_: int, version: int, content: str) -> str | None:
        key = (id_, version)
        if key not in self._secret_cache:
            self._secret_cache[key] = hidden_reason(content)
        return self._secret_cache[key]

    def _served_verdict(self, id_: int, version: int, content: str) -> str | None:
        """Why ``content``, fetched to be served, is withheld: the held verdict while the row is what
        this store holds, the content screened afresh when it is not (rewritten in place)."""
        owner = self._owner(id_)
        if owner is not None and self._docs[owner].get(id_) == (version, content):
            return self._secret_kind(id_, version, content)
        return hidden_reason(content)

    def _fold(self, id_: int, version: int, content: str) -> str:
        """The duplicate-check form of a record of this namespace, folded once per version."""
        from ..retrieval.lexer import fold_for_duplicate

        key = (id_, version)
        if key not in self._folds:
            self._folds[key] = fold_for_duplicate(content)
        return self._folds[key]

    def _change(self, ns: str, upserts: Sequence[tuple[int, int, str]], removals: Sequence[int]) -> None:
        """Bring the cached documents of ``ns`` and the index to a change of those records only."""
        from ..retrieval.lexer import utf8_size

        docs = self._docs.setdefault(ns, {})
        size = self._bytes.get(ns, 0)
        shown: list[tuple[int, int, str]] = []
        unindexed = list(removals)
        for id_ in removals:
            old = docs.pop(id_, None)
            if old is not None:
                size -= utf8_size(old[1])
                self._forget(id_, old[0])
        for id_, version, content in upserts:
            old = docs.get(id_)
            if old is not None:
                size -= utf8_size(old[1])
                self._forget(id_, old[0])
            docs[id_] = (version, content)
            size += utf8_size(content)
            if self._secret_kind(id_, version, content) is None:
                shown.append((id_, version, content))
            else:
                unindexed.append(id_)
        self._bytes[ns] = size
        self._index.apply(shown, unindexed)

    def _forget(self, id_: int, version: int) -> None:
        self._secret_cache.pop((id_, version), None)
        self._folds.pop((id_, version), None)

    def _load(self, conn: Connection[Any], namespaces: Sequence[str]) -> None:
        """Reread ``namespaces`` whole, then apply only what differs from the cache to the index."""
        if not namespaces:
            return
        fresh: dict[str, dict[int, tuple[int, str]]] = {ns: {} for ns in namespaces}
        for id_, ns, version, content in conn.execute(
            "SELECT id, namespace, version, content FROM memories WHERE namespace = ANY(%s)", (list(namespaces),)
        ):
            fresh[str(ns)][int(id_)] = (int(version), str(content))
        for ns, now in fresh.items():
            old = self._docs.get(ns, {})
            self._change(
                ns,
                [(i, v, c) for i, (v, c) in now.items() if i not in old or old[i][0] != v],
                [i for i in old if i not in now],
            )

    def _refresh(self, conn: Connection[Any], *, exact: bool = False) -> None:
        """Reload the namespaces whose generation moved since this store last read them.

        The generations come from the change listener when it is listening (no query), from the
        table otherwise, or when ``exact`` asks for the table's word. The listener hears of a
        commit a moment after it, so it can be behind this store's own last change (a namespace
        it has no number for yet, or an older one: numbers only grow); the table answers then,
        rather than the store forgetting what it wrote.
        """
        known = None if exact or self._known_generations is None else self._known_generations()
        if known is not None and any(known.get(ns, 0) < gen for ns, gen in self._generations.items()):
            known = None
        if known is not None:
            current = {ns: gen for ns, gen in known.items() if self.readable is None or ns in self.readable}
        else:
            rows = conn.execute(
                f"SELECT namespace, generation FROM generations WHERE {_VISIBLE}", self._params()
            ).fetchall()
            current = {str(ns): int(gen) for ns, gen in rows}
        if current == self._generations:
            return
        for ns in [ns for ns in self._docs if ns not in current]:
            self._change(ns, [], list(self._docs[ns]))
            del self._docs[ns], self._bytes[ns]
        self._load(conn, [ns for ns, gen in current.items() if self._generations.get(ns) != gen])
        self._generations = current

    def _owner(self, id_: int) -> str | None:
        for ns, docs in self._docs.items():
            if id_ in docs:
                return ns
        return None

    # -- model-facing operations -------------------------------------------------------------

    def scan(self, query: str, *, limit: int = 5) -> list[Candidate]:
        """Rank visible records against ``query``; bump scan telemetry of the returned ones only,
        and only while they are still at the version ranked."""
        from ..retrieval.lexer import preview, utf8_size

        if not isinstance(query, str):
            raise errors.InvalidArguments("query must be a string")
        try:
            size = utf8_size(query)
        except ValueError as exc:
            raise errors.InvalidArguments(f"query is not valid text: {exc}") from exc
        if size > self._limits.query_bytes:
            raise errors.InvalidArguments(
                f"query is {size:,} bytes; the limit is {self._limits.query_bytes:,}. Use fewer, more specific words."
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= self._limits.scan_results:
            raise errors.InvalidArguments(f"limit must be an integer from 1 to {self._limits.scan_results}")
        with self._lock, self._transaction() as conn:
            self._refresh(conn)
            hits = self._index.search(query, limit=limit)
            if not hits:
                return []
            cards = []
            for hit in hits:
                owner = self._owner(hit.id)
                assert owner is not None
                version, content = self._docs[owner][hit.id]
                cards.append(
                    Candidate(
                        key=RecordKey(hit.id, version, owner),
                        score=round(hit.score, 4),
                        preview=preview(content, self._limits.preview_bytes),
                    )
                )
            # As in the local store, only records still at the version ranked are counted: one that
            # another store replaced or deleted since the cache was read gets nothing (a new version
            # never inherits the scan of a card that showed the old one). The rows are locked in id
            # order first, and a row changed meanwhile is compared at its committed version.
            ids = [card.key.id for card in cards]
            conn.execute(
                "UPDATE memories SET scan_count = scan_count + 1, last_scanned_at_ms = %s"
                " WHERE (id, version) IN (SELECT * FROM unnest(%s::bigint[], %s::bigint[]))"
                " AND id IN (SELECT id FROM memories WHERE id = ANY(%s) ORDER BY id FOR UPDATE)",
                (self._clock(), ids, [card.key.version for card in cards], ids),
            )
        return cards

    def read(self, ids: Sequence[int]) -> list[MemoryRecord]:
        """Full visible records for the ids that exist (first-seen order); bump read telemetry."""
        wanted = check_ids(ids)
        with self._lock, self._transaction() as conn:
            self._refresh(conn)
            if any(self._owner(id_) is None for id_ in wanted):
                self._refresh(conn, exact=True)  # an id from elsewhere may be newer than the last notification
            found = []
            for id_ in wanted:
                owner = self._owner(id_)
                if owner is not None and self._secret_kind(id_, *self._docs[owner][id_]) is None:
                    found.append(id_)
            if not found:
                return []
            # The rows are locked in id order and screened again from the content fetched: a row
            # rewritten in place keeps its version, so the verdict held for it may be stale. What
            # screens as hidden now is withheld and counts nothing.
            fetched = conn.execute(
                "SELECT id, version, content FROM memories WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (found,)
            ).fetchall()
            shown = [int(i) for i, version, content in fetched if self._served_verdict(int(i), int(version), str(content)) is None]
            if not shown:
                return []
            rows = conn.execute(
                "UPDATE memories SET read_count = read_count + 1, last_read_at_ms = %s, probation_until_ms = NULL"
                f" WHERE id = ANY(%s) RETURNING {_COLUMNS}",
                (self._clock(), shown),
            ).fetchall()
        by_id = {record.key.id: record for record in map(_record, rows)}
        return [by_id[i] for i in found if i in by_id]

    def _writable(self, key: RecordKey | None) -> None:
        """Refuse a change by a reader, then a key no record of this namespace can have."""
        if self.role != "writer":
            raise errors.Forbidden(f"a {self.role} credential may scan and read, not change memory")
        if key is not None:
            check_key(key)
            if key.namespace is not None and key.namespace != self.namespace:
                # the namespace came with the call, so it is not repeated: it could be anything
                raise errors.Forbidden(
                    f"the key of memory {key.id} names another namespace; a writer changes only its own "
                    f"({self.namespace!r})"
                )

    def _lock_namespace(self, conn: Connection[Any]) -> None:
        """Lock this namespace's generation row, then make the cache of the namespace current.

        Under the lock no other change to the namespace can commit, so the cache read here is
        the namespace exactly until this transaction ends. One round trip when the namespace
        exists and the cache is current.
        """
        lock = "SELECT generation FROM generations WHERE namespace = %s FOR UPDATE"
        row = conn.execute(lock, (self.namespace,)).fetchone()
        if row is None:
            conn.execute(
                "INSERT INTO generations (namespace) VALUES (%s) ON CONFLICT (namespace) DO NOTHING", (self.namespace,)
            )
            row = conn.execute(lock, (self.namespace,)).fetchone()
            assert row is not None
        if self._generations.get(self.namespace) != int(row[0]) or self.namespace not in self._docs:
            self._load(conn, [self.namespace])
            self._generations[self.namespace] = int(row[0])

    _BUMP = (
        "bumped AS (UPDATE generations SET generation = nextval('generation_numbers') WHERE namespace = %s"
        " RETURNING generation)"
    )
    """A common table expression that moves this namespace's generation in the statement of the change."""

    def _own(self, conn: Connection[Any], key: RecordKey, verb: str) -> tuple[int, str]:
        """:meth:`_current` under the namespace lock; other namespaces are reread only to name a refusal."""
        if key.id not in self._docs[self.namespace]:
            self._refresh(conn, exact=True)
        return self._current(key, verb)

    def _current(self, key: RecordKey, verb: str) -> tuple[int, str]:
        """The own-namespace record ``key`` names, at its version; refusals as the local store makes them."""
        owner = self._owner(key.id)
        if owner is None:
            raise errors.NotFound(f"no memory has id {key.id}; scan again", id=key.id)
        if owner != self.namespace:
            raise errors.Forbidden(
                f"memory {key.id} belongs to namespace {owner!r}; a writer changes only its own ({self.namespace!r})"
            )
        version, content = self._docs[owner][key.id]
        if version != key.version:
            raise version_conflict(key, version, verb)
        return version, content

    def put(self, content: str, *, replace: RecordKey | None = None, probation: bool = True) -> PutResult:
        """Add a record to this store's namespace, or replace one of its records at that exact version.

        A reader is refused first; then the same checks, in the same order, as the local store (the
        content before the key it replaces); bounds count this namespace only, and only this
        namespace's expired probation rows are pruned to make room. ``probation`` false marks a
        version a person wrote (it starts graduated).

        Raises:
            Forbidden, InvalidArguments, ContentTooLarge, SecretRejected, NotFound, VersionConflict,
            Duplicate, RecordCapacity, ContentCapacity, StoreUnavailable.
        """
        self._writable(None)
        validate_content(content, self._limits)  # the content first, as the local store checks it
        self._writable(replace)
        from ..retrieval.lexer import fold_for_duplicate, utf8_size

        size = utf8_size(content)
        folded = fold_for_duplicate(content)
        with self._lock:
            with self._transaction() as conn:
                self._lock_namespace(conn)
                now = self._clock()
                replaced_size = None
                if replace is not None:
                    current = self._own(conn, replace, "replacing")[1]
                    check_changed(replace, current, content)
                    replaced_size = utf8_size(current)
                for id_, (version, existing) in self._docs[self.namespace].items():
                    if id_ != (replace.id if replace else None) and self._fold(id_, version, existing) == folded:
                        raise errors.Duplicate(
                            f"memory {id_} (version {version}) already says the same; replace it instead",
                            id=id_,
                            version=version,
                        )
                pruned = self._make_room(conn, now, size=size, replace=replace, replaced_size=replaced_size)
                until = now + self._limits.probation_ms if probation else None
                if replace is None:
                    row = conn.execute(
                        "WITH written AS (INSERT INTO memories (namespace, version, content, created_at_ms,"
                        f" updated_at_ms, probation_until_ms) VALUES (%s, 1, %s, %s, %s, %s) RETURNING {_COLUMNS}),"
                        f" {self._BUMP} SELECT written.*, bumped.generation FROM written, bumped",
                        (self.namespace, content, now, now, until, self.namespace),
                    ).fetchone()
                else:
                    row = conn.execute(
                        "WITH written AS (UPDATE memories SET version = version + 1, content = %s, updated_at_ms = %s,"
                        " probation_until_ms = %s, scan_count = 0, last_scanned_at_ms = NULL, read_count = 0,"
                        f" last_read_at_ms = NULL WHERE id = %s RETURNING {_COLUMNS}),"
                        f" {self._BUMP} SELECT written.*, bumped.generation FROM written, bumped",
                        (content, now, until, replace.id, self.namespace),
                    ).fetchone()
                assert row is not None
            # Committed: the namespace is now exactly the cache plus this change, at the new generation.
            record = _record(row[:-1])
            self._change(self.namespace, [(record.key.id, record.key.version, record.content)], pruned)
            self._generations[self.namespace] = int(row[-1])
        return PutResult(memory=record, replaced=replace is not None)

    def _make_room(
        self, conn: Connection[Any], now: int, *, size: int, replace: RecordKey | None, replaced_size: int | None
    ) -> list[int]:
        """Prune the fewest expired probation rows of this namespace, oldest first, or refuse
        (:func:`.policy.plan_put`); the ids pruned.

        The usage is the cache's, current under the namespace lock; only when a bound would be
        crossed is the database asked for the rows' ages and probation. Sizes are the ones the
        cache holds, the measure the usage was taken in (a row rewritten in place keeps its held
        size until its version moves, as in the local store); the table's only for a row the cache
        does not hold, which a write that moved no generation could have left.
        """
        from ..retrieval.lexer import utf8_size

        docs = self._docs[self.namespace]
        if fits_as_is(len(docs), self._bytes[self.namespace], self._limits, size=size, replaced_size=replaced_size):
            return []
        found = conn.execute(
            "SELECT id, octet_length(content), updated_at_ms, probation_until_ms FROM memories WHERE namespace = %s",
            (self.namespace,),
        )
        rows = []
        for id_, stored, updated, until in found:
            held = docs.get(int(id_))
            length = int(stored) if held is None else utf8_size(held[1])
            rows.append(Row(int(id_), length, int(updated), None if until is None else int(until)))
        chosen = plan_put(
            rows, self._limits, now_ms=now, size=size, replace=None if replace is None else replace.id,
            holder=f"namespace {self.namespace!r}",
        )  # fmt: skip
        assert chosen is not None  # None only for an `at_least` this store never asks
        if chosen:
            conn.execute("DELETE FROM memories WHERE id = ANY(%s)", (chosen,))
        return chosen

    def delete(self, key: RecordKey) -> None:
        """Remove a record of this namespace if it is still at ``key.version``; works at every bound.

        Raises:
            Forbidden, InvalidArguments, NotFound, VersionConflict, StoreUnavailable.
        """
        self._writable(key)
        with self._lock:
            with self._transaction() as conn:
                self._lock_namespace(conn)
                self._own(conn, key, "deleting")
                row = conn.execute(
                    f"WITH gone AS (DELETE FROM memories WHERE id = %s), {self._BUMP} SELECT generation FROM bumped",
                    (key.id, self.namespace),
                ).fetchone()
                assert row is not None
            self._change(self.namespace, [], [key.id])
            self._generations[self.namespace] = int(row[0])

    # -- people's views (no telemetry) --------------------------------------------------------

    def get(self, id_: int) -> MemoryRecord | None:
        """One visible record by id, hidden or not, telemetry untouched; ``None`` if there is none."""
        if isinstance(id_, bool) or not isinstance(id_, int) or not 1 <= id_ <= MAX_INTEGER:
            return None
        with self._transaction() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE id = %(id)s AND {_VISIBLE}", self._params(id=id_)
            ).fetchone()
        return None if row is None else _record(row)

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        """Every visible record in ``order``, hidden ones included, telemetry untouched."""
        if order not in ORDER_BY:
            raise errors.InvalidArguments(f"unknown order {order!r}; use one of {', '.join(ORDER_BY)}")
        return self.page(order=order)

    def page(self, *, order: RecordOrder = "id", after: int = 0, limit: int | None = None) -> list[MemoryRecord]:
        """Visible records with ids above ``after`` (id order only), at most ``limit`` of them."""
        where = f"{_VISIBLE} AND id > %(after)s"
        sql = f"SELECT {_COLUMNS} FROM memories WHERE {where} ORDER BY {ORDER_BY[order]}"
        if limit is not None:
            sql += " LIMIT %(limit)s"
        with self._transaction() as conn:
            rows = conn.execute(sql, self._params(after=after, limit=limit)).fetchall()
        return [_record(row) for row in rows]

    def export(self) -> Iterator[MemoryRecord]:
        """Every visible record in id order, telemetry untouched."""
        return iter(self.page(order="id"))

    def hidden_reason(self, record: MemoryRecord) -> str | None:
        """The secret kind, or the checkpoint imitation, that withholds ``record`` from models."""
        with self._lock:
            return self._secret_kind(record.key.id, record.key.version, record.content)

    def status(self) -> StoreStatus:
        """Usage of this namespace against each bound; a database failure is a ``problem``, not an error."""
        from ..retrieval.lexer import utf8_size

        where = Path(f"team:{self.namespace}")
        try:
            with self._transaction() as conn:
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM memories WHERE namespace = %s", (self.namespace,)
                ).fetchall()
        except errors.StoreUnavailable as exc:
            return StoreStatus(path=where, exists=False, problem=exc.reason, detail=exc.message, limits=self._limits)
        records = [_record(row) for row in rows]
        now = self._clock()
        return StoreStatus(
            path=where,
            exists=True,
            rows=len(records),
            content_bytes=sum(utf8_size(r.content) for r in records),
            on_probation=sum(1 for r in records if r.probation_until_ms is not None),
            expired_probation=sum(1 for r in records if r.probation_until_ms is not None and r.probation_until_ms <= now),
            hidden=sum(1 for r in records if self.hidden_reason(r) is not None),
            limits=self._limits,
        )

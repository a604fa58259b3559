"""The SQLite store: one file, one table, every change one transaction.

Storage design
--------------
The corpus is one ordinary table, ``memories``, in ``<config-dir>/memory/v1.sqlite3``. There is no
FTS virtual table and no embedding index: ranking happens in process (:mod:`tact_memory.ranking`),
so the whole data model can be read with the ``sqlite3`` shell. A second table, ``meta``, holds one
counter, ``generation``, that every content change (put, replace, delete, prune) increments and
telemetry updates do not. The in-process index compares it with the generation it was built from,
so scans reuse the index until any process changes the corpus, and a rebuild re-tokenizes only the
records whose version it has not seen.

Ids come from ``AUTOINCREMENT`` and are never reused, so a stale id can never name a newer record.
The schema is created by numbered migrations (:mod:`tact_memory.migrations`) and recorded in
``user_version``; a file with a newer ``user_version`` is refused without being written to, and so
is a file that is not a SQLite database.

Durability and locking
----------------------
Every mutation and every telemetry update runs inside ``BEGIN IMMEDIATE``, which takes the write
lock up front, so the checks it makes (version, duplicates, bounds) cannot be invalidated before it
commits. Other processes wait up to five seconds (``busy_timeout``) before the store reports the
database as ``unavailable``; SQLite's own "database is locked" never reaches a caller.

The journal mode is ``DELETE`` with ``synchronous = EXTRA``. A commit is acknowledged only after
the rollback journal and the database have been synced and the journal's deletion (the commit
point) has been synced in its folder too, so an acknowledged put or delete survives a killed
process and, as far as the disk honours fsync, a power loss; an interrupted transaction is rolled
back from the journal on the next open. (``FULL`` would leave the folder unsynced, so a power cut
just after a commit could bring the journal back and undo the last acknowledged write.) ``DELETE`` rather than ``WAL`` is deliberate: a WAL
file keeps copies of changed pages, including deleted content, until a checkpoint, while the
rollback journal is removed at every commit. Writes are rare and small, so WAL's concurrency buys
nothing here.

``secure_delete`` is on, so SQLite overwrites deleted content in the main file. It does not clear
an older copy of a row that SQLite left in the unused middle of a page it rebuilt earlier, so after
a delete, a replacement or a prune the file is rewritten from the live rows (``VACUUM``, with its
scratch copy in memory). That is removal from retrieval plus best-effort hygiene, not proof of
erasure: the filesystem, SSD wear levelling, snapshots and backups may keep old bytes.
``max_page_count`` caps the main file at 4 MiB, so growth past it fails with ``SQLITE_FULL`` and is
reported as ``database_capacity``; a scan or read whose telemetry would need one more page answers
without that telemetry.

The folder is created with mode 0700 and the file with 0600 before SQLite opens it. Nothing is
opened or created until the first operation that needs the database; ``status`` and listings of a
missing file report an empty corpus without creating it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import errors
from .checkpoint import imitates_checkpoint
from .limits import DEFAULT_LIMITS, Limits
from .migrations import SCHEMA_VERSION, migrate
from .records import Candidate, MemoryRecord, PutResult, RecordKey, RecordOrder, StoreStatus

if TYPE_CHECKING:
    from .ranking import Index

# Ranking, text and secret screening are imported on first use (they compile regular expressions
# and tables), so that `import tact_memory` stays cheap for sessions that never touch memory.

__all__ = ["SCHEMA_VERSION", "MemoryStore"]

BUSY_TIMEOUT_S = 5.0
_SQLITE_FULL = 13
_SQLITE_READONLY_DBMOVED = 1032
_MAX_SQLITE_INT = 2**63 - 1
_SIDECARS = ("-journal", "-wal", "-shm")
_COLUMNS = (
    "id, version, content, created_at_ms, updated_at_ms, scan_count, last_scanned_at_ms,"
    " read_count, last_read_at_ms, probation_until_ms"
)
_ORDER_SQL: dict[str, str] = {
    "most_useful": "read_count DESC, updated_at_ms DESC, id DESC",
    "least_useful": "read_count ASC, updated_at_ms ASC, id ASC",
    "newest": "updated_at_ms DESC, id DESC",
    "oldest": "updated_at_ms ASC, id ASC",
    "id": "id ASC",
}
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def utf8_size(text: str) -> int:
    """UTF-8 size of ``text``; raises ``ValueError`` for lone surrogates."""
    from .text import utf8_size as size

    return size(text)


def _text_size(value: object, name: str) -> tuple[str, int]:
    """An argument that must be text, and its UTF-8 size."""
    if not isinstance(value, str):
        raise errors.InvalidArguments(f"{name} must be a string")
    try:
        return value, utf8_size(value)
    except ValueError as exc:
        raise errors.InvalidArguments(f"{name} is not valid text: {exc}") from exc


def _is_full(exc: BaseException) -> bool:
    """SQLITE_FULL: the page limit (or the disk). Python 3.10 has no error codes, only the text."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code == _SQLITE_FULL or (code is None and "is full" in str(exc).lower())


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _check_key(key: RecordKey) -> None:
    """Refuse ids and versions SQLite cannot hold, before they reach a query or a message."""
    if not (1 <= key.id <= _MAX_SQLITE_INT and 1 <= key.version <= _MAX_SQLITE_INT):
        raise errors.InvalidArguments(f"id and version must be integers from 1 to {_MAX_SQLITE_INT}")


def _record(row: Any) -> MemoryRecord:
    (id_, version, content, created, updated, scans, scanned, reads, read_at, probation) = tuple(row)
    return MemoryRecord(
        key=RecordKey(int(id_), int(version)),
        content=str(content),
        created_at_ms=int(created),
        updated_at_ms=int(updated),
        scan_count=int(scans),
        last_scanned_at_ms=None if scanned is None else int(scanned),
        read_count=int(reads),
        last_read_at_ms=None if read_at is None else int(read_at),
        probation_until_ms=None if probation is None else int(probation),
    )


class MemoryStore:
    """The corpus of one configuration directory, in one SQLite file.

    Thread-safe: one connection guarded by a lock, so async callers can run operations in worker
    threads. Cheap to construct: nothing touches the filesystem until the first operation.

    Args:
        path: The database file, normally :attr:`tact_memory.config.Config.database_path`.
        limits: The bounds; tests pass smaller ones to reach them quickly.
        clock: Milliseconds since the epoch; tests pass a fake clock for probation deadlines.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], int] = _now_ms,
    ) -> None:
        self.path = Path(os.path.abspath(path))
        self.limits = limits
        self._clock = clock
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._index_: Index | None = None
        self._generation: int | None = None
        # (id, version) -> secret kind or None; a version's content never changes, so this is exact.
        self._secret_cache: dict[tuple[int, int], str | None] = {}
        self._docs: dict[int, tuple[int, str]] = {}
        self._scrub_needed = False  # content left the file and VACUUM has not rewritten it yet

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def opened(self) -> bool:
        """Whether the database has been opened (it is opened lazily by the first operation)."""
        return self._conn is not None

    def close(self) -> None:
        """Close the connection; the next operation opens it again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
                self._generation = None

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _unavailable(self, reason: str, message: str) -> errors.StoreUnavailable:
        return errors.StoreUnavailable(
            f"memory database {self.path}: {message}", path=str(self.path), reason=reason
        )

    def _translate(self, exc: BaseException) -> errors.TactMemoryError:
        """Turn a foreign error into one of ours; the caller raises it ``from exc``."""
        if isinstance(exc, errors.TactMemoryError):
            return exc
        text = str(exc).lower()
        if _is_full(exc):
            return errors.DatabaseCapacity(
                f"the memory database file reached its {self.limits.file_bytes:,}-byte limit "
                "(or the disk is full); delete records you no longer need",
                limit=self.limits.file_bytes,
            )
        if "locked" in text or "busy" in text:
            return self._unavailable(
                "busy", f"another process held the write lock for more than {BUSY_TIMEOUT_S:g} s; try again"
            )
        if getattr(exc, "sqlite_errorcode", None) == _SQLITE_READONLY_DBMOVED:
            return self._unavailable(
                "moved", "the file was moved or deleted while in use; nothing was written, and the next call opens it again"
            )
        if "disk i/o error" in text:
            return self._unavailable(
                "io_error", "the disk refused a read or write (it may be full or failing); the change was rolled back"
            )
        if "readonly" in text or "read-only" in text:
            return self._unavailable("read_only", "the file or its folder is read-only")
        if isinstance(exc, PermissionError) or "permission" in text or "unable to open" in text:
            return self._unavailable("permission_denied", "cannot open or create the file (permission denied)")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return self._unavailable("not_a_database", "the file is not a valid SQLite database; it was left untouched")
        if isinstance(exc, OSError):
            return self._unavailable("os_error", exc.strerror or str(exc))
        return self._unavailable("sqlite_error", str(exc))

    def _connection(self, *, create: bool = True) -> sqlite3.Connection | None:
        """The open connection, opening (and with ``create``, creating) the database first."""
        if self._conn is not None:
            return self._conn
        if not create and not self.path.exists():
            return None
        try:
            conn = self._open(create=create)
        except (sqlite3.Error, OSError) as exc:
            raise self._translate(exc) from exc
        self._conn = conn
        return conn

    def _open(self, *, create: bool) -> sqlite3.Connection | None:
        if self.path.exists() and not self.path.is_file():
            raise self._unavailable("not_a_file", "the path exists but is not a regular file")
        if create:
            self._create_file()
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        try:
            # Read before any write: a foreign or newer file must be refused untouched.
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise self._unavailable(
                    "newer_schema",
                    f"schema version {version} is newer than this tact-memory understands "
                    f"({SCHEMA_VERSION}); it was left untouched. Upgrade tact-memory to use it.",
                )
            if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise self._unavailable(
                    "foreign_database", "the file is a SQLite database of another program; it was left untouched"
                )
            if version < SCHEMA_VERSION and not create:
                conn.close()  # an empty file: nothing to read, and reading must not write
                return None
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA synchronous = EXTRA")
            if version < SCHEMA_VERSION:
                migrate(conn, page_size=self.limits.page_size)
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "delete":
                conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute(f"PRAGMA max_page_count = {int(self.limits.max_pages)}")
            conn.execute("PRAGMA temp_store = MEMORY")  # VACUUM's scratch copy stays out of /tmp
        except BaseException:
            conn.close()
            raise
        return conn

    def _create_file(self) -> None:
        folder = self.path.parent
        if not folder.exists():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return
        os.close(fd)
        os.chmod(self.path, 0o600)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any error rolls everything back and is translated."""
        with self._lock:
            conn = self._connection()
            assert conn is not None
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._translate(exc) from exc
            try:
                yield conn
                if conn.in_transaction:  # SQLite may have rolled back a telemetry-only transaction
                    conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                # The index may have been refreshed inside the transaction (after a prune) to a
                # generation number the rollback just undid; the next commit could reuse that number
                # and hide the difference, so rebuild from the file next time.
                self._generation = None
                if isinstance(exc, (sqlite3.Error, OSError)):
                    translated = self._translate(exc)
                    if isinstance(translated, errors.StoreUnavailable) and translated.reason != "busy":
                        # A connection to a moved, corrupt or read-only file stays that way; the
                        # next call opens the path afresh, so the loop recovers once it is fixed.
                        self.close()
                    raise translated from exc
                raise

    # -- the in-process index ----------------------------------------------------------------

    @property
    def _index(self) -> Index:
        if self._index_ is None:
            from .ranking import Index

            self._index_ = Index()
        return self._index_

    def _secret_kind(self, id_: int, version: int, content: str) -> str | None:
        key = (id_, version)
        if key not in self._secret_cache:
            from .secrets import find_secret

            self._secret_cache[key] = find_secret(content)
        return self._secret_cache[key]

    def _refresh(self, conn: sqlite3.Connection) -> None:
        """Bring the index up to date if any process changed the corpus since it was built."""
        generation = int(conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])
        if generation == self._generation:
            return
        rows = conn.execute("SELECT id, version, content FROM memories").fetchall()
        self._docs = {int(r[0]): (int(r[1]), str(r[2])) for r in rows}
        live = {(i, v) for i, (v, _) in self._docs.items()}
        self._secret_cache = {k: kind for k, kind in self._secret_cache.items() if k in live}
        self._index.sync(
            (i, v, c) for i, (v, c) in self._docs.items() if self._secret_kind(i, v, c) is None
        )
        self._generation = generation

    def _hidden(self, id_: int) -> bool:
        version, content = self._docs[id_]
        return self._secret_kind(id_, version, content) is not None

    @staticmethod
    def _record_telemetry(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> None:
        """Run a telemetry update; at the file bound, skip it rather than fail the scan or read.

        A first scan time turns a NULL into an integer, so a row grows; on a full page that needs a
        page the file may not add (``SQLITE_FULL``). SQLite undoes just that statement, and the
        caller still answers, without this call's telemetry.
        """
        try:
            conn.execute(sql, params)
        except sqlite3.OperationalError as exc:
            # SQLite undoes the statement, or (when it kept no statement journal) the transaction,
            # which held nothing but this scan's or read's own telemetry either way.
            if not _is_full(exc):
                raise

    @staticmethod
    def _bump_generation(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")

    # -- operations ----------------------------------------------------------------------------

    def scan(self, query: str, *, limit: int = 5) -> list[Candidate]:
        """Return at most ``limit`` candidate cards for ``query``, best first.

        Only the returned records get their scan count and time bumped; an abstaining scan (no
        searchable term, or no record sharing one) changes nothing.

        Raises:
            InvalidArguments: the query is not text, is over 512 bytes, or ``limit`` is not 1..5.
        """
        self._check_query(query, limit)
        with self._transaction() as conn:
            self._refresh(conn)
            hits = self._index.search(query, limit=limit)
            if not hits:
                return []
            now = self._clock()
            ids = [hit.id for hit in hits]
            marks = ", ".join("?" * len(ids))  # at most five ids: plain parameters are cheapest
            self._record_telemetry(
                conn,
                f"UPDATE memories SET scan_count = scan_count + 1, last_scanned_at_ms = ? WHERE id IN ({marks})",
                (now, *ids),
            )
        from . import text

        cards = []
        for hit in hits:
            version, content = self._docs[hit.id]
            cards.append(
                Candidate(
                    key=RecordKey(hit.id, version),
                    score=round(hit.score, 4),
                    preview=text.preview(content, self.limits.preview_bytes),
                )
            )
        return cards

    def _check_query(self, query: object, limit: object) -> None:
        _, size = _text_size(query, "query")
        if size > self.limits.query_bytes:
            raise errors.InvalidArguments(
                f"query is {size:,} bytes; the limit is {self.limits.query_bytes:,}. Use fewer, more specific words."
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= self.limits.scan_results:
            raise errors.InvalidArguments(f"limit must be an integer from 1 to {self.limits.scan_results}")

    def read(self, ids: Sequence[int]) -> list[MemoryRecord]:
        """Full records for ``ids`` (duplicates removed, first-seen order, missing ids omitted).

        Every returned record gets its read count and time bumped and leaves probation.
        """
        wanted = list(dict.fromkeys(ids))
        for id_ in wanted:
            if isinstance(id_, bool) or not isinstance(id_, int) or id_ < 1:
                raise errors.InvalidArguments("ids must be positive integers")
        if not wanted:
            raise errors.InvalidArguments("ids must name at least one record")
        with self._transaction() as conn:
            self._refresh(conn)
            found = [i for i in wanted if i in self._docs and not self._hidden(i)]
            if not found:
                return []
            now = self._clock()
            self._record_telemetry(
                conn,
                "UPDATE memories SET read_count = read_count + 1, last_read_at_ms = ?,"
                " probation_until_ms = NULL WHERE id IN (SELECT value FROM json_each(?))",
                (now, json.dumps(found)),
            )
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(found),),
            ).fetchall()
        by_id = {int(row[0]): _record(row) for row in rows}
        return [by_id[i] for i in found if i in by_id]

    def validate_content(self, content: object) -> str:
        """Check content the way put does, before any database work.

        Raises:
            InvalidArguments, ContentTooLarge, SecretRejected.
        """
        content, size = _text_size(content, "content")
        if not content.strip():
            raise errors.InvalidArguments("content is empty; store one self-contained conclusion")
        if any(ord(ch) < 32 and ch not in _ALLOWED_CONTROLS or ord(ch) == 127 for ch in content):
            raise errors.InvalidArguments("content contains control characters other than tab and newline")
        if size > self.limits.record_bytes:
            raise errors.ContentTooLarge(
                f"content is {size:,} UTF-8 bytes; one record holds at most {self.limits.record_bytes:,}. "
                "Store one atomic conclusion, or split unrelated facts into separate records.",
                size=size,
                limit=self.limits.record_bytes,
            )
        if imitates_checkpoint(content):
            raise errors.InvalidArguments("content contains the reserved runtime control marker")
        from .secrets import KINDS, find_secret

        kind = find_secret(content)
        if kind is not None:
            raise errors.SecretRejected(
                f"content looks like it contains {KINDS.get(kind, 'a credential')}; credentials are never "
                "stored. Store the conclusion without the value (for example, where the value is kept).",
                kind=kind,
            )
        return content

    def put(self, content: str, *, replace: RecordKey | None = None, probation: bool = True) -> PutResult:
        """Add one conclusion, or replace the record ``replace`` names at that exact version.

        A new or replaced version starts seven days of unread probation, unless ``probation`` is
        false: a version a person wrote (the command line's ``add``, ``edit``, ``import``) is not
        model-authored, so it starts graduated and is never pruned. Expired unread probation rows
        are pruned only when a bound would otherwise refuse the put; a read record is never
        evicted. A refused put changes nothing.

        Raises:
            InvalidArguments, ContentTooLarge, SecretRejected, NotFound, VersionConflict,
            Duplicate, RecordCapacity, ContentCapacity, DatabaseCapacity, StoreUnavailable.
        """
        self.validate_content(content)
        if replace is not None:
            _check_key(replace)
        try:
            return self._put(content, replace, prune_first=False, probation=probation)
        except errors.DatabaseCapacity:
            # SQLITE_FULL: the transaction is gone; try once more with expired probation pruned.
            return self._put(content, replace, prune_first=True, probation=probation)

    def _put(self, content: str, replace: RecordKey | None, *, prune_first: bool, probation: bool) -> PutResult:
        from .text import fold_for_duplicate

        size = utf8_size(content)
        folded = fold_for_duplicate(content)
        with self._transaction() as conn:
            self._refresh(conn)
            now = self._clock()
            old_size = 0
            if replace is not None:
                current = self._docs.get(replace.id)
                if current is None:
                    raise errors.NotFound(f"no memory has id {replace.id}; scan again", id=replace.id)
                if current[0] != replace.version:
                    raise errors.VersionConflict(
                        f"memory {replace.id} is at version {current[0]}, not {replace.version}; "
                        "read it again before replacing it",
                        id=replace.id,
                        current_version=current[0],
                    )
                old_size = utf8_size(current[1])
            for id_, (version, existing) in self._docs.items():
                if id_ != (replace.id if replace else None) and fold_for_duplicate(existing) == folded:
                    raise errors.Duplicate(
                        f"memory {id_} (version {version}) already says the same; replace it instead",
                        id=id_,
                        version=version,
                    )
            if prune_first and self._prune_expired(conn, now, keep=replace):
                self._refresh(conn)
            self._check_capacity(conn, now, grows_rows=replace is None, delta=size - old_size, keep=replace)
            until = now + self.limits.probation_ms if probation else None
            if replace is None:
                cur = conn.execute(
                    "INSERT INTO memories (version, content, created_at_ms, updated_at_ms, probation_until_ms)"
                    " VALUES (1, ?, ?, ?, ?)",
                    (content, now, now, until),
                )
                new_id = int(cur.lastrowid or 0)
            else:
                conn.execute(
                    "UPDATE memories SET version = version + 1, content = ?, updated_at_ms = ?,"
                    " probation_until_ms = ? WHERE id = ?",
                    (content, now, until, replace.id),
                )
                new_id = replace.id
            self._bump_generation(conn)
            row = conn.execute(f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (new_id,)).fetchone()
        if replace is not None or self._scrub_needed:
            self._scrub()
        return PutResult(memory=_record(row), replaced=replace is not None)

    def _usage(self, conn: sqlite3.Connection) -> tuple[int, int]:
        rows, size = conn.execute(
            "SELECT count(*), coalesce(sum(length(CAST(content AS BLOB))), 0) FROM memories"
        ).fetchone()
        return int(rows), int(size)

    def _check_capacity(
        self, conn: sqlite3.Connection, now: int, *, grows_rows: bool, delta: int, keep: RecordKey | None
    ) -> None:
        rows, size = self._usage(conn)
        if self._fits(rows, size, grows_rows, delta):
            return
        if self._prune_expired(conn, now, keep=keep):
            self._refresh(conn)
            rows, size = self._usage(conn)
        if grows_rows and rows + 1 > self.limits.rows:
            raise errors.RecordCapacity(
                f"memory holds its maximum of {self.limits.rows} records and none is an expired, unread "
                "probation record; delete or replace a record first",
                limit=self.limits.rows,
            )
        if size + delta > self.limits.content_bytes:
            raise errors.ContentCapacity(
                f"this would bring stored content to {size + delta:,} bytes, over the "
                f"{self.limits.content_bytes:,}-byte limit; delete or shorten records first",
                limit=self.limits.content_bytes,
            )

    def _fits(self, rows: int, size: int, grows_rows: bool, delta: int) -> bool:
        return (not grows_rows or rows + 1 <= self.limits.rows) and size + delta <= self.limits.content_bytes

    def _prune_expired(self, conn: sqlite3.Connection, now: int, *, keep: RecordKey | None) -> int:
        """Delete rows whose current version went unread through its probation; returns how many.

        A read clears ``probation_until_ms`` and a replacement sets it again, so this is per version:
        a record read once and then replaced is on probation again until its new version is read.
        """
        cur = conn.execute(
            "DELETE FROM memories WHERE probation_until_ms IS NOT NULL AND probation_until_ms <= ?"
            " AND id != ?",
            (now, keep.id if keep else 0),
        )
        if cur.rowcount:
            self._bump_generation(conn)
            self._scrub_needed = True
        return int(cur.rowcount)

    def _scrub(self) -> None:
        """Rewrite the file from its live rows once content has left it (best effort).

        ``secure_delete`` zeroes a deleted row, but when SQLite rebuilt a page earlier (a split or
        merge) it can leave an older copy of a row in the page's unused middle; after the row is
        deleted or replaced, that copy would be the last one. ``VACUUM`` rebuilds every page from
        the live rows. The removal itself is already committed; if this fails (a busy or full
        disk), the next removal tries again.
        """
        with self._lock:
            self._scrub_needed = False
            if self._conn is None:
                return
            try:
                self._conn.execute("VACUUM")
            except sqlite3.Error:
                self._scrub_needed = True

    def delete(self, key: RecordKey) -> None:
        """Remove the record from the database and from retrieval, if it is still at ``key.version``.

        Works at every bound. Removal from retrieval is not proof of physical erasure; see the
        module docstring.

        Raises:
            NotFound, VersionConflict, StoreUnavailable.
        """
        _check_key(key)
        if not self.opened and not self.path.exists():
            raise errors.NotFound(f"no memory has id {key.id}", id=key.id)  # and nothing is created
        with self._transaction() as conn:
            row = conn.execute("SELECT version FROM memories WHERE id = ?", (key.id,)).fetchone()
            if row is None:
                raise errors.NotFound(f"no memory has id {key.id}", id=key.id)
            if int(row[0]) != key.version:
                raise errors.VersionConflict(
                    f"memory {key.id} is at version {row[0]}, not {key.version}; it changed since you saw it",
                    id=key.id,
                    current_version=int(row[0]),
                )
            conn.execute("DELETE FROM memories WHERE id = ?", (key.id,))
            self._bump_generation(conn)
        self._scrub()

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        """Every live record in ``order``; reads only, no telemetry. A missing file lists nothing."""
        if order not in _ORDER_SQL:
            raise errors.InvalidArguments(f"unknown order {order!r}; use one of {', '.join(_ORDER_SQL)}")
        with self._lock:
            conn = self._connection(create=False)
            if conn is None:
                return []
            try:
                rows = conn.execute(f"SELECT {_COLUMNS} FROM memories ORDER BY {_ORDER_SQL[order]}").fetchall()
            except sqlite3.Error as exc:
                raise self._translate(exc) from exc
        return [_record(row) for row in rows]

    def get(self, id_: int) -> MemoryRecord | None:
        """One record by id without telemetry (for people, not models), or ``None``."""
        with self._lock:
            conn = self._connection(create=False)
            if conn is None:
                return None
            try:
                row = conn.execute(f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (id_,)).fetchone()
            except sqlite3.Error as exc:
                raise self._translate(exc) from exc
        return None if row is None else _record(row)

    def secret_kind(self, record: MemoryRecord) -> str | None:
        """The secret pattern a stored record matches (it is then hidden from models), or ``None``."""
        return self._secret_kind(record.key.id, record.key.version, record.content)

    def status(self) -> StoreStatus:
        """Usage against each bound and any degraded state, never creating or changing a file."""
        sidecars = sum(
            os.path.getsize(f"{self.path}{suffix}")
            for suffix in _SIDECARS
            if os.path.exists(f"{self.path}{suffix}")
        )
        if not self.path.exists():
            return StoreStatus(path=self.path, exists=False, limits=self.limits, sidecar_bytes=sidecars)
        file_bytes = os.path.getsize(self.path)
        try:
            records = self.list_records(order="id")
        except errors.StoreUnavailable as exc:
            return StoreStatus(
                path=self.path, exists=True, file_bytes=file_bytes, sidecar_bytes=sidecars,
                problem=exc.reason, detail=exc.message, limits=self.limits,
            )  # fmt: skip
        now = self._clock()
        return StoreStatus(
            path=self.path,
            exists=True,
            rows=len(records),
            content_bytes=sum(utf8_size(r.content) for r in records),
            file_bytes=file_bytes,
            sidecar_bytes=sidecars,
            on_probation=sum(1 for r in records if r.probation_until_ms is not None),
            expired_probation=sum(
                1 for r in records if r.probation_until_ms is not None and r.probation_until_ms <= now
            ),
            hidden=sum(1 for r in records if self.secret_kind(r) is not None),
            limits=self.limits,
        )

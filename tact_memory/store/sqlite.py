"""The SQLite store: one file, one table of records, every change one transaction.

The corpus is one ordinary table, ``memories``, in ``<config-dir>/memory/v1.sqlite3``. There is no
FTS virtual table and no embedding index: ranking happens in process (:mod:`tact_memory.retrieval.bm25`),
so the whole data model can be read with the ``sqlite3`` shell. What scans and reads record (counts,
times, unread probation) sits in a table of its own, ``telemetry``, one row per record, so that a
scan's write touches no page that holds content. A third table, ``meta``, holds one counter,
``generation``, that every content change (put, replace, delete, prune) increments and telemetry
updates do not. Ids come from ``AUTOINCREMENT`` and are never reused, so a stale id can
never name a newer record.

This module composes the store from one module per concern, each the single home of its rules:

- :mod:`.policy`: validation, visibility, probation and capacity, decided without SQLite;
- :mod:`.connection`: opening (file checks, schema check, first migration), pragmas, durability and
  the kinds of transaction; :mod:`.schema` and :mod:`.files` under it;
- :mod:`.sqlite_errors`: SQLite's errors to ours, by result code, in one place;
- :mod:`.rows`: cells checked for their type as they are read (``malformed_row``);
- :mod:`.index`: the in-process index, refreshed when another process moved the generation and
  updated in place after this process's own commits; :mod:`.derived` for what rows keep of it;
- :mod:`.hygiene`: the scrub after content leaves the file (a check of its loose bytes, ``VACUUM``
  when it finds the text, a truncating WAL checkpoint, the WAL started again).

What is left here is the transaction around each operation and the SQL of the operations. (That
is why this module is longer than the others, about 500 lines: it is the one class that implements
:class:`~tact_memory.backend.MemoryBackend`, ten operations and their transactions, and splitting the
class across files would put one operation's SQL apart from its transaction.) A put
that meets ``SQLITE_FULL`` retries, pruning one more expired probation row each time, because only
SQLite knows whether a freed row makes room in its pages; a scan or read whose telemetry would need
one more page answers without that telemetry. Nothing is opened or created until the first
operation that needs the database; ``status`` and listings of a missing file report an empty corpus
without creating it.
"""

from __future__ import annotations

import _thread
import errno
import itertools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from .. import errors
from ..clock import now_ms
from ..limits import DEFAULT_LIMITS, Limits
from ..records import (
    Candidate,
    MemoryRecord,
    PutResult,
    RecordKey,
    StoreStatus,
)
from . import derived as stored
from . import held, policy, rows
from .connection import TRANSACTIONS, begin, commit_unchanged, open_database, use_wal
from .files import SIDECARS, unwritable
from .hygiene import Scrubber
from .index import CorpusIndex
from .schema import SCHEMA_VERSION
from .sqlite_errors import (
    SQLITE_PERM,
    SQLITE_READONLY,
    SQLITE_READONLY_DBMOVED,
    UNAVAILABLE,
    is_full,
    translate,
    translating,
    unavailable,
)

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import TypeVar

    from ..backend import RecordOrder
    from ..retrieval.bm25 import Hit, Index
    from .connection import TransactionKind

    _Result = TypeVar("_Result")

__all__ = ["BUSY_TIMEOUT_S", "SCAN_TELEMETRY", "SCHEMA_VERSION", "MemoryStore", "telemetry_parameters"]

BUSY_TIMEOUT_S = 5.0
"""How long an operation waits for another process's write lock before answering ``busy``."""

_AT_VERSION = "(id, version) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))"
"""Rows still at the version a view saw: ``?`` is a JSON list of ``[id, version]`` pairs."""

SCAN_TELEMETRY = (
    "INSERT INTO telemetry (memory_id, scan_count, last_scanned_at_ms)"
    f" SELECT id, 1, :now FROM memories WHERE id = :id AND version = :version AND {rows.MEMORY_CELLS_VALID}"
    " ON CONFLICT (memory_id) DO UPDATE SET scan_count = scan_count + 1, last_scanned_at_ms = :now"
    f" WHERE {rows.TELEMETRY_CELLS_VALID}"
)
"""A scan's telemetry for one served card (``now``, ``id``, ``version``, by name): counted only while
the record is at that version and every cell of it is sound; a record without a telemetry row gets
one. Written into the ``telemetry`` table alone, so a scan rewrites none of the pages that hold
content. Named, not numbered (a question mark and a number): Python 3.12.0 to 3.12.3 warn that such
a parameter given by position is a named one (CPython gh-117995)."""

_READ = (
    "INSERT INTO telemetry (memory_id, read_count, last_read_at_ms)"
    " SELECT id, 1, :now FROM memories WHERE id = :id AND version = :version"
    " ON CONFLICT (memory_id) DO UPDATE SET read_count = read_count + 1, last_read_at_ms = :now,"
    " probation_until_ms = NULL"
)
"""A read's telemetry for one record (``now``, ``id``, ``version``, by name): counted, and the record leaves
probation, while it is at that version (the read has checked every cell of it)."""

_TELEMETRY_STARTS = "INSERT OR REPLACE INTO telemetry (memory_id, probation_until_ms) VALUES (?, ?)"
"""A new version's telemetry ``(id, probation deadline or None)``: never scanned or read; it
replaces the telemetry of the version before, and any row a hand left for an id not yet used."""


def telemetry_parameters(now: int, id_: int, version: int) -> dict[str, int]:
    """The parameters of :data:`SCAN_TELEMETRY` (or a read's) for the record at ``(id_, version)``."""
    return {"now": now, "id": id_, "version": version}


def _pruning_until_it_fits(attempt: Callable[[int], _Result | None]) -> _Result:
    """Run ``attempt(at_least)`` with ``at_least`` = 0, 1, 2, … while it meets ``SQLITE_FULL``, and
    answer its first result; raise the last refusal once it answers ``None`` (fewer expired rows
    than ``at_least`` are left to prune).

    The file is at its page limit and the try's transaction is gone. Whether removing rows frees a
    page the new rows can use depends on where they sit, so each try is its own transaction that
    prunes one more expired probation row, oldest first: the first that fits removed the fewest. A
    try that does not fit changes nothing.
    """
    full: errors.DatabaseCapacity | None = None
    try:
        for at_least in itertools.count():
            try:
                result = attempt(at_least)
            except errors.DatabaseCapacity as exc:
                full = exc
                continue
            if result is None:
                assert full is not None
                raise full
            return result
        raise AssertionError("unreachable")  # pragma: no cover
    finally:
        # The refusal's traceback holds this frame, so the name would make a cycle that keeps
        # every frame and cursor of the tries alive until the collector runs; a connection closed
        # meanwhile is then closed only in name on Python 3.10, its WAL not folded in.
        full = None


def _size(path: str) -> int:
    """A file's own size (a link is not followed), 0 when it does not exist."""
    try:
        return os.lstat(path).st_size
    except (FileNotFoundError, NotADirectoryError):
        return 0


class MemoryStore:
    """The corpus of one configuration directory, in one SQLite file.

    Thread-safe: one connection guarded by a lock, so async callers can run operations in worker
    threads. Cheap to construct: nothing touches the filesystem until the first operation.

    Args:
        path: The database file, normally :attr:`tact_memory.config.loading.Config.database_path`.
        limits: The bounds; tests pass smaller ones to reach them quickly.
        clock: Milliseconds since the epoch; tests pass a fake clock for probation deadlines.
    """

    def __init__(self, path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS, clock: Callable[[], int] = now_ms) -> None:
        self.path = Path(os.path.abspath(path))
        self.limits = limits
        self._clock = clock
        self._lock = _thread.RLock()  # threading's RLock, without importing threading (a cold process)
        self._conn: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file the connection opened
        self._older_schema = False
        self._synchronous: str | None = None  # the level set on this connection, once it is in WAL mode
        self._corpus = CorpusIndex()
        self._matched_at: int | None = None  # this connection's data_version when the index last matched the file
        self._scrubber = Scrubber()
        self._unknown_frames = False
        """The WAL held frames when this connection opened it (another process's, or a killed one's):
        the first write of this store marks a scrub of unknown removals (:mod:`.hygiene`). A store
        that only reads (the browser, ``list``) never scrubs for them, so it writes nothing."""

    # -- connection and transactions -------------------------------------------------------------

    @property
    def opened(self) -> bool:
        """Whether the database has been opened (it is opened lazily by the first operation)."""
        return self._conn is not None

    def close(self) -> None:
        """Close the connection; the next operation opens it again."""
        with self._lock:
            if self._conn is not None:
                if self._scrubber.owed and not self._conn.in_transaction:
                    self._scrubber.scrub(self._conn, self._image, restart=False)  # one a busy reader left owed
                self._conn.close()
                self._conn = None
                self._unknown_frames = False  # the next open looks at the WAL again
                self._synchronous = None
                self._identity = None
                self._matched_at = None
                self._corpus.invalidate()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _translate(self, exc: BaseException) -> errors.TactMemoryError:
        return translate(exc, path=self.path, file_bytes=self.limits.file_bytes, busy_timeout_s=BUSY_TIMEOUT_S)

    def _translating(self) -> AbstractContextManager[None]:
        return translating(self.path, file_bytes=self.limits.file_bytes, busy_timeout_s=BUSY_TIMEOUT_S)

    def _absent(self) -> bool:
        """No database file, and nothing in its place to report: a linked folder, or a file where
        the folder should be, is refused (``unavailable``) by opening it, not taken for no records."""
        folder = self.path.parent
        return (
            not os.path.lexists(self.path)
            and not os.path.islink(folder)
            and (os.path.isdir(folder) or not os.path.lexists(folder))
        )

    def _connection(self, *, create: bool = True) -> sqlite3.Connection | None:
        """The open connection, opening (and with ``create``, creating) the database first."""
        if self._conn is not None and create and self._older_schema:
            self.close()  # opened for reading an older file: a writer migrates it first
        if self._conn is None:
            if _size(f"{self.path}-wal") > 0:
                # Frames left in the WAL: another process is writing, or one ended without its
                # closing checkpoint, perhaps killed between a removal and its scrub. Scrub after
                # this store's first write, in case that debt is still unpaid.
                self._unknown_frames = True
            with self._translating():
                self._conn = open_database(self.path, self.limits, create=create, busy_timeout_s=BUSY_TIMEOUT_S)
                if self._conn is not None:
                    st = os.stat(self.path)
                    self._identity = (st.st_dev, st.st_ino)
                self._older_schema = (
                    self._conn is not None
                    and self._conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION
                )
        return self._conn

    def _check_not_moved(self) -> None:
        """Refuse to go on with a file that was moved or deleted since the connection opened it.

        In WAL mode SQLite would keep writing to the unlinked file and its unlinked WAL (it notices
        a moved file only when it creates a rollback journal), so an acknowledged write would land
        nowhere anyone can find. One ``stat`` per transaction closes that gap.
        """
        if self._moved():
            self.close()
            raise unavailable(self.path, *UNAVAILABLE[SQLITE_READONLY_DBMOVED])

    def _moved(self) -> bool:
        """Whether the file at the path is no longer the one the open connection opened."""
        try:
            st = os.stat(self.path)
        except OSError:
            return True
        return (st.st_dev, st.st_ino) != self._identity

    def _view_connection(self) -> sqlite3.Connection | None:
        """The connection for a people's view, of the file that is at the path now.

        A connection keeps reading a file that was deleted, or replaced by a rename, after it
        opened it; a view would show records that are no longer anywhere. So a view whose file
        moved closes that connection and opens the path afresh (nothing, if the file is gone).
        """
        if self._conn is not None and self._moved():
            self.close()
        return self._connection(create=False)

    @contextmanager
    def _transaction(self, kind: TransactionKind) -> Iterator[sqlite3.Connection]:
        """One transaction of ``kind``; any error rolls everything back and is translated.

        A write (mutation, removal or telemetry) first makes sure the file is in WAL mode and sets
        its kind's sync level (:data:`.connection.TRANSACTIONS`). After it commits, a scrub that is
        owed (:mod:`.hygiene`) is paid; a removal is made durable by it, or else by a flush of
        the WAL, before this returns.
        """
        spec = TRANSACTIONS[kind]
        with self._lock:
            conn = self._connection()
            assert conn is not None
            self._check_not_moved()
            wal = self._held_wal() if kind == "removal" else None
            if kind == "removal" and wal is None:
                spec = TRANSACTIONS["mutation"]  # no descriptor to flush the WAL through: the commit syncs
            try:
                with self._translating():
                    if spec.synchronous is not None and spec.synchronous != self._synchronous:
                        # Once in WAL mode a file stays so while this connection is open (leaving
                        # it needs an exclusive lock), and the level stays as last set here.
                        if self._synchronous is None:
                            use_wal(conn, busy_timeout_s=BUSY_TIMEOUT_S)
                        conn.execute(f"PRAGMA synchronous = {spec.synchronous}")
                        self._synchronous = spec.synchronous
                    if spec.polls:
                        begin(conn, spec.begin, busy_timeout_s=BUSY_TIMEOUT_S)
                    else:
                        conn.execute(spec.begin)
            except errors.StoreUnavailable as refused:
                if refused.reason != "busy":
                    self.close()  # read-only or moved: the next call opens the path afresh
                raise
            try:
                yield conn
                if conn.in_transaction:  # SQLite may have rolled back a telemetry-only transaction
                    conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                self._corpus.invalidate()  # the file's generation went back; compare versions again
                if not isinstance(exc, (sqlite3.Error, OSError)):
                    raise
                error = self._translate(exc)
                if isinstance(error, errors.StoreUnavailable) and error.reason != "busy":
                    # A connection to a moved, corrupt or read-only file stays that way; the next
                    # call opens the path afresh, so the loop recovers once it is fixed.
                    self.close()
                try:
                    raise error from exc
                finally:
                    del error  # its traceback holds this frame: see _pruning_until_it_fits
            copied = False
            if spec.synchronous is not None and self._unknown_frames:
                self._unknown_frames = False
                self._scrubber.mark()  # this store has written: it scrubs for what the frames may have removed
            if spec.synchronous is not None and self._scrubber.owed:
                copied = self._scrubber.scrub(conn, self._image)
            if wal is not None and not copied:
                self._flush_wal(conn, wal)

    def _held_wal(self) -> held.Identity | None:
        """The WAL's identity, if SQLite is seen to hold the WAL at that path open (so that a flush
        of the file at the path is a flush of the WAL it writes to)."""
        wal = held.identity(f"{self.path}-wal")
        return wal if wal is not None and held.descriptor(wal) is not None else None

    def _flush_wal(self, conn: sqlite3.Connection, wal: held.Identity) -> None:
        """Make a committed removal durable when no checkpoint synced the WAL after it: flush the
        WAL, or (the path no longer names SQLite's WAL) commit nothing at ``FULL``, which syncs
        the WAL SQLite writes to. A scrub that the disk failed is not retried: a second flush can
        succeed after the first lost what it could not write.

        Raises:
            StoreUnavailable: the disk refused a flush; the change is in the file but a power loss
                could still undo it, and the message says so. The connection is closed, so the
                next call opens the file afresh (and SQLite's close copies the WAL into it first).
        """
        try:
            if self._scrubber.disk_error is not None:
                raise self._scrubber.disk_error
            if held.sync(f"{self.path}-wal", wal):
                return
            conn.execute("PRAGMA synchronous = FULL")
            self._synchronous = "FULL"
            commit_unchanged(conn)
        except (sqlite3.Error, OSError) as exc:
            self._corpus.invalidate()  # the caller will not apply its change to the index: compare again
            if isinstance(exc, OSError):  # the flush itself: the disk could not store what it held
                reason = "disk_full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "io_error"
            else:
                error = self._translate(exc)
                reason = error.reason if isinstance(error, errors.StoreUnavailable) else "disk_full"
            self.close()
            raise unavailable(
                self.path,
                reason,
                "the change was written, but the disk refused to flush it, so a power loss or a "
                "crash of the system could still undo it; check the disk before relying on it",
            ) from exc

    @contextmanager
    def _view(self, conn: sqlite3.Connection) -> Iterator[tuple[str, str]]:
        """A read transaction for a people's view, and the columns of a whole record and where to
        read them for the schema the file has in it: an older file is read as it is, and one that
        another process migrated since this connection opened it is read as it now is (and the
        store no longer takes it for older, so its next write does not reopen it to migrate)."""
        conn.execute("BEGIN")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                yield rows.LEGACY_COLUMNS, rows.LEGACY_FROM
            else:
                self._older_schema = False
                yield rows.COLUMNS, rows.FROM
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")

    def _record(self, row: Sequence[object]) -> MemoryRecord:
        """A row of :data:`.rows.COLUMNS` as a record, every cell checked, the content within the record bound."""
        return rows.record(row, self.path, record_bytes=self.limits.record_bytes)

    def _image(self) -> bytes | None:
        """The database file's bytes, read through the connection's own descriptor (see :mod:`.held`)."""
        return None if self._identity is None else held.image(self._identity)

    def _retire(self, conn: sqlite3.Connection, ids: Sequence[int]) -> None:
        """Tell the scrubber what leaves the file with these rows, before they are removed or replaced."""
        found = conn.execute(
            "SELECT content, derived FROM memories WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(list(ids)),)
        )
        self._scrubber.mark(text for row in found for text in row if isinstance(text, str))

    def _remove(self, conn: sqlite3.Connection, ids: Sequence[int]) -> None:
        """Delete these rows and their telemetry (a delete, or a prune of expired probation to make
        room), telling the scrubber what leaves."""
        self._retire(conn, ids)
        listed = (json.dumps(list(ids)),)
        conn.execute("DELETE FROM telemetry WHERE memory_id IN (SELECT value FROM json_each(?))", listed)
        conn.execute("DELETE FROM memories WHERE id IN (SELECT value FROM json_each(?))", listed)

    def _refresh(self, conn: sqlite3.Connection, *, writing: bool = True) -> None:
        """Bring the index up to date if any process changed the corpus since it was built.

        In a write transaction (``writing``) what was derived for rows that lacked it is kept in the
        file too; a read-only view leaves that to the write that follows it (a write from a read
        transaction could find its snapshot stale).
        """
        row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        if row is None or type(row[0]) is not int:
            raise unavailable(
                self.path,
                "malformed_row",
                "the meta table has no integer 'generation' row; every operation refuses the file until "
                "it is repaired (with the sqlite3 shell) or the file is moved aside",
            )

        def versions() -> Iterator[tuple[int, int]]:
            found = conn.execute("SELECT id, version FROM memories").fetchall()
            for id_, version in found:
                if type(id_) is not int or id_ < 1:
                    rows.integer(self.path, id_, "id", id_, minimum=1)  # refuses the row
                if type(version) is not int or version < 1:
                    rows.integer(self.path, id_, "version", version, minimum=1)
            yield from found

        self._corpus.refresh(row[0], versions(), lambda ids: self._derivable(conn, ids))
        self._matched_at = conn.execute("PRAGMA data_version").fetchone()[0]
        if writing:
            self._save_derived(conn)

    def _derivable(self, conn: sqlite3.Connection, ids: Sequence[int]) -> list[tuple[int, str | None, object]]:
        """``(id, content, derived)`` of these rows, each checked as a read checks it (every cell of
        the right kind, the content UTF-8 and within the record bound). A row that fails is handed
        over as ``(id, None, size)``: the index holds it as refused, so no scan serves what a read
        would refuse, and the rows beside it stay usable."""
        found = conn.execute(
            f"SELECT id, content, derived, {rows.CELLS_VALID} FROM {rows.FROM} WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(ids)),),
        )
        derivable: list[tuple[int, str | None, object]] = []
        for id_, content, derived, sound in found:
            if sound and isinstance(content, str) and policy.content_size(content) <= self.limits.record_bytes:
                derivable.append((id_, content, derived))
            else:
                size = policy.content_size(content) if isinstance(content, str) else len(content) if isinstance(content, bytes) else 0
                derivable.append((id_, None, size))
        return derivable

    def _refuse_if_refused(self, conn: sqlite3.Connection, ids: Iterable[int]) -> None:
        """Raise ``malformed_row`` naming the first of ``ids`` the index holds as refused, from the row itself."""
        for id_ in ids:
            if self._corpus.refused(id_):
                row = conn.execute(f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE id = ?", (id_,)).fetchone()
                rows.refuse(row, self.path, self.limits.record_bytes)

    def _save_derived(self, conn: sqlite3.Connection) -> None:
        """Keep in the file what this process derived for rows that lacked it (under the write lock).

        Only an optimisation for the next cold process, so it is skipped near the file bound and
        when the file may not grow; it never writes to a row whose version moved.
        """
        unsaved = self._corpus.unsaved()
        if not unsaved or not conn.in_transaction:
            return
        self._corpus.saved()
        pages, limit = (conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "max_page_count"))
        if pages + 16 + len(unsaved) // 4 >= limit:
            return
        conn.execute("SAVEPOINT derived")
        try:
            conn.executemany(
                "UPDATE memories SET derived = ? WHERE id = ? AND version = ?",
                [(text, id_, version) for id_, version, text in unsaved],
            )
        except sqlite3.OperationalError as exc:
            if not is_full(exc) or not conn.in_transaction:
                raise
            conn.execute("ROLLBACK TO derived")
        conn.execute("RELEASE derived")

    def _generation(self, conn: sqlite3.Connection) -> int | None:
        """``meta.generation`` as this transaction reads it, or ``None`` when it is not an integer."""
        row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return row[0] if row is not None and type(row[0]) is int else None

    @staticmethod
    def _record_telemetry(conn: sqlite3.Connection, sql: str, params: Sequence[dict[str, int]]) -> int | None:
        """Run a telemetry update once per row and answer how many rows it changed; at the file
        bound, skip the rest rather than fail the scan or read (and answer ``None``).

        A first scan time turns a NULL into an integer, so a row grows; on a full page that needs a
        page the file may not add (``SQLITE_FULL``). SQLite undoes just that row's statement, or
        (when it kept no statement journal) the transaction, which held nothing but this call's
        telemetry; rows updated before it keep theirs.
        """
        try:
            return int(conn.executemany(sql, params).rowcount)
        except sqlite3.OperationalError as exc:
            if not is_full(exc):
                raise
            return None

    def _check_served(self, conn: sqlite3.Connection, keys: Sequence[RecordKey]) -> None:
        """Refuse (``malformed_row``) a served row that its telemetry update passed over because a
        cell of it is not sound; one replaced or deleted meanwhile is passed over rightly."""
        found = conn.execute(
            f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE {_AT_VERSION}", (json.dumps([[k.id, k.version] for k in keys]),)
        )
        for row in found:
            try:
                self._record(row)
            except errors.StoreUnavailable:
                self._corpus.found_refused(row[0])  # later scans serve the rows beside it
                raise

    @staticmethod
    def _bump_generation(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")

    @property
    def _index(self) -> Index:
        return self._corpus.index

    # -- the model's operations ------------------------------------------------------------------

    def scan(self, query: str, *, limit: int = 5) -> list[Candidate]:
        """Return at most ``limit`` candidate cards for ``query``, best first.

        Only the returned records get their scan count and time bumped, and only while they are
        still at the version ranked (one replaced or deleted meanwhile by another process gets
        none); an abstaining scan (no searchable term, or no record sharing one) changes nothing.

        Raises:
            InvalidArguments: the query is not text, is over 512 bytes, or ``limit`` is not 1..5.
        """
        policy.check_query(query, limit, self.limits)

        # Ranking needs no transaction: the index holds each live version's content, the process's
        # own commits keep it current, and when another connection has committed since it last
        # matched the file, a short read transaction brings it up to date first. Ranking comes after
        # that transaction has ended, so no snapshot is held while it runs (one would keep a
        # checkpoint from emptying the WAL). The telemetry that follows is its own short write,
        # and counts only the candidates still at the version that was ranked.
        with self._lock:
            if self._quiet():
                hits = self._served_hits(query, limit)
            else:
                with self._transaction("view") as conn:
                    self._refresh(conn, writing=False)
                hits = self._served_hits(query, limit)
            if not hits:
                return []
            cards = []
            for hit in hits:
                key, shown = self._corpus.card_of(hit.id, self.limits.preview_bytes)
                cards.append(Candidate(key, round(hit.score, 4), shown))
            with self._transaction("telemetry") as conn:
                now = self._clock()
                self._save_derived(conn)
                bumped = self._record_telemetry(conn, SCAN_TELEMETRY, [telemetry_parameters(now, c.key.id, c.key.version) for c in cards])
                if bumped is not None and bumped < len(cards):
                    self._check_served(conn, [c.key for c in cards])
        return cards

    def _quiet(self) -> bool:
        """Whether the index still matches the file: no other connection committed since it did.

        ``PRAGMA data_version`` changes when another connection commits (a telemetry-only commit
        included), never for this connection's own; :meth:`_refresh` notes it when the index was
        brought up to date. Any doubt (no index yet, an older schema, an error) answers no, and the
        caller takes the transaction that finds out. A moved file is refused by the telemetry
        transaction that follows, as by any transaction.
        """
        conn = self._conn
        if conn is None or self._older_schema or self._matched_at is None or self._corpus.generation is None:
            return False
        try:
            return bool(conn.execute("PRAGMA data_version").fetchone()[0] == self._matched_at)
        except sqlite3.Error:
            return False

    def _served_hits(self, query: str, limit: int) -> list[Hit]:
        """The best hits whose content, screened again as it is served, is visible.

        The index ranks by the verdicts it holds, some read from the file; a served card is screened
        from its own content, and a hit that turns out hidden leaves the index before ranking again.
        """
        while True:
            hits = self._corpus.search(query, limit=limit)
            hidden = [hit.id for hit in hits if self._corpus.current_verdict(hit.id) is not None]
            if not hidden:
                return hits

    def rank(self, query: str, *, limit: int = 5) -> list[int]:
        """Ids of the best visible records for ``query``: ranking alone, for benchmarks.

        Uses the in-process index as the last operation left it, without a transaction, a refresh
        or telemetry, so it can miss what another process wrote since; models use :meth:`scan`.
        """
        with self._lock:
            return [hit.id for hit in self._corpus.search(query, limit=limit)]

    def read(self, ids: Sequence[int]) -> list[MemoryRecord]:
        """Full records for ``ids`` (duplicates removed, first-seen order, missing ids omitted).

        Every returned record gets its read count and time bumped and leaves probation, unless
        another process replaced or deleted it between the read and that update: then it is
        returned as it was read, without telemetry.
        """
        wanted = policy.check_ids(ids)
        # As in scan: the records are read from a snapshot, then the telemetry is one short write
        # for the records still at the version read, which are returned as that write left them.
        # A record replaced or deleted in between is returned as it was read, without telemetry.
        with self._transaction("view") as conn:
            self._refresh(conn, writing=False)
            self._refuse_if_refused(conn, wanted)
            found = [i for i in wanted if self._corpus.visible(i)]
            if not found:
                return []
            selected = (
                f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(found),),
            )
            served = [self._record(row) for row in conn.execute(*selected).fetchall()]
            # a malformed row is refused before telemetry could mask it; each served record is
            # screened again from its own content, whatever the index held
            shown = {r.key.id for r in served if self._corpus.served_verdict(r.key.id, r.key.version, r.content) is None}
            found = [i for i in found if i in shown]
            if not found:
                return []
            by_id = {r.key.id: r for r in served if r.key.id in shown}
        seen = json.dumps([[i, by_id[i].key.version] for i in found])
        with self._transaction("telemetry") as conn:
            now = self._clock()
            self._save_derived(conn)
            self._record_telemetry(conn, _READ, [telemetry_parameters(now, i, by_id[i].key.version) for i in found])
            for row in conn.execute(f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE {_AT_VERSION}", (seen,)):
                record = self._record(row)
                by_id[record.key.id] = record
        return [by_id[i] for i in found if i in by_id]

    def validate_content(self, content: object) -> str:
        """Check content the way put does, before any database work (see :func:`.policy.validate_content`).

        Raises:
            InvalidArguments, ContentTooLarge, SecretRejected.
        """
        return policy.validate_content(content, self.limits)

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
            policy.check_key(replace)
            policy.check_unshared_key(replace)
        return _pruning_until_it_fits(
            lambda at_least: self._put(content, replace, at_least=at_least, probation=probation)
        )

    def _put(self, content: str, replace: RecordKey | None, *, at_least: int, probation: bool) -> PutResult | None:
        """One try at a put that prunes at least ``at_least`` expired rows; ``None`` (changing
        nothing) when fewer than that can be pruned."""
        with self._transaction("mutation" if replace is None else "removal") as conn:
            self._refresh(conn)
            read = self._corpus.generation
            now = self._clock()
            if replace is not None:
                current = self._corpus.version_of(replace.id)
                if current is None:
                    raise errors.NotFound(f"no memory has id {replace.id}; scan again", id=replace.id)
                if current != replace.version:
                    raise policy.version_conflict(replace, current, "replacing")
                policy.check_changed(replace, self._corpus.content_of(replace.id), content)
            same = self._corpus.duplicate_of(content, besides=replace.id if replace else None)
            if same is not None:
                raise errors.Duplicate(
                    f"memory {same[0]} (version {same[1]}) already says the same; replace it instead",
                    id=same[0],
                    version=same[1],
                )
            size = policy.content_size(content)
            count, used = self._corpus.totals()
            replaced_size = None if replace is None else self._corpus.size_of(replace.id)
            # The usual case fits as it is, and needs no row's age or probation to say so.
            fits = at_least == 0 and policy.fits_as_is(count, used, self.limits, size=size, replaced_size=replaced_size)
            prune = [] if fits else policy.plan_put(
                self._capacity_rows(conn), self.limits, now_ms=now, size=size,
                replace=replace.id if replace else None, at_least=at_least,
            )  # fmt: skip
            if prune is None:
                return None
            if prune:
                self._remove(conn, prune)
            if replace is not None:
                self._retire(conn, [replace.id])
            until = policy.probation_deadline(now, self.limits, probation=probation)
            # Validated content is visible; its digest and terms go in the same row as the content.
            from ..retrieval.bm25 import count_terms

            derived = stored.Derived(None, stored.digest(content), count_terms(content, fold=self._index.fold))
            version = 1 if replace is None else replace.version + 1
            if replace is None:
                cur = conn.execute(
                    "INSERT INTO memories (version, content, created_at_ms, updated_at_ms, derived) VALUES (1, ?, ?, ?, ?)",
                    (content, now, now, stored.encode(version, derived)),
                )
                new_id = int(cur.lastrowid or 0)
            else:
                conn.execute(
                    "UPDATE memories SET version = version + 1, content = ?, updated_at_ms = ?, derived = ? WHERE id = ?",
                    (content, now, stored.encode(version, derived), replace.id),
                )
                new_id = replace.id
            # A new version starts its own telemetry, as it starts its own probation.
            conn.execute(_TELEMETRY_STARTS, (new_id, until))
            self._bump_generation(conn)
            record = self._record(conn.execute(f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE id = ?", (new_id,)).fetchone())
        # Committed under the write lock taken before `read`: the file is at `read + 1`, by exactly this.
        self._corpus.committed(read, written=(new_id, record.key.version, content, derived), removed=prune)
        return PutResult(memory=record, replaced=replace is not None)

    def _capacity_rows(self, conn: sqlite3.Connection) -> list[policy.Row]:
        """Every live row as the capacity policy sees it; sizes come from the refreshed index."""
        found = conn.execute(f"SELECT id, updated_at_ms, probation_until_ms FROM {rows.FROM} ORDER BY id")
        return [
            policy.Row(
                id_,
                self._corpus.size_of(id_),
                rows.integer(self.path, id_, "updated_at_ms", updated),
                None if until is None else rows.integer(self.path, id_, "probation_until_ms", until),
            )
            for id_, updated, until in found
        ]

    def delete(self, key: RecordKey) -> None:
        """Remove the record from the database and from retrieval, if it is still at ``key.version``.

        Works at every bound. Removal from retrieval is not proof of physical erasure; see
        :mod:`.hygiene`.

        Raises:
            NotFound, VersionConflict, StoreUnavailable.
        """
        policy.check_key(key)
        policy.check_unshared_key(key)
        if not self.opened and self._absent():
            raise errors.NotFound(f"no memory has id {key.id}", id=key.id)  # and nothing is created
        try:
            with self._transaction("removal") as conn:
                read = self._generation(conn)
                row = conn.execute("SELECT version FROM memories WHERE id = ?", (key.id,)).fetchone()
                if row is None:
                    raise errors.NotFound(f"no memory has id {key.id}", id=key.id)
                version = rows.integer(self.path, key.id, "version", row[0], minimum=1)
                if version != key.version:
                    raise policy.version_conflict(key, version, "deleting")
                self._remove(conn, [key.id])
                self._bump_generation(conn)
            self._corpus.committed(read, removed=[key.id])
        except errors.DatabaseCapacity as exc:
            # A delete never grows the database, so SQLITE_FULL here means the disk itself is full
            # (the rollback journal could not be written).
            raise unavailable(
                self.path,
                "disk_full",
                "the disk is full, so the delete could not be written and nothing changed; free some disk "
                "space and try again",
            ) from exc

    # -- the people's views (no telemetry) ------------------------------------------------------

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        """Every live record in ``order``; reads only, no telemetry. A missing file lists nothing."""
        if order not in policy.ORDER_BY:
            raise errors.InvalidArguments(f"unknown order {order!r}; use one of {', '.join(policy.ORDER_BY)}")
        with self._lock:
            conn = self._view_connection()
            if conn is None:
                return []
            with self._translating(), self._view(conn) as (columns, source):
                found = conn.execute(f"SELECT {columns} FROM {source} ORDER BY {policy.ORDER_BY[order]}").fetchall()
        return [self._record(row) for row in found]

    def get(self, id_: int) -> MemoryRecord | None:
        """One record by id without telemetry (for people, not models), or ``None`` (also for an
        id no record can have: not an integer from 1 to 2**63 - 1)."""
        if isinstance(id_, bool) or not isinstance(id_, int) or not 1 <= id_ <= policy.MAX_INTEGER:
            return None
        with self._lock:
            conn = self._view_connection()
            if conn is None:
                return None
            with self._translating(), self._view(conn) as (columns, source):
                row = conn.execute(f"SELECT {columns} FROM {source} WHERE id = ?", (id_,)).fetchone()
        return None if row is None else self._record(row)

    def export(self) -> Iterator[MemoryRecord]:
        """Every live record in id order; reads only, no telemetry."""
        return iter(self.list_records(order="id"))

    def hidden_reason(self, record: MemoryRecord) -> str | None:
        """Why ``record`` is withheld from scan and read, or ``None`` when models may see it."""
        return self.secret_kind(record)

    def secret_kind(self, record: MemoryRecord) -> str | None:
        """Why a stored record is hidden from models: the secret pattern it matches, or
        ``IMITATION_KIND`` when it imitates the review checkpoint; ``None`` if it is not hidden."""
        with self._lock:
            return self._corpus.served_verdict(record.key.id, record.key.version, record.content)

    def check_writable(self) -> None:
        """Raise the ``unavailable`` error a write would meet because the folder or the file cannot
        be made or written (permissions, a read-only file system); nothing is created or opened.

        A dry run, which writes to a copy, asks this where the real write would open the file.

        Raises:
            StoreUnavailable: reason ``permission_denied`` or ``read_only``.
        """
        reason = unwritable(self.path)
        if reason is not None:
            raise unavailable(self.path, *UNAVAILABLE[SQLITE_PERM if reason == "permission_denied" else SQLITE_READONLY])

    def status(self) -> StoreStatus:
        """Usage against each bound and any degraded state, never creating or changing a file.

        A store that was not open is closed again afterwards, so the ``-wal`` and ``-shm`` files
        SQLite needs while it reads are gone when this returns (if no other connection has the file
        open); an open store stays open.
        """
        sidecars = sum(_size(f"{self.path}{suffix}") for suffix in SIDECARS)
        if self._absent():
            return StoreStatus(path=self.path, exists=False, limits=self.limits, sidecar_bytes=sidecars)
        file_bytes = _size(str(self.path))
        opened_here = not self.opened
        try:
            records = self.list_records(order="id")
        except errors.StoreUnavailable as exc:
            return StoreStatus(
                path=self.path, exists=True, file_bytes=file_bytes, sidecar_bytes=sidecars,
                problem=exc.reason, detail=exc.message, limits=self.limits,
            )  # fmt: skip
        finally:
            if opened_here:
                # A WAL reader needs the -wal and -shm files; closing the connection this look
                # opened removes them again (unless another connection still has the file open).
                self.close()
        now = self._clock()
        return StoreStatus(
            path=self.path,
            exists=True,
            rows=len(records),
            content_bytes=sum(policy.content_size(r.content) for r in records),
            file_bytes=file_bytes,
            sidecar_bytes=sidecars,
            on_probation=sum(1 for r in records if r.probation_until_ms is not None),
            expired_probation=sum(
                1 for r in records if r.probation_until_ms is not None and r.probation_until_ms <= now
            ),
            hidden=sum(1 for r in records if self.secret_kind(r) is not None),
            limits=self.limits,
        )

    # -- several new records at once ------------------------------------------------------------

    def put_many(
        self,
        contents: Sequence[str],
        *,
        probation: bool = False,
        on_put: Callable[[PutResult], None] | None = None,
    ) -> list[PutResult]:
        """Add every one of ``contents`` as a new record in one transaction, or none of them.

        Each content is checked as :meth:`put` checks it: validation and screening before any
        database work, then duplicates against the corpus and against the contents before it. The
        bounds are then planned for the whole batch (pruning expired unread probation rows, oldest
        first, as a put does) before a single row is written, and the rows are written and
        committed together: a refusal, an error or a killed process leaves the file as it was.
        Records start graduated, as a person's records do, unless ``probation``. Used by
        ``team pull``, whose report keeps each record's author beside the result it got here.

        Args:
            contents: The new records' contents; the results and ids come in this order.
            probation: Start each record on unread probation, as a model's put does.
            on_put: Called with each result once its row is written, inside the transaction (the
                rows commit only after the last call).

        Raises:
            InvalidArguments: a content is invalid, or says the same as an earlier one of ``contents``.
            ContentTooLarge, SecretRejected, Duplicate, RecordCapacity, ContentCapacity,
            DatabaseCapacity, StoreUnavailable: as :meth:`put`, for the first content refused.
        """
        texts = [self.validate_content(content) for content in contents]
        seen: dict[str, int] = {}
        for position, content in enumerate(texts):
            earlier = seen.setdefault(policy.duplicate_key(content), position)
            if earlier != position:
                raise errors.InvalidArguments(
                    f"content {position + 1} says the same as content {earlier + 1}; nothing was written"
                )
        if not texts:
            return []
        return _pruning_until_it_fits(
            lambda at_least: self._put_many(texts, at_least=at_least, probation=probation, on_put=on_put)
        )

    def _put_many(
        self,
        texts: Sequence[str],
        *,
        at_least: int,
        probation: bool,
        on_put: Callable[[PutResult], None] | None,
    ) -> list[PutResult] | None:
        """One try at :meth:`put_many` that prunes at least ``at_least`` expired rows for the first
        content; ``None`` (changing nothing) when fewer than that can be pruned."""
        results: list[PutResult] = []
        with self._transaction("mutation") as conn:
            self._refresh(conn)
            now = self._clock()
            until = policy.probation_deadline(now, self.limits, probation=probation)
            planned = self._capacity_rows(conn)
            prune: list[int] = []
            for position, content in enumerate(texts):
                same = self._corpus.duplicate_of(content)
                if same is not None:
                    raise errors.Duplicate(
                        f"memory {same[0]} (version {same[1]}) already says the same as content "
                        f"{position + 1}; nothing was written",
                        id=same[0],
                        version=same[1],
                    )
                size = policy.content_size(content)
                chosen = policy.plan_put(
                    planned, self.limits, now_ms=now, size=size, at_least=at_least if position == 0 else 0
                )
                if chosen is None:  # fewer than `at_least` expired rows: nothing left to prune
                    return None
                prune += chosen
                planned = [row for row in planned if row.id not in chosen]
                planned.append(policy.Row(-1 - position, size, now, until))  # not yet written
            if prune:
                self._remove(conn, prune)
            for content in texts:
                cur = conn.execute(
                    "INSERT INTO memories (version, content, created_at_ms, updated_at_ms) VALUES (1, ?, ?, ?)",
                    (content, now, now),
                )
                conn.execute(_TELEMETRY_STARTS, (cur.lastrowid, until))
                row = conn.execute(f"SELECT {rows.COLUMNS} FROM {rows.FROM} WHERE id = ?", (cur.lastrowid,))
                results.append(PutResult(memory=self._record(row.fetchone()), replaced=False))
                if on_put is not None:
                    on_put(results[-1])
            self._bump_generation(conn)
        return results  # a scrub the pruning owes was paid when the transaction committed

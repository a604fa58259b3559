"""The SQLite store: one file, one table, every change one transaction.

Storage design
--------------
The corpus is one ordinary table, ``memories``, in ``<config-dir>/memory/v1.sqlite3``. There is no
FTS virtual table and no embedding index: ranking happens in process (:mod:`tact_memory.retrieval.bm25`),
so the whole data model can be read with the ``sqlite3`` shell. A second table, ``meta``, holds one
counter, ``generation``, that every content change (put, replace, delete, prune) increments and
telemetry updates do not. The in-process index compares it with the generation it was built from,
so scans reuse the index until any process changes the corpus, and a rebuild re-tokenizes only the
records whose version it has not seen.

Ids come from ``AUTOINCREMENT`` and are never reused, so a stale id can never name a newer record.
The schema is created by numbered migrations (:mod:`tact_memory.store.schema`) and recorded in
``user_version``; a file with a newer ``user_version`` is refused without being written to, and so
is a file that is not a SQLite database.

The file is data, never code
----------------------------
SQLite runs what a schema holds: a trigger fires on our own ``UPDATE`` or ``DELETE``, and a view or
an index can call functions. So the schema must be exactly the one the migrations make (compared
object by object with an in-memory database built by the same migrations); anything else, an extra
trigger, view, table or index or a changed column, is refused untouched as ``unexpected_schema``.
Connections also run with ``trusted_schema = OFF``, ``cell_size_check = ON`` and, where the running
Python exposes it (3.12+), SQLite's defensive mode. Before SQLite sees the path, the folder, the file
and its sidecars are checked (:mod:`tact_memory.store.files`): symbolic links and anything another user
owns (above all a hot journal, which SQLite would copy into the file) are refused, and group and
other permission bits are cleared. A row whose values have the wrong type (SQLite's type affinity
lets ``version = 'x'`` or a BLOB into our columns) is reported as ``malformed_row`` naming its id,
never as a traceback and never by echoing its value.

First open
----------
Opening reads ``user_version`` and the schema and, for a new file, runs the migrations, all inside
one transaction (``BEGIN IMMEDIATE`` when the file may be created, a read transaction otherwise).
Processes that meet a missing file at the same moment each create it with ``O_EXCL`` or find it,
then take turns on the write lock: the first migrates, the others see the finished schema. None of
them can see the schema half made.

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

The folder is kept at mode 0700 and the file at 0600, set before SQLite opens them. Nothing is
opened or created until the first operation that needs the database; ``status`` and listings of a
missing file report an empty corpus without creating it.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import errors
from ..limits import DEFAULT_LIMITS, Limits
from ..records import (
    Candidate,
    MemoryRecord,
    PutResult,
    RecordKey,
    RecordOrder,
    StoreStatus,
)
from ..screening.checkpoint import IMITATION_KIND, imitates_checkpoint
from . import files as dbfiles
from .schema import (
    SCHEMA_VERSION,
    apply_migrations,
    describe_difference,
    expected_schema,
    schema_of,
)

if TYPE_CHECKING:
    from ..retrieval.bm25 import Index

# Ranking, text and secret screening are imported on first use (they compile regular expressions
# and tables), so that `import tact_memory` stays cheap for sessions that never touch memory.

__all__ = ["SCHEMA_VERSION", "MemoryStore"]

BUSY_TIMEOUT_S = 5.0
_SQLITE_FULL = 13
_SQLITE_READONLY_DBMOVED = 1032
_MAX_SQLITE_INT = 2**63 - 1
_SIDECARS = dbfiles.SIDECARS
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
    from ..retrieval.lexer import utf8_size as size

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


def _size(path: str) -> int:
    """A file's own size (a link is not followed), 0 when it does not exist."""
    try:
        return os.lstat(path).st_size
    except (FileNotFoundError, NotADirectoryError):
        return 0


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _check_key(key: RecordKey) -> None:
    """Refuse ids and versions SQLite cannot hold, before they reach a query or a message."""
    if not (1 <= key.id <= _MAX_SQLITE_INT and 1 <= key.version <= _MAX_SQLITE_INT):
        raise errors.InvalidArguments(f"id and version must be integers from 1 to {_MAX_SQLITE_INT}")


def _unavailable(path: Path, reason: str, message: str) -> errors.StoreUnavailable:
    return errors.StoreUnavailable(f"memory database {path}: {message}", path=str(path), reason=reason)


class _Undecodable:
    """Stands for stored text that is not UTF-8, so that no error message ever quotes it."""

    __slots__ = ()


_UNDECODABLE = _Undecodable()


def _decode(raw: bytes) -> str | _Undecodable:
    """The connection's text factory: strict UTF-8, or a marker the row checks refuse."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return _UNDECODABLE


def _describe(value: object) -> str:
    """What kind of wrong value a cell holds, without its value."""
    if value is None:
        return "NULL"
    if isinstance(value, _Undecodable):
        return "text that is not UTF-8"
    if isinstance(value, bytes):
        return "a BLOB"
    if isinstance(value, str):
        return "text"
    if isinstance(value, float):
        return "a real number"
    return "a number out of range"


def _checked(path: Path, id_: object, column: str, value: object, *, text: bool = False, minimum: int = 0) -> Any:
    """One cell as our type, or ``malformed_row`` naming the row and column (never the value)."""
    if text:
        if isinstance(value, str):
            return value
        wanted = "text"
    else:
        if type(value) is int and value >= minimum:
            return value
        wanted = f"an integer of at least {minimum}"
    raise _unavailable(
        path,
        "malformed_row",
        f"row {id_} of the memories table holds {_describe(value)} in {column}, where {wanted} belongs; "
        "every operation refuses the file until that row is repaired or deleted (with the sqlite3 "
        "shell) or the file is moved aside",
    )


def _record(row: Any, path: Path) -> MemoryRecord:
    (id_, version, content, created, updated, scans, scanned, reads, read_at, probation) = tuple(row)

    def cell(column: str, value: object, *, minimum: int = 0) -> int:
        return int(_checked(path, id_, column, value, minimum=minimum))

    def optional(column: str, value: object) -> int | None:
        return None if value is None else cell(column, value)

    return MemoryRecord(
        key=RecordKey(cell("id", id_, minimum=1), cell("version", version, minimum=1)),
        content=_checked(path, id_, "content", content, text=True),
        created_at_ms=cell("created_at_ms", created),
        updated_at_ms=cell("updated_at_ms", updated),
        scan_count=cell("scan_count", scans),
        last_scanned_at_ms=optional("last_scanned_at_ms", scanned),
        read_count=cell("read_count", reads),
        last_read_at_ms=optional("last_read_at_ms", read_at),
        probation_until_ms=optional("probation_until_ms", probation),
    )


class MemoryStore:
    """The corpus of one configuration directory, in one SQLite file.

    Thread-safe: one connection guarded by a lock, so async callers can run operations in worker
    threads. Cheap to construct: nothing touches the filesystem until the first operation.

    Args:
        path: The database file, normally :attr:`tact_memory.config.loading.Config.database_path`.
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
        return _unavailable(self.path, reason, message)

    def _absent(self) -> bool:
        """No database file, and nothing in its place to report (a linked folder is refused, not absent)."""
        return not os.path.lexists(self.path) and not os.path.islink(self.path.parent)

    def _file_full(self) -> errors.DatabaseCapacity:
        return errors.DatabaseCapacity(
            f"the memory database file reached its {self.limits.file_bytes:,}-byte limit "
            "(or the disk is full); delete records you no longer need",
            limit=self.limits.file_bytes,
        )

    def _translate(self, exc: BaseException) -> errors.TactMemoryError:
        """Turn a foreign error into one of ours; the caller raises it ``from exc``."""
        if isinstance(exc, errors.TactMemoryError):
            return exc
        text = str(exc).lower()
        if _is_full(exc):
            return self._file_full()
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
        try:
            conn = self._open(create=create)
        except (sqlite3.Error, OSError) as exc:
            raise self._translate(exc) from exc
        self._conn = conn
        return conn

    def _open(self, *, create: bool) -> sqlite3.Connection | None:
        try:
            if not dbfiles.prepare(self.path, create=create):
                return None
        except dbfiles.UnsafeFile as exc:
            raise self._unavailable(exc.reason, exc.message) from None
        new_file = create and os.lstat(self.path).st_size == 0
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        try:
            conn.text_factory = _decode
            conn.execute("PRAGMA trusted_schema = OFF")  # schema objects may not call unsafe functions
            conn.execute("PRAGMA cell_size_check = ON")  # a malformed page is an error, not a crash
            setconfig = getattr(conn, "setconfig", None)  # Python 3.12+
            defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
            if setconfig is not None and defensive is not None:
                setconfig(defensive, True)
            if new_file:
                # Takes effect only before the first page is written, so before the transaction; if
                # another process wrote the file meanwhile, its page size wins.
                conn.execute(f"PRAGMA page_size = {int(self.limits.page_size)}")
            # One transaction from the first read to the last migration: another process creating
            # the same file is seen either not at all or finished, never half done.
            conn.execute("BEGIN IMMEDIATE" if create else "BEGIN")
            ready = self._inspect(conn, create=create)
            conn.execute("COMMIT")
            if not ready:
                conn.close()  # an empty file: nothing to read, and reading must not write
                return None
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA synchronous = EXTRA")
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "delete":
                conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute(f"PRAGMA max_page_count = {int(self.limits.max_pages)}")
            conn.execute("PRAGMA temp_store = MEMORY")  # VACUUM's scratch copy stays out of /tmp
        except BaseException:
            conn.close()  # rolls back an open transaction: a refused file is left as it was
            raise
        return conn

    def _inspect(self, conn: sqlite3.Connection, *, create: bool) -> bool:
        """Refuse a newer, foreign or altered file; migrate an empty one when ``create``.

        Runs inside the opening transaction. Returns whether the file holds our current schema.
        """
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise self._unavailable(
                "newer_schema",
                f"schema version {version} is newer than this tact-memory understands "
                f"({SCHEMA_VERSION}); it was left untouched. Upgrade tact-memory to use it.",
            )
        found = schema_of(conn)
        if version == 0 and found:
            raise self._unavailable(
                "foreign_database", "the file is a SQLite database of another program; it was left untouched"
            )
        expected = expected_schema(version)
        if found != expected:
            raise self._unavailable(
                "unexpected_schema",
                f"the schema is not exactly the one tact-memory creates ({describe_difference(found, expected)}); "
                "triggers, views or changed tables could run code on every operation, so the file was left "
                "untouched. Move it aside to start a new memory.",
            )
        if version < SCHEMA_VERSION:
            if not create:
                return False
            apply_migrations(conn, version)
        return True

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
            from ..retrieval.bm25 import Index

            self._index_ = Index()
        return self._index_

    def _secret_kind(self, id_: int, version: int, content: str) -> str | None:
        key = (id_, version)
        if key not in self._secret_cache:
            from ..screening.credentials import find_secret

            # Screened again when served: a row may predate a rule or have been written directly
            # into the file, and must still never reach a model as credentials or control text.
            self._secret_cache[key] = IMITATION_KIND if imitates_checkpoint(content) else find_secret(content)
        return self._secret_cache[key]

    def _refresh(self, conn: sqlite3.Connection) -> None:
        """Bring the index up to date if any process changed the corpus since it was built."""
        row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        if row is None or type(row[0]) is not int:
            raise self._unavailable(
                "malformed_row",
                "the meta table has no integer 'generation' row; every operation refuses the file until "
                "it is repaired (with the sqlite3 shell) or the file is moved aside",
            )
        generation = row[0]
        if generation == self._generation:
            return
        rows = conn.execute("SELECT id, version, content FROM memories").fetchall()
        self._docs = {
            id_: (
                _checked(self.path, id_, "version", version, minimum=1),
                _checked(self.path, id_, "content", content, text=True),
            )
            for id_, version, content in rows
        }
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
        from ..retrieval import lexer as text

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
            selected = (
                f"SELECT {_COLUMNS} FROM memories WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(found),),
            )
            for row in conn.execute(*selected).fetchall():
                _record(row, self.path)  # a malformed row is refused before telemetry could mask it
            now = self._clock()
            self._record_telemetry(
                conn,
                "UPDATE memories SET read_count = read_count + 1, last_read_at_ms = ?,"
                " probation_until_ms = NULL WHERE id IN (SELECT value FROM json_each(?))",
                (now, json.dumps(found)),
            )
            rows = conn.execute(*selected).fetchall()
            by_id = {record.key.id: record for record in (_record(row, self.path) for row in rows)}
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
            raise errors.InvalidArguments(
                "content imitates the reserved runtime control marker or the review checkpoint's wording; "
                "state the conclusion in your own words"
            )
        from ..screening.credentials import KINDS, find_secret

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
            result = self._put(content, replace, file_prune=0, probation=probation)
            assert result is not None
            return result
        except errors.DatabaseCapacity as exc:
            full = exc
        # SQLITE_FULL: the file is at its page limit and the transaction is gone. Whether removing
        # rows frees a page the new row can use depends on where they sit, so each try is its own
        # transaction that prunes one more expired probation row, oldest first: the first that
        # fits removed the fewest. A try that does not fit changes nothing.
        for count in itertools.count(1):
            try:
                result = self._put(content, replace, file_prune=count, probation=probation)
            except errors.DatabaseCapacity as exc:
                full = exc
                continue
            if result is None:  # fewer than `count` expired rows: nothing left to prune
                raise full
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _put(
        self, content: str, replace: RecordKey | None, *, file_prune: int, probation: bool
    ) -> PutResult | None:
        """One try at a put; with ``file_prune``, first prune that many expired rows, oldest first.

        Returns ``None``, changing nothing, when fewer than ``file_prune`` rows can be pruned.
        """
        from ..retrieval.lexer import fold_for_duplicate

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
            if file_prune:
                expired = self._expired(conn, now, keep=replace)
                if len(expired) < file_prune:
                    return None
                self._prune(conn, [id_ for id_, _ in expired[:file_prune]])
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
            record = _record(row, self.path)
        if replace is not None or self._scrub_needed:
            self._scrub()
        return PutResult(memory=record, replaced=replace is not None)

    def _usage(self, conn: sqlite3.Connection) -> tuple[int, int]:
        rows, size = conn.execute(
            "SELECT count(*), coalesce(sum(length(CAST(content AS BLOB))), 0) FROM memories"
        ).fetchone()
        return int(rows), int(size)

    def _check_capacity(
        self, conn: sqlite3.Connection, now: int, *, grows_rows: bool, delta: int, keep: RecordKey | None
    ) -> None:
        """Make room by pruning the fewest expired probation rows, oldest first, or refuse.

        Nothing is pruned when even pruning every expired row would not make the change fit.
        """
        rows, size = self._usage(conn)
        rows_over = rows + 1 - self.limits.rows if grows_rows else 0
        bytes_over = size + delta - self.limits.content_bytes
        if rows_over <= 0 and bytes_over <= 0:
            return
        chosen: list[int] = []
        freed = 0
        for id_, length in self._expired(conn, now, keep=keep):
            if len(chosen) >= rows_over and freed >= bytes_over:
                break
            chosen.append(id_)
            freed += length
        if len(chosen) < rows_over:
            raise errors.RecordCapacity(
                f"memory holds its maximum of {self.limits.rows} records and none is an expired, unread "
                "probation record; delete or replace a record first",
                limit=self.limits.rows,
            )
        if freed < bytes_over:
            raise errors.ContentCapacity(
                f"this would bring stored content to {size - freed + delta:,} bytes, over the "
                f"{self.limits.content_bytes:,}-byte limit; delete or shorten records first",
                limit=self.limits.content_bytes,
            )
        self._prune(conn, chosen)

    def _expired(self, conn: sqlite3.Connection, now: int, *, keep: RecordKey | None) -> list[tuple[int, int]]:
        """``(id, content bytes)`` of the rows whose current version went unread through its probation,
        the oldest version first (by update time, then id); ``keep`` (a record being replaced) is not one.

        A read clears ``probation_until_ms`` and a replacement sets it again, so this is per version:
        a record read once and then replaced is on probation again until its new version is read.
        """
        rows = conn.execute(
            "SELECT id, length(CAST(content AS BLOB)) FROM memories WHERE probation_until_ms IS NOT NULL"
            " AND probation_until_ms <= ? AND id != ? ORDER BY updated_at_ms ASC, id ASC",
            (now, keep.id if keep else 0),
        ).fetchall()
        return [(int(id_), int(length or 0)) for id_, length in rows]

    def _prune(self, conn: sqlite3.Connection, ids: Sequence[int]) -> None:
        """Delete these expired probation rows (inside the caller's transaction)."""
        if not ids:
            return
        conn.execute("DELETE FROM memories WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(list(ids)),))
        self._bump_generation(conn)
        self._scrub_needed = True
        self._refresh(conn)

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
        if not self.opened and self._absent():
            raise errors.NotFound(f"no memory has id {key.id}", id=key.id)  # and nothing is created
        try:
            with self._transaction() as conn:
                row = conn.execute("SELECT version FROM memories WHERE id = ?", (key.id,)).fetchone()
                if row is None:
                    raise errors.NotFound(f"no memory has id {key.id}", id=key.id)
                version = _checked(self.path, key.id, "version", row[0], minimum=1)
                if version != key.version:
                    raise errors.VersionConflict(
                        f"memory {key.id} is at version {version}, not {key.version}; it changed since you saw it",
                        id=key.id,
                        current_version=version,
                    )
                conn.execute("DELETE FROM memories WHERE id = ?", (key.id,))
                self._bump_generation(conn)
        except errors.DatabaseCapacity as exc:
            # A delete never grows the database, so SQLITE_FULL here means the disk itself is full
            # (the rollback journal could not be written).
            raise self._unavailable(
                "disk_full",
                "the disk is full, so the delete could not be written and nothing changed; free some disk "
                "space and try again",
            ) from exc
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
        return [_record(row, self.path) for row in rows]

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
        return None if row is None else _record(row, self.path)

    def export(self) -> Iterator[MemoryRecord]:
        """Every live record in id order; reads only, no telemetry."""
        return iter(self.list_records(order="id"))

    def hidden_reason(self, record: MemoryRecord) -> str | None:
        """Why ``record`` is withheld from scan and read, or ``None`` when models may see it."""
        return self.secret_kind(record)

    def secret_kind(self, record: MemoryRecord) -> str | None:
        """Why a stored record is hidden from models, or ``None`` if it is not.

        The reason is the secret pattern it matches, or ``IMITATION_KIND`` when it imitates the
        review checkpoint.
        """
        return self._secret_kind(record.key.id, record.key.version, record.content)

    def status(self) -> StoreStatus:
        """Usage against each bound and any degraded state, never creating or changing a file."""
        sidecars = sum(_size(f"{self.path}{suffix}") for suffix in _SIDECARS)
        if self._absent():
            return StoreStatus(path=self.path, exists=False, limits=self.limits, sidecar_bytes=sidecars)
        file_bytes = _size(str(self.path))
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

"""Opening the SQLite file: the checks before SQLite reads it, the pragmas, and the first migration.

The file is data, never code
----------------------------
SQLite runs what a schema holds: a trigger fires on our own ``UPDATE`` or ``DELETE``, and a view or
an index can call functions. So the schema must be exactly the one the migrations make (compared
object by object with an in-memory database built by the same migrations, :mod:`.schema`); anything
else, an extra trigger, view, table or index or a changed column, is refused untouched as
``unexpected_schema``. Connections also run with ``trusted_schema = OFF``, ``cell_size_check = ON``
and, where the running Python exposes it (3.12+), SQLite's defensive mode. Before SQLite sees the
path, the folder, the file and its sidecars are checked (:mod:`.files`): symbolic links and anything
another user owns (above all a hot journal or a WAL, whose pages SQLite would read as part of the
file) are refused, and group and other permission bits are cleared. A WAL of our own is read as
part of the file before the schema is compared, so a trigger that a planted WAL adds is refused like
one in the file itself; that first comparison runs on a read-only connection, so the refusal does
not checkpoint the WAL into the file (:func:`_inspect_read_only`).

First open
----------
Opening reads ``user_version`` and the schema in a read transaction, so opening a current file
never waits for a writer. A new file (or one that needs migrating, when the caller may write) is
then read again and migrated inside one ``BEGIN IMMEDIATE`` transaction.
Processes that meet a missing file at the same moment each create it with ``O_EXCL`` or find it,
then take turns on the write lock: the first migrates, the others see the finished schema. None of
them can see the schema half made. A file with a newer ``user_version`` is refused without being
written to, and so is a file that is not a SQLite database.

Durability and locking
----------------------
Every transaction is one of the :data:`TRANSACTIONS` kinds, which fixes its ``BEGIN`` and its
``PRAGMA synchronous`` level (SQLite lets the level change between transactions on one connection,
never inside one). The file is in WAL mode: a commit appends the changed pages to the ``-wal`` file
and a checkpoint later copies them into the database.

- ``mutation`` (a put, and a prune it makes): ``BEGIN IMMEDIATE``, so its checks (version,
  duplicates, bounds) cannot go stale before it commits, and ``synchronous = FULL``: the WAL is
  synced before the commit returns, which also syncs every earlier frame, and the unix VFS syncs
  the folder the first time it syncs a WAL it created. An acknowledged mutation survives a killed
  process, an operating-system crash and, as far as the disk honours its flushes, a power loss.
- ``removal`` (a delete or a replacement): as a mutation, but committed at ``NORMAL``, because
  the scrub that follows every removal (:mod:`.hygiene`) starts with a checkpoint, and a
  checkpoint syncs the WAL before it copies a frame into the file. That sync is the removal's
  commit sync; a second one at the commit would flush nothing new. The removal is acknowledged
  only once its frames are synced: when no checkpoint could copy them all (another connection
  was still reading the WAL), the store flushes the WAL itself (:func:`.held.sync`). Where the
  process cannot see that SQLite holds the WAL at that path open (it cannot list its
  descriptors), a removal is a ``mutation``. A checkpoint that the disk failed is not followed by
  that flush: the removal answers ``io_error`` (a second flush after a failed one can succeed
  with what the first could not write already dropped). Until acknowledged, a removal is like a
  mutation whose sync has not returned: other connections may see it, and a crash of the system
  can undo it whole.
- ``telemetry`` (a scan's or read's counts): ``BEGIN IMMEDIATE`` and ``synchronous = NORMAL``:
  one atomic transaction that does not wait for the disk (SQLite still syncs a new WAL header,
  so the first write into a WAL an automatic checkpoint emptied costs one sync; after a removal
  the scrub has made that write). It survives a killed process; a crash of the system or a
  power loss can undo the latest ones (whole, never half) until the next mutation or
  checkpoint syncs the WAL.
- ``view`` (a scan's or read's refresh and a read's fetching): a plain ``BEGIN`` that only reads.
  WAL readers take no lock a writer waits for. A scan ranks after its view has ended, from the
  in-process index: a reader's snapshot pins the WAL frames it began with, which a checkpoint
  cannot copy past nor a writer restart the WAL over.

A transaction cut off half way leaves frames without a commit mark, which every reader ignores; a
checkpoint cut off half way is redone from the WAL. Writers wait for each other up to the busy
timeout before the store reports the database as ``unavailable``/``busy``: a mutation through
SQLite's busy handler, telemetry by asking again after short pauses (:func:`begin`); nothing
upgrades a read transaction to a write, so ``SQLITE_BUSY_SNAPSHOT`` cannot occur.

A new file is in WAL mode from its first page. A file an older version left in ``DELETE`` mode is
switched by the first connection that may write (:func:`use_wal`), after any hot journal is rolled
back; that needs an exclusive lock, retried up to the busy timeout. A reader never switches it.
The WAL is bounded: ``wal_autocheckpoint`` copies it into the file once it holds
:data:`WAL_AUTOCHECKPOINT_PAGES` pages, and ``journal_size_limit`` cuts an emptied WAL back to
:data:`JOURNAL_SIZE_LIMIT_BYTES`; after a removal the scrub truncates it to nothing and starts it
again with one frame of page 1 (:mod:`.hygiene`). While a connection is open, ``-wal`` and
``-shm`` sit beside the file (readers need them as well); the last connection to close checkpoints
and removes them.

``secure_delete`` is on (see :mod:`.hygiene` for what it does not cover), ``max_page_count`` caps
the main file at :attr:`~tact_memory.limits.Limits.file_bytes` (growth past it fails with
``SQLITE_FULL``), and temporary storage stays in memory, so ``VACUUM``'s scratch copy never lands
in ``/tmp``. The folder is kept at mode 0700 and the file at 0600, set before SQLite opens them.
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from pathlib import Path

from ..limits import Limits
from ..values import Value
from . import files as dbfiles
from .rows import decode
from .schema import (
    SCHEMA_VERSION,
    apply_migrations,
    describe_difference,
    expected_schema,
    schema_of,
)
from .sqlite_errors import SQLITE_BUSY, SQLITE_LOCKED, error_code, unavailable

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Literal

__all__ = ["TRANSACTIONS", "Transaction", "begin", "commit_unchanged", "open_database", "use_wal"]

if TYPE_CHECKING:  # a name for type checkers only
    TransactionKind = Literal["mutation", "removal", "telemetry", "view"]
    """A content change that adds (a put, the rows it prunes), one that takes content out (a delete, a
    replacement) and is made durable by the scrub after it, a scan's or read's telemetry update, or the
    read-only part of a scan or read (refresh, ranking, fetching contents)."""


class Transaction(Value):
    """How one kind of transaction begins, how it waits for the write lock, and how far its commit waits for the disk."""

    __slots__ = ("begin", "synchronous", "polls")

    begin: str
    """The ``BEGIN`` statement: ``IMMEDIATE`` takes the write lock up front, plain ``BEGIN`` only reads."""
    synchronous: str | None
    """The ``PRAGMA synchronous`` level set before it begins; ``None`` for a transaction that writes nothing."""
    polls: bool
    """Whether a ``BEGIN IMMEDIATE`` refused the lock asks again after short pauses (:func:`begin`)
    rather than through SQLite's busy handler."""

    def __init__(self, begin: str, synchronous: str | None, *, polls: bool = False) -> None:
        self._fill(begin, synchronous, polls)


TRANSACTIONS: dict[TransactionKind, Transaction] = {
    "mutation": Transaction("BEGIN IMMEDIATE", "FULL"),
    "removal": Transaction("BEGIN IMMEDIATE", "NORMAL"),
    "telemetry": Transaction("BEGIN IMMEDIATE", "NORMAL", polls=True),
    "view": Transaction("BEGIN", None),
}
"""Each kind's begin statement, wait and sync level: the one place that decides locking and durability.

Telemetry polls: the lock it waits for is nearly always another scan's telemetry, held for a tenth
of a millisecond, where SQLite's handler would sleep a whole one (with two processes scanning side
by side that was a third of their throughput). A mutation or a removal waits through SQLite's
handler: the lock is then often held by a commit that syncs and a removal's scrub, and eight
writers polling every few hundred microseconds took turns worse (fewer writes per second, each
removal's scrub more often left to the next writer) than eight that sleep.
"""

WAL_AUTOCHECKPOINT_PAGES = 256
"""A commit that leaves at least this many pages in the WAL copies them into the file (1 MiB at
4 KiB pages), so the WAL stays small beside the file's own bound. A scan's telemetry appends a few
pages, so about one scan in fifty pays a checkpoint (two syncs); at 64 pages one in twelve did,
which put a checkpoint into the 95th percentile of scan times."""

JOURNAL_SIZE_LIMIT_BYTES = 5 * 1024 * 1024 // 4
"""A checkpointed WAL larger than this is truncated back to it when it is next reset: room for the
:data:`WAL_AUTOCHECKPOINT_PAGES` a WAL reaches between checkpoints and a commit beyond them (at
4 KiB pages, a frame is 4,120 bytes). A WAL that a checkpoint restarts is then written over in
place, instead of being cut back and grown again: a write that extends a file allocates blocks
and changes its size, which made each telemetry commit past the cut cost a third more, and a sync
that records a new size costs more than one that does not. Only a larger commit (a ``VACUUM``,
an import of many records) leaves a WAL above this, until the next reset or removal."""


def open_database(path: Path, limits: Limits, *, create: bool, busy_timeout_s: float) -> sqlite3.Connection | None:
    """An open, checked connection in autocommit mode, or ``None`` when there is nothing to open.

    ``None`` means the file (or folder) is missing, or is empty, and ``create`` is false: readers
    report an empty corpus without making anything.

    Raises:
        StoreUnavailable: an unsafe path (:mod:`.files`), a newer, foreign or altered schema.
        sqlite3.Error, OSError: anything else; the caller translates it.
    """
    try:
        if not dbfiles.prepare(path, create=create):
            return None
    except dbfiles.UnsafeFile as exc:
        raise unavailable(path, exc.reason, exc.message) from None
    new_file = create and os.lstat(path).st_size == 0
    if _size(f"{path}-wal") > 0:
        _inspect_read_only(path, busy_timeout_s)
    conn = _connect(path, busy_timeout_s)
    try:
        if new_file:
            # Takes effect only before the first page is written, so before the transaction; if
            # another process wrote the file meanwhile, its page size wins.
            conn.execute(f"PRAGMA page_size = {int(limits.page_size)}")
            # And WAL from the first page on, so a file is never written in rollback mode.
            use_wal(conn, busy_timeout_s=busy_timeout_s)
        # A read transaction checks the file; one that needs migrating is checked again and
        # migrated in one write transaction from that read to the last migration: another
        # process creating the same file is seen either not at all or finished, never half done.
        conn.execute("BEGIN")
        ready = _inspect(conn, path, create=False)
        older = conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION
        conn.execute("COMMIT")
        if create and (not ready or older):  # readers read an older file as it is
            begin(conn, "BEGIN IMMEDIATE", busy_timeout_s=busy_timeout_s)
            ready = _inspect(conn, path, create=True)
            conn.execute("COMMIT")
        if not ready:
            conn.close()  # an empty file: nothing to read, and reading must not write
            return None
        conn.execute("PRAGMA secure_delete = ON")
        # The cap is in bytes; a file made elsewhere may have pages of another size than ours.
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        conn.execute(f"PRAGMA max_page_count = {max(1, limits.file_bytes // page_size)}")
        conn.execute("PRAGMA temp_store = MEMORY")  # VACUUM's scratch copy stays out of /tmp
        conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
        conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT_BYTES}")
        if create:
            use_wal(conn, busy_timeout_s=busy_timeout_s)
    except BaseException:
        conn.close()  # rolls back an open transaction: a refused file is left as it was
        raise
    return conn


def _size(path: str) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def _top_level_only(
    action: int, first: str | None, second: str | None, database: str | None, source: str | None
) -> int:
    """The connections' authorizer: refuse, as a statement is prepared, anything a trigger or a view
    would do (``source`` names it), and allow what our own statements do.

    The schema is compared with ours when a file is opened, but another process can add a trigger
    later, while a store has the file open. SQLite prepares a statement again when the schema
    changed, and compiles the triggers it would fire into it, so such a trigger is refused before
    it can run (``SQLITE_AUTH``, translated to ``unexpected_schema``); our schema has none.
    """
    return sqlite3.SQLITE_OK if source is None else sqlite3.SQLITE_DENY


def _connect(path: Path, busy_timeout_s: float, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection that distrusts the schema and runs no trigger or view (:func:`_top_level_only`);
    ``read_only`` opens it with ``mode=ro``."""
    target = f"file:{urllib.parse.quote(os.fspath(path))}?mode=ro" if read_only else os.fspath(path)
    conn = sqlite3.connect(target, uri=read_only, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
    try:
        conn.set_authorizer(_top_level_only)
        conn.text_factory = decode
        conn.execute("PRAGMA trusted_schema = OFF")  # schema objects may not call unsafe functions
        conn.execute("PRAGMA cell_size_check = ON")  # a malformed page is an error, not a crash
        setconfig = getattr(conn, "setconfig", None)  # Python 3.12+
        defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
        if setconfig is not None and defensive is not None:
            setconfig(defensive, True)
    except BaseException:
        conn.close()
        raise
    return conn


def _inspect_read_only(path: Path, busy_timeout_s: float) -> None:
    """Check the file as its WAL makes it, through a connection that cannot write.

    SQLite reads the frames of a ``-wal`` file as part of the database, and the last connection to
    close a file copies them into it. A refused file must be left as it was, WAL included, so when
    a WAL with frames is there before opening (another process is writing, one was killed, or
    someone planted it), the schema is first compared through a ``mode=ro`` connection, whose
    closing cannot checkpoint. (It may create the ``-shm`` index, which holds no data.)

    Raises:
        StoreUnavailable: a newer, foreign or altered schema.
    """
    conn = _connect(path, busy_timeout_s, read_only=True)
    try:
        conn.execute("BEGIN")
        _inspect(conn, path, create=False)
        conn.execute("COMMIT")
    finally:
        conn.close()


FIRST_PAUSE_S = 0.00005
"""How long a writer first waits when another holds the write lock; each further wait doubles, up
to :data:`LAST_PAUSE_S`."""

LAST_PAUSE_S = 0.002
"""The longest single wait for the write lock."""


class Backoff:
    """The waits between tries of something another connection holds: the first ``first_s``, each
    next one twice the last up to ``last_s``, until ``timeout_s`` after the first refusal.

    ``wait()`` is called after each refused try: it sleeps and answers ``True`` while another try
    is due, and ``False`` once the time is up (then it does not sleep).
    """

    __slots__ = ("_deadline", "_last", "_pause", "_timeout")

    def __init__(self, timeout_s: float, *, first_s: float = FIRST_PAUSE_S, last_s: float = LAST_PAUSE_S) -> None:
        self._timeout = timeout_s
        self._pause = first_s
        self._last = last_s
        self._deadline: float | None = None

    def wait(self) -> bool:
        now = time.monotonic()
        if self._deadline is None:
            self._deadline = now + self._timeout
        if now >= self._deadline:
            return False
        time.sleep(min(self._pause, self._deadline - now))
        self._pause = min(2 * self._pause, self._last)
        return True


def begin(conn: sqlite3.Connection, statement: str, *, busy_timeout_s: float) -> None:
    """Run ``statement`` (a ``BEGIN``); a ``BEGIN IMMEDIATE`` waits for the write lock here.

    SQLite's own busy handler sleeps at least a millisecond on the first refusal and longer on each
    next one, while the transactions that hold the lock (a scan's telemetry, most puts) are over in
    a tenth of that. So with the handler off, the lock is asked for again after
    :data:`FIRST_PAUSE_S`, the pause doubling up to :data:`LAST_PAUSE_S`, until ``busy_timeout_s``
    has passed. The connection's busy timeout is put back afterwards for every other statement
    (checkpoints wait for readers through it).

    Raises:
        sqlite3.OperationalError: still busy after ``busy_timeout_s``, or any other error; the
            caller translates it. No transaction is open then.
    """
    if statement != "BEGIN IMMEDIATE":
        conn.execute(statement)
        return
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        backoff = Backoff(busy_timeout_s)
        while True:
            try:
                conn.execute(statement)
                return
            except sqlite3.OperationalError as exc:
                # the extended codes too: BUSY_SNAPSHOT when another writer committed between the
                # snapshot this try took and its lock, which the next try takes afresh
                if not _is_busy(exc) or not backoff.wait():
                    raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {round(busy_timeout_s * 1000)}")


def commit_unchanged(conn: sqlite3.Connection) -> None:
    """Commit a transaction that changes nothing and still writes one frame into the WAL: the file
    header's ``user_version`` rewritten with the value it has (page 1 holds the header and the
    schema, never a record). It starts an emptied WAL, and at ``synchronous = FULL`` its commit
    syncs the WAL, every earlier frame with it.

    Raises:
        sqlite3.Error: the write lock was not had within the busy timeout, or the write failed;
            nothing changed.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def use_wal(conn: sqlite3.Connection, *, busy_timeout_s: float) -> None:
    """Put the file in WAL mode (it stays so for every connection), unless it is already.

    Switching needs an exclusive lock. SQLite answers ``SQLITE_BUSY`` at once, without its busy
    handler, when another connection holds a shared lock (it would deadlock waiting), so the switch
    is retried here until ``busy_timeout_s`` has passed. A rollback journal left by a killed process
    is rolled back first (every read does that), so no unfinished transaction is carried into the
    WAL. A reader never switches: a file in the old mode is read as it is, and switched by the
    first connection that may write.

    Raises:
        sqlite3.OperationalError: the mode could not be changed (busy past the timeout, read-only);
            the caller translates it.
    """
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
        return
    backoff = Backoff(busy_timeout_s, first_s=0.001, last_s=0.05)
    while True:
        try:
            mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or not backoff.wait():
                raise
            continue
        if mode != "wal":  # SQLite answers the mode it kept when it cannot switch
            raise sqlite3.OperationalError(f"attempt to write a readonly database: the journal mode stayed {mode}")
        return


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds a lock (any extended code of
    ``SQLITE_BUSY`` or ``SQLITE_LOCKED``)."""
    return (error_code(exc) or 0) & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)


def _inspect(conn: sqlite3.Connection, path: Path, *, create: bool) -> bool:
    """Refuse a newer, foreign or altered file; migrate an empty one when ``create``.

    Runs inside the opening transaction. Returns whether the file holds a schema to read (ours,
    or without ``create`` an older one, which readers read as it is).
    """
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise unavailable(
            path,
            "newer_schema",
            f"schema version {version} is newer than this tact-memory understands "
            f"({SCHEMA_VERSION}); it was left untouched. Upgrade tact-memory to use it.",
        )
    found = schema_of(conn)
    if version == 0 and found:
        raise unavailable(
            path, "foreign_database", "the file is a SQLite database of another program; it was left untouched"
        )
    expected = expected_schema(version)
    if found != expected:
        raise unavailable(
            path,
            "unexpected_schema",
            f"the schema is not exactly the one tact-memory creates ({describe_difference(found, expected)}); "
            "triggers, views or changed tables could run code on every operation, so the file was left "
            "untouched. Move it aside to start a new memory.",
        )
    if version < SCHEMA_VERSION:
        if not create:
            return bool(version > 0)  # an older file is read as it is; the first write migrates it
        apply_migrations(conn, version)
    return True

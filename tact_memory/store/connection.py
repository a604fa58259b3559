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
another user owns (above all a hot journal, which SQLite would copy into the file) are refused, and
group and other permission bits are cleared.

First open
----------
Opening reads ``user_version`` and the schema and, for a new file, runs the migrations, all inside
one transaction (``BEGIN IMMEDIATE`` when the file may be created, a read transaction otherwise).
Processes that meet a missing file at the same moment each create it with ``O_EXCL`` or find it,
then take turns on the write lock: the first migrates, the others see the finished schema. None of
them can see the schema half made. A file with a newer ``user_version`` is refused without being
written to, and so is a file that is not a SQLite database.

Durability and locking
----------------------
Every transaction is one of the :data:`TRANSACTIONS` kinds. Mutations and telemetry updates both
run inside ``BEGIN IMMEDIATE``, which takes the write lock up front, so the checks a mutation makes
(version, duplicates, bounds) cannot be invalidated before it commits. Other processes wait up to
the busy timeout before the store reports the database as ``unavailable``/``busy``.

The journal mode is ``DELETE`` with ``synchronous = EXTRA``. A commit is acknowledged only after
the rollback journal and the database have been synced and the journal's deletion (the commit
point) has been synced in its folder too, so an acknowledged put or delete survives a killed
process and, as far as the disk honours fsync, a power loss; an interrupted transaction is rolled
back from the journal on the next open. (``FULL`` would leave the folder unsynced, so a power cut
just after a commit could bring the journal back and undo the last acknowledged write.) ``DELETE``
rather than ``WAL`` is deliberate: a WAL file keeps copies of changed pages, including deleted
content, until a checkpoint, while the rollback journal is removed at every commit. Writes are rare
and small, so WAL's concurrency buys nothing here.

``secure_delete`` is on (see :mod:`.hygiene` for what it does not cover), ``max_page_count`` caps
the main file at :attr:`~tact_memory.limits.Limits.file_bytes` (growth past it fails with
``SQLITE_FULL``), and temporary storage stays in memory, so ``VACUUM``'s scratch copy never lands
in ``/tmp``. The folder is kept at mode 0700 and the file at 0600, set before SQLite opens them.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Literal

from ..limits import Limits
from . import files as dbfiles
from .rows import decode
from .schema import (
    SCHEMA_VERSION,
    apply_migrations,
    describe_difference,
    expected_schema,
    schema_of,
)
from .sqlite_errors import unavailable

__all__ = ["TRANSACTIONS", "TransactionKind", "open_database"]

TransactionKind = Literal["mutation", "telemetry"]
"""A content change (put, replace, delete, prune), or a scan's or read's telemetry update."""

TRANSACTIONS: dict[TransactionKind, str] = {
    "mutation": "BEGIN IMMEDIATE",
    "telemetry": "BEGIN IMMEDIATE",
}
"""How each kind of transaction begins; the one place that decides its locking."""


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
    conn = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
    try:
        conn.text_factory = decode
        conn.execute("PRAGMA trusted_schema = OFF")  # schema objects may not call unsafe functions
        conn.execute("PRAGMA cell_size_check = ON")  # a malformed page is an error, not a crash
        setconfig = getattr(conn, "setconfig", None)  # Python 3.12+
        defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
        if setconfig is not None and defensive is not None:
            setconfig(defensive, True)
        if new_file:
            # Takes effect only before the first page is written, so before the transaction; if
            # another process wrote the file meanwhile, its page size wins.
            conn.execute(f"PRAGMA page_size = {int(limits.page_size)}")
        # One transaction from the first read to the last migration: another process creating
        # the same file is seen either not at all or finished, never half done.
        conn.execute("BEGIN IMMEDIATE" if create else "BEGIN")
        ready = _inspect(conn, path, create=create)
        conn.execute("COMMIT")
        if not ready:
            conn.close()  # an empty file: nothing to read, and reading must not write
            return None
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("PRAGMA synchronous = EXTRA")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() != "delete":
            conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute(f"PRAGMA max_page_count = {int(limits.max_pages)}")
        conn.execute("PRAGMA temp_store = MEMORY")  # VACUUM's scratch copy stays out of /tmp
    except BaseException:
        conn.close()  # rolls back an open transaction: a refused file is left as it was
        raise
    return conn


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

"""The database schema, as numbered migrations.

Each migration is a small function named for its number and what it does (``m001_…``). The
number of migrations applied is the database's ``user_version``: a new file gets all of them, an
older one the ones it lacks, each run in one transaction; the store refuses a file whose
``user_version`` is higher than :data:`SCHEMA_VERSION` without writing to it.

The corpus is one ordinary table (no FTS virtual table, no embedding index), so it can be read with
the ``sqlite3`` shell. ``meta.generation`` grows with every content change (put, replace, delete,
prune) and not with telemetry, which lets an in-process index tell when another process changed
the corpus.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "m001_create_memories", "migrate"]


def m001_create_memories(conn: sqlite3.Connection) -> None:
    """The memories table and the generation counter."""
    conn.execute(
        """
        CREATE TABLE memories (
            id                 INTEGER PRIMARY KEY AUTOINCREMENT,
            version            INTEGER NOT NULL CHECK (version >= 1),
            content            TEXT    NOT NULL,
            created_at_ms      INTEGER NOT NULL,
            updated_at_ms      INTEGER NOT NULL,
            scan_count         INTEGER NOT NULL DEFAULT 0,
            last_scanned_at_ms INTEGER,
            read_count         INTEGER NOT NULL DEFAULT 0,
            last_read_at_ms    INTEGER,
            probation_until_ms INTEGER
        )
        """
    )
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    conn.execute("INSERT INTO meta (key, value) VALUES ('generation', 0)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (m001_create_memories,)
"""Every migration, in order; the position (from 1) is the ``user_version`` it brings a file to."""
SCHEMA_VERSION = len(MIGRATIONS)
"""The ``user_version`` of a database this version of tact-memory fully understands."""


def migrate(conn: sqlite3.Connection, *, page_size: int) -> None:
    """Apply the migrations a database lacks, in one ``BEGIN IMMEDIATE`` transaction.

    Args:
        conn: An open connection in autocommit mode (``isolation_level=None``).
        page_size: The page size for a brand-new file (it cannot change once tables exist).
    """
    if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
        # Only takes effect before the first page is written, so before the transaction starts.
        conn.execute(f"PRAGMA page_size = {int(page_size)}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for number, migration in enumerate(MIGRATIONS, start=1):
            if number > current:
                migration(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise

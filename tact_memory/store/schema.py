"""The database schema, as numbered migrations.

Each migration is a small function named for its number and what it does (``m001_…``). The
number of migrations applied is the database's ``user_version``: a new file gets all of them, an
older one the ones it lacks, each run in one transaction; the store refuses a file whose
``user_version`` is higher than :data:`SCHEMA_VERSION` without writing to it.

The migrations are also the definition of an acceptable file: :func:`expected_schema` runs them on
an in-memory database and the store refuses any file whose ``sqlite_master`` differs from that
(an extra trigger, view, table or index, or a changed column), because SQLite runs whatever a
schema holds (a trigger fires on our own statements) and the file is data, never code.

The corpus is one ordinary table (no FTS virtual table, no embedding index), and what scans and
reads record about it another (migration 3), so both can be read with the ``sqlite3`` shell.
``meta.generation`` grows with every content change (put, replace, delete, prune) and not with
telemetry, which lets an in-process index tell when another process changed
the corpus. Each row's ``derived`` column (migration 2) caches what the store derived from its
current version's content, so a new process neither screens nor tokenizes the corpus again.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from functools import lru_cache

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SchemaObject",
    "apply_migrations",
    "describe_difference",
    "expected_schema",
    "m001_create_memories",
    "m002_add_derived",
    "m003_split_telemetry",
    "migrate",
    "schema_of",
]

SchemaObject = tuple[str, str, str, str]
"""One row of ``sqlite_master``: type, name, table name and the SQL with white space collapsed."""


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


def m002_add_derived(conn: sqlite3.Connection) -> None:
    """What each row's current version was screened and tokenized to (see :mod:`.derived`).

    Existing rows start without it; the store derives and stores it on the next write. The index on
    ``version`` holds every row's id too, so listing ids and versions (what an in-process index
    compares after another process wrote) reads a few index pages instead of every row's.
    """
    conn.execute("ALTER TABLE memories ADD COLUMN derived TEXT")
    conn.execute("CREATE INDEX memories_version ON memories (version)")


_TELEMETRY_COLUMNS = "scan_count, last_scanned_at_ms, read_count, last_read_at_ms, probation_until_ms"


def m003_split_telemetry(conn: sqlite3.Connection) -> None:
    """Telemetry (scan and read counts and times, unread probation) in a table of its own.

    A scan's or read's telemetry then rewrites a few pages of small rows instead of the pages that
    hold the records' content: less to write into the WAL per scan, a checkpoint that copies a few
    pages, and no content page copied into the WAL by a scan. ``telemetry.memory_id`` is the id of
    the record it counts; a record without a row has no telemetry yet. ``memories`` is made again
    without the moved columns (the old table renamed, a new one filled from it, the old one
    dropped: ``DROP COLUMN`` needs SQLite 3.35), keeping its ``AUTOINCREMENT`` counter, so an id is
    never handed out twice. A new file goes through it too, so it starts with a page the first
    table left on its freelist (zeroed); its first rows reuse it.
    """
    conn.execute(
        """
        CREATE TABLE telemetry (
            memory_id          INTEGER PRIMARY KEY,
            scan_count         INTEGER NOT NULL DEFAULT 0,
            last_scanned_at_ms INTEGER,
            read_count         INTEGER NOT NULL DEFAULT 0,
            last_read_at_ms    INTEGER,
            probation_until_ms INTEGER
        )
        """
    )
    conn.execute(f"INSERT INTO telemetry (memory_id, {_TELEMETRY_COLUMNS}) SELECT id, {_TELEMETRY_COLUMNS} FROM memories")
    counter = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'memories'").fetchone()
    conn.execute("ALTER TABLE memories RENAME TO memories_before_3")  # its index and counter go with it
    conn.execute(
        """
        CREATE TABLE memories (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            version       INTEGER NOT NULL CHECK (version >= 1),
            content       TEXT    NOT NULL,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            derived       TEXT
        )
        """
    )
    columns = "id, version, content, created_at_ms, updated_at_ms, derived"
    conn.execute(f"INSERT INTO memories ({columns}) SELECT {columns} FROM memories_before_3")
    conn.execute("DROP TABLE memories_before_3")  # and its index; secure_delete zeroes the freed pages
    if counter is not None:
        conn.execute("DELETE FROM sqlite_sequence WHERE name = 'memories'")
        conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('memories', ?)", counter)
    conn.execute("CREATE INDEX memories_version ON memories (version)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    m001_create_memories,
    m002_add_derived,
    m003_split_telemetry,
)
"""Every migration, in order; the position (from 1) is the ``user_version`` it brings a file to."""
SCHEMA_VERSION = len(MIGRATIONS)
"""The ``user_version`` of a database this version of tact-memory fully understands."""


def apply_migrations(conn: sqlite3.Connection, current: int) -> None:
    """Apply the migrations after ``current`` and record the new ``user_version``.

    The caller holds the transaction (``BEGIN IMMEDIATE``) and has read ``current`` inside it.
    """
    for number, migration in enumerate(MIGRATIONS, start=1):
        if number > current:
            migration(conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


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
        apply_migrations(conn, int(conn.execute("PRAGMA user_version").fetchone()[0]))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


_SQL_SPACE = re.compile(r"[ \t\n\f\r]+")
"""What SQLite's tokenizer takes for white space, and nothing else: a no-break space or another
Unicode space is part of a word to SQLite (``INTEGER\u00a0NOT NULL`` declares the type
``INTEGER\u00a0NOT`` and no NOT NULL), so it must not be collapsed like one."""


def schema_of(conn: sqlite3.Connection) -> frozenset[SchemaObject]:
    """Every object of the connection's main schema, comparable with :func:`expected_schema`.

    Runs of white space in the SQL collapse to one space (a file written by hand or by another
    version may lay its statements out differently), but only of the white space SQLite itself
    skips (:data:`_SQL_SPACE`). A value that is not text (a hand-made ``sqlite_master`` row, or
    text that is not UTF-8) becomes ``"?"``, which no expected object has.
    """
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_master").fetchall()

    def text(value: object) -> str:
        if value is None:
            return ""
        return " ".join(_SQL_SPACE.split(value.strip(" \t\n\f\r"))) if isinstance(value, str) else "?"

    return frozenset((text(t), text(n), text(tbl), text(sql)) for t, n, tbl, sql in rows)


@lru_cache(maxsize=None)
def expected_schema(version: int) -> frozenset[SchemaObject]:
    """The schema the first ``version`` migrations make, from an in-memory database (cached)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in MIGRATIONS[:version]:
            migration(conn)
        return schema_of(conn)
    finally:
        conn.close()


def describe_difference(found: frozenset[SchemaObject], expected: frozenset[SchemaObject]) -> str:
    """What a file's schema has that the migrations do not make, in words.

    Names the file's extra objects by kind only (their names are the file's text, not ours) and
    ours by name when they are missing or differ.
    """
    ours = {(kind, name) for kind, name, _, _ in expected}
    extra: dict[str, int] = {}
    for kind, name, _, _ in found - expected:
        if (kind, name) not in ours:
            noun = kind if kind in ("table", "view", "trigger") else "index" if kind == "index" else "object"
            extra[noun] = extra.get(noun, 0) + 1
    changed = sorted(name for kind, name, _, _ in expected - found)
    plural = {"index": "indexes"}
    parts = [
        f"{count} extra {kind if count == 1 else plural.get(kind, kind + 's')}" for kind, count in sorted(extra.items())
    ]
    if changed:
        parts.append(f"{', '.join(changed)} missing or changed")
    return "; ".join(parts) or "a different schema"

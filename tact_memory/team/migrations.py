"""The PostgreSQL schema of team memory, made by numbered migrations.

``tact_schema`` holds one row, the schema version. Each migration is a list of statements that
takes the schema from version ``n - 1`` to ``n``; :func:`migrate` runs the missing ones in one
transaction under an advisory lock, so servers starting together take turns and none sees a
half-made schema. A database whose version is newer than this release knows is refused untouched,
and so is one whose encoding is not UTF8: ``SQL_ASCII`` stores bytes unchecked (psycopg hands its
text back as ``bytes``), and an encoding such as ``LATIN1`` cannot hold most of what people write.

Tables
------
``memories``
    One row per live record: the author's ``namespace``, an ``id`` from one identity sequence
    shared by every namespace (an id alone names one record, and is never reused), the version,
    content, times and telemetry, the same columns as the local SQLite table.
``generations``
    One row per namespace: a number every content change in that namespace replaces with the next
    value of one sequence (telemetry does not), so a number is never seen twice, even if the table
    is emptied. Servers compare it with the generation their in-process index was built from, and
    the row is what a writer locks (``FOR UPDATE``) to serialise the changes of one namespace, so
    version checks, duplicate checks and bounds hold under contention.
    Since version 2, every change of a row notifies channel ``tact_memory_generations`` at commit
    (a trigger), which keeps :mod:`tact_memory.team.watch` current.
``tokens``
    Credentials: the SHA-256 of each token (never the token), its namespace and role, the
    namespaces a reader may read (``NULL`` for all), and creation, expiry and revocation times.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "NewerSchema",
    "SchemaState",
    "WrongEncoding",
    "check_encoding",
    "migrate",
    "schema_version",
    "state",
]

_LOCK_KEY = 0x7AC7_3E30  # pg_advisory_xact_lock key for migrations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE tact_schema (version integer NOT NULL)",
        "INSERT INTO tact_schema (version) VALUES (0)",
        """CREATE TABLE memories (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            namespace text NOT NULL,
            version bigint NOT NULL CHECK (version >= 1),
            content text NOT NULL,
            created_at_ms bigint NOT NULL,
            updated_at_ms bigint NOT NULL,
            scan_count bigint NOT NULL DEFAULT 0,
            last_scanned_at_ms bigint,
            read_count bigint NOT NULL DEFAULT 0,
            last_read_at_ms bigint,
            probation_until_ms bigint
        )""",
        "CREATE INDEX memories_namespace ON memories (namespace, id)",
        "CREATE SEQUENCE generation_numbers",
        "CREATE TABLE generations (namespace text PRIMARY KEY,"
        " generation bigint NOT NULL DEFAULT nextval('generation_numbers'))",
        """CREATE TABLE tokens (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            token_hash text NOT NULL UNIQUE,
            namespace text NOT NULL,
            role text NOT NULL CHECK (role IN ('reader', 'writer')),
            readable text[],
            created_at_ms bigint NOT NULL,
            expires_at_ms bigint,
            revoked_at_ms bigint
        )""",
    ),
    (
        # Every change of a generation notifies at commit, whichever release or tool made it
        # (tact_memory.team.watch); a TRUNCATE notifies once, for the whole table.
        """CREATE FUNCTION tact_generation_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify('tact_memory_generations', '*');
            ELSIF TG_OP = 'DELETE' THEN
                PERFORM pg_notify('tact_memory_generations',
                    json_build_object('namespace', OLD.namespace, 'generation', NULL)::text);
            ELSE
                PERFORM pg_notify('tact_memory_generations',
                    json_build_object('namespace', NEW.namespace, 'generation', NEW.generation)::text);
            END IF;
            RETURN NULL;
        END $$""",
        "CREATE TRIGGER generations_notify AFTER INSERT OR UPDATE OR DELETE ON generations"
        " FOR EACH ROW EXECUTE FUNCTION tact_generation_notify()",
        "CREATE TRIGGER generations_truncate_notify AFTER TRUNCATE ON generations"
        " FOR EACH STATEMENT EXECUTE FUNCTION tact_generation_notify()",
    ),
)
"""Migration ``n`` (1-based) is ``MIGRATIONS[n - 1]``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this release creates and understands."""

SchemaState = str
"""``current``, ``missing`` (no schema yet), ``older`` (migrations pending) or ``newer``."""


class NewerSchema(Exception):
    """The database holds a schema newer than this release understands."""

    def __init__(self, found: int) -> None:
        super().__init__(
            f"the team database has schema version {found}, newer than this tact-memory understands "
            f"({SCHEMA_VERSION}); it was left untouched. Upgrade tact-memory to use it."
        )
        self.found = found


class WrongEncoding(Exception):
    """The database's encoding is not UTF8; nothing was changed."""

    def __init__(self, found: str) -> None:
        super().__init__(
            f"the team database's encoding is {found}, and tact-memory needs UTF8; it was left untouched. "
            "Create a database with ENCODING 'UTF8' (for example CREATE DATABASE tact ENCODING 'UTF8' "
            "TEMPLATE template0) and point the URL at it."
        )
        self.found = found


def check_encoding(conn: Any) -> None:
    """Refuse a database whose server encoding is not UTF8.

    Raises:
        WrongEncoding: naming the encoding found.
    """
    found = conn.execute("SELECT current_setting('server_encoding')").fetchone()[0]
    if isinstance(found, bytes):  # a SQL_ASCII connection returns text undecoded
        found = found.decode("ascii", "replace")
    if str(found).upper() not in ("UTF8", "UTF-8"):
        raise WrongEncoding(str(found))


def schema_version(conn: Any) -> int:
    """The schema version of the database ``conn`` is connected to; 0 when there is none yet."""
    row = conn.execute("SELECT to_regclass('tact_schema') IS NOT NULL").fetchone()
    if not row[0]:
        return 0
    found = conn.execute("SELECT version FROM tact_schema").fetchone()
    return int(found[0]) if found else 0


def state(conn: Any) -> SchemaState:
    """How the database's schema compares with this release's."""
    found = schema_version(conn)
    if found > SCHEMA_VERSION:
        return "newer"
    if found == SCHEMA_VERSION:
        return "current"
    return "missing" if found == 0 else "older"


def migrate(conn: Any) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION` in one transaction; return the version found.

    Raises:
        NewerSchema: the database is newer; nothing was changed.
        WrongEncoding: the database's encoding is not UTF8; nothing was changed.
    """
    check_encoding(conn)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        found = schema_version(conn)
        if found > SCHEMA_VERSION:
            raise NewerSchema(found)
        for number in range(found + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[number - 1]:
                conn.execute(statement)
            conn.execute("UPDATE tact_schema SET version = %s", (number,))
    return found

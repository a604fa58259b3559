"""SQLite's errors become the project's, by result code, through one table and one context manager."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from tact_memory import errors
from tact_memory.store import sqlite_errors as se

PATH = Path("/data/memory/v1.sqlite3")


def coded(code: int | None, message: str = "some words from SQLite") -> sqlite3.Error:
    """An error as Python 3.11+ raises it for SQLite result ``code`` (``None``: as 3.10 raises it)."""
    exc = sqlite3.OperationalError(message)
    if code is not None:
        exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


def translated(exc: BaseException) -> errors.TactMemoryError:
    with pytest.raises(errors.TactMemoryError) as info, se.translating(PATH, file_bytes=4096, busy_timeout_s=0.25):
        raise exc
    assert info.value.__cause__ is exc
    return info.value


CODES = {
    se.SQLITE_BUSY: "busy",
    se.SQLITE_LOCKED: "busy",
    se.SQLITE_BUSY | (1 << 8): "busy",  # SQLITE_BUSY_RECOVERY: an extended code falls back to its primary
    se.SQLITE_READONLY_DBMOVED: "moved",
    se.SQLITE_READONLY: "read_only",
    se.SQLITE_READONLY | (6 << 8): "read_only",  # SQLITE_READONLY_DIRECTORY
    se.SQLITE_IOERR: "io_error",
    se.SQLITE_IOERR | (4 << 8): "io_error",  # SQLITE_IOERR_FSYNC
    se.SQLITE_PERM: "permission_denied",
    se.SQLITE_CANTOPEN: "permission_denied",
    se.SQLITE_NOTADB: "not_a_database",
    se.SQLITE_CORRUPT: "not_a_database",
    se.SQLITE_AUTH: "unexpected_schema",  # the authorizer refused what a trigger or view would do
    1: "sqlite_error",  # SQLITE_ERROR: no entry, SQLite's own message
    19: "sqlite_error",  # SQLITE_CONSTRAINT
}


@pytest.mark.parametrize("code", list(CODES))
def test_each_code_maps_to_its_reason_whatever_the_message_says(code: int) -> None:
    error = translated(coded(code, "database is locked, full, malformed and read-only"))
    assert isinstance(error, errors.StoreUnavailable)
    assert error.reason == CODES[code]
    assert error.message.startswith(f"memory database {PATH}: ")
    if CODES[code] == "busy":
        assert "more than 0.25 s" in error.message
    if CODES[code] != "sqlite_error":
        assert "database is locked" not in error.message  # SQLite's own words never reach a caller


@pytest.mark.parametrize("code", [se.SQLITE_FULL, se.SQLITE_FULL | (1 << 8)])
def test_full_is_a_capacity_error_naming_the_file_bound(code: int) -> None:
    error = translated(coded(code))
    assert isinstance(error, errors.DatabaseCapacity)
    assert error.limit == 4096 and "4,096-byte limit" in error.message
    assert se.is_full(coded(code)) and not se.is_full(coded(se.SQLITE_BUSY))


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("database or disk is full", se.SQLITE_FULL),
        ("database is locked", se.SQLITE_BUSY),
        ("database table is locked", se.SQLITE_BUSY),
        ("disk I/O error", se.SQLITE_IOERR),
        ("attempt to write a readonly database", se.SQLITE_READONLY),
        ("access permission denied", se.SQLITE_PERM),
        ("unable to open database file", se.SQLITE_CANTOPEN),
        ("file is not a database", se.SQLITE_NOTADB),
        ("database disk image is malformed", se.SQLITE_CORRUPT),
        ("not authorized", se.SQLITE_AUTH),
        ("access to kept.id is prohibited", se.SQLITE_AUTH),
        ("no such table: nothing", None),
    ],
)
def test_without_a_recorded_code_the_code_comes_from_sqlites_wording(message: str, code: int | None) -> None:
    """Python 3.10 records no code; SQLite's wording of each code stands in, in one function."""
    assert se.error_code(coded(None, message)) == code


def test_os_errors_map_by_type_and_our_own_pass_through() -> None:
    denied = translated(PermissionError(errno.EACCES, "Permission denied"))
    assert isinstance(denied, errors.StoreUnavailable) and denied.reason == "permission_denied"
    read_only = translated(OSError(errno.EROFS, "Read-only file system"))
    assert isinstance(read_only, errors.StoreUnavailable) and read_only.reason == "read_only"
    other = translated(OSError(errno.ENAMETOOLONG, "File name too long"))
    assert isinstance(other, errors.StoreUnavailable) and other.reason == "os_error"
    assert other.message.endswith("File name too long")
    ours = errors.NotFound("no memory has id 3", id=3)
    assert se.translate(ours, path=PATH, file_bytes=1, busy_timeout_s=1) is ours
    assert se.error_code(ValueError("database is locked")) is None  # only SQLite's errors have codes


def _real_errors(folder: Path) -> Iterator[tuple[str, sqlite3.Error]]:
    """Errors SQLite itself raises, each named by the code it should carry."""

    def raised(conn: sqlite3.Connection, sql: str) -> sqlite3.Error:
        with pytest.raises(sqlite3.Error) as info:
            conn.execute(sql).fetchall()
        return info.value

    garbage = folder / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with closing(sqlite3.connect(garbage)) as conn:
        yield "SQLITE_NOTADB", raised(conn, "SELECT * FROM sqlite_master")
    db = folder / "kept.sqlite3"
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("CREATE TABLE kept (id INTEGER, body TEXT)")
        conn.set_authorizer(lambda action, *args: sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_READ else sqlite3.SQLITE_OK)
        yield "SQLITE_AUTH", raised(conn, "SELECT id FROM kept")  # a column read refused
        conn.set_authorizer(lambda action, *args: sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_SELECT else sqlite3.SQLITE_OK)
        yield "SQLITE_AUTH", raised(conn, "SELECT 1")  # a statement refused
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        yield "SQLITE_READONLY", raised(conn, "INSERT INTO kept VALUES (1, 'x')")
    with closing(sqlite3.connect(folder / "small.sqlite3", isolation_level=None)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        yield "SQLITE_FULL", raised(conn, "INSERT INTO t VALUES (zeroblob(100000))")
    holder = sqlite3.connect(db, isolation_level=None)
    waiter = sqlite3.connect(db, timeout=0.01, isolation_level=None)
    with closing(holder), closing(waiter):
        holder.execute("BEGIN EXCLUSIVE")
        yield "SQLITE_BUSY", raised(waiter, "BEGIN IMMEDIATE")
        holder.execute("ROLLBACK")


def test_real_sqlite_errors_carry_the_codes_the_table_expects(tmp_path: Path) -> None:
    """Each real error gives its code, recorded (Python 3.11 and later) or, as on 3.10, from the
    words alone; a busy one translates to ``busy``, a full one is full."""
    for name, exc in _real_errors(tmp_path):
        code = getattr(se, name)
        assert se.error_code(exc) & 0xFF == code, (name, str(exc))
        assert se.error_code(coded(None, str(exc))) == code, (name, str(exc))
        recorded = getattr(exc, "sqlite_errorcode", None)
        assert recorded is None or recorded & 0xFF == code, (name, str(exc), recorded)
        if code == se.SQLITE_BUSY:
            assert translated(exc).reason == "busy"  # type: ignore[attr-defined]
        assert se.is_full(exc) == (code == se.SQLITE_FULL)

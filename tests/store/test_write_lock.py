"""Waiting for the write lock: ``BEGIN IMMEDIATE`` asks again after short pauses, not SQLite's sleeps."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from tact_memory.store import connection
from tact_memory.store.sqlite import MemoryStore
from tact_memory.store.sqlite_errors import SQLITE_BUSY, error_code


@pytest.fixture()
def file(tmp_path: Path) -> Path:
    path = tmp_path / "memory" / "v1.sqlite3"
    with MemoryStore(path) as store:
        store.put("the build cache lives under target/cache")
    return path


def traced(conn: sqlite3.Connection) -> list[str]:
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    return statements


def held_until_asked_twice(
    file: Path, asked: list[str], *, patience_ms: int = 2000
) -> tuple[threading.Thread, sqlite3.Connection]:
    """Another connection holds the write lock until ``asked`` shows a second try (or about
    ``patience_ms`` pass)."""
    holder = sqlite3.connect(file, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")

    def release() -> None:
        for _ in range(patience_ms):
            if asked.count("BEGIN IMMEDIATE") >= 2:
                break
            threading.Event().wait(0.001)
        holder.execute("ROLLBACK")

    thread = threading.Thread(target=release)
    thread.start()
    return thread, holder


def test_a_writer_gets_the_lock_once_the_holder_commits(file: Path) -> None:
    """Refused at first, the writer asks again until the holder lets go, then holds the lock."""
    writer = sqlite3.connect(file, isolation_level=None, timeout=5.0)
    asked = traced(writer)
    releaser, holder = held_until_asked_twice(file, asked)
    try:
        connection.begin(writer, "BEGIN IMMEDIATE", busy_timeout_s=5.0)
        releaser.join()
        assert writer.in_transaction
        writer.execute("UPDATE meta SET value = value WHERE key = 'generation'")  # it may write
        writer.execute("COMMIT")
        assert asked.count("BEGIN IMMEDIATE") >= 2
        assert writer.execute("PRAGMA busy_timeout").fetchone()[0] == 5000  # put back for other statements
    finally:
        releaser.join()
        holder.close()
        writer.close()


def test_a_writer_gives_up_after_the_timeout_with_no_transaction_open(file: Path) -> None:
    holder = sqlite3.connect(file, isolation_level=None)
    writer = sqlite3.connect(file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    asked = traced(writer)
    try:
        with pytest.raises(sqlite3.OperationalError) as busy:
            connection.begin(writer, "BEGIN IMMEDIATE", busy_timeout_s=0.05)
        assert error_code(busy.value) == SQLITE_BUSY
        assert not writer.in_transaction
        assert asked.count("BEGIN IMMEDIATE") > 2  # it kept asking, with pauses far below SQLite's
        assert writer.execute("PRAGMA busy_timeout").fetchone()[0] == 50
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        writer.close()


def test_any_other_error_is_raised_at_the_first_try(file: Path) -> None:
    writer = sqlite3.connect(file, isolation_level=None)
    writer.execute("BEGIN")
    asked = traced(writer)
    try:
        with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
            connection.begin(writer, "BEGIN IMMEDIATE", busy_timeout_s=5.0)
        assert asked.count("BEGIN IMMEDIATE") == 1
        assert writer.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    finally:
        writer.close()


def test_a_read_transaction_begins_without_touching_the_timeout(file: Path) -> None:
    """A plain ``BEGIN`` takes no lock a writer holds, so it is run as it is."""
    holder = sqlite3.connect(file, isolation_level=None)
    reader = sqlite3.connect(file, isolation_level=None, timeout=2.0)
    holder.execute("BEGIN IMMEDIATE")
    asked = traced(reader)
    try:
        connection.begin(reader, "BEGIN", busy_timeout_s=2.0)
        assert reader.execute("SELECT count(*) FROM memories").fetchone()[0] == 1
        assert asked[:2] == ["BEGIN", "SELECT count(*) FROM memories"]
        reader.execute("COMMIT")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        reader.close()


@pytest.mark.parametrize("after", ["scan", "put"])
def test_a_scans_telemetry_asks_again_and_counts_once_the_lock_is_free(file: Path, after: str) -> None:
    """After a scan, or after a put (which left another sync level), the next scan's telemetry
    asks for the lock again while it is held, then counts once."""
    store = MemoryStore(file)
    try:
        assert store.scan("build cache")  # opens the connection and warms the index
        if after == "put":
            store.put("the release branch is cut on Thursdays")
        conn = store._conn
        assert conn is not None
        asked = traced(conn)
        thread, holder = held_until_asked_twice(file, asked)
        try:
            cards = store.scan("build cache")
        finally:
            thread.join()
            holder.close()
        assert [c.key.id for c in cards] == [1]
        assert asked.count("BEGIN IMMEDIATE") >= 2
        assert store.get(1).scan_count == 2  # type: ignore[union-attr]
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    finally:
        store.close()


def test_a_scans_telemetry_gives_up_busy_after_the_timeout_and_counts_nothing(
    file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held past the timeout: the scan answers ``busy`` and no card is counted, half or whole."""
    from tact_memory import errors
    from tact_memory.store import sqlite as store_module

    store = MemoryStore(file)
    holder = sqlite3.connect(file, isolation_level=None)
    try:
        store.put("the build cache is pruned weekly")
        store.scan("build cache")
        before = {r.key.id: r.scan_count for r in store.list_records()}
        monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.05)
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(errors.StoreUnavailable) as busy:
            store.scan("build cache")
        assert busy.value.reason == "busy"
        holder.execute("ROLLBACK")
        assert {r.key.id: r.scan_count for r in store.list_records()} == before
        assert sorted(c.key.id for c in store.scan("build cache")) == [1, 2]  # the lock is free again
    finally:
        holder.close()
        store.close()


def test_a_put_waits_through_sqlites_own_handler(file: Path) -> None:
    """A mutation's wait is one ``BEGIN IMMEDIATE`` that SQLite's busy handler holds until the lock is free."""
    store = MemoryStore(file)
    try:
        store.scan("build cache")
        conn = store._conn
        assert conn is not None
        asked = traced(conn)
        thread, holder = held_until_asked_twice(file, asked, patience_ms=200)  # never asked twice
        try:
            store.put("the release branch is cut on Thursdays")
        finally:
            thread.join()
            holder.close()
        assert asked.count("BEGIN IMMEDIATE") == 1
        assert len(store.list_records()) == 2
    finally:
        store.close()


class _RefusedOnce(sqlite3.Connection):
    """A connection whose first statement that begins with :attr:`refusing` is refused with an
    extended busy code, as SQLite refuses a writer whose snapshot another writer moved past between
    its read and its lock (``SQLITE_BUSY_SNAPSHOT``, 517) or any connection while another recovers
    the WAL index (``SQLITE_BUSY_RECOVERY``, 261)."""

    refusing = ""
    code = 517
    refused = 0

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.startswith(self.refusing) and not self.refused:
            self.refused += 1
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorcode = self.code  # type: ignore[attr-defined]
            raise error
        return super().execute(sql, *args)


@pytest.mark.parametrize("code", [517, 261])
def test_an_extended_busy_refusal_of_the_write_lock_is_tried_again(file: Path, code: int) -> None:
    """An extended busy code is busy too: the lock is asked for again, and the transaction holds it."""
    writer = sqlite3.connect(file, isolation_level=None, factory=_RefusedOnce)
    writer.refusing, writer.code = "BEGIN IMMEDIATE", code  # type: ignore[attr-defined]
    try:
        connection.begin(writer, "BEGIN IMMEDIATE", busy_timeout_s=5.0)
        assert writer.refused == 1 and writer.in_transaction  # type: ignore[attr-defined]
        writer.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        writer.execute("COMMIT")
        assert writer.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0] == 2
    finally:
        writer.close()


def test_an_extended_busy_refusal_of_the_switch_to_wal_is_tried_again(tmp_path: Path) -> None:
    path = tmp_path / "plain.sqlite3"
    sqlite3.connect(path).close()
    conn = sqlite3.connect(path, isolation_level=None, factory=_RefusedOnce)
    conn.refusing, conn.code = "PRAGMA journal_mode = WAL", 261  # type: ignore[attr-defined]
    try:
        connection.use_wal(conn, busy_timeout_s=5.0)
        assert conn.refused == 1  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()

"""Deletion hygiene: the scrub (VACUUM, then a truncating checkpoint), and the debt it leaves when it cannot finish."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import tact_memory.store.sqlite
from tact_memory.store.hygiene import Scrubber
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock

SECRET_PHRASE = "zanzibar-orchid-quartz"


def test_a_scrub_rewrites_the_file_so_a_deleted_row_leaves_no_bytes(tmp_path: Path) -> None:
    db = tmp_path / "plain.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA secure_delete = OFF")  # so the deleted row's bytes stay on its page
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"remember {SECRET_PHRASE}",), ("keep this one",)])
    conn.execute("DELETE FROM t WHERE x LIKE 'remember%'")
    assert SECRET_PHRASE.encode() in db.read_bytes()
    scrubber = Scrubber()
    scrubber.mark()
    scrubber.scrub(conn)
    conn.close()
    assert not scrubber.owed
    assert SECRET_PHRASE.encode() not in db.read_bytes()


def test_a_scrub_that_cannot_run_is_owed_to_the_next_removal(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "busy.sqlite3", isolation_level=None)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("BEGIN")  # VACUUM cannot run inside a transaction
    scrubber = Scrubber()
    scrubber.mark()  # what left is not known: the scrub must rewrite the file
    scrubber.scrub(conn)
    assert scrubber.owed
    conn.execute("ROLLBACK")
    scrubber.scrub(conn)
    assert not scrubber.owed
    scrubber.mark()
    scrubber.scrub(None)  # a closed store: nothing to rewrite now
    assert not scrubber.owed
    conn.close()


def test_a_put_pays_a_scrub_that_a_prune_or_a_failed_scrub_left_owed(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        store.put("the billing service listens on port 8443")
        assert not store._scrubber.owed
        store._scrubber.mark()  # as a prune inside a put, or a scrub that met a busy lock, leaves it
        store.put("the search service listens on port 9200")
        assert not store._scrubber.owed


def test_a_reader_that_keeps_the_wal_in_use_leaves_the_scrub_owed_until_the_next_write(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint cannot empty a WAL that another connection is still reading: the delete
    stands, the old text may stay in the -wal file, and the store's next write (here a scan's
    telemetry) pays the scrub, after which no file holds the text."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    store = MemoryStore(db_path)
    store.put("the ledger service listens on port 7000")
    gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
    reader = sqlite3.connect(db_path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()  # holds its snapshot of the WAL
    store.delete(gone)
    assert store._scrubber.owed
    assert SECRET_PHRASE.encode() in Path(f"{db_path}-wal").read_bytes()  # frames the reader may still need
    reader.execute("COMMIT")
    reader.close()
    assert [c.key.id for c in store.scan("ledger service")] == [1]
    assert not store._scrubber.owed
    assert Path(f"{db_path}-wal").stat().st_size == 0
    assert all(SECRET_PHRASE.encode() not in p.read_bytes() for p in db_path.parent.iterdir())
    store.close()

"""Deletion hygiene: the VACUUM scrub, and the debt it leaves when it cannot run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

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

"""A call to the store, refused or not, leaves nothing for the garbage collector.

An exception kept in a local of a frame it passes through makes a cycle (the exception, its
traceback, the frame, the local) that keeps every frame of the call alive, and the cursors their
locals hold, until the collector runs. A connection closed meanwhile is closed only in name on
Python 3.10: SQLite defers the close while one of its statements is alive, so the WAL stays beside
the file and is not folded into it. Each test here turns the collector off, makes the call, and
then asks the collector what it would have freed.

From Python 3.12, ``contextlib.contextmanager`` itself makes such a cycle when the generator raises
an error other than the one thrown into it (CPython issue gh-129280), as the store's transaction
does when it names SQLite's error; the tests of those answers run on Python 3.10 and 3.11.
"""

from __future__ import annotations

import gc
import sqlite3
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.records import RecordKey
from tact_memory.store import hygiene
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock

DAY_MS = 24 * 60 * 60 * 1000
translated = pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="contextlib makes a cycle of a translated error from 3.12 (gh-129280)"
)
SMALL_FILE = Limits(record_bytes=64, file_bytes=8 * 4096)


def collected(call: Callable[[], object]) -> tuple[str, list[str]]:
    """Run ``call`` with the collector off; answer the error code it raised (``"ok"`` for none)
    and what the collector then finds unreachable that belongs to the store: frames of this
    package, SQLite cursors and connections."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        try:
            call()
        except errors.MemoryOperationError as exc:
            outcome = exc.code
        else:
            outcome = "ok"
        gc.collect()
        found = [
            f"frame {thing.f_code.co_name}" if isinstance(thing, types.FrameType) else type(thing).__name__
            for thing in gc.garbage
            if isinstance(thing, (sqlite3.Cursor, sqlite3.Connection))
            or (isinstance(thing, types.FrameType) and "tact_memory" in thing.f_code.co_filename)
        ]
        return outcome, found
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def fill(store: MemoryStore, *, probation: bool = False) -> int:
    """Put 64-byte records one at a time until the file bound refuses one; answer how many fit."""
    count = 0
    while True:
        try:
            store.put(f"fact {count:05d} of the filled file " + "x" * 29, probation=probation)
        except errors.DatabaseCapacity:
            return count
        count += 1


@pytest.fixture
def one(db_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    """A store holding one record (id 1, version 1)."""
    with MemoryStore(db_path, clock=clock, limits=Limits(rows=2, content_bytes=200)) as store:
        store.put("the build uses make and ninja")
        yield store


REFUSALS: dict[str, tuple[str, Callable[[MemoryStore], object]]] = {
    "too large": ("content_too_large", lambda s: s.put("x" * 5000)),
    "secret": ("secret_rejected", lambda s: s.put("the db login is password=hunter2")),
    "duplicate": ("duplicate", lambda s: s.put("the build uses make and ninja")),
    "replace a missing id": ("not_found", lambda s: s.put("the build uses bazel", replace=RecordKey(9, 1))),
    "replace a stale version": ("version_conflict", lambda s: s.put("the build uses bazel", replace=RecordKey(1, 7))),
    "delete a missing id": ("not_found", lambda s: s.delete(RecordKey(9, 1))),
    "delete a stale version": ("version_conflict", lambda s: s.delete(RecordKey(1, 7))),
    "the same twice in a batch": ("invalid_arguments", lambda s: s.put_many(["a fact", "a fact"])),
    "a batch past the rows": ("record_capacity", lambda s: s.put_many(["one fact", "two facts"])),
    "past the content bytes": ("content_capacity", lambda s: s.put("y" * 190)),
    "a scan": ("ok", lambda s: s.scan("build")),
    "a read": ("ok", lambda s: s.read([1])),
    "a replacement": ("ok", lambda s: s.put("the build uses bazel", replace=RecordKey(1, 1))),
    "a delete": ("ok", lambda s: s.delete(RecordKey(1, 1))),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_each_answer_leaves_no_cycle(one: MemoryStore, case: str) -> None:
    code, call = REFUSALS[case]
    assert collected(lambda: call(one)) == (code, [])


@translated
@pytest.mark.parametrize("batch", [False, True], ids=["put", "put_many"])
def test_a_full_file_refusal_leaves_no_cycle(db_path: Path, batch: bool) -> None:
    """Each try at a full file is a transaction of its own that SQLite refuses with SQLITE_FULL;
    the retry loop keeps the last refusal, the one it raises."""
    with MemoryStore(db_path, limits=SMALL_FILE) as store:
        fill(store)
        more = [f"one more fact, {n}, that does not fit " + "z" * 26 for n in (1, 2)]
        assert collected(lambda: store.put_many(more) if batch else store.put(more[0])) == ("database_capacity", [])


@translated
def test_a_put_that_fits_after_pruning_leaves_no_cycle(db_path: Path, clock: FakeClock) -> None:
    """The first try meets the full file and the second, pruning an expired probation row, fits:
    the refusal kept from the first try is not kept past the put."""
    with MemoryStore(db_path, limits=SMALL_FILE, clock=clock) as store:
        count = fill(store, probation=True)
        clock.advance(8 * DAY_MS)
        assert collected(lambda: store.put("a fact put after probation ran out")) == ("ok", [])
        assert len(store.list_records()) <= count


@translated
def test_a_busy_file_leaves_no_cycle(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tact_memory.store.sqlite.BUSY_TIMEOUT_S", 0.05)
    with MemoryStore(db_path) as store:
        store.put("the build uses make and ninja")
        holder = sqlite3.connect(db_path, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            assert collected(lambda: store.put("the deploy runs on fridays")) == ("unavailable", [])
        finally:
            holder.close()


@translated
def test_a_file_that_is_not_a_database_leaves_no_cycle(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    db_path.write_bytes(b"this file holds no database at all " * 200)
    with MemoryStore(db_path) as store:
        assert collected(lambda: store.scan("build")) == ("unavailable", [])


def test_a_store_closed_after_a_full_file_refusal_folds_its_wal_in(db_path: Path) -> None:
    """What the cycle cost on Python 3.10: ``close()`` after a ``database_capacity`` refusal left
    the WAL and shared-memory files beside a 4 KiB main file until the collector ran."""
    store = MemoryStore(db_path, limits=SMALL_FILE)
    gc.disable()
    try:
        fill(store)
        store.close()
        assert sorted(path.name for path in db_path.parent.iterdir()) == [db_path.name]
    finally:
        gc.enable()
    with MemoryStore(db_path, limits=SMALL_FILE) as reopened:
        assert len(reopened.list_records()) > 0


@translated
def test_a_scrub_the_disk_failed_leaves_no_cycle(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scrubber keeps the disk's error to answer the removal with; a store dropped after that
    answer is freed at once, with its scrubber and connection."""
    with MemoryStore(db_path) as seeding:
        seeding.put("the build uses make and ninja")

    def failing(conn: sqlite3.Connection, mode: str) -> object:
        raise sqlite3.OperationalError("disk I/O error")

    def delete_on_a_failing_disk() -> None:
        store = MemoryStore(db_path)
        store.scan("build")
        monkeypatch.setattr(hygiene, "checkpoint", failing)
        store.delete(RecordKey(1, 1))

    assert collected(delete_on_a_failing_disk) == ("unavailable", [])

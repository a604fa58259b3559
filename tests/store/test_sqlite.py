"""The SQLite backend: files, modes, pragmas, refusal left byte for byte, pruning at the
file bound, the index. The invariants every backend holds live once in tests/backend_contract/."""

from __future__ import annotations

import shutil
import sqlite3
import stat
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path

import pytest

from tact_memory import errors
from tact_memory.limits import PROBATION_MS, Limits
from tact_memory.records import RecordKey
from tact_memory.store.connection import JOURNAL_SIZE_LIMIT_BYTES, WAL_AUTOCHECKPOINT_PAGES
from tact_memory.store.sqlite import SCHEMA_VERSION, MemoryStore

from ..conftest import FakeClock

MakeStore = Callable[..., MemoryStore]


def snapshot_files(db_path: Path) -> dict[str, bytes]:
    """Every file in the memory folder, byte for byte; a ``-shm`` file (SQLite's shared-memory
    index of the WAL, updated by every reader, never holding a row) counts by its presence only."""
    return {p.name: b"" if p.name.endswith("-shm") else p.read_bytes() for p in sorted(db_path.parent.iterdir())}


def fill(store: MemoryStore, n: int, *, prefix: str = "fact") -> list[RecordKey]:
    return [store.put(f"{prefix} number {i} about subsystem{i} in repository repo{i}").memory.key for i in range(n)]


# -- laziness and files -------------------------------------------------------------------------


def test_constructing_a_store_touches_nothing(db_path: Path) -> None:
    store = MemoryStore(db_path)
    assert not db_path.parent.exists()
    assert store.status().exists is False
    assert store.list_records() == []
    with pytest.raises(errors.NotFound):
        store.delete(RecordKey(1, 1))
    assert not db_path.parent.exists() and not store.opened


def test_first_operation_creates_private_folder_and_file(store: MemoryStore, db_path: Path) -> None:
    assert store.scan("anything") == []
    assert stat.S_IMODE(db_path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o600
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"memories", "meta"} <= tables
    assert not any("fts" in t for t in tables)  # I15: a plain table, no FTS index


@pytest.mark.release_gate
def test_pragmas_enforce_file_limit_and_secure_delete(store: MemoryStore) -> None:
    store.scan("x")
    conn = store._conn
    assert conn is not None
    assert conn.execute("PRAGMA max_page_count").fetchone()[0] == 4 * 1024 * 1024 // 4096
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 4096
    assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_AUTOCHECKPOINT_PAGES
    assert conn.execute("PRAGMA journal_size_limit").fetchone()[0] == JOURNAL_SIZE_LIMIT_BYTES
    store.put("the billing service listens on port 8443")
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: a mutation waits for the disk
    store.scan("billing")
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: telemetry does not


def test_newer_schema_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("CREATE TABLE memories (id INTEGER PRIMARY KEY)")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = snapshot_files(db_path)
    store = MemoryStore(db_path)
    for call in (lambda: store.scan("x"), lambda: store.put("some fact"), lambda: store.read([1])):
        with pytest.raises(errors.StoreUnavailable) as info:
            call()
        assert info.value.reason == "newer_schema" and str(db_path) in info.value.message
    assert store.status().problem == "newer_schema"
    assert snapshot_files(db_path) == before


@pytest.mark.parametrize("content", [b"this is not a database at all" * 40, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_corrupt_file_is_refused_untouched(db_path: Path, content: bytes) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(content)
    store = MemoryStore(db_path)
    with pytest.raises(errors.StoreUnavailable) as info:
        store.put("a conclusion")
    assert info.value.code == "unavailable"
    assert "not a valid SQLite database" in info.value.message and str(db_path) in info.value.message
    assert db_path.read_bytes() == content
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["v1.sqlite3"]


def test_foreign_sqlite_database_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("CREATE TABLE other (x)")
    before = db_path.read_bytes()
    with pytest.raises(errors.StoreUnavailable) as info:
        MemoryStore(db_path).scan("x")
    assert info.value.reason == "foreign_database"
    assert db_path.read_bytes() == before


def test_path_that_is_a_directory_is_unavailable(db_path: Path) -> None:
    db_path.mkdir(parents=True)
    with pytest.raises(errors.StoreUnavailable) as info:
        MemoryStore(db_path).scan("x")
    assert info.value.reason == "not_a_file"


# -- put, replace, delete -----------------------------------------------------------------------


# -- content validation ------------------------------------------------------------------------


@pytest.mark.release_gate
@pytest.mark.parametrize("content", ["", "   \n\t", "null\x00byte", "bell\x07", "lone \ud800 surrogate", 42, None])
def test_invalid_content_is_refused_without_writing(store: MemoryStore, db_path: Path, content: object) -> None:
    store.scan("warm")  # create the file so there is something to compare
    before = snapshot_files(db_path)
    with pytest.raises(errors.InvalidArguments):
        store.put(content)  # type: ignore[arg-type]
    assert snapshot_files(db_path) == before


# -- bounds and probation ----------------------------------------------------------------------


@pytest.mark.release_gate
def test_row_capacity_refuses_and_leaves_the_file_untouched(make_store: MakeStore, db_path: Path) -> None:
    store = make_store(limits=Limits(rows=3))
    keys = fill(store, 3)
    store.read([k.id for k in keys])  # graduated: never evicted
    before = snapshot_files(db_path)
    with pytest.raises(errors.RecordCapacity) as info:
        store.put("one more fact about the cache layer")
    assert info.value.details() == {"limit": 3}
    assert snapshot_files(db_path) == before
    store.delete(keys[0])  # delete works at capacity
    store.put("one more fact about the cache layer")


@pytest.mark.release_gate
def test_prune_is_rolled_back_when_the_put_still_does_not_fit(make_store: MakeStore, clock: FakeClock, db_path: Path) -> None:
    store = make_store(limits=Limits(rows=5, content_bytes=60))
    store.put("x" * 10)  # unread, will expire
    store.put("y" * 40)
    store.read([2])
    clock.advance(PROBATION_MS)
    before = snapshot_files(db_path)
    with pytest.raises(errors.ContentCapacity):
        store.put("z" * 30)  # 40 + 30 > 60 even after pruning the 10
    assert snapshot_files(db_path) == before
    assert len(store.list_records()) == 2


def test_pruning_at_the_file_bound_removes_the_fewest_oldest_records(make_store: MakeStore, clock: FakeClock, db_path: Path) -> None:
    limits = Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4)
    store = make_store(limits=limits)
    written = []
    with pytest.raises(errors.DatabaseCapacity):
        for i in range(200):
            written.append(store.put(f"{i} " + "filler text that takes room " * 30).memory.key.id)
            clock.advance(1)
    clock.advance(PROBATION_MS)
    store.close()
    before = db_path.with_name("before.sqlite3")
    shutil.copy(db_path, before)
    store.put("new " + "filler text that takes room " * 30)
    kept = {r.key.id for r in store.list_records()}
    removed = [i for i in written if i not in kept]
    assert 1 <= len(removed) < len(written) and removed == written[: len(removed)]  # oldest first, not all
    # One fewer would not have done: remove all but the last of them by hand, then the same put fails.
    with sqlite3.connect(before) as conn:
        conn.executemany("DELETE FROM memories WHERE id = ?", [(i,) for i in removed[:-1]])
    conn.close()
    with MemoryStore(before, limits=limits, clock=FakeClock(0)) as unpruned, pytest.raises(errors.DatabaseCapacity):
        unpruned.put("new " + "filler text that takes room " * 30)


@pytest.mark.release_gate
def test_database_file_bound_gives_database_capacity(make_store: MakeStore, db_path: Path) -> None:
    store = make_store(limits=Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4))
    with pytest.raises(errors.DatabaseCapacity) as info:
        for i in range(200):
            store.put(f"{i} " + "filler text that takes room " * 30)
            store.read([i + 1])
    assert info.value.code == "database_capacity"
    assert db_path.stat().st_size <= 8 * 4096
    records = store.list_records(order="id")
    before = snapshot_files(db_path)
    with pytest.raises(errors.DatabaseCapacity):
        store.put("999 " + "filler text that takes room " * 30)
    assert snapshot_files(db_path) == before
    store.delete(records[0].key)  # delete still works when the file is full
    assert len(store.list_records()) == len(records) - 1


@pytest.mark.parametrize("page_size", [512, 1024, 16384, 65536])
def test_the_file_bound_holds_for_a_file_made_with_other_pages(make_store: MakeStore, db_path: Path, page_size: int) -> None:
    """The bound is in bytes: a file another program made with pages of another size is held to
    it as well (``max_page_count`` is the bound over that file's page size, not over ours)."""
    bound = 16 * 65536
    with MemoryStore(db_path, limits=Limits(page_size=page_size)) as other:  # made with these pages
        other.put("The first record of a file made elsewhere")
    store = make_store(limits=Limits(file_bytes=bound, content_bytes=10**7, rows=10**5))
    with pytest.raises(errors.DatabaseCapacity):
        for i in range(5000):
            store.put(f"{i} " + "filler text that takes room " * 30)
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == page_size
    assert bound // 2 < db_path.stat().st_size <= bound  # near full (not a smaller cap), never past it
    assert store.status().file_bytes <= bound


# -- telemetry -----------------------------------------------------------------------------------


def test_listing_status_and_get_change_no_telemetry(store: MemoryStore, db_path: Path) -> None:
    store.put("The user wants commit messages in the imperative mood")
    before = snapshot_files(db_path)
    store.list_records()
    store.get(1)
    store.status()
    for order in ("most_useful", "newest", "oldest", "least_useful", "id"):
        store.list_records(order=order)  # type: ignore[arg-type]
    assert snapshot_files(db_path) == before


# -- scan and read -------------------------------------------------------------------------------


def test_an_abstaining_scan_commits_nothing(make_store: MakeStore, db_path: Path) -> None:
    """A scan that returns no candidate changes nothing: no file of the memory folder is written
    and no other connection sees a commit, whether or not the scan had to read the file first."""
    store = make_store()
    store.put("The frontend repository uses pnpm workspaces")
    store.scan("pnpm")
    watcher = sqlite3.connect(db_path)
    try:
        seen = watcher.execute("PRAGMA data_version").fetchone()[0]
        before = snapshot_files(db_path)
        assert store.scan("kubernetes helm") == []  # its index matches the file: no transaction
        assert store.scan("what should I do next?") == []  # no searchable term
        other = make_store()
        assert other.scan("kubernetes helm") == []  # a cold store reads the file first
        assert snapshot_files(db_path) == before
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == seen
    finally:
        watcher.close()


def test_one_corpus_for_every_workspace(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tact_memory.config.loading import load_config

    (tmp_path / "ws1").mkdir()
    (tmp_path / "ws2").mkdir()
    monkeypatch.chdir(tmp_path / "ws1")
    with MemoryStore(load_config(config_path).database_path) as first:
        first.put("In the `commonware` repository, release tags use the vX.Y.Z form")
    monkeypatch.chdir(tmp_path / "ws2")
    with MemoryStore(load_config(config_path).database_path) as second:
        assert [c.key.id for c in second.scan("commonware release tags")] == [1]


# -- the in-process index ------------------------------------------------------------------------


def test_index_is_reused_between_scans_and_refreshed_after_another_process_writes(make_store: MakeStore) -> None:
    mine, other = make_store(), make_store()
    fill(mine, 10)
    fetched: list[list[int]] = []
    derivable = mine._derivable

    def logged(conn: sqlite3.Connection, ids: Sequence[int]) -> list[tuple[int, str, object]]:
        fetched.append(list(ids))
        return derivable(conn, ids)

    mine._derivable = logged  # type: ignore[method-assign]
    mine.scan("subsystem3")
    for _ in range(5):
        mine.scan("subsystem4 repository")
    assert fetched == [] and mine._corpus.derivations == 0  # its own puts left nothing to refresh
    other.put("a brand new fact about zanzibar")
    assert [c.preview for c in mine.scan("zanzibar")] == ["a brand new fact about zanzibar"]
    assert fetched == [[11]] and mine._corpus.derivations == 0  # only the new row, derived by its writer
    other.delete(RecordKey(11, 1))
    assert mine.scan("zanzibar") == []


# -- several records in one transaction ------------------------------------------------------------


def test_put_many_writes_every_record_in_order_as_a_persons(store: MemoryStore) -> None:
    store.put("the cache is Redis")
    results = store.put_many(["CI runs on Buildkite", "releases are cut on Fridays"])
    assert [r.memory.key for r in results] == [RecordKey(2, 1), RecordKey(3, 1)]
    assert all(not r.replaced and r.memory.probation_until_ms is None for r in results)
    assert [r.content for r in store.list_records(order="id")] == [
        "the cache is Redis", "CI runs on Buildkite", "releases are cut on Fridays",
    ]  # fmt: skip
    assert store.put_many([]) == []
    assert store.put_many(["a model's fact"], probation=True)[0].memory.probation_until_ms is not None
    assert store.scan("Buildkite")[0].key == RecordKey(2, 1)  # the index saw the batch


@pytest.mark.parametrize(
    ("batch", "error"),
    [
        (["a new fact about queues", "the cache is REDIS"], errors.Duplicate),  # one already stored
        (["a new fact about queues", "A new  fact about QUEUES"], errors.InvalidArguments),  # twice in the batch
        (["a new fact about queues", "password=hunter2hunter2"], errors.SecretRejected),
        (["a new fact about queues", "x" * 1025], errors.ContentTooLarge),
        (["one", "two", "three"], errors.RecordCapacity),  # 2 + 3 > 4 rows
        (["a" * 300, "b" * 300], errors.ContentCapacity),  # the pair is over, each alone is not
    ],
)
def test_put_many_refuses_the_whole_batch_and_leaves_the_file_untouched(
    make_store: MakeStore, db_path: Path, batch: list[str], error: type[errors.TactMemoryError]
) -> None:
    store = make_store(limits=Limits(rows=4, content_bytes=600))
    store.put("the cache is Redis", probation=False)
    store.put("CI runs on Buildkite", probation=False)
    before = snapshot_files(db_path)
    with pytest.raises(error):
        store.put_many(batch)
    assert snapshot_files(db_path) == before
    store.put_many(batch[:1])  # and the store goes on


def test_put_many_prunes_expired_probation_rows_as_a_put_would(make_store: MakeStore, clock: FakeClock) -> None:
    store = make_store(limits=Limits(rows=4))
    unread = [store.put(f"unread fact {i} about subsystem{i}").memory.key.id for i in range(3)]
    store.put("a person's fact", probation=False)
    clock.advance(PROBATION_MS)
    store.put_many(["first new fact", "second new fact"])  # two rows short: the two oldest go
    assert [r.key.id for r in store.list_records(order="id")] == [unread[2], 4, 5, 6]


def test_put_many_at_the_file_bound_is_database_capacity_and_changes_nothing(make_store: MakeStore, db_path: Path) -> None:
    store = make_store(limits=Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4))
    store.put("the cache is Redis", probation=False)
    batch = [f"{i} " + "filler text that takes room " * 30 for i in range(200)]
    before = snapshot_files(db_path)
    with pytest.raises(errors.DatabaseCapacity):
        store.put_many(batch)
    assert snapshot_files(db_path) == before
    assert len(store.put_many(batch[:3])) == 3


_KILLED_BATCH = """
import os, sys, time
from tact_memory.store.sqlite import MemoryStore

written = []
def stop_after_three(result):
    written.append(result)
    if len(written) == 3:
        print("three written", flush=True)
        time.sleep(60)

MemoryStore(sys.argv[1]).put_many([f"pulled fact {i} about service{i}" for i in range(6)], on_put=stop_after_three)
print("committed", flush=True)
"""


def test_a_process_killed_inside_put_many_leaves_nothing_of_it(db_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    with MemoryStore(db_path) as store:
        store.put("the cache is Redis", probation=False)
        before = store.list_records(order="id")
    worker = subprocess.Popen(
        [sys.executable, "-c", _KILLED_BATCH, str(db_path)], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    try:
        assert worker.stdout is not None and worker.stdout.readline() == "three written\n"
        peek = sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True)
        try:  # three rows are inserted, none committed: another reader sees the one row of before
            assert peek.execute("SELECT count(*) FROM memories").fetchone() == (1,)
        finally:
            peek.close()
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(30)
        assert worker.stdout is not None
        worker.stdout.close()
    assert worker.returncode == -signal.SIGKILL
    with MemoryStore(db_path) as store:  # the uncommitted frames the WAL may hold are never read
        assert store.list_records(order="id") == before
        assert store.put("a fact after the crash").memory.key.id >= 2
    assert not db_path.with_name(db_path.name + "-journal").exists()
    with MemoryStore(db_path) as reopened:
        assert [r.content for r in reopened.list_records(order="id")][1:] == ["a fact after the crash"]


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_the_peoples_views_read_the_file_at_the_path_now(
    store: MemoryStore, db_path: Path, clock: FakeClock, tmp_path: Path, how: str
) -> None:
    """An open connection keeps reading a file deleted or renamed over since; a list or a get
    must show what the path holds now, not the records of a file no longer anywhere."""
    store.put("the first corpus holds this record")
    assert [r.content for r in store.list_records()] == ["the first corpus holds this record"]
    for sidecar in db_path.parent.iterdir():
        sidecar.unlink()
    if how == "replaced":
        with MemoryStore(tmp_path / "other.sqlite3", clock=clock) as other:
            other.put("the replacement corpus holds this one")
            other.put("and this second one")
        (tmp_path / "other.sqlite3").rename(db_path)
    expected = ["the replacement corpus holds this one", "and this second one"] if how == "replaced" else []
    assert [r.content for r in store.list_records(order="id")] == expected
    got = store.get(2)
    assert (got.content if got else None) == (expected[1] if expected else None)
    if how == "deleted":
        assert not db_path.exists()  # the view opened nothing in its place

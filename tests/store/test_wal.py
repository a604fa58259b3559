"""WAL mode: what readers leave behind, a file in the old mode, ranking without the write lock."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import tact_memory.store.sqlite
from tact_memory import errors
from tact_memory.records import RecordKey
from tact_memory.store import held, hygiene
from tact_memory.store.sqlite import MemoryStore

from ..reliability.helpers import strace_problem
from .flushes import recorded_flushes

SIDECARS = ("-wal", "-shm")


def seeded(db: Path, count: int = 3) -> None:
    with MemoryStore(db) as store:
        for i in range(count):
            store.put(f"service number {i} listens on port {8000 + i}")


def present(db: Path) -> list[str]:
    return [s for s in (*SIDECARS, "-journal") if Path(f"{db}{s}").exists()]


def journal_mode(db: Path) -> str:
    """The mode in the file header, read without SQLite (bytes 18 and 19 are 2 in WAL mode)."""
    header = db.read_bytes()[:20]
    return "wal" if header[18:20] == b"\x02\x02" else "rollback"


def test_readers_leave_no_file_behind_once_closed(db_path: Path) -> None:
    """A WAL reader needs -wal and -shm while it has the file open; closing removes them, and the
    file itself is byte for byte as it was. ``status`` closes what it opened by itself."""
    seeded(db_path)
    before = db_path.read_bytes()
    assert present(db_path) == []
    assert MemoryStore(db_path).status().rows == 3
    assert present(db_path) == []
    store = MemoryStore(db_path)
    assert [r.key.id for r in store.list_records(order="id")] == [1, 2, 3]
    assert store.get(2) is not None
    assert present(db_path) == ["-wal", "-shm"]  # while open: SQLite's WAL and its index
    assert Path(f"{db_path}-wal").stat().st_size == 0  # reading wrote no frame
    store.close()
    assert present(db_path) == []
    assert db_path.read_bytes() == before


def old_mode_file(db: Path) -> None:
    """A file as the rollback-journal version of the store left it."""
    seeded(db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    assert journal_mode(db) == "rollback"


def test_a_file_in_the_old_mode_is_read_as_it_is_and_switched_by_the_first_write(db_path: Path) -> None:
    old_mode_file(db_path)
    before = db_path.read_bytes()
    with MemoryStore(db_path) as store:
        assert len(store.list_records()) == 3
        assert store.status().rows == 3
    assert db_path.read_bytes() == before and present(db_path) == []  # a reader switches nothing
    with MemoryStore(db_path) as store:
        store.put("the queue service listens on port 5672")
        assert journal_mode(db_path) == "wal"
        assert [r.key.id for r in store.list_records(order="id")] == [1, 2, 3, 4]
    assert present(db_path) == []


def test_a_hot_journal_of_the_old_mode_is_rolled_back_before_the_switch(db_path: Path) -> None:
    """A writer of the old version killed mid-transaction left a hot journal: the switch to WAL
    first rolls it back, so the half-done write never reaches the WAL."""
    old_mode_file(db_path)
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA cache_size = 1")  # spill to the file, so the journal is hot on disk
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE memories SET content = 'half written'")
    conn.execute("INSERT INTO memories (version, content, created_at_ms, updated_at_ms) VALUES (1, ?, 0, 0)", ("x" * 9000,))
    journal = Path(f"{db_path}-journal").read_bytes()
    image = db_path.read_bytes()  # the file as the killed writer left it
    conn.execute("ROLLBACK")
    conn.close()
    db_path.write_bytes(image)
    Path(f"{db_path}-journal").write_bytes(journal)
    with MemoryStore(db_path) as store:
        store.put("the queue service listens on port 5672")
        contents = [r.content for r in store.list_records(order="id")]
    assert "half written" not in contents and len(contents) == 4
    assert journal_mode(db_path) == "wal" and present(db_path) == []
    check = sqlite3.connect(db_path)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.close()


def test_ranking_does_not_hold_the_write_lock(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one store ranks, another replaces a candidate: the replacement is not kept waiting
    (the ranking runs from the in-process index, in no transaction), and the telemetry that
    follows counts only records still at the version ranked, so the new version starts with no
    scan."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.2)
    seeded(db_path)
    store = MemoryStore(db_path)
    other = MemoryStore(db_path)
    real_search = store._corpus.search
    replaced: list[RecordKey] = []

    def search_while_another_writes(query: str, *, limit: int) -> list:  # type: ignore[type-arg]
        hits = real_search(query, limit=limit)
        if not replaced:
            replaced.append(other.put("service number 0 moved to port 9000", replace=RecordKey(1, 1)).memory.key)
        return hits

    monkeypatch.setattr(store._corpus, "search", search_while_another_writes)
    cards = store.scan("service number port")
    assert replaced == [RecordKey(1, 2)]
    assert RecordKey(1, 1) in [c.key for c in cards]  # ranked from the snapshot it read
    by_id = {r.key.id: r for r in other.list_records(order="id")}
    assert by_id[1].key.version == 2 and by_id[1].scan_count == 0  # no telemetry for a version not ranked
    assert by_id[2].scan_count == 1 and by_id[3].scan_count == 1
    store.close()
    other.close()


@pytest.mark.parametrize("elsewhere", ["telemetry", "put"])
def test_ranking_holds_no_snapshot_so_a_checkpoint_can_empty_the_wal(db_path: Path, monkeypatch: pytest.MonkeyPatch, elsewhere: str) -> None:
    """A scan that must look at the file (another connection committed since its index matched)
    reads what changed in a read transaction and ranks after it has ended. So a checkpoint that runs
    meanwhile copies every frame and empties the WAL: a reader's snapshot would pin the frames it
    began with, and with several processes scanning the WAL would rarely restart and its every
    commit would try (and sync for) a checkpoint again."""
    seeded(db_path)
    store = MemoryStore(db_path)
    other = MemoryStore(db_path)
    store.scan("service")
    if elsewhere == "telemetry":
        other.scan("service number")
    else:
        other.put("service number 9 listens on port 8009")
    checkpointer = sqlite3.connect(db_path, isolation_level=None)
    checkpointer.execute("PRAGMA busy_timeout = 0")
    real_search = store._corpus.search
    during: list[tuple[bool, tuple[int, int, int]]] = []

    def search_and_checkpoint(query: str, *, limit: int) -> list:  # type: ignore[type-arg]
        conn = store._conn
        assert conn is not None
        during.append((conn.in_transaction, checkpointer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()))
        return real_search(query, limit=limit)

    monkeypatch.setattr(store._corpus, "search", search_and_checkpoint)
    cards = store.scan("service number port")
    assert len(cards) == (4 if elsewhere == "put" else 3)
    assert during[0][0] is False  # no read transaction open while ranking
    busy, frames, copied = during[0][1]
    assert busy == 0 and frames == copied == 0  # every frame copied, the WAL truncated to nothing
    checkpointer.close()
    store.close()
    other.close()


def test_a_scan_answers_while_another_process_holds_the_write_lock(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An abstaining scan writes nothing, so a held write lock does not make it wait or fail;
    one with candidates needs the lock for its telemetry and answers ``busy``."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    seeded(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with MemoryStore(db_path) as store:
            assert store.scan("nothing matches zzqx") == []
            assert store.get(1) is not None
            with pytest.raises(errors.StoreUnavailable) as info:
                store.scan("service port")
            assert info.value.reason == "busy"
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_each_write_makes_only_the_syncs_its_durability_needs(tmp_path: Path) -> None:
    """Counted with strace in a child process, against one that does the same set-up: a scan or a
    read syncs nothing (telemetry may be lost on power loss, I18); a put syncs the WAL once, at its
    commit; a delete or a replacement three times: the scrub's checkpoint syncs the WAL (that is
    their commit's sync, their commit makes none of its own) and the file, and the WAL it starts
    again syncs its new header. A fourth sync (a commit at FULL before the checkpoint) fails it."""
    from tact_memory.cli.bench_probes import sync_calls

    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    db = tmp_path / "memory" / "v1.sqlite3"
    with MemoryStore(db) as store:
        for i in range(12):
            store.put(f"the deploy of service {i} needs the release calendar, port {9000 + i}")
    assert sync_calls(db, {}, tmp_path) == {"scan": 0, "read": 0, "put": 1, "replace": 3, "delete": 3}


def _pinned(db: Path) -> sqlite3.Connection:
    """Another connection that has copied the WAL into the file and now reads the file alone, so
    that no checkpoint can copy (or sync) a frame until it is done."""
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    return reader


def test_a_removal_no_checkpoint_could_copy_is_flushed_before_it_returns(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delete commits without a sync of its own; when a reader keeps the scrub's checkpoint from
    copying (and so from syncing) anything, the store flushes the WAL itself before it returns,
    and leaves the scrub owed. A delete whose checkpoint ran flushes nothing more."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    seeded(db_path, 4)
    flushed = recorded_flushes(monkeypatch)
    with MemoryStore(db_path) as store:
        store.delete(RecordKey(1, 1))
        assert flushed == [] and not store._scrubber.owed
        wal = held.identity(f"{db_path}-wal")  # the WAL the store keeps (emptied, never removed) while open
        reader = _pinned(db_path)
        store.delete(RecordKey(2, 1))
        assert wal is not None and flushed == [wal] and store._scrubber.owed
        reader.execute("COMMIT")
        reader.close()
        store.delete(RecordKey(3, 1))  # pays the owed scrub, whose checkpoint copies it all
        assert flushed == [wal] and not store._scrubber.owed
    with MemoryStore(db_path) as reopened:
        assert [r.key.id for r in reopened.list_records(order="id")] == [4]


def test_without_a_descriptor_to_flush_a_removal_commits_at_full(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the process cannot borrow SQLite's descriptor of the WAL, a removal's commit syncs the
    WAL itself (``FULL``), as a put's does."""
    seeded(db_path, 2)
    monkeypatch.setattr(held, "descriptor", lambda wanted: None)
    with MemoryStore(db_path) as store:
        store.scan("service")
        assert store._synchronous == "NORMAL"  # the scan's telemetry
        store.delete(RecordKey(1, 1))
        assert store._synchronous == "FULL"
        assert store._conn is not None and store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_a_flush_the_disk_refuses_says_the_removal_is_written_but_may_not_last(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delete is in the file (and stays visible); the error says so, and that a power loss could
    still undo it, rather than claiming nothing changed."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    seeded(db_path, 2)

    def refuse(fd: int) -> None:
        raise OSError(5, "Input/output error")

    with MemoryStore(db_path) as store:
        store.scan("service")
        reader = _pinned(db_path)
        monkeypatch.setattr(held, "_flush", refuse)
        with pytest.raises(errors.StoreUnavailable) as info:
            store.delete(RecordKey(1, 1))
        reader.execute("COMMIT")
        reader.close()
        assert info.value.reason == "io_error"
        assert "written" in info.value.message and "power loss" in info.value.message
        monkeypatch.undo()
        assert [r.key.id for r in store.list_records(order="id")] == [2]
        assert [c.key.id for c in store.scan("service number listens port")] == [2]  # the index knows


def test_a_scrub_the_disk_failed_is_reported_and_its_flush_not_retried(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the disk failed the scrub (a refused flush or write, not a busy lock), the removal
    answers ``io_error`` at once: it does not flush the WAL again and call the removal durable, and
    the connection is closed, so the next call opens the file afresh."""
    seeded(db_path, 2)
    scrub = hygiene.Scrubber.scrub

    def failing(self: hygiene.Scrubber, *args: object, **kwargs: object) -> bool:
        scrub(self, *args, **kwargs)  # type: ignore[arg-type]
        self.disk_error = sqlite3.OperationalError("disk I/O error")
        return False

    flushes: list[object] = []
    monkeypatch.setattr(held, "sync", lambda *args: flushes.append(args) or True)
    with MemoryStore(db_path) as store:
        store.scan("service")
        monkeypatch.setattr(hygiene.Scrubber, "scrub", failing)
        with pytest.raises(errors.StoreUnavailable) as info:
            store.delete(RecordKey(1, 1))
        assert info.value.reason == "io_error" and "refused to flush" in info.value.message
        assert flushes == [] and not store.opened
        monkeypatch.undo()
        assert [r.key.id for r in store.list_records(order="id")] == [2]

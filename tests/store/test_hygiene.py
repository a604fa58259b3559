"""Deletion hygiene: the scrub (a check or VACUUM, a truncating checkpoint, the WAL started
again), and the debt it leaves when it cannot finish."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tact_memory.store.sqlite
from tact_memory.records import RecordKey
from tact_memory.store import held, hygiene, residue
from tact_memory.store.hygiene import Scrubber
from tact_memory.store.schema import SCHEMA_VERSION
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock
from ..reliability.helpers import grep_folder, integrity, raw_folder_bytes, wal_frame_pages, wal_holds_no_row

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


def _wal_header(db: Path) -> bytes:
    wal = Path(f"{db}-wal")
    return wal.read_bytes()[:32] if wal.exists() else b""


def test_a_removal_starts_the_emptied_wal_again_with_one_frame_of_page_1(db_path: Path, clock: FakeClock) -> None:
    """After the scrub has emptied the WAL, the removal itself writes the first frame (page 1, the
    header and schema, no row), so SQLite's sync of a new WAL header is the removal's: the next
    write appends under the same header instead of starting a WAL of its own."""
    with MemoryStore(db_path, clock=clock) as store:
        store.put("the ledger service listens on port 7000")
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
        store.scan("ledger billing service")
        store.delete(gone)
        assert wal_frame_pages(db_path) == [1]
        header = _wal_header(db_path)
        assert len(header) == 32
        store.scan("ledger service")  # a telemetry commit: appended, not a new WAL
        assert _wal_header(db_path) == header
        assert len(wal_frame_pages(db_path)) > 1
        assert grep_folder(db_path, SECRET_PHRASE) == []
        # the restart ran at NORMAL and put back the level the store last set
        assert store._conn is not None
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == {"FULL": 2, "NORMAL": 1}[store._synchronous or ""]
        assert store._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_restart_that_cannot_run_leaves_nothing_owed(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting the WAL again only moves where a header sync is paid: if it fails, the removal and
    its scrub stand, nothing is owed, and the next write starts the WAL itself."""

    def refuse(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(hygiene, "_restart_wal", refuse)
    with MemoryStore(db_path, clock=clock) as store:
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
        store.delete(gone)
        assert not store._scrubber.owed
        assert wal_frame_pages(db_path) == []
        store.put("the ledger service listens on port 7000")
        assert len(wal_frame_pages(db_path)) >= 1
        assert grep_folder(db_path, SECRET_PHRASE) == []


def test_a_restart_does_not_wait_for_a_writer_that_holds_the_lock(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process that takes the write lock between the truncation and the restart starts the
    WAL itself: the restart gives up at once (not after the 5 s busy timeout), nothing is owed, and
    the connection keeps its own busy timeout."""
    restart = hygiene._restart_wal

    def with_a_writer_first(conn: sqlite3.Connection) -> None:
        other.execute("BEGIN IMMEDIATE")
        try:
            restart(conn)
        finally:
            other.execute("ROLLBACK")

    monkeypatch.setattr(hygiene, "_restart_wal", with_a_writer_first)
    with MemoryStore(db_path, clock=clock) as store:
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
        other = sqlite3.connect(db_path, isolation_level=None)
        started = time.monotonic()
        store.delete(gone)
        assert time.monotonic() - started < 1.0
        assert not store._scrubber.owed
        assert wal_frame_pages(db_path) == []
        assert store._conn is not None
        assert store._conn.execute("PRAGMA busy_timeout").fetchone()[0] == int(tact_memory.store.sqlite.BUSY_TIMEOUT_S * 1000)
    other.close()
    assert grep_folder(db_path, SECRET_PHRASE) == []


def test_a_scrub_paid_at_close_does_not_start_the_wal_it_is_about_to_remove(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    restarts: list[sqlite3.Connection] = []
    restart = hygiene._restart_wal
    monkeypatch.setattr(hygiene, "_restart_wal", lambda conn: (restarts.append(conn), restart(conn)))
    store = MemoryStore(db_path, clock=clock)
    gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
    reader = sqlite3.connect(db_path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()  # keeps the WAL in use
    store.delete(gone)
    assert store._scrubber.owed and restarts == []
    reader.execute("COMMIT")
    reader.close()
    store.close()  # pays the scrub, then closing removes the WAL
    assert restarts == []
    assert not Path(f"{db_path}-wal").exists()
    assert grep_folder(db_path, SECRET_PHRASE) == []


def test_the_scrub_starts_no_wal_for_a_file_in_rollback_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollback mode has no WAL to start: the restart is not attempted (it would only write and
    sync a rollback journal)."""
    restarts: list[sqlite3.Connection] = []
    monkeypatch.setattr(hygiene, "_restart_wal", restarts.append)
    db = tmp_path / "plain.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("CREATE TABLE t (x TEXT)")
    scrubber = Scrubber()
    scrubber.mark()
    scrubber.scrub(conn)
    assert restarts == [] and not scrubber.owed
    conn.execute("PRAGMA journal_mode = WAL")
    scrubber.mark()
    scrubber.scrub(conn)  # the same scrub in WAL mode does start it
    conn.close()
    assert restarts == [conn]


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
    assert wal_holds_no_row(db_path)
    assert all(SECRET_PHRASE.encode() not in p.read_bytes() for p in db_path.parent.iterdir())
    store.close()


# -- the targeted scrub: rewrite only when removed text may be left in the file --------------------


def _stored(db: Path, id_: int) -> tuple[str, str]:
    """A row's content and derived column, straight from the file (no connection stays open)."""
    conn = sqlite3.connect(db)
    try:
        content, derived = conn.execute("SELECT content, derived FROM memories WHERE id = ?", (id_,)).fetchone()
    finally:
        conn.close()
    return str(content), str(derived)


def _plant(db: Path, beside: bytes, copy: bytes) -> int:
    """With no connection open, write ``copy`` into the middle of the unallocated gap of the page
    that holds ``beside`` (a live row's content), as a page rebuild can leave an older cell there.
    Returns the offset written."""
    assert not Path(f"{db}-wal").exists()
    image = db.read_bytes()
    spans = residue.loose_spans(image)
    assert spans is not None
    page_size = int.from_bytes(image[16:18], "big")
    page = image.index(beside) // page_size
    gaps = [(s, e) for s, e in spans if s // page_size == page and e - s >= len(copy) + 16]
    assert gaps, "no room on the row's page"
    start, end = max(gaps, key=lambda span: span[1] - span[0])
    assert image[start:end] == bytes(end - start)  # secure_delete left it zero
    at = start + (end - start - len(copy)) // 2
    db.write_bytes(image[:at] + copy + image[at + len(copy) :])
    assert integrity(db) == "ok"  # a gap's bytes are no part of any row: the file is still sound
    spans_after = residue.loose_spans(db.read_bytes())
    assert spans_after is not None and residue.holds_any(db.read_bytes(), spans_after, [copy.decode()])
    return at


def test_a_removal_that_left_nothing_behind_is_scrubbed_without_a_rewrite(db_path: Path, clock: FakeClock) -> None:
    """secure_delete zeroed the deleted cell and no older copy sits in loose space: the check finds
    nothing, so no VACUUM, and the text is still in no file once the WAL is emptied."""
    with MemoryStore(db_path, clock=clock) as store:
        for n in range(30):
            store.put(f"note {n}: the {n}th service keeps its config in repo{n}")
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
        assert grep_folder(db_path, SECRET_PHRASE) != []
        store.delete(gone)
        assert not store._scrubber.owed
        assert store._scrubber.rewrites == 0
        assert grep_folder(db_path, SECRET_PHRASE) == []
        assert wal_holds_no_row(db_path)
        assert b"note 7: the 7th service" in raw_folder_bytes(db_path)["v1.sqlite3"]


def _delete_and_scrub(db: Path, clock: FakeClock, key: RecordKey) -> int:
    """Delete ``key`` in a fresh store and check its scrub was paid: nothing owed, the secret in no
    file, no row's page in the WAL. Returns how many times the scrub rewrote the file."""
    with MemoryStore(db, clock=clock) as store:
        store.delete(key)
        assert not store._scrubber.owed
        assert grep_folder(db, SECRET_PHRASE) == []
        assert wal_holds_no_row(db)
        return store._scrubber.rewrites


def test_a_stale_copy_of_a_removed_row_in_a_page_gap_makes_the_scrub_rewrite(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        store.put("Kyoto wharf lumber: yellow pumpkins")
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
    content, _ = _stored(db_path, gone.id)
    _plant(db_path, content.encode(), content.encode())
    assert raw_folder_bytes(db_path)["v1.sqlite3"].count(content.encode()) == 2
    assert _delete_and_scrub(db_path, clock, gone) == 1
    assert grep_folder(db_path, "Kyoto wharf lumber") == ["v1.sqlite3"]


def test_a_stale_copy_of_a_row_that_stays_does_not_make_the_scrub_rewrite(db_path: Path, clock: FakeClock) -> None:
    """The twin: the check looks for the removed rows' text only, so a copy of a live row (which
    still is in the file anyway) is left where it is."""
    with MemoryStore(db_path, clock=clock) as store:
        kept = store.put("Kyoto wharf lumber: yellow pumpkins").memory.key
        gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
    kept_content, _ = _stored(db_path, kept.id)
    assert residue.grams([kept_content]).isdisjoint(residue.grams(_stored(db_path, gone.id)))
    at = _plant(db_path, kept_content.encode(), kept_content.encode())
    assert _delete_and_scrub(db_path, clock, gone) == 0
    image = raw_folder_bytes(db_path)["v1.sqlite3"]
    assert image[at : at + len(kept_content)] == kept_content.encode()  # the planted copy stays
    assert image.count(kept_content.encode()) == 2


def _wal_file(tmp_path: Path, factory: type[sqlite3.Connection] = sqlite3.Connection) -> sqlite3.Connection:
    conn = sqlite3.connect(tmp_path / "plain.sqlite3", isolation_level=None, factory=factory)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {n} of the plain table",) for n in range(50)])
    return conn


def _image_of(path: Path) -> Callable[[], bytes | None]:
    st = os.stat(path)
    return lambda: held.image((st.st_dev, st.st_ino))


STALE_OFFSETS = b"\x0f\x12\x0e\x33\x08\x61\x03\x7f"
"""What SQLite itself leaves in unused space: stale two-byte cell offsets and a free-block header
(next block, size), none of it four bytes that stored text could be made of."""


@pytest.mark.parametrize("order", ["unknown first", "unknown last"])
def test_an_unknown_removal_rewrites_only_when_loose_bytes_could_be_any_text(
    db_path: Path, clock: FakeClock, order: str
) -> None:
    """``mark()`` without texts (frames another process left in the WAL, say): there is no text
    to look for, so the check asks whether any loose run could be stored text at all. Offsets and
    sizes SQLite leaves behind are not; a stale copy of a live row is, so it is rewritten away even
    though a check for known texts would leave it (see the twin above). Known texts marked beside
    an unknown removal do not make it known."""
    with MemoryStore(db_path, clock=clock) as store:
        kept = store.put("Kyoto wharf lumber: yellow pumpkins").memory.key
        store.put("the ledger service listens on port 7000")
    content, _ = _stored(db_path, kept.id)
    at = _plant(db_path, content.encode(), STALE_OFFSETS)
    with MemoryStore(db_path, clock=clock) as store:
        store._scrubber.mark()
        store.put("the search service listens on port 9200")  # its commit pays the scrub
        assert store._scrubber.rewrites == 0
        assert not store._scrubber.owed
    image = db_path.read_bytes()
    assert image[at : at + len(STALE_OFFSETS)] == STALE_OFFSETS
    copy, spans = b"yellow pumpkins", residue.loose_spans(image)
    assert spans is not None
    start, end = next(span for span in spans if span[0] <= at < span[1])
    beyond = at + len(STALE_OFFSETS) + 8  # in the same gap, past the planted offsets
    assert beyond + len(copy) <= end and image[beyond : beyond + len(copy)] == bytes(len(copy))
    db_path.write_bytes(image[:beyond] + copy + image[beyond + len(copy) :])
    assert integrity(db_path) == "ok"
    with MemoryStore(db_path, clock=clock) as store:
        marks = [lambda: store._scrubber.mark(), lambda: store._scrubber.mark(["text that is nowhere"])]
        for mark in marks if order == "unknown first" else marks[::-1]:
            mark()
        store.put("the queue service listens on port 5672")
        assert store._scrubber.rewrites == 1
        assert not store._scrubber.owed
        assert wal_holds_no_row(db_path)
    assert raw_folder_bytes(db_path)["v1.sqlite3"].count(b"yellow pumpkins") == 1  # the live row only


def test_an_unknown_removal_on_a_clean_file_needs_no_rewrite(tmp_path: Path) -> None:
    """A file in which SQLite left nothing loose that could be text: even with nothing known to
    look for, the check passes and the WAL is emptied without a VACUUM."""
    conn = _wal_file(tmp_path)
    scrubber = Scrubber()
    scrubber.mark()
    scrubber.scrub(conn, _image_of(tmp_path / "plain.sqlite3"))
    assert scrubber.rewrites == 0 and not scrubber.owed
    assert wal_holds_no_row(tmp_path / "plain.sqlite3")
    scrubber.mark()
    scrubber.scrub(conn, None)  # no image of the file: nothing can be checked, so it is rewritten
    assert scrubber.rewrites == 1 and not scrubber.owed
    conn.close()


def test_data_version_tells_a_commit_by_another_connection_under_the_write_lock(tmp_path: Path) -> None:
    """The SQLite behaviour the guard relies on: ``PRAGMA data_version`` read inside ``BEGIN
    IMMEDIATE`` differs from one read before it exactly when another connection committed between."""
    conn = _wal_file(tmp_path)
    other = sqlite3.connect(tmp_path / "plain.sqlite3", isolation_level=None)
    for intervene in (False, True, False):
        before = conn.execute("PRAGMA data_version").fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(FULL)")  # its own checkpoint does not count
        if intervene:
            other.execute("INSERT INTO t VALUES ('from the other connection')")
        conn.execute("BEGIN IMMEDIATE")
        inside = conn.execute("PRAGMA data_version").fetchone()[0]
        conn.execute("ROLLBACK")
        assert (inside != before) is intervene
    other.close()
    conn.close()


class _CommitsFirst(sqlite3.Connection):
    """A connection that lets another connection commit just before its next ``BEGIN IMMEDIATE``:
    between the scrub's FULL checkpoint and its taking the write lock."""

    intruder: sqlite3.Connection | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if sql == "BEGIN IMMEDIATE" and self.intruder is not None:
            intruder, self.intruder = self.intruder, None
            intruder.execute("INSERT INTO t VALUES ('committed while the scrub was not looking')")
        return super().execute(sql, parameters)


def test_a_commit_between_the_checkpoint_and_the_check_makes_the_scrub_rewrite(tmp_path: Path) -> None:
    """Frames committed after the FULL checkpoint are not in the file: the image could be stale or
    changing (a checkpoint may copy them in while it is read), so the scrub does not trust it and
    rewrites. The control, without the intervening commit, checks and does not."""
    path = tmp_path / "plain.sqlite3"
    conn = _wal_file(tmp_path, _CommitsFirst)
    assert isinstance(conn, _CommitsFirst)
    image = _image_of(path)
    other = sqlite3.connect(path, isolation_level=None)
    scrubber = Scrubber()
    for n, intervene in enumerate([False, True, False]):
        conn.execute("DELETE FROM t WHERE x = ?", (f"row {n} of the plain table",))
        scrubber.mark([f"row {n} of the plain table"])
        conn.intruder = other if intervene else None
        scrubber.scrub(conn, image)
        assert conn.intruder is None  # the scrub took the write lock
        assert scrubber.rewrites == (1 if n >= 1 else 0), n
        assert not scrubber.owed
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 48
    other.close()
    conn.close()


def test_a_full_checkpoint_a_reader_blocks_leaves_the_texts_owed_for_the_next_write(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's snapshot keeps the delete's frames out of the file past the busy timeout, so
    the check cannot run: the scrub stays owed with the removed text (not as an unknown removal),
    and the next write checks for that text, finds it zeroed, and empties the WAL without a rewrite."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    store = MemoryStore(db_path)
    store.put("the ledger service listens on port 7000")
    gone = store.put(f"the billing service keeps {SECRET_PHRASE} on port 8443").memory.key
    content = f"the billing service keeps {SECRET_PHRASE} on port 8443"
    reader = sqlite3.connect(db_path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()  # a snapshot from before the delete
    store.delete(gone)
    assert store._scrubber.owed
    owed = store._scrubber._removed
    assert owed is not None and content in owed and len(owed) == 2  # its content and derived column
    assert store._scrubber.rewrites == 0
    reader.execute("COMMIT")
    reader.close()
    store.put("the search service listens on port 9200")
    assert not store._scrubber.owed
    assert store._scrubber.rewrites == 0
    assert wal_holds_no_row(db_path)
    assert grep_folder(db_path, SECRET_PHRASE) == []
    store.close()


def _checkpoint_waiting_for_a_reader(path: Path, *, other_timeout_ms: int) -> tuple[list[sqlite3.Connection], Any]:
    """A WAL file with a frame a reader's snapshot still needs, and another connection's
    ``wal_checkpoint(FULL)`` on a thread, holding the checkpoint lock while it waits for that
    reader. Returns the connections (the reader second) and the started thread."""
    import threading

    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x)")
    reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM t").fetchone()  # holds the snapshot before the next write
    writer.execute("INSERT INTO t VALUES (1)")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute(f"PRAGMA busy_timeout = {other_timeout_ms}")
    holder = threading.Thread(target=lambda: other.execute("PRAGMA wal_checkpoint(FULL)").fetchone())
    holder.start()
    time.sleep(0.1)
    return [writer, reader, other], holder


@pytest.mark.parametrize("mode", ["FULL", "TRUNCATE"])
def test_a_checkpoint_asked_while_another_runs_waits_for_it_instead_of_giving_up(tmp_path: Path, mode: str) -> None:
    """SQLite refuses a second checkpoint at once, without its busy handler, while another holds
    the checkpoint lock (here: one waiting for a reader); :func:`hygiene.checkpoint` asks again
    until that one is done, within the connection's busy timeout."""
    import threading

    path = tmp_path / "f.sqlite3"
    conns, holder = _checkpoint_waiting_for_a_reader(path, other_timeout_ms=2000)
    ours = sqlite3.connect(path, isolation_level=None)
    ours.execute("PRAGMA busy_timeout = 2000")
    # the same question without the retry: refused at once
    assert ours.execute(f"PRAGMA wal_checkpoint({mode})").fetchone() == (1, -1, -1)
    threading.Timer(0.2, lambda: conns[1].execute("COMMIT")).start()
    began = time.monotonic()
    busy, frames, done = hygiene.checkpoint(ours, mode)
    waited = time.monotonic() - began
    holder.join()
    assert busy == 0 and frames == done and frames >= 0
    assert waited >= 0.05  # it waited for the other checkpoint rather than answering at once
    for conn in (*conns, ours):
        conn.close()


def test_a_checkpoint_that_stays_refused_gives_up_at_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    conns, holder = _checkpoint_waiting_for_a_reader(path, other_timeout_ms=1500)
    ours = sqlite3.connect(path, isolation_level=None)
    ours.execute("PRAGMA busy_timeout = 200")
    began = time.monotonic()
    assert hygiene.checkpoint(ours, "FULL") == (1, -1, -1)
    assert 0.15 <= time.monotonic() - began < 1.2  # about the 200 ms busy timeout, not the other's 1.5 s
    conns[1].execute("COMMIT")
    holder.join()
    for conn in (*conns, ours):
        conn.close()


def test_a_store_that_only_reads_a_file_another_left_frames_in_writes_nothing(tmp_path: Path) -> None:
    """The frames may hold what another process removed, so a store that opens such a file scrubs
    after its first write; one that only reads (the browser, ``list``) leaves every byte as it was,
    also when it closes while the other still has the file open."""
    db = tmp_path / "memory" / "v1.sqlite3"
    writer = MemoryStore(db)
    keys = [writer.put(f"record {n} about the ledger service on port {8000 + n}").memory.key for n in range(6)]
    writer.delete(keys[0])
    writer.scan("ledger")
    writer.put("a later record that stays in the WAL")
    assert (tmp_path / "memory" / "v1.sqlite3-wal").stat().st_size > 0
    def files() -> dict[str, bytes]:  # the -shm index changes as any reader takes its read mark
        return {name: data for name, data in raw_folder_bytes(db).items() if not name.endswith("-shm")}

    before = files()
    reader = MemoryStore(db)
    assert len(reader.list_records(order="id")) == 6 and reader.get(keys[1].id) is not None
    reader.status()
    reader.close()
    assert files() == before
    again = MemoryStore(db)  # a reader that then writes does scrub
    again.scan("ledger")
    assert again._scrubber.owed is False and files() != before
    again.close()
    writer.close()

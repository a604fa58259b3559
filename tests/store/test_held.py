"""Borrowed descriptors (:mod:`tact_memory.store.held`): the file's bytes and its flush, through
SQLite's own descriptor, never one that could drop SQLite's locks by being closed."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tact_memory.store import held

from .flushes import recorded_flushes


def _identity(path: Path) -> held.Identity:
    found = held.identity(str(path))
    assert found is not None
    return found


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
def test_image_is_the_file_while_a_connection_holds_it(tmp_path: Path, wal: bool) -> None:
    db = tmp_path / "held.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("held " * 30,)] * 200)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    identity = _identity(db)
    image = held.image(identity)
    expected = db.read_bytes()  # read after: this open and close drops the connection's locks
    conn.close()
    assert image is not None and len(image) > 4096
    assert image == expected
    assert held.image(identity) is None  # the connection closed its descriptor


def test_image_is_none_when_no_descriptor_is_held(tmp_path: Path) -> None:
    path = tmp_path / "loose.bin"
    path.write_bytes(b"not held by anyone")
    assert held.image(_identity(path)) is None
    assert held.image((0, 0)) is None


def test_image_reads_without_moving_the_descriptor(tmp_path: Path) -> None:
    """``pread``: the holder's file offset stays where the holder left it."""
    path = tmp_path / "offset.bin"
    path.write_bytes(bytes(range(256)) * 40)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.lseek(fd, 77, os.SEEK_SET)
        assert held.image(_identity(path)) == bytes(range(256)) * 40
        assert os.lseek(fd, 0, os.SEEK_CUR) == 77
    finally:
        os.close(fd)


OTHER_PROCESS = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 1
conn.close()  # the last connection, if it can take the exclusive lock, checkpoints and deletes the WAL
"""


@pytest.mark.parametrize("read", ["held.image", "held.sync of the wal", "open and close"])
def test_reading_the_image_keeps_the_locks_that_keep_the_wal(tmp_path: Path, read: str) -> None:
    """Why :func:`held.image` borrows SQLite's descriptor: closing any descriptor of a file drops the
    process's POSIX locks on it. With a WAL-mode connection open here, another process that opens
    the database, reads and closes must leave the ``-wal`` alone. After :func:`held.image` it does. The
    control, reading the file with ``open()`` and closing it, drops this connection's shared lock,
    and the other process, taking the file for unused, checkpoints and deletes the WAL (reproduced
    on Linux). And why ``sync`` may open and close a descriptor of the WAL: SQLite locks the
    database file and the ``-shm`` index, never the ``-wal``, so after a flush of the WAL the other
    process still finds this connection's lock."""
    db = tmp_path / "locks.sqlite3"
    wal = Path(f"{db}-wal")
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.execute("INSERT INTO t VALUES ('a row')")
        assert wal.stat().st_size > 0
        if read == "held.image":
            assert held.image(_identity(db)) is not None
        elif read == "held.sync of the wal":
            found = _identity(wal)
            assert held.descriptor(found) is not None  # SQLite holds it open
            assert held.sync(str(wal), found) is True
        else:
            with open(db, "rb") as f:
                f.read()
        subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(db)], check=True, timeout=60)
        assert wal.exists() is (read != "open and close")
    finally:
        conn.close()


def _open_descriptors() -> int:
    return len(os.listdir("/dev/fd"))


def test_sync_flushes_the_file_at_the_path_while_it_is_the_same_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sync`` flushes through a descriptor of its own, closed again; a path that now names
    another file (replaced, or gone) is not flushed."""
    path = tmp_path / "wal.bin"
    path.write_bytes(b"frames")
    wanted = held.identity(str(path))
    assert wanted is not None
    flushed = recorded_flushes(monkeypatch)
    before = _open_descriptors()
    assert held.sync(str(path), wanted) is True
    assert flushed == [wanted] and _open_descriptors() == before
    path.rename(tmp_path / "old.bin")  # kept, so that its inode cannot be given to the new file
    path.write_bytes(b"another file at the same path")
    assert held.sync(str(path), wanted) is False
    path.unlink()
    assert held.sync(str(path), wanted) is False
    assert flushed == [wanted] and _open_descriptors() == before
    assert held.identity(str(path)) is None


def test_a_refused_flush_is_raised_and_its_descriptor_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that refuses the flush is an ``OSError`` for the caller, never a silent success."""
    path = tmp_path / "refused.bin"
    path.write_bytes(b"x")

    def refuse(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(held, "_flush", refuse)
    found = held.identity(str(path))
    assert found is not None
    before = _open_descriptors()
    with pytest.raises(OSError):
        held.sync(str(path), found)
    assert _open_descriptors() == before


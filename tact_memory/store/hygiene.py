"""Deletion hygiene: after content leaves the file, no copy of it stays in any file of the folder.

``secure_delete`` is on, so SQLite zeroes a deleted cell and every page it frees. That is not
all: an older copy of a row that SQLite left in the unallocated middle of a page it rebuilt earlier
(a split or a merge) is not cleared, and once that row is deleted or replaced the copy would be the
last one (:mod:`.residue`). In WAL mode there are more copies: every frame of the WAL is a whole
page as some transaction left it, so a deleted row's text stays in the ``-wal`` file until a
checkpoint has copied the pages back and the WAL is emptied. (The ``-shm`` file holds only SQLite's
index of the WAL: page numbers and checksums, never a row.)

So after a delete, a replacement or a prune the store scrubs, in four steps:

1. ``PRAGMA wal_checkpoint(FULL)`` syncs the WAL, copies every frame into the file and syncs the
   file. A delete or a replacement commits without a sync of its own (:mod:`.connection`): this
   sync of the WAL is the one that makes it durable, and :meth:`Scrubber.scrub` says whether it
   happened.
2. The file is checked for the removed text (:meth:`Scrubber.scrub`): under the write lock, with no
   frame left outside the file, its bytes are read, and every span no live row owns (page gaps,
   free blocks, free pages) is searched for any four consecutive bytes of the removed rows' stored
   text (content and derived terms). Only when one is found, or the file holds something the
   reader cannot account for, is it rewritten from its live rows with ``VACUUM`` (its scratch copy
   stays in memory, ``temp_store = MEMORY``). In a churn of puts, replacements and deletes that is
   about one removal in a few hundred; at capacity the check costs well under a millisecond, where
   ``VACUUM`` and its checkpoint cost 7 to 12.
3. ``PRAGMA wal_checkpoint(TRUNCATE)`` copies what is left (the rewritten pages, if any), syncs
   the file and truncates the WAL to zero bytes, so no frame with old text is left.
4. The emptied WAL is started again with one frame that holds no row: a transaction rewrites the
   file header's ``user_version`` with the value it has (page 1 holds the header and the schema,
   never a record). SQLite syncs the header of a WAL it starts (at every ``synchronous`` level but
   ``OFF``: a header that reached the disk after a later frame could lose committed frames), so
   whichever transaction writes first into an emptied WAL waits for one sync. Taken here, at
   ``NORMAL``, that is the removal's own cost, and the next scan or put commits as it would after
   any other write. If it cannot run (the write lock is busy), the next writer pays that sync.

The scrub runs after the removal has committed, outside its transaction (``VACUUM`` cannot run
inside one). Another process's checkpoint (its own scrub) makes SQLite refuse a second one at
once, without waiting, so :func:`checkpoint` asks again until the busy timeout. It is best effort:
if it cannot finish (the write lock is busy; another process's read transaction still uses the
WAL, or its checkpoints keep running, past the busy timeout; the disk is full) the removal still
stands (the store then flushes the WAL itself before it acknowledges the
removal), and :class:`Scrubber` remembers what is owed. The next write of
this store (a put, a delete, or a scan's or read's telemetry) or its ``close`` pays it. Until then
the old text can remain in the ``-wal`` file or in unused space of the main file. The WAL keeps its
frames until the last step, so a process killed in the middle leaves a WAL the next one to open the
file sees. That one cannot know what was removed, so its check is stricter: no loose run may hold
four bytes that any stored text could be made of (:func:`.residue.holds_text`); what SQLite leaves
there itself, stale cell offsets and free-block headers, rarely does, so the file is still seldom
rewritten (in a churn where every removal was checked this way, one in 40 to 100).

That is removal from retrieval plus best-effort hygiene, not proof of erasure: the filesystem, SSD
wear levelling, snapshots and backups may keep old bytes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from .connection import Backoff, commit_unchanged
from .sqlite_errors import SQLITE_FULL, SQLITE_IOERR, error_code

TYPE_CHECKING = False  # the residue reader itself is imported by the first check
if TYPE_CHECKING:
    from . import residue

__all__ = ["Scrubber", "checkpoint"]

Image = Callable[[], "bytes | None"]
"""Reads the database file as it is on disk (:func:`.held.image`); ``None`` if it cannot."""


class _Unfinished(Exception):
    """A checkpoint could not copy or empty the whole WAL (a reader or writer kept it in use)."""


class Scrubber:
    """What content has left the file since it was last scrubbed, and the scrub itself.

    Not thread-safe on its own; the store calls it under its lock.
    """

    def __init__(self) -> None:
        self.owed = False
        """Content left the file (a delete, replacement or prune, or a scrub that could not finish)
        and has not been scrubbed yet."""
        self._removed: set[str] | None = set()
        """The stored text of what left, or ``None`` when it is not known (then any loose text counts)."""
        self.rewrites = 0
        """How many scrubs of this store rewrote the file with ``VACUUM``."""
        self._pages: residue.PageMemo | None = None
        """The file's pages as the last check read them, so the next check parses only those that
        changed; made by the first check (a process that removes nothing never loads the reader)."""
        self.disk_error: sqlite3.Error | None = None
        """The error of the last scrub when the disk failed it (a write or a flush refused, the disk
        full), rather than a lock: a flush it made may have failed, so the caller must not take
        the WAL for flushed, nor retry the flush (a second ``fdatasync`` after a failed one can
        succeed with the pages it could not write already dropped)."""

    def mark(self, removed: Iterable[str] | None = None) -> None:
        """Record that content leaves the file in a transaction that has not committed yet.

        Args:
            removed: The stored text of every column of the rows that leave (content and derived),
                or ``None`` when what left is not known (frames another process left in the WAL):
                then the next scrub rewrites the file if any loose bytes could be text at all.
        """
        self.owed = True
        if removed is None:
            self._removed = None
        elif self._removed is not None:
            self._removed.update(removed)

    def scrub(self, conn: sqlite3.Connection | None, image: Image | None = None, *, restart: bool = True) -> bool:
        """Copy the WAL into the file, rewrite the file if removed text may be left in it, and
        empty the WAL; if that cannot finish, owe what is left.

        Args:
            conn: The store's connection, outside any transaction; ``None`` (closed) skips the
                scrub, and the next open file gets it with its next removal.
            image: Reads the file's bytes for the check; without it the file is rewritten.
            restart: Start the emptied WAL again (step 4); false when the connection is about to
                close, which removes the WAL anyway.

        Returns:
            Whether a checkpoint of this scrub found every frame of the WAL copied into the file.
            SQLite syncs the WAL before it copies a frame and the file once it has copied them
            all, so every commit made before the scrub, however it was synced, is then on the
            disk (:mod:`.connection` relies on it for a removal's commit).
        """
        removed, self._removed, self.owed = self._removed, set(), False
        self.disk_error = None
        if conn is None:
            return False
        copied = False
        try:
            if removed is None or removed:
                checked, copied = self._checked(conn, image, removed)
                if not checked:
                    conn.execute("VACUUM")
                    self.rewrites += 1
            removed = set()  # the file is clean: only emptying the WAL can still be owed
            busy, frames, done = checkpoint(conn, "TRUNCATE")
            copied = copied or (0 <= frames == done)
            if busy:
                raise _Unfinished
        except (sqlite3.Error, _Unfinished) as exc:
            self.mark(removed)
            code = error_code(exc)
            if isinstance(exc, sqlite3.Error) and code is not None and code & 0xFF in (SQLITE_IOERR, SQLITE_FULL):
                # Kept past this call, so without the frames its traceback holds, or that of the
                # error it met while handling (a store closing after an error): they hold the store.
                exc.__context__ = None
                self.disk_error = exc.with_traceback(None)
            return copied
        if frames < 0 or not restart:
            return copied  # not in WAL mode (SQLite answers -1), or closing: no WAL to start
        try:
            _restart_wal(conn)
        except sqlite3.Error:
            pass  # only where the next WAL header sync is paid moves; nothing is owed
        return copied

    def _checked(self, conn: sqlite3.Connection, image: Image | None, removed: set[str] | None) -> tuple[bool, bool]:
        """Whether the file, with every frame copied in, holds none of the removed text outside
        live rows (with ``removed`` unknown, no bytes that could be any text), ``False`` also when
        that cannot be told (then the caller rewrites the file); and whether the checkpoint
        copied every frame.

        Raises:
            _Unfinished: the checkpoint could not copy every frame (a reader still uses the WAL).
        """
        if image is None:
            return False, False  # the file cannot be read: it is rewritten, then checkpointed
        # Frames committed by anyone before `before` are copied by the checkpoint. Under the write
        # lock no frame can be added; if no other connection committed since `before`, nothing
        # is left for a checkpoint to copy, so the file cannot change while it is read.
        before = conn.execute("PRAGMA data_version").fetchone()[0]
        busy, frames, done = checkpoint(conn, "FULL")
        if busy or frames != done:
            raise _Unfinished
        copied = frames >= 0  # every frame, unless the file is not in WAL mode (SQLite answers -1)
        conn.execute("BEGIN IMMEDIATE")
        try:
            data = image() if conn.execute("PRAGMA data_version").fetchone()[0] == before else None
        finally:
            conn.execute("ROLLBACK")
        if data is None:
            return False, copied
        from . import residue

        if self._pages is None:
            self._pages = residue.PageMemo()
        runs = residue.loose_runs(data, self._pages)
        if runs is None:
            return False, copied
        clean = not (residue.runs_hold_text(runs) if removed is None else residue.runs_hold_any(runs, removed))
        return clean, copied


def checkpoint(conn: sqlite3.Connection, mode: str) -> tuple[int, int, int]:
    """``PRAGMA wal_checkpoint(mode)``'s answer (busy, frames in the WAL, frames copied), asked
    again while another connection's checkpoint is under way.

    One checkpoint runs at a time, and SQLite answers any other at once with ``(1, -1, -1)``
    without calling the busy handler (https://sqlite.org/c3ref/wal_checkpoint_v2.html): two
    processes that remove records together would otherwise leave each other's scrub owed, with the
    removed text still on disk until a later write. So that answer is retried with the pauses a
    ``BEGIN IMMEDIATE`` waits for the write lock with (:class:`.connection.Backoff`), until the
    connection's busy timeout has passed (a checkpoint takes a few milliseconds; one
    that waits for a reader takes up to that timeout itself). The waits for readers and writers
    inside a checkpoint go through the busy handler as before.
    """
    backoff: Backoff | None = None
    while True:
        busy, frames, done = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        if not (busy and frames < 0):
            return busy, frames, done
        if backoff is None:
            backoff = Backoff(conn.execute("PRAGMA busy_timeout").fetchone()[0] / 1000)
        if not backoff.wait():
            return busy, frames, done


def _restart_wal(conn: sqlite3.Connection) -> None:
    """Write one frame of page 1 into the emptied WAL (step 4 of the scrub), at ``synchronous = NORMAL``.

    It does not wait for the write lock: a writer that holds it starts the WAL itself. The
    connection's own sync level and busy timeout are put back afterwards, so the store's note of
    them stays true.

    Raises:
        sqlite3.Error: the lock was taken (``SQLITE_BUSY``), or the write failed; nothing changed.
    """
    level = conn.execute("PRAGMA synchronous").fetchone()[0]
    timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        commit_unchanged(conn)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")
        conn.execute(f"PRAGMA synchronous = {int(level)}")

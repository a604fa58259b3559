"""Deletion hygiene: after content leaves the file, no copy of it stays in any file of the folder.

``secure_delete`` is on, so SQLite overwrites a deleted row in place. It does not clear an older
copy of a row that SQLite left in the unused middle of a page it rebuilt earlier (a split or a
merge), and once that row is deleted or replaced, the copy would be the last one. In WAL mode there
are more copies: every frame of the WAL is a whole page as some transaction left it, so a deleted
row's text stays in the ``-wal`` file until a checkpoint has copied the pages back and the WAL is
emptied. (The ``-shm`` file holds only SQLite's index of the WAL: page numbers and checksums, never
a row.)

So after a delete, a replacement or a prune the store scrubs, in two steps:

1. ``VACUUM`` rewrites the file from its live rows (its scratch copy stays in memory,
   ``temp_store = MEMORY``). ``secure_delete`` plus a checkpoint without it is not enough: the
   churn test (``tests/reliability/test_deletion.py``) finds old text within a few hundred
   operations. At 511 records near the 256 KiB content bound, ``VACUUM`` and the checkpoint below
   take about 6 ms together (median of ten on the test machine), plus the syncs of the checkpoint.
2. ``PRAGMA wal_checkpoint(TRUNCATE)`` copies every frame, the rewritten pages included, into the
   file, syncs it, and truncates the WAL to zero bytes, so no frame with old text is left.

The scrub runs after the removal has committed, outside its transaction (``VACUUM`` cannot run
inside one). It is best effort: if it cannot finish (the write lock is busy; another process's read
transaction still uses the WAL, so the checkpoint cannot empty it past the busy timeout; the disk
is full) the removal still stands, and :class:`Scrubber` remembers that a scrub is owed. The next
write of this store (a put, a delete, or a scan's or read's telemetry) or its ``close`` pays it.
Until then the old text can remain in the ``-wal`` file or in unused space of the main file.

That is removal from retrieval plus best-effort hygiene, not proof of erasure: the filesystem, SSD
wear levelling, snapshots and backups may keep old bytes.
"""

from __future__ import annotations

import sqlite3

__all__ = ["Scrubber"]


class Scrubber:
    """Whether content has left the file since it was last scrubbed, and the scrub itself.

    Not thread-safe on its own; the store calls it under its lock.
    """

    def __init__(self) -> None:
        self.owed = False
        """Content left the file (a delete, replacement or prune, or a scrub that could not finish)
        and has not been scrubbed yet."""

    def mark(self) -> None:
        """Record that content leaves the file in a transaction that has not committed yet."""
        self.owed = True

    def scrub(self, conn: sqlite3.Connection | None) -> None:
        """Rewrite the file from its live rows and empty the WAL; if that cannot finish, owe it.

        Args:
            conn: The store's connection, outside any transaction; ``None`` (closed) skips the
                scrub, and the next open file gets it with its next removal.
        """
        self.owed = False
        if conn is None:
            return
        try:
            conn.execute("VACUUM")
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            self.owed = True
            return
        self.owed = bool(busy)  # a reader kept the WAL in use: its frames are not all copied yet

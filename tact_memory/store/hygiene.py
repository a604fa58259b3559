"""Deletion hygiene: after content leaves the file, rewrite the file from its live rows.

``secure_delete`` is on, so SQLite overwrites a deleted row in place. It does not clear an older
copy of a row that SQLite left in the unused middle of a page it rebuilt earlier (a split or a
merge), and once that row is deleted or replaced, the copy would be the last one. So after a
delete, a replacement or a prune, the file is rewritten from the live rows with ``VACUUM``, whose
scratch copy stays in memory (``temp_store = MEMORY``).

The scrub runs after the removal has committed, outside its transaction (``VACUUM`` cannot run
inside one). It is best effort: if it fails (the lock is busy, the disk is full) the removal still
stands, and :class:`Scrubber` remembers that a scrub is owed, so the next removal, or the next put,
tries again.

That is removal from retrieval plus best-effort hygiene, not proof of erasure: the filesystem, SSD
wear levelling, snapshots and backups may keep old bytes.
"""

from __future__ import annotations

import sqlite3

__all__ = ["Scrubber"]


class Scrubber:
    """Whether content has left the file since it was last rewritten, and the rewrite itself.

    Not thread-safe on its own; the store calls it under its lock.
    """

    def __init__(self) -> None:
        self.owed = False
        """Content left the file (a prune, or a failed scrub) and ``VACUUM`` has not rewritten it yet."""

    def mark(self) -> None:
        """Record that content left the file inside a transaction that has not committed yet."""
        self.owed = True

    def scrub(self, conn: sqlite3.Connection | None) -> None:
        """Rewrite the file from its live rows now; on failure, owe it to the next removal.

        Args:
            conn: The store's connection, outside any transaction; ``None`` (closed) skips the
                rewrite, and the next open file gets it with its next removal.
        """
        self.owed = False
        if conn is None:
            return
        try:
            conn.execute("VACUUM")
        except sqlite3.Error:
            self.owed = True

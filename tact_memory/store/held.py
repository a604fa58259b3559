"""Descriptors that SQLite holds on the database, borrowed without ever closing one, and the flush of
its WAL.

Two things the store does need the files themselves, not SQLite: the scrub reads the database's
bytes to search them for removed text (:func:`image`), and a removal whose commit did not wait for
the disk makes its WAL durable when no checkpoint did (:func:`sync`).

The database file may not be opened and closed by anyone but SQLite. POSIX record locks belong to
the process and the file, not to a descriptor, so closing *any* descriptor of a file drops every
lock the process holds on it, SQLite's included; another process could then take the database for
unused, checkpoint it and delete its WAL under a connection that is still writing. So :func:`image`
borrows a descriptor SQLite already has open on the same file (same device and inode), found by
listing ``/dev/fd``, and reads it only with ``pread``, which leaves it as it was. Where the process cannot
list its descriptors, there is none to borrow, and the scrub rewrites the file instead.

SQLite takes no lock on the ``-wal`` file (in WAL mode its locks are on the database file and the
``-shm`` index), so :func:`sync` opens a descriptor of its own there and closes it after the flush:
a borrowed one could be closed by another connection between the check and the flush, and its
number given to another file. :func:`descriptor` still tells whether SQLite holds the WAL at that
path open, so that the flush reaches the file SQLite writes to.
"""

from __future__ import annotations

import os
import stat

__all__ = ["Identity", "descriptor", "identity", "image", "sync"]

Identity = tuple[int, int]
"""A file's ``(device, inode)``."""

_flush = getattr(os, "fdatasync", os.fsync)  # macOS has no fdatasync; SQLite's unix VFS uses fsync there

_FOUND: dict[Identity, int] = {}
"""The descriptor last found for a file; checked against the file before each use."""


def identity(path: str) -> Identity | None:
    """The ``(device, inode)`` of the file at ``path`` (a link is not followed), or ``None``."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _holds(fd: int, wanted: Identity) -> bool:
    try:
        st = os.fstat(fd)
    except OSError:
        return False  # the listing's own descriptor, closed by now
    return (st.st_dev, st.st_ino) == wanted and stat.S_ISREG(st.st_mode)


def descriptor(wanted: Identity) -> int | None:
    """A descriptor this process holds on the regular file ``wanted``, or ``None`` when there is none
    (or the process cannot list its descriptors)."""
    fd = _FOUND.get(wanted)
    if fd is not None and _holds(fd, wanted):
        return fd
    try:
        names = os.listdir("/dev/fd")
    except OSError:
        return None
    fd = next((int(name) for name in names if name.isdigit() and _holds(int(name), wanted)), None)
    if fd is None:
        _FOUND.pop(wanted, None)
        return None
    _FOUND[wanted] = fd
    return fd


def image(wanted: Identity) -> bytes | None:
    """The whole file ``wanted``, read through a descriptor this process holds on it, or ``None``
    when there is none or it cannot be read (then the caller does the full scrub)."""
    fd = descriptor(wanted)
    if fd is None:
        return None
    chunks, at = [], 0
    try:
        size = os.fstat(fd).st_size
        while at < size:
            chunk = os.pread(fd, size - at, at)
            if not chunk:
                return None  # shorter than it was a moment ago: let the full scrub decide
            chunks.append(chunk)
            at += len(chunk)
    except OSError:
        return None
    return b"".join(chunks)


def sync(path: str, wanted: Identity) -> bool:
    """Flush the file at ``path`` to the disk (``fdatasync``) if it is still the file ``wanted``,
    through a descriptor of its own (only for files SQLite holds no lock on, such as the WAL);
    ``False`` when the path no longer names that file. A flush applies to the file, whichever
    descriptor asks.

    Raises:
        OSError: the disk refused the flush.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != wanted:
            return False
        _flush(fd)
        return True
    finally:
        os.close(fd)

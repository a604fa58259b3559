"""The memory folder, the database file and its sidecars, checked before SQLite opens them.

The database and everything beside it are data that only their owner may shape. Before every open:

- A symbolic link as the folder, the file or a sidecar (``-journal``, ``-wal``, ``-shm``) is
  refused: SQLite would read and write through it, wherever it points. So is a file or sidecar
  with a second name (a hard link): SQLite writes it in place, so every write and every removal
  would change, or leave, the same bytes under the other name too (a WAL linked to another file
  would write frames over that file; a deleted record would stay readable there until the pages
  are reused). SQLite never makes such a link itself.
- The folder, the file and any sidecar must belong to the user running tact-memory. A rollback
  journal left by someone else is the dangerous case: SQLite treats a "hot" journal as unfinished
  work and copies its pages into the database on the next read, so whoever can drop a journal into
  the folder could rewrite the file, schema included. Such a folder or file is refused untouched.
- The folder is kept at mode 0700 and the file at 0600: group and other bits are cleared on every
  open (owner bits are left alone, so a read-only file stays read-only). The folder is tightened
  when tact-memory made it or it is a ``memory`` folder (``<config-dir>/memory/``, the layout
  tact-memory makes); a folder of another name that already existed belongs to whoever chose it
  (a home folder, or a shared one like ``/tmp``) and keeps its mode. The file's own checks hold
  there too. A ``-wal`` or ``-shm`` file gets the file's owner read and write bits: SQLite creates
  them with the file's mode of that moment, so a WAL made while the file was read-only would
  otherwise keep refusing writes after the file is writable again.

Nothing here is created unless the caller asks for it; a missing folder or file is reported, not
made, by read-only callers.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["SIDECARS", "UnsafeFile", "prepare", "unwritable"]

SIDECARS = ("-journal", "-wal", "-shm")
"""Files SQLite keeps beside a database."""

MEMORY_FOLDER = "memory"
"""The name of the folder tact-memory keeps its database in, inside a config directory."""

_PRIVATE = 0o077  # group and other bits


class UnsafeFile(Exception):
    """A folder or file that must not be opened; the store reports it as ``unavailable``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _owner_check(path: Path, st: os.stat_result, what: str) -> None:
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:  # no POSIX owners (Windows)
        return
    if st.st_uid != geteuid():
        raise UnsafeFile(
            "foreign_owner",
            f"{what} {path.name} belongs to another user (uid {st.st_uid}), so its contents cannot be "
            "trusted; it was left untouched. Remove it, or run tact-memory as its owner.",
        )


def _symlink_check(path: Path, st: os.stat_result, what: str) -> None:
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFile(
            "symlinked_path",
            f"{what} {path.name} is a symbolic link; tact-memory only uses a real folder and file, "
            "so it was left untouched. Replace the link with the folder or file itself.",
        )


def _link_check(path: Path, st: os.stat_result, what: str) -> None:
    if st.st_nlink > 1:
        raise UnsafeFile(
            "hard_linked",
            f"{what} {path.name} has {st.st_nlink} names (hard links), so every write to it would "
            "change the file under its other names too; it was left untouched. Remove the other names, "
            "or give it a copy of its own.",
        )


def _tighten(path: Path, st: os.stat_result, *, directory: bool, owner_bits: int | None = None) -> None:
    """Clear group and other bits, through a descriptor that cannot follow a swapped-in link;
    with ``owner_bits``, also set the owner's read and write bits to those."""
    mode = stat.S_IMODE(st.st_mode)
    wanted = mode & ~_PRIVATE if owner_bits is None else (mode & ~_PRIVATE & ~0o600) | owner_bits
    if wanted == mode or not hasattr(os, "fchmod"):  # no POSIX modes (Windows)
        return
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_DIRECTORY", 0) if directory else getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise UnsafeFile("symlinked_path", f"{path.name} was replaced while it was being checked; it was left untouched")
        os.fchmod(fd, wanted)
    finally:
        os.close(fd)


def _create_file(path: Path) -> None:
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # another process created it first: checked below like any file
        return
    try:
        os.fchmod(fd, 0o600)  # the umask may have removed owner bits
    finally:
        os.close(fd)


def prepare(path: Path, *, create: bool) -> bool:
    """Check the folder, the file and its sidecars; with ``create``, make what is missing.

    Returns:
        Whether the database file exists (always true with ``create``).

    Raises:
        UnsafeFile: a symbolic link, another user's folder, file or sidecar, a file or sidecar
            with another name (a hard link), or a path that is not a folder or regular file.
        OSError: the folder or file could not be created or inspected.
    """
    folder = path.parent
    st = _lstat(folder)
    made = st is None
    if st is None:
        if not create:
            return False
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
    _symlink_check(folder, st, "the memory folder")
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeFile("not_a_folder", f"the memory folder {folder.name} exists but is not a folder")
    _owner_check(folder, st, "the memory folder")
    if made or folder.name == MEMORY_FOLDER:
        _tighten(folder, st, directory=True)

    st = _lstat(path)
    if st is None:
        if not create:
            return False
        _create_file(path)
        st = os.lstat(path)
    _symlink_check(path, st, "the database file")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFile("not_a_file", "the path exists but is not a regular file")
    _owner_check(path, st, "the database file")
    _link_check(path, st, "the database file")
    _tighten(path, st, directory=False)
    file_bits = stat.S_IMODE(st.st_mode) & 0o600

    for suffix in SIDECARS:
        side = Path(f"{path}{suffix}")
        st = _lstat(side)
        if st is None:
            continue
        _symlink_check(side, st, "the sidecar")
        _owner_check(side, st, "the sidecar")
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile("not_a_file", f"the sidecar {side.name} exists but is not a regular file")
        _link_check(side, st, "the sidecar")
        # SQLite gives a new -wal or -shm the file's mode of that moment; once a read-only file is
        # made writable again, its WAL must follow, or every write would still fail as read-only.
        _tighten(side, st, directory=False, owner_bits=file_bits)
    return True


def _may(path: Path, mode: int) -> bool:
    """Whether this process may use ``path`` so, as the system judges it (root's bypass of modes,
    a read-only file system, access control lists)."""
    return os.access(path, mode, effective_ids=os.access in os.supports_effective_ids)


def _on_read_only_fs(path: Path) -> bool:
    statvfs = getattr(os, "statvfs", None)
    return statvfs is not None and bool(statvfs(path).f_flag & getattr(os, "ST_RDONLY", 0))


def unwritable(path: Path) -> str | None:
    """Why a write to the database at ``path`` would fail for want of write access, found without
    creating or opening anything (a dry run asks, as it writes to a copy); ``None`` when it would not.

    Returns:
        ``"read_only"``: the file, or the folder SQLite keeps its journal and WAL in, cannot be
        written, or the file system is read-only. ``"permission_denied"``: the file, or the folder
        to hold it, cannot be made there (judged by the nearest folder that exists).
    """
    if os.path.lexists(path):
        needs, refused = [(path, os.R_OK | os.W_OK), (path.parent, os.W_OK | os.X_OK)], "read_only"
    else:
        folder = path.parent
        while not os.path.lexists(folder) and folder.parent != folder:
            folder = folder.parent
        needs, refused = [(folder, os.W_OK | os.X_OK)], "permission_denied"
    for target, mode in needs:
        if not _may(target, mode):
            return "read_only" if _on_read_only_fs(target) else refused
    return None

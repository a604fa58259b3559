"""SQLite's errors, translated once into the project's, by result code.

Every ``sqlite3`` or ``OSError`` the SQLite store meets passes through :func:`translating` (or
:func:`translate`), which raises one of :mod:`tact_memory.errors` ``from`` it; SQLite's own text
("database is locked") never reaches a caller. The mapping is one table from SQLite's result codes:

=====================================  ===================================================
SQLite result code                     tact-memory error
=====================================  ===================================================
``SQLITE_FULL`` (13)                   ``DatabaseCapacity``: the page limit, or the disk
``SQLITE_BUSY`` (5), ``LOCKED`` (6)    ``StoreUnavailable``, reason ``busy``
``SQLITE_READONLY_DBMOVED`` (1032)     ``StoreUnavailable``, reason ``moved``
``SQLITE_READONLY`` (8)                ``StoreUnavailable``, reason ``read_only``
``SQLITE_IOERR`` (10)                  ``StoreUnavailable``, reason ``io_error``
``SQLITE_PERM`` (3), ``CANTOPEN`` (14)  ``StoreUnavailable``, reason ``permission_denied``
``SQLITE_NOTADB`` (26), ``CORRUPT`` (11)  ``StoreUnavailable``, reason ``not_a_database``
``SQLITE_AUTH`` (23)                   ``StoreUnavailable``, reason ``unexpected_schema``
any other                              ``StoreUnavailable``, reason ``sqlite_error``
=====================================  ===================================================

An extended code (``sqlite_errorcode``) is looked up first, then its primary code (the low byte).
``permission_denied`` becomes ``read_only`` where the file exists and it or its folder cannot be
written (:func:`~.files.unwritable`), which is also what a dry run's check before any write says.
An ``OSError`` (from the file checks, before SQLite runs) is ``permission_denied``, ``read_only``
(a read-only file system) or ``os_error``. Our own errors pass through unchanged.

Python 3.11 gives every error SQLite raised its code; 3.10 does not, so there :func:`error_code`
infers it from the exception's text, in that one function. (Errors the ``sqlite3`` module raises
itself, such as using a closed connection, have no code on any version and become ``sqlite_error``.)
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import errors
from .files import unwritable

__all__ = [
    "SQLITE_AUTH",
    "SQLITE_BUSY",
    "SQLITE_CANTOPEN",
    "SQLITE_CORRUPT",
    "SQLITE_FULL",
    "SQLITE_IOERR",
    "SQLITE_LOCKED",
    "SQLITE_NOTADB",
    "SQLITE_PERM",
    "SQLITE_READONLY",
    "SQLITE_READONLY_DBMOVED",
    "UNAVAILABLE",
    "error_code",
    "file_full",
    "is_full",
    "translate",
    "translating",
    "unavailable",
]

SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_AUTH = 23
SQLITE_NOTADB = 26
SQLITE_READONLY_DBMOVED = SQLITE_READONLY | (4 << 8)

_BUSY = ("busy", "another process held the write lock for more than {timeout:g} s; try again")
_NO_ACCESS = ("permission_denied", "cannot open or create the file (permission denied)")
_NOT_A_DATABASE = (
    "not_a_database",
    "the file is not a valid SQLite database; it was left untouched (to recover, a person moves it aside to "
    "start an empty memory, or puts back a copy from a backup)",
)

UNAVAILABLE: dict[int, tuple[str, str]] = {
    SQLITE_BUSY: _BUSY,
    SQLITE_LOCKED: _BUSY,
    SQLITE_READONLY_DBMOVED: (
        "moved",
        "the file was moved or deleted while in use; nothing was written, and the next call opens it again",
    ),
    SQLITE_READONLY: ("read_only", "the file or its folder is read-only"),
    SQLITE_IOERR: (
        "io_error",
        "the disk refused a read or write (it may be full or failing); the change was rolled back",
    ),
    SQLITE_PERM: _NO_ACCESS,
    SQLITE_CANTOPEN: _NO_ACCESS,
    SQLITE_NOTADB: _NOT_A_DATABASE,
    SQLITE_CORRUPT: _NOT_A_DATABASE,
    SQLITE_AUTH: (
        "unexpected_schema",
        "a trigger or view that tact-memory does not create was added to the file while it was open; it did not "
        "run, and the file is refused until it is removed (with the sqlite3 shell) or the file is moved aside",
    ),
}
"""SQLite result code (extended or primary) to ``StoreUnavailable`` reason and message.

``{timeout:g}`` in a message is the busy timeout in seconds. ``SQLITE_FULL`` is not here: it is a
capacity error (:func:`file_full`), not an unavailable store.
"""

# Python 3.10 only: SQLite's own wording of each code (sqlite3_errstr), for errors without a code.
_WORDING = (
    ("is full", SQLITE_FULL),
    ("locked", SQLITE_BUSY),
    ("busy", SQLITE_BUSY),
    ("disk i/o error", SQLITE_IOERR),
    ("readonly", SQLITE_READONLY),
    ("read-only", SQLITE_READONLY),
    ("permission", SQLITE_PERM),
    ("unable to open", SQLITE_CANTOPEN),
    ("not a database", SQLITE_NOTADB),
    ("not authorized", SQLITE_AUTH),  # a statement the authorizer refused
    ("is prohibited", SQLITE_AUTH),  # "access to kept.id is prohibited": a column read it refused
    ("malformed", SQLITE_CORRUPT),
    ("corrupt", SQLITE_CORRUPT),
)


def error_code(exc: BaseException) -> int | None:
    """SQLite's (extended) result code for ``exc``, or ``None`` when it did not come from SQLite.

    Python 3.11+ records the code on the exception; for an ``sqlite3.Error`` without one (every
    error on 3.10), the code is inferred from SQLite's wording of it.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc).lower()
    return next((found for words, found in _WORDING if words in text), None)


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` is ``SQLITE_FULL``: the file reached its page limit, or the disk is full."""
    code = error_code(exc)
    return code is not None and code & 0xFF == SQLITE_FULL


def unavailable(path: Path, reason: str, message: str) -> errors.StoreUnavailable:
    """A ``StoreUnavailable`` for the database at ``path``; ``message`` says why in a sentence."""
    return errors.StoreUnavailable(f"memory database {path}: {message}", path=str(path), reason=reason)


def file_full(file_bytes: int) -> errors.DatabaseCapacity:
    """The error for ``SQLITE_FULL``: the main file reached ``file_bytes`` (or the disk filled up)."""
    return errors.DatabaseCapacity(
        f"the memory database file reached its {file_bytes:,}-byte limit "
        "(or the disk is full); delete records you no longer need",
        limit=file_bytes,
    )


def translate(exc: BaseException, *, path: Path, file_bytes: int, busy_timeout_s: float) -> errors.TactMemoryError:
    """The project's error for ``exc``; the caller raises it ``from exc``.

    Args:
        exc: A ``sqlite3.Error`` or ``OSError`` (a ``TactMemoryError`` is returned as it is).
        path: The database, named in the message.
        file_bytes: The file bound, named by ``DatabaseCapacity``.
        busy_timeout_s: How long a locked database was waited for, named by ``busy``.
    """
    if isinstance(exc, errors.TactMemoryError):
        return exc
    if isinstance(exc, OSError):
        if isinstance(exc, PermissionError):
            return unavailable(path, *_NO_ACCESS)
        if exc.errno == errno.EROFS:
            return unavailable(path, *UNAVAILABLE[SQLITE_READONLY])
        return unavailable(path, "os_error", exc.strerror or str(exc))
    code = error_code(exc)
    if code is None:
        return unavailable(path, "sqlite_error", str(exc))
    if code & 0xFF == SQLITE_FULL:
        return file_full(file_bytes)
    found = UNAVAILABLE.get(code) or UNAVAILABLE.get(code & 0xFF)
    if found is None:
        return unavailable(path, "sqlite_error", str(exc))
    if found is _NO_ACCESS and unwritable(path) == "read_only":
        # SQLite could not open the file for writing, or make its WAL beside it, because the file
        # system or the folder is read-only: say so, as a dry run's check of the same file does.
        found = UNAVAILABLE[SQLITE_READONLY]
    reason, message = found
    return unavailable(path, reason, message.format(timeout=busy_timeout_s))


@contextmanager
def translating(path: Path, *, file_bytes: int, busy_timeout_s: float) -> Iterator[None]:
    """Run a block, raising any ``sqlite3.Error`` or ``OSError`` from it as the project's error."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise translate(exc, path=path, file_bytes=file_bytes, busy_timeout_s=busy_timeout_s) from exc

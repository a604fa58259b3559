"""SQLite rows as records: each cell checked for its type, a wrong one named without its value.

SQLite's type affinity lets any value into any column (``version = 'x'``, a BLOB as content, a
real number as a time), and the file may have been written by hand. So every cell the store uses is
checked as it is read, and a wrong one is refused as ``unavailable``/``malformed_row`` naming the row
and the column, never as a traceback and never by echoing the value. Stored text that is not UTF-8
is decoded to a marker (:func:`decode`, the connection's text factory) so no message can quote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..records import MemoryRecord, RecordKey
from .sqlite_errors import unavailable

__all__ = ["COLUMNS", "decode", "integer", "record", "text"]

COLUMNS = (
    "id, version, content, created_at_ms, updated_at_ms, scan_count, last_scanned_at_ms,"
    " read_count, last_read_at_ms, probation_until_ms"
)
"""The columns of a whole record, in the order :func:`record` reads them."""


class _Undecodable:
    """Stands for stored text that is not UTF-8, so that no error message ever quotes it."""

    __slots__ = ()


_UNDECODABLE = _Undecodable()


def decode(raw: bytes) -> str | _Undecodable:
    """The connection's text factory: strict UTF-8, or a marker the row checks refuse."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return _UNDECODABLE


def _describe(value: object) -> str:
    """What kind of wrong value a cell holds, without its value."""
    if value is None:
        return "NULL"
    if isinstance(value, _Undecodable):
        return "text that is not UTF-8"
    if isinstance(value, bytes):
        return "a BLOB"
    if isinstance(value, str):
        return "text"
    if isinstance(value, float):
        return "a real number"
    return "a number out of range"


def _checked(path: Path, id_: object, column: str, value: object, *, text: bool = False, minimum: int = 0) -> Any:
    """One cell as our type, or ``malformed_row`` naming the row and column (never the value)."""
    if text:
        if isinstance(value, str):
            return value
        wanted = "text"
    else:
        if type(value) is int and value >= minimum:
            return value
        wanted = f"an integer of at least {minimum}"
    raise unavailable(
        path,
        "malformed_row",
        f"row {id_} of the memories table holds {_describe(value)} in {column}, where {wanted} belongs; "
        "every operation refuses the file until that row is repaired or deleted (with the sqlite3 "
        "shell) or the file is moved aside",
    )


def integer(path: Path, id_: object, column: str, value: object, *, minimum: int = 0) -> int:
    """An integer cell of at least ``minimum``, or ``malformed_row``."""
    return int(_checked(path, id_, column, value, minimum=minimum))


def text(path: Path, id_: object, column: str, value: object) -> str:
    """A UTF-8 text cell, or ``malformed_row``."""
    return str(_checked(path, id_, column, value, text=True))


def record(row: Sequence[object], path: Path) -> MemoryRecord:
    """A whole record from a row of :data:`COLUMNS`."""
    (id_, version, content, created, updated, scans, scanned, reads, read_at, probation) = tuple(row)

    def cell(column: str, value: object, *, minimum: int = 0) -> int:
        return integer(path, id_, column, value, minimum=minimum)

    def optional(column: str, value: object) -> int | None:
        return None if value is None else cell(column, value)

    return MemoryRecord(
        key=RecordKey(cell("id", id_, minimum=1), cell("version", version, minimum=1)),
        content=text(path, id_, "content", content),
        created_at_ms=cell("created_at_ms", created),
        updated_at_ms=cell("updated_at_ms", updated),
        scan_count=cell("scan_count", scans),
        last_scanned_at_ms=optional("last_scanned_at_ms", scanned),
        read_count=cell("read_count", reads),
        last_read_at_ms=optional("last_read_at_ms", read_at),
        probation_until_ms=optional("probation_until_ms", probation),
    )

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

from ..records import MemoryRecord, RecordKey
from .policy import content_size
from .sqlite_errors import unavailable

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CELLS_VALID",
    "COLUMNS",
    "FROM",
    "LEGACY_COLUMNS",
    "LEGACY_FROM",
    "MEMORY_CELLS_VALID",
    "TELEMETRY_CELLS_VALID",
    "TELEMETRY_COLUMNS",
    "content",
    "decode",
    "integer",
    "record",
    "refuse",
    "text",
]

FROM = "memories LEFT JOIN telemetry ON telemetry.memory_id = memories.id"
"""Where whole records are read: each row of ``memories`` with its telemetry, if it has a row
(every column name is unique to its table, so ``id`` and ``version`` need no table name)."""

COLUMNS = (
    "id, version, content, created_at_ms, updated_at_ms, coalesce(scan_count, 0) AS scan_count,"
    " last_scanned_at_ms, coalesce(read_count, 0) AS read_count, last_read_at_ms, probation_until_ms"
)
"""The columns of a whole record from :data:`FROM`, in the order :func:`record` reads them; a
record without a telemetry row reads as never scanned or read, and not on probation."""

LEGACY_FROM = "memories"
LEGACY_COLUMNS = (
    "id, version, content, created_at_ms, updated_at_ms, scan_count, last_scanned_at_ms,"
    " read_count, last_read_at_ms, probation_until_ms"
)
"""The same, from a file of schema version 1 or 2 (telemetry in ``memories``), which people's
views read as it is; the first write migrates it."""

TELEMETRY_COLUMNS = {"scan_count", "last_scanned_at_ms", "read_count", "last_read_at_ms", "probation_until_ms"}
"""The columns of a record that live in the ``telemetry`` table."""

_COUNTS = ("created_at_ms", "updated_at_ms")
_TELEMETRY_COUNTS = ("scan_count", "read_count")
_OPTIONAL = ("last_scanned_at_ms", "last_read_at_ms", "probation_until_ms")


def _optional(column: str) -> str:
    return f"({column} IS NULL OR (typeof({column}) = 'integer' AND {column} >= 0))"


MEMORY_CELLS_VALID = " AND ".join(
    [
        "typeof(id) = 'integer' AND id >= 1",
        "typeof(version) = 'integer' AND version >= 1",
        "typeof(content) = 'text'",
        *(f"typeof({c}) = 'integer' AND {c} >= 0" for c in _COUNTS),
    ]
)
"""SQL true of a ``memories`` row whose cells :func:`record` accepts (but for its text's encoding
and size, which only the decoded text tells)."""

TELEMETRY_CELLS_VALID = " AND ".join(
    [*(f"typeof({c}) = 'integer' AND {c} >= 0" for c in _TELEMETRY_COUNTS), *(_optional(c) for c in _OPTIONAL)]
)
"""SQL true of a ``telemetry`` row whose cells :func:`record` accepts."""

CELLS_VALID = f"{MEMORY_CELLS_VALID} AND (telemetry.memory_id IS NULL OR ({TELEMETRY_CELLS_VALID}))"
"""SQL true of a row of :data:`FROM` whose cells :func:`record` accepts: a guard a statement can
carry, so that a row changed by hand is never updated as if it were sound."""


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


_REFUSED = (
    "every operation that meets the row refuses it until it is repaired or deleted (with the sqlite3 shell) "
    "or the file is moved aside"
)


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
    where = f"row {id_} of the memories table"
    if column in TELEMETRY_COLUMNS:
        where = f"the telemetry of {where}"
    raise unavailable(
        path,
        "malformed_row",
        f"{where} holds {_describe(value)} in {column}, where {wanted} belongs; {_REFUSED}",
    )


def integer(path: Path, id_: object, column: str, value: object, *, minimum: int = 0) -> int:
    """An integer cell of at least ``minimum``, or ``malformed_row``."""
    return int(_checked(path, id_, column, value, minimum=minimum))


def text(path: Path, id_: object, column: str, value: object) -> str:
    """A UTF-8 text cell, or ``malformed_row``."""
    return str(_checked(path, id_, column, value, text=True))


def content(path: Path, id_: object, value: object, record_bytes: int) -> str:
    """A content cell: UTF-8 text of at most ``record_bytes`` bytes (the record bound), or
    ``malformed_row``. A longer one can only have been written around the store, and serving it
    would hand a model more than any record may hold."""
    found = text(path, id_, "content", value)
    size = content_size(found)
    if size > record_bytes:
        raise unavailable(
            path,
            "malformed_row",
            f"row {id_} of the memories table holds {size:,} bytes of content, over the {record_bytes:,}-byte "
            f"bound of a record; {_REFUSED}",
        )
    return found


def refuse(row: Sequence[object], path: Path, record_bytes: int) -> None:
    """Raise ``malformed_row`` for a row of :data:`COLUMNS` that :data:`CELLS_VALID` found unsound."""
    record(row, path, record_bytes=record_bytes)  # names the cell, if it can tell which
    raise unavailable(path, "malformed_row", f"row {row[0]} of the memories table holds a value of the wrong kind; {_REFUSED}")


def record(row: Sequence[object], path: Path, *, record_bytes: int) -> MemoryRecord:
    """A whole record from a row of :data:`COLUMNS`, its content within ``record_bytes``."""
    (id_, version, body, created, updated, scans, scanned, reads, read_at, probation) = tuple(row)

    def cell(column: str, value: object, *, minimum: int = 0) -> int:
        return integer(path, id_, column, value, minimum=minimum)

    def optional(column: str, value: object) -> int | None:
        return None if value is None else cell(column, value)

    return MemoryRecord(
        key=RecordKey(cell("id", id_, minimum=1), cell("version", version, minimum=1)),
        content=content(path, id_, body, record_bytes),
        created_at_ms=cell("created_at_ms", created),
        updated_at_ms=cell("updated_at_ms", updated),
        scan_count=cell("scan_count", scans),
        last_scanned_at_ms=optional("last_scanned_at_ms", scanned),
        read_count=cell("read_count", reads),
        last_read_at_ms=optional("last_read_at_ms", read_at),
        probation_until_ms=optional("probation_until_ms", probation),
    )

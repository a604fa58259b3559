"""What a store allows, decided without a database: validation, visibility, probation and capacity.

Every rule here is a pure function of its arguments (no file, no clock, no SQL), so any backend
applies the same rules and each is property-tested on its own (``tests/store/test_policy.py``):

- **Validation** (:func:`validate_content`, :func:`check_query`, :func:`check_key`,
  :func:`check_ids`): what put, scan, read and delete refuse before any database work. A refusal
  is a named error that changes nothing and never quotes a secret.
- **Visibility** (:func:`hidden_reason`): a stored row is screened again whenever it is served, since
  it may predate a rule or have been written into the file directly; a hidden row is withheld from
  scan and read but can still be listed and deleted by a person.
- **Duplicates** (:func:`duplicate_key`): two contents are the same conclusion when their folded
  forms are equal.
- **Probation and capacity** (:func:`probation_deadline`, :func:`plan_put`): a new model-written
  version is on probation until first read; a put that a bound would refuse first prunes the fewest
  expired, unread probation rows, oldest first, and is refused (changing nothing) when even pruning
  all of them would not make room.

Sizes are UTF-8 bytes (:func:`content_size`), the one measure every bound uses. Ranking, text
folding and secret screening are imported on first use: they compile patterns and tables, and
``import tact_memory`` stays cheap for sessions that never touch memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .. import errors
from ..limits import Limits
from ..records import ORDERS, RecordKey
from ..screening.checkpoint import IMITATION_KIND, imitates_checkpoint

__all__ = [
    "MAX_INTEGER",
    "ORDER_BY",
    "Row",
    "check_ids",
    "check_key",
    "check_query",
    "check_text",
    "check_unshared_key",
    "content_size",
    "duplicate_key",
    "fits_as_is",
    "hidden_reason",
    "plan_put",
    "probation_deadline",
    "prunable",
    "validate_content",
]

MAX_INTEGER = 2**63 - 1
"""The largest id or version a record can have (SQLite's largest integer)."""

ORDER_BY = {name: ", ".join(f"{f} {'DESC' if desc else 'ASC'}" for f, desc in keys) for name, keys in ORDERS.items()}
"""Each listing order of :data:`~tact_memory.records.ORDERS` as an ``ORDER BY`` list, for a
store whose columns are named as the record's fields."""

_ALLOWED_CONTROLS = frozenset("\t\n\r")
_CONTROLS = re.compile("[%s]" % "".join(re.escape(chr(c)) for c in [*range(32), 127] if chr(c) not in _ALLOWED_CONTROLS))
"""Any control character a record may not hold."""


class Row:
    """What capacity decisions need to know about one live row."""

    __slots__ = ("id", "size", "updated_at_ms", "probation_until_ms")

    id: int
    """The record id."""
    size: int
    """UTF-8 bytes of its current content."""
    updated_at_ms: int
    """When its current version was written."""
    probation_until_ms: int | None
    """Until when its current version is on unread probation; ``None`` once read (or written by a person)."""

    def __init__(self, id: int, size: int, updated_at_ms: int, probation_until_ms: int | None) -> None:
        self.id = id
        self.size = size
        self.updated_at_ms = updated_at_ms
        self.probation_until_ms = probation_until_ms

    def __repr__(self) -> str:
        return f"Row({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


# -- validation ------------------------------------------------------------------------------------


def content_size(text: str) -> int:
    """UTF-8 bytes of ``text``; raises ``ValueError`` for a lone surrogate."""
    try:
        return len(text.encode("utf-8"))  # once per row of a cold refresh: no call through the lexer
    except UnicodeEncodeError:
        from ..retrieval.lexer import utf8_size

        return utf8_size(text)  # raises the lexer's ValueError


def check_text(value: object, name: str) -> tuple[str, int]:
    """An argument that must be text, and its UTF-8 size.

    Raises:
        InvalidArguments: ``value`` is not a string, or not encodable text.
    """
    if not isinstance(value, str):
        raise errors.InvalidArguments(f"{name} must be a string")
    try:
        return value, content_size(value)
    except ValueError as exc:
        raise errors.InvalidArguments(f"{name} is not valid text: {exc}") from exc


def validate_content(content: object, limits: Limits) -> str:
    """Check content the way put does, before any database work; returns it unchanged.

    Raises:
        InvalidArguments: not text, empty, control characters, or checkpoint imitation.
        ContentTooLarge: over ``limits.record_bytes``.
        SecretRejected: it looks like a credential (the error names the kind, never the value).
    """
    content, size = check_text(content, "content")
    if not content.strip():
        raise errors.InvalidArguments("content is empty; store one self-contained conclusion")
    if _CONTROLS.search(content):
        raise errors.InvalidArguments(
            "content contains an ASCII control character; of those only tab, newline and carriage return are allowed"
        )
    if size > limits.record_bytes:
        raise errors.ContentTooLarge(
            f"content is {size:,} UTF-8 bytes; one record holds at most {limits.record_bytes:,}. "
            "Store one atomic conclusion, or split unrelated facts into separate records.",
            size=size,
            limit=limits.record_bytes,
        )
    if imitates_checkpoint(content):
        raise errors.InvalidArguments(
            "content imitates the reserved runtime control marker or the review checkpoint's wording; "
            "state the conclusion in your own words"
        )
    from ..screening.credentials import KINDS, find_secret

    kind = find_secret(content)
    if kind is not None:
        raise errors.SecretRejected(
            f"content looks like it contains {KINDS.get(kind, 'a credential')}; credentials are never "
            "stored. Store the conclusion without the value (for example, where the value is kept).",
            kind=kind,
        )
    return content


def check_query(query: object, limit: object, limits: Limits) -> None:
    """Refuse a scan query that is not text or too long, and a ``limit`` outside ``1..scan_results``."""
    _, size = check_text(query, "query")
    if size > limits.query_bytes:
        raise errors.InvalidArguments(
            f"query is {size:,} bytes; the limit is {limits.query_bytes:,}. Use fewer, more specific words."
        )
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= limits.scan_results:
        raise errors.InvalidArguments(f"limit must be an integer from 1 to {limits.scan_results}")


def check_key(key: RecordKey) -> None:
    """Refuse ids and versions no record can have, before they reach a query or a message."""
    if not (1 <= key.id <= MAX_INTEGER and 1 <= key.version <= MAX_INTEGER):
        raise errors.InvalidArguments(f"id and version must be integers from 1 to {MAX_INTEGER}")


def version_conflict(key: RecordKey, current: int, doing: str) -> errors.VersionConflict:
    """The refusal of ``key`` when its record is at version ``current``, for a caller ``doing``
    something with it ("replacing", "deleting").

    A version below the current one was seen before the record changed; one above it was never
    the record's (a typing slip, a key from another memory), and saying it changed would mislead.
    """
    told = version_mismatch(key, current)
    return errors.VersionConflict(f"{told}. Read it again before {doing} it", id=key.id, current_version=current)


def version_mismatch(key: RecordKey, current: int) -> str:
    """What is wrong with ``key`` when its record is at version ``current`` (:func:`version_conflict`)."""
    if key.version > current:
        return f"memory {key.id} has no version {key.version}; it is at version {current}"
    return f"memory {key.id} is at version {current}, not {key.version}; it changed since you saw it"


def check_unshared_key(key: RecordKey) -> None:
    """Refuse a key that names a namespace in a store no team shares: none of its records has one.

    Only a team store's keys carry a namespace, so such a key was copied from another memory; the
    refusal names the id, never the namespace the call sent.
    """
    if key.namespace is not None:
        raise errors.NotFound(
            f"no memory here has id {key.id} in a namespace: this memory is not shared with a team, so its "
            "keys have no namespace; scan again and use the key as shown",
            id=key.id,
        )


def check_ids(ids: Iterable[object]) -> list[int]:
    """The ids a read asks for, duplicates removed, in first-seen order.

    Raises:
        InvalidArguments: an id is not a positive integer, or there is none.
    """
    wanted: list[int] = []
    for id_ in ids:  # each checked before it is hashed: a list or a dict as an id is refused, not a TypeError
        if isinstance(id_, bool) or not isinstance(id_, int) or not 1 <= id_ <= MAX_INTEGER:
            raise errors.InvalidArguments(f"ids must be integers from 1 to {MAX_INTEGER}")
        wanted.append(id_)
    wanted = list(dict.fromkeys(wanted))
    if not wanted:
        raise errors.InvalidArguments("ids must name at least one record")
    return wanted


# -- visibility and duplicates ---------------------------------------------------------------------


def hidden_reason(content: str) -> str | None:
    """Why stored ``content`` is withheld from models: a secret kind, or ``IMITATION_KIND``; else ``None``."""
    if imitates_checkpoint(content):
        return IMITATION_KIND
    from ..screening.credentials import find_secret

    return find_secret(content)


def duplicate_key(content: str) -> str:
    """The form two contents share exactly when they say the same thing: case-folded (``casefold``, so
    ``Straße`` meets ``STRASSE``), white space collapsed; words are not inflection-folded."""
    from ..retrieval.lexer import fold_for_duplicate

    return fold_for_duplicate(content)


# -- probation and capacity ------------------------------------------------------------------------


def check_changed(key: RecordKey, current: str, content: str) -> None:
    """Refuse a replacement of ``key`` whose content is its current content, byte for byte.

    A new version starts probation again with no reads, so an unchanged one would put a record
    that was read (or that a person wrote) back on the way to pruning while saying nothing new.

    Raises:
        Duplicate: naming ``key`` itself; nothing is written.
    """
    if content == current:
        raise errors.Duplicate(
            f"memory {key.id} (version {key.version}) already says exactly this; a replacement must change "
            "the content, so nothing was written",
            id=key.id,
            version=key.version,
        )


def probation_deadline(now_ms: int, limits: Limits, *, probation: bool) -> int | None:
    """When a version written at ``now_ms`` leaves probation unread: ``None`` for a person's version."""
    return now_ms + limits.probation_ms if probation else None


def prunable(rows: Iterable[Row], now_ms: int, *, keep: int | None = None) -> list[Row]:
    """The rows a put may prune, in the order it prunes them.

    A row qualifies when its current version went unread through its probation (a deadline at or
    before ``now_ms``); a read row, a person's row and ``keep`` (the record being replaced) never
    do. The oldest version goes first: by update time, then id.
    """
    expired = [
        row
        for row in rows
        if row.probation_until_ms is not None and row.probation_until_ms <= now_ms and row.id != keep
    ]
    return sorted(expired, key=lambda row: (row.updated_at_ms, row.id))


def fits_as_is(count: int, used: int, limits: Limits, *, size: int, replaced_size: int | None = None) -> bool:
    """Whether a put of ``size`` bytes fits the row and content bounds without pruning anything.

    What :func:`plan_put` would answer with an empty list (and ``at_least`` 0), from two totals
    instead of every row: a put that fits needs no row's age or probation.

    Args:
        count: Live rows.
        used: UTF-8 bytes of their content.
        limits: The bounds.
        size: UTF-8 bytes of the new content.
        replaced_size: The size of the row being replaced (it frees its bytes and adds no row),
            or ``None`` for a new record.
    """
    rows_over = count + 1 - limits.rows if replaced_size is None else 0
    return rows_over <= 0 and used + size - (replaced_size or 0) <= limits.content_bytes


def plan_put(
    rows: Sequence[Row],
    limits: Limits,
    *,
    now_ms: int,
    size: int,
    replace: int | None = None,
    at_least: int = 0,
    holder: str | None = None,
) -> list[int] | None:
    """Which rows to prune so that a put of ``size`` bytes fits the row and content bounds.

    Args:
        rows: Every live row.
        limits: The bounds.
        now_ms: The time of the put, for probation deadlines.
        size: UTF-8 bytes of the new content.
        replace: The id being replaced (its size is freed, it adds no row and is never pruned).
        at_least: Prune at least this many rows even if the bounds do not ask for it (the
            SQLite store's answer to a full file, where whether a freed row makes room for the new
            one depends on where the rows sit in their pages).
        holder: What the bounds apply to, as a refusal names it (for example ``"namespace 'alice'"``);
            ``None`` for the whole memory.

    Returns:
        The ids to prune: the shortest oldest-first prefix of :func:`prunable` that is at least
        ``at_least`` long and makes the put fit; empty when it fits as it is. ``None`` when fewer
        than ``at_least`` rows can be pruned.

    Raises:
        RecordCapacity: even pruning every prunable row leaves no free row.
        ContentCapacity: even pruning every prunable row leaves too few free bytes.
    """
    used = sum(row.size for row in rows)
    old = sum(row.size for row in rows if row.id == replace) if replace is not None else 0
    rows_over = len(rows) + 1 - limits.rows if replace is None else 0
    bytes_over = used + size - old - limits.content_bytes
    candidates = prunable(rows, now_ms, keep=replace)
    if len(candidates) < at_least:
        return None
    chosen: list[int] = []
    freed = 0
    for row in candidates:
        if len(chosen) >= max(rows_over, at_least) and freed >= bytes_over:
            break
        chosen.append(row.id)
        freed += row.size
    if len(chosen) < rows_over:
        raise errors.RecordCapacity(
            f"{holder or 'memory'} holds its maximum of {limits.rows} records and none is an expired, unread "
            "probation record; delete or replace a record first",
            limit=limits.rows,
        )
    if freed < bytes_over:
        content = "stored content" if holder is None else f"the content of {holder}"
        raise errors.ContentCapacity(
            f"this would bring {content} to {used - freed + size - old:,} bytes, over the "
            f"{limits.content_bytes:,}-byte limit; delete or shorten records first",
            limit=limits.content_bytes,
        )
    return chosen

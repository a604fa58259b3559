"""A confirmed delete: the store call and the words for how it ended.

:func:`delete_shown` runs on the browser's store thread (:mod:`.calls`), never on the thread that
draws the screen: while another process holds the database's write lock, the delete waits for it
up to the store's busy timeout, and the list must stay usable meanwhile. It changes nothing but
the one record, and only at the version the person saw; whatever happens is said in one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..backend import MemoryBackend
from ..errors import NotFound, TactMemoryError, VersionConflict
from ..records import MemoryRecord

__all__ = ["Outcome", "delete_shown"]


@dataclass(frozen=True)
class Outcome:
    """How a delete ended: whether the record is gone, and the sentence that says so."""

    deleted: bool
    message: str


def _same_record(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Whether ``a`` and ``b`` are the same version of the same record (telemetry aside)."""
    return (a.key, a.content, a.created_at_ms, a.updated_at_ms) == (b.key, b.content, b.created_at_ms, b.updated_at_ms)


def delete_shown(store: MemoryBackend, record: MemoryRecord) -> Outcome:
    """Delete ``record`` from ``store`` at the version shown, or say why it was not deleted.

    A version names a record only within one database: a file replaced meanwhile (a restore, a
    copy from elsewhere) can hold another record under the same id and version, which is kept.
    Store errors are outcomes, not exceptions; the store's own transaction makes the delete whole
    or nothing.
    """
    key = record.key
    try:
        current = store.get(key.id)
        if current is not None and current.key == key and not _same_record(current, record):
            return Outcome(
                False,
                f"Not deleted: memory {key.id} (version {key.version}) is no longer the record you saw; "
                "the database was replaced meanwhile. The list was reloaded; look again.",
            )
        store.delete(key)
    except VersionConflict as exc:
        return Outcome(
            False,
            f"Not deleted: memory {key.id} changed while you were confirming (version {key.version} "
            f"was shown, it is now version {exc.current_version}). The list was reloaded; look again.",
        )
    except NotFound:
        return Outcome(False, f"Not deleted: memory {key.id} no longer exists (removed elsewhere). The list was reloaded.")
    except TactMemoryError as exc:
        return Outcome(False, f"Not deleted: {exc.message}")
    return Outcome(
        True,
        f"Memory {key.id} removed from the database and from retrieval. Copies may remain on disk, in "
        "backups and in transcripts.",
    )

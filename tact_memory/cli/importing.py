"""Importing records by hand: one JSON object a line, the format ``tact-memory export`` writes.

Each line becomes one :meth:`MemoryStore.put <tact_memory.store.sqlite.MemoryStore.put>`, so it is checked
exactly as a model's put is: the record bound, duplicates (against the corpus and the lines imported
before it), the row, content and file bounds (with expired probation pruned first), the secret
screen. It is the person's own write, as in the browser: root rights, no scan-before-put, and no
probation (a record a person wrote is not model-authored, so it is never pruned).

Only ``content`` is taken from a line. The store owns ids, versions, times and telemetry, so those
fields of an exported record are ignored: an import adds new records, it does not restore old ones.

Lines are independent: a refused line is skipped and named by its number and error code (its
content is never repeated, so a refused secret is not printed), and the other lines are still
imported. A database that cannot be used at all stops the import with
:class:`~tact_memory.errors.StoreUnavailable`; lines already added stay added.

A dry run makes the same puts against a copy of the database in a private temporary folder (mode
0700) and deletes the copy afterwards, so its verdicts, capacity included, are the ones a real
import would get at that moment. Nothing in the real database changes. A database the real import
could not write (a folder or file without write access, a read-only file system) stops the dry
run as it would stop the import: with ``unavailable``, at the first line whose content would make
the store open the file (the lines before it, refused without opening it, are reported as the
import reports them).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import errors
from ..backend import MemoryBackend
from ..records import MemoryRecord
from ..store.sqlite import MemoryStore
from ..tool.wire import RepeatedName, loads_once

__all__ = ["LineOutcome", "import_lines"]


@dataclass(frozen=True)
class LineOutcome:
    """What became of one non-blank line."""

    line: int
    """The line number in the input, from 1."""
    record: MemoryRecord | None = None
    """The record the line was stored as (in a dry run: in the scratch copy); ``None`` if skipped."""
    code: str | None = None
    """Why the line was skipped: the error code a put would return, such as ``duplicate``."""
    message: str | None = None
    """The error's message; it never contains the line's content."""

    @property
    def added(self) -> bool:
        """Whether the line was (or, in a dry run, would be) added."""
        return self.record is not None


def _content(raw: str | bytes) -> str:
    """The ``content`` of one line, or :class:`~tact_memory.errors.InvalidArguments`."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise errors.InvalidArguments("the line is not UTF-8 text") from None
    try:
        value = loads_once(raw)
    except RepeatedName as exc:
        raise errors.InvalidArguments(f"the line names {exc.named()} twice, so which value counts is not clear") from None
    except json.JSONDecodeError as exc:
        raise errors.InvalidArguments(f"the line is not JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})") from None
    except RecursionError:
        raise errors.InvalidArguments("the line is nested too deeply to be read") from None
    except ValueError:  # the only other one: an integer with more digits than Python converts (4,300)
        raise errors.InvalidArguments("the line holds a number with too many digits to be read") from None
    if not isinstance(value, dict) or not isinstance(value.get("content"), str):
        raise errors.InvalidArguments('expected a JSON object with a "content" string, as export writes')
    return str(value["content"])


def _put_lines(
    store: MemoryBackend | None, lines: Iterable[str | bytes], *, opening: Callable[[str], MemoryBackend] | None = None
) -> Iterator[LineOutcome]:
    """Put each line's content into ``store``, or into the store ``opening`` answers: it is called
    once, with the first content that would make a store open its file (see :func:`import_lines`)."""
    line_of_id: dict[int, int] = {}  # ids added by this import, to name a duplicate by its line
    for number, raw in enumerate(lines, start=1):
        if number == 1:  # a byte order mark that an editor put before the first line is not part of it
            raw = raw.removeprefix(b"\xef\xbb\xbf") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
        if not raw.strip():
            continue
        try:
            content = _content(raw)
            if opening is not None:
                store, opening = opening(content), None
            assert store is not None
            record = store.put(content, probation=False).memory
        except errors.StoreUnavailable:
            raise
        except errors.Duplicate as exc:
            earlier = line_of_id.get(exc.id)
            message = exc.message if earlier is None else f"line {earlier} of this input says the same"
            yield LineOutcome(number, code=exc.code, message=message)
        except errors.TactMemoryError as exc:
            yield LineOutcome(number, code=exc.code, message=exc.message)
        else:
            line_of_id[record.key.id] = number
            yield LineOutcome(number, record=record)


@contextmanager
def _scratch_copy(store: MemoryStore) -> Iterator[MemoryStore]:
    """A store over a consistent copy of ``store``'s database, deleted on exit."""
    store.list_records(order="id")  # refuses a foreign, newer or corrupt file, untouched
    with tempfile.TemporaryDirectory(prefix="tact-memory-dry-run-") as folder:
        copy = Path(folder) / "memory" / "v1.sqlite3"
        if store.path.exists():
            copy.parent.mkdir(mode=0o700)
            source = sqlite3.connect(f"{store.path.as_uri()}?mode=ro", uri=True)
            target = sqlite3.connect(copy)
            try:
                source.backup(target)
            except sqlite3.Error as exc:
                raise errors.StoreUnavailable(
                    f"memory database {store.path}: cannot be copied for a dry run ({exc})",
                    path=str(store.path),
                    reason="sqlite_error",
                ) from exc
            finally:
                target.close()
                source.close()
        scratch = MemoryStore(copy, limits=store.limits)
        try:
            yield scratch
        finally:
            scratch.close()


def import_lines(store: MemoryBackend, lines: Iterable[str | bytes], *, dry_run: bool = False) -> Iterator[LineOutcome]:
    """Put the ``content`` of each line, and say what became of it, line by line.

    Args:
        store: The store to add to.
        lines: JSON lines as ``export`` writes them (text, or bytes that must be UTF-8); blank
            lines are skipped silently.
        dry_run: Check every line against a copy of the database and leave the database alone.

    Raises:
        StoreUnavailable: the database cannot be used (nothing more is imported).
    """
    if not dry_run:
        yield from _put_lines(store, lines)
        return
    if not isinstance(store, MemoryStore):
        raise errors.InvalidArguments("--dry-run checks against a copy of the local database; a team store has none")
    real = store
    with ExitStack() as copies:

        def opening(content: str) -> MemoryBackend:
            # Where the real import would open the file: at the first line whose content passes
            # the checks a put makes before that. A file it could not write fails the dry run
            # there, and only then is the file read (a read may need to write beside it too).
            real.validate_content(content)
            real.check_writable()
            return copies.enter_context(_scratch_copy(real))

        yield from _put_lines(None, lines, opening=opening)

"""Splitting a stream of JSON values that may span lines, for ``tact-memory tool`` on stdin.

A value is handed on as soon as the line that completes it arrives, so a program that writes one
call and waits for its result is answered at once. Values may be pretty-printed over several lines,
or several may share a line. Nothing is decoded here beyond finding where each value ends: each
value is handed on as its own text, and the tool decides whether it is a valid call.

Text that cannot be (the start of) a JSON value is handed on as one piece, so the tool answers it
with ``invalid_arguments`` and the stream goes on. The piece ends with the line the error is on,
or just before it when an unfinished value is followed by a line that starts something new (so a
call that lost its closing brace costs only itself). A line that is not UTF-8 is handed on as bytes,
with any unfinished value before it, and an unfinished value at the end of the stream is handed on
as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

__all__ = ["split_values"]

_DECODER = json.JSONDecoder()


def _bad_piece_end(text: str, pos: int) -> int:
    """Where the unusable piece of ``text`` that has an error at ``pos`` ends (always > 0)."""
    line_start = text.rfind("\n", 0, pos) + 1
    if line_start > 0 and not text[line_start:pos].strip():
        return line_start  # an unfinished value, then a line that starts afresh: keep that line
    line_end = text.find("\n", pos)
    return len(text) if line_end < 0 else line_end + 1


def split_values(lines: Iterable[bytes]) -> Iterator[str | bytes]:
    """The JSON values in ``lines`` (raw lines, newline included), each as its own text.

    Args:
        lines: The stream, line by line, as a binary file iterates.

    Yields:
        The text of each complete value; an unusable piece as text (or as bytes if not UTF-8).
    """
    pending = ""
    for raw in lines:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield (pending.strip().encode("utf-8") + b"\n" + raw.strip()).strip()
            pending = ""
            continue
        pending += line
        while pending.strip():
            text = pending.lstrip()
            try:
                _, end = _DECODER.raw_decode(text)
            except json.JSONDecodeError as exc:
                if exc.pos >= len(text.rstrip()):
                    pending = text  # the value goes on past this line: wait for the next one
                    break
                end = _bad_piece_end(text, exc.pos)
            yield text[:end].strip()
            pending = text[end:]
        else:
            pending = ""
    if pending.strip():
        yield pending.strip()

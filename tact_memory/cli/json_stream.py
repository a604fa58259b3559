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
as it is. A value the decoder cannot take although it is well formed (nested a thousand deep, or a
number of thousands of digits) is handed on whole too, and the tool refuses it like any other.

The work is linear in the input. Where a value ends, and whether a line holds an error, is
decided by Python's own decoder (it is the reference), but it is asked only when it has something
to decide: once for a line that holds no unfinished value, and then, while a value spans lines,
only when a line completes it or holds an error. Until then each new line is read once by
:class:`_Scanner`, which follows JSON's grammar (what the decoder accepts, ``NaN`` and
``Infinity`` included) from where the line before left off. Asking the decoder on every line
instead, as this module once did, read a value of *n* lines *n* times over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterable, Iterator

__all__ = ["split_values"]

_DECODER = json.JSONDecoder()

_BLANK = re.compile(r"\s*")
"""White space as ``str.strip`` removes it (the same set for a ``str`` pattern): what may come
before a value, or end an unfinished one."""

_SPACE = re.compile(r"[ \t\n\r]*")
"""White space as JSON has it, between the tokens of a value."""

_CHARS = r'[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*'
"""A string's characters: no quote, backslash or control character except in a valid escape.
(Each repetition starts with a backslash, so a string that does not end fails in linear time.)"""

_STRING = re.compile(f'"{_CHARS}"')
_STRING_START = re.compile(f'"{_CHARS}')
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity")
"""A number (the decoder's pattern) or a literal the decoder takes."""

_ITEMS = {
    "]": re.compile(rf'(?:(?:"{_CHARS}"|{_SCALAR.pattern})[ \t\n\r]*,[ \t\n\r]*)+'),
    "}": re.compile(rf'(?:"{_CHARS}"[ \t\n\r]*:[ \t\n\r]*(?:"{_CHARS}"|{_SCALAR.pattern})[ \t\n\r]*,[ \t\n\r]*)+'),
}
"""A run of flat items, each with the comma after it, read in one match instead of token by token."""


def _past(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where the match of ``pattern`` (one that may be empty) at ``pos`` ends."""
    found = pattern.match(text, pos)
    return pos if found is None else found.end()


# What the scanner expects next inside a value.
_VALUE, _FIRST_VALUE, _KEY, _FIRST_KEY, _COLON, _AFTER = range(6)


class _Scanner:
    """Reads one value's text, as it arrives, as far as its end or its first error.

    It keeps only what the grammar needs to go on (the open brackets and what may come next), so
    each line is read once. The end of each piece fed to it is taken as the end of the text, as the
    decoder would take it; a stream's lines only end between tokens, since a newline in a string is
    an error there and ends a number or a literal.
    """

    __slots__ = ("closers", "expect", "seen", "end", "error")

    def __init__(self) -> None:
        self.closers: list[str] = []  # the closing bracket of each open container, innermost last
        self.expect = _VALUE
        self.seen = 0  # characters read so far
        self.end: int | None = None  # where the value ends, once it has
        self.error: int | None = None  # where its first error is, once there is one

    def feed(self, text: str, start: int = 0) -> bool:
        """Read ``text[start:]``; whether the decoder now has something to decide.

        True once the value ended or an error was found in it, and from then on for any piece
        that is not white space (a value whose only error is in trailing white space is still
        waiting for a line that shows it is not going on).
        """
        if self.end is not None or self.error is not None:
            self.seen += len(text) - start
            return _past(_BLANK, text, start) < len(text)
        base = self.seen - start  # text index to value offset
        self.seen += len(text) - start
        closers, expect, i, n = self.closers, self.expect, start, len(text)
        while True:
            i = _past(_SPACE, text, i)
            if i == n:
                self.expect = expect
                return False
            char = text[i]
            if expect == _AFTER:
                if char == ",":
                    expect = _KEY if closers[-1] == "}" else _VALUE
                    i = _past(_ITEMS[closers[-1]], text, _past(_SPACE, text, i + 1))
                    continue
                if char == closers[-1]:
                    closers.pop()
                    i += 1
                    if not closers:
                        self.end = base + i
                        return True
                    continue
            elif expect == _COLON:
                if char == ":":
                    expect, i = _VALUE, i + 1
                    continue
            elif expect == _KEY or expect == _FIRST_KEY:
                if char == '"':
                    string = _STRING.match(text, i)
                    if string is None:
                        self.error = base + _string_error(text, i)
                        return True
                    expect, i = _COLON, string.end()
                    continue
                if char == "}" and expect == _FIRST_KEY:
                    expect = _AFTER  # closed by the branch above on the next round
                    continue
            else:  # a value
                if char == "]" and expect == _FIRST_VALUE:
                    expect = _AFTER
                    continue
                if char == "[" or char == "{":
                    closers.append("]" if char == "[" else "}")
                    expect, i = (_FIRST_VALUE if char == "[" else _FIRST_KEY), i + 1
                    run = _ITEMS[closers[-1]].match(text, _past(_SPACE, text, i))
                    if run is not None:
                        expect, i = (_VALUE if char == "[" else _KEY), run.end()
                    continue
                if char == '"':
                    token = _STRING.match(text, i)
                    if token is None:
                        self.error = base + _string_error(text, i)
                        return True
                else:
                    token = _SCALAR.match(text, i)
                if token is not None:
                    expect, i = _AFTER, token.end()
                    if not closers:
                        self.end = base + i
                        return True
                    continue
            self.error = base + i
            return True


def _string_error(text: str, start: int) -> int:
    """Where the decoder finds the string starting at ``start`` broken (it does not end, or holds a
    control character or a bad escape)."""
    stop = _past(_STRING_START, text, start)
    return start if stop == len(text) else stop  # it does not end: the decoder names its start


def _bad_piece_end(text: str, start: int, pos: int) -> int:
    """Where the unusable piece of ``text`` from ``start`` with an error at ``pos`` ends (always > ``start``)."""
    newline = text.rfind("\n", start, pos)
    if newline >= 0 and not text[newline + 1 : pos].strip():
        return newline + 1  # an unfinished value, then a line that starts afresh: keep that line
    line_end = text.find("\n", pos)
    return len(text) if line_end < 0 else line_end + 1


def _settle(text: str, scanner: _Scanner | None) -> Generator[str, None, tuple[str, _Scanner | None]]:
    """Hand on every value and unusable piece of ``text``; return what is left unfinished, and the
    scanner that has read it.

    Args:
        text: An unfinished value (or nothing) and the line that came after it.
        scanner: The scanner that has read all of ``text``, when it starts with a value already
            being read; ``None`` for a fresh line.
    """
    pos = 0
    while True:
        pos = _past(_BLANK, text, pos)
        if pos == len(text):
            return "", None
        error: int | None = None
        try:
            end = _DECODER.raw_decode(text, pos)[1]
        except json.JSONDecodeError as exc:
            error = exc.pos
        except (RecursionError, ValueError):
            # Nested too deeply for the decoder, or a number with more digits than int() takes:
            # the scanner tells where the value ends, or where it goes wrong.
            if scanner is None:
                scanner = _Scanner()
                scanner.feed(text, pos)
            if scanner.end is not None:
                end = pos + scanner.end
            elif scanner.error is not None:
                error = pos + scanner.error
            else:
                return text[pos:], scanner
        if error is not None:
            if _past(_BLANK, text, error) == len(text):
                # The value goes on past this line (or nothing but white space follows its error):
                # wait for the next one.
                if scanner is None:
                    scanner = _Scanner()
                    scanner.feed(text, pos)
                return text[pos:], scanner
            end = _bad_piece_end(text, pos, error)
        yield text[pos:end].strip()
        pos, scanner = end, None


def split_values(lines: Iterable[bytes]) -> Iterator[str | bytes]:
    """The JSON values in ``lines`` (raw lines, newline included), each as its own text.

    Args:
        lines: The stream, line by line, as a binary file iterates.

    Yields:
        The text of each complete value; an unusable piece as text (or as bytes if not UTF-8).
    """
    pending: list[str] = []  # the unfinished value, line by line
    scanner: _Scanner | None = None  # what has read it
    for number, raw in enumerate(lines):
        if number == 0:  # a byte order mark before the stream (a file saved by notepad) is not JSON
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield ("".join(pending).strip().encode("utf-8") + b"\n" + raw.strip()).strip()
            pending, scanner = [], None
            continue
        if scanner is not None and not scanner.feed(line):
            pending.append(line)
            continue
        rest, scanner = yield from _settle("".join(pending) + line, scanner)
        pending = [rest] if rest else []
    tail = "".join(pending).strip()
    if tail:
        yield tail

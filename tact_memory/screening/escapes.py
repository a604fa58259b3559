"""What a note reads as with its string literals' escapes written out: ``\\n`` as a line break.

A note keeps configuration, code or a file as a program printed it inside a string: a JSON field
(``{"values": "db:\\n  password: |\\n    …"}``), Python's ``repr`` of a file's text, a log line that
escaped a message, a note the model wrote as JSON. A rule that wants a line's start, a quoted
value's quotes or the line under a label finds an escape there instead: what spans lines (a YAML
block scalar, a label and the value under it, a table, a PuTTY key file) sits on one line, and a
quoted value is quoted with ``\\"``. So when the content holds nothing in the readings before,
:func:`unescaped` gives it with each string literal that escapes a line break or its own quote
written out on lines of its own (its quotes gone, as a program that reads the string sees it;
literals joined by commas alone, a notebook cell's lines, as one text), and the screen reads that
once more, as written, as rendered and without its margin.

Only a note that escapes a line break, a quote or a code point (as JSON writes every character
outside ASCII) is read so: code that prints a line with ``"\\n"`` pays one more screen, a note
with no backslash nothing. The escapes are those JSON, Python, JavaScript and C share (``\\n``,
``\\r``, ``\\t``, quotes, a backslash, ``\\/``, a code point in hex); a string escaped twice is
written out once.
"""

from __future__ import annotations

import functools
import re

__all__ = ["unescaped"]


_WRITTEN_OUT = {"n": "\n", "r": "", "t": "\t", '"': '"', "'": "'", "\\": "\\", "/": "/"}
"""What each escape stands for. A carriage return is left out, as the screen reads ``\\r\\n`` as
``\\n``."""


@functools.cache
def _escape() -> re.Pattern[str]:
    """A backslash and the character it escapes, one of :data:`_WRITTEN_OUT`'s, or a code point
    in hex (``\\u00a0``, ``\\xa0``); an escaped backslash is one escape, so ``\\\\n`` is a
    backslash and an ``n``."""
    return re.compile(r"\\(?:([nrt\"'\\/])|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))")


@functools.cache
def _literal() -> re.Pattern[str]:
    """A string literal on one line, in double or single quotes: its text (``\\1`` or ``\\2``);
    else a run of text with no quote (an escaped one is no quote), or one character. Read as a
    run of such pieces, a quote that opens nothing is tried once, not once per escape after it."""
    return re.compile(r'(?:[^"\'\\\n]|\\.)+|"((?:[^"\\\n]|\\.)*)"' r"|'((?:[^'\\\n]|\\.)*)'|[\s\S]")


def _written_out(escape: re.Match[str]) -> str:
    """What one escape stands for; a surrogate's half (``\\ud83d``) stands for itself, as the
    screen reads a lone surrogate from parsed JSON. A control character in hex (a terminal's
    ``\\x1b``, ``\\u0000``) stays escaped, as code writes it: it is no part of a value."""
    if escape[1] is not None:
        return _WRITTEN_OUT[escape[1]]
    character = chr(int(escape[2] or escape[3], 16))
    control = (character.isascii() and not character.isprintable()) or "\x80" <= character <= "\x9f"
    return escape[0] if control else character


def _written_literal(literal: re.Match[str]) -> tuple[str, bool]:
    """A literal's text with its escapes written out, and whether it goes on lines of its own: it
    does where it escapes a line break or its own quote (it holds lines, or text that quotes);
    else it stays in its quotes, which may make what it holds a value (``'\\x1b[0mPASS'`` is a
    terminal's colour, not a password). A piece that is no literal, or a literal with no escape,
    is left as it is."""
    text = literal[1] if literal[1] is not None else literal[2]
    if text is None or "\\" not in text:
        return literal[0], False
    shown = _escape().sub(_written_out, text)
    quote = literal[0][0]
    if "\\n" in text or "\\" + quote in text:
        return shown, True
    return quote + shown + quote, False


def _lines_written_out(text: str) -> str:
    """``text`` with each string literal that holds a line break or its own quote written out on
    lines of its own. Literals joined by commas, spaces or ``+`` alone (a notebook's lines, each a
    string in a list; a string split over several) are written out as one text, as what reads
    them joins them."""
    pieces: list[str] = []
    joined = 0  # where the pieces since the last literal written out on lines of its own start
    for piece in _literal().finditer(text):
        shown, own_lines = _written_literal(piece)
        if not own_lines:
            pieces.append(shown)
            continue
        if joined and not "".join(pieces[joined:]).strip(" \t\n,+"):
            del pieces[joined:]  # only what joins two literals since the last one
        else:
            while pieces and pieces[-1].strip(" \t") == "":
                del pieces[-1]  # the spaces before it on its line: its lines keep their own indentation
            if pieces and not pieces[-1].endswith("\n"):
                pieces.append("\n")
            _at_the_margin(pieces)
        pieces.append(shown)
        joined = len(pieces)
        if not shown.endswith("\n"):
            pieces.append("\n")
    return "".join(pieces)


def _at_the_margin(pieces: list[str]) -> None:
    """The last line with text in ``pieces`` without its indentation: the code around a literal
    (a notebook's ``   "source": [``) is no text its lines nest under, so a block the literal
    indents as code reads as one (see :mod:`.margins`)."""
    text = "".join(pieces)
    end = len(text.rstrip())
    start = text.rfind("\n", 0, end) + 1
    pieces[:] = [text[:start], text[start:].lstrip(" \t")]


def unescaped(text: str) -> str | None:
    """``text`` with each string literal that holds an escape written out
    (:func:`_lines_written_out`), or, where no whole literal holds one, every escape written out;
    ``None`` when it escapes no line break, no quote and no code point, or reads the same."""
    if not any(escape in text for escape in ("\\n", '\\"', "\\'", "\\u", "\\x")):
        return None
    shown = _lines_written_out(text)
    if shown == text:
        shown = _escape().sub(_written_out, text)
    if shown == text:
        return None
    # A character outside the Basic Multilingual Plane is escaped as its two surrogates
    # (\\udb40\\udc20): joined again, as a JSON parser joins them; a lone half stays.
    return shown.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")

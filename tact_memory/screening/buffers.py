"""Comparisons and cuts on the screen's byte buffer, made in place.

The screen encodes content once into a :class:`bytearray` that it overwrites with zeros when it is
done (see :mod:`.credentials`). Everything here reads that buffer through positions, memoryviews and
single bytes, never through slices: a slice would be a copy the screen could not zero.
"""

from __future__ import annotations

import binascii
import functools
import re

from .comment_marks import WORDS, mark_pattern

__all__ = [
    "LINKING",
    "NAME_CHARS",
    "TRAILING",
    "cut_by_escaped_quote",
    "cut_by_other_quote",
    "distinct",
    "digits_only",
    "escaped_newline",
    "is_linking",
    "is_word",
    "opening_quote",
    "same_bytes",
    "quoted_with_colon",
    "same_name",
    "spells_name",
    "string_prefix",
    "trimmed",
    "trimmed_line",
    "unwrapped",
]

TRAILING = b",;.:)]}>"  # trimmed from a value so "set password=abc123xyz." leaves out the full stop
NAME_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"


def same_name(buffer: bytearray, start: int, end: int, first: int, last: int) -> bool:
    """Whether the name ``buffer[start:end]`` and the value ``buffer[first:last]`` end in one
    identifier, each without what comes before its last dot (``self.``, ``request.url.``) or its
    leading underscores."""
    start, first = _bare_name(buffer, start, end), _bare_name(buffer, first, last)
    if end - start != last - first or end == start:
        return False
    with memoryview(buffer) as view:  # compared in place: a slice of the buffer would be a copy
        return view[start:end] == view[first:last]


def quoted_with_colon(buffer: bytearray, start: int, colon: int) -> bool:
    """Whether the name that starts at ``start`` is quoted together with its colon at ``colon``, as
    prose names a label or a header (``the lines starting with "passwd:"``, ``the "Authorization:"
    header``): the quote right before the name closes right after the colon, so what follows is
    the sentence, not a value."""
    return 0 < start and colon + 1 < len(buffer) and buffer[start - 1] in b"\"'`" and buffer[colon + 1] == buffer[start - 1]


_WORD_JOINTS = b"_-."


def spells_name(buffer: bytearray, start: int, end: int, first: int, last: int) -> bool:
    """Whether the value ``buffer[first:last]`` spells the name ``buffer[start:end]`` again, or its
    first words, in any case and with any of ``_``, ``-`` and ``.`` between words: how a document
    writes a value it does not show (``CLIENT_SECRET=client-secret``, ``DB_PASSWORD="db-password"``,
    ``--client-secret-value="client-secret"``). Compared byte by byte in place, and only three
    letters or more: ``db`` under ``DB_PASSWORD`` is a value."""
    i, j, letters = start, first, 0
    while True:
        while i < end and buffer[i] in _WORD_JOINTS:
            i += 1
        while j < last and buffer[j] in _WORD_JOINTS:
            j += 1
        if j >= last:
            return letters >= 3 and (i >= end or buffer[i - 1] in _WORD_JOINTS)
        if i >= end or (buffer[i] | 0x20) != (buffer[j] | 0x20) or not chr(buffer[j]).isalnum():
            return False
        i, j, letters = i + 1, j + 1, letters + 1


def _bare_name(buffer: bytearray, start: int, end: int) -> int:
    start = buffer.rfind(b".", start, end) + 1 or start  # the last attribute of a path
    while start < end and buffer[start] == ord("_"):
        start += 1
    return start


def opening_quote(buffer: bytearray, start: int) -> int:
    """The quote that opens the value at ``start`` (a byte value), or 0 when it is not quoted."""
    return buffer[start - 1] if start and buffer[start - 1] in b"\"'`" else 0


def string_prefix(buffer: bytearray, quote: int) -> frozenset[int]:
    """The string prefix (``f``, ``r``, ``rb``, ``fr``..., C#'s ``@`` and ``$``, C's ``L``) before the
    quote at ``quote``, letters lower-cased; none when the letters before it end a longer name. C#'s
    ``$``, which interpolates as Python's ``f`` does, is read as ``f``."""
    at = quote
    while at > max(0, quote - 2) and buffer[at - 1] in b"bBrRuUfFL@$":
        at -= 1
    if at == quote or (at and buffer[at - 1] in NAME_CHARS):
        return frozenset()
    return frozenset(_PREFIX_READ[buffer[i]] for i in range(at, quote))


_PREFIX_READ = bytes.maketrans(b"BRUFL$", b"bruflf")
"""A string prefix's bytes as :func:`string_prefix` reads them."""


def cut_by_other_quote(buffer: bytearray, end: int, quote: int) -> bool:
    """Whether the quoted value that ends at ``end`` stops at a quote other than its own (escaped
    or not): a string inside it starts there, as in ``'os.environ["DB_PASSWORD"]'``."""
    while end < len(buffer) and buffer[end] == ord("\\"):
        end += 1
    return end < len(buffer) and buffer[end] in b"\"'`" and buffer[end] != quote


def cut_by_escaped_quote(buffer: bytearray, start: int, end: int, quote: int) -> bool:
    """Whether the quoted value ``buffer[start:end]``, opened by an unescaped ``quote``, stops at
    an escaped one: a string inside it starts there, as in ``"{{ required \\"db.password\\" ... }}"``."""
    escaped_open = start >= 2 and buffer[start - 2] == ord("\\")
    return not escaped_open and end + 1 < len(buffer) and buffer[end] == ord("\\") and buffer[end + 1] == quote


def trimmed(buffer: bytearray, start: int, end: int) -> int:
    """Where the value ``buffer[start:end]`` ends without the punctuation that closes its clause
    (``set password=abc123xyz.``, ``{password: hunter2}``), or the Markdown emphasis that closes
    a run opened earlier on its line (``**To set the endpoint token version**``)."""
    while end > start and buffer[end - 1] in TRAILING:
        end -= 1
    mark = buffer[end - 1] if end > start else 0
    if mark in _MARKS:
        run = _run(buffer, end - 1, -1, start)
        if buffer[start] != mark and _opening(mark, run).search(buffer, buffer.rfind(b"\n", 0, start) + 1, start) is not None:
            end -= run
            while end > start and buffer[end - 1] in TRAILING:
                end -= 1
    return end


def reclosed(buffer: bytearray, start: int, end: int) -> int:
    """Where ``buffer[start:end]`` ends with the closing brackets after it that close brackets
    it opened: what :func:`trimmed` took off a value that is a whole template or call
    (``${DB_PASSWORD}``, ``$(pass show db)``), and nothing of a value that opened none."""
    while end < len(buffer) and (close := buffer[end]) in _CLOSING:
        opener = _CLOSING[close]
        if buffer.count(opener, start, end) <= buffer.count(close, start, end):
            break
        end += 1
    return end


_CLOSING = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}


def unwrapped(buffer: bytearray, start: int, end: int) -> tuple[int, int]:
    """The value ``buffer[start:end]`` without the Markdown emphasis around it (``**hunter2**``,
    ``~~expired~~``): the same run of ``*``, ``_`` or ``~`` at both ends around text that neither
    starts nor ends with a space; as it is otherwise."""
    if end - start < 3 or buffer[start] not in _MARKS or buffer[end - 1] != buffer[start]:
        return start, end
    run = _run(buffer, start, 1, end)
    if run != _run(buffer, end - 1, -1, start) or end - start <= 2 * run:
        return start, end
    if buffer[start + run] in b" \t" or buffer[end - run - 1] in b" \t":
        return start, end
    return start + run, end - run


def _run(buffer: bytearray, first: int, step: int, bound: int) -> int:
    """How many times the byte at ``first`` repeats from there, forwards (``step`` 1, before
    ``bound``) or backwards (``step`` -1, not before ``bound``), up to three."""
    run = 1
    while run < 3:
        at = first + step * run
        if (at >= bound if step == 1 else at < bound) or buffer[at] != buffer[first]:
            break
        run += 1
    return run


_MARKS = b"*_~"


@functools.cache
def _opening(mark: int, run: int) -> re.Pattern[bytes]:
    """A run of ``run`` of ``mark`` that opens Markdown emphasis (``**``, ``_``, ``~~``...): not
    after a letter, a digit or the same mark (``STRIPE_SECRET`` opens nothing), and before text."""
    esc = re.escape(bytes((mark,)))
    return re.compile(rb"(?<![A-Za-z0-9%s])%s(?=[^\s%s])" % (esc, esc * run, esc))


def same_bytes(buffer: bytearray, one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether two spans of ``buffer`` hold the same bytes, compared in place (a slice would be a copy)."""
    if one[1] - one[0] != other[1] - other[0]:
        return False
    with memoryview(buffer) as view:
        return view[one[0] : one[1]] == view[other[0] : other[1]]


def trimmed_line(buffer: bytearray, start: int, end: int) -> int:
    """Where ``buffer[start:end]`` ends without trailing spaces, tabs and carriage returns."""
    while end > start and buffer[end - 1] in b" \t\r":
        end -= 1
    return end


def distinct(buffer: bytes | bytearray, start: int, end: int) -> int:
    # A memoryview slice reads the bytes in place; a bytearray slice would copy them.
    with memoryview(buffer) as view:
        return len(set(view[start:end]))


LINKING = (
    b"is", b"was", b"are", b"were", b"be", b"becomes", b"became", b"to", b"as", b"remains", b"stays", b"equals", b"holds",
    b"ends up being", b"ended up being", b"turns out to be", b"turned out to be", b"happens to be", b"happened to be",
    b"ist", b"lautet", b"est", b"sont", b"es", "\u00e9".encode(), "\u00e8".encode(), "\u00e4r".encode(), b"er",
    b"jest", b"je",
)  # fmt: skip
"""Verbs and prepositions that may stand between a credential's name and its quoted value (and phrases
that say the same: ends up being, turned out to be, happens to be); the last are "is" in German (and
its "reads", lautet), French (and "are", sont), Spanish, Portuguese, Italian, Swedish, Norwegian and
Danish, Polish and Czech, whose words for a password the names know (das Passwort ist ..., la
password è ...). Finnish "on" is not among them: English prose has it everywhere, and each would run
the sentence check."""


def is_word(buffer: bytearray, start: int, end: int, word: bytes) -> bool:
    """Whether ``buffer[start:end]`` is ``word`` (given in lower case) in any case, compared in place."""
    if end - start != len(word):
        return False
    with memoryview(buffer) as view:
        return all((byte | 0x20 if 0x41 <= byte <= 0x5A else byte) == letter for byte, letter in zip(view[start:end], word))


def digits_only(buffer: bytearray, start: int, end: int) -> bool:
    """Whether ``buffer[start:end]`` is one or more ASCII digits, read in place."""
    with memoryview(buffer) as view:
        return end > start and all(0x30 <= byte <= 0x39 for byte in view[start:end])


def is_linking(buffer: bytearray, start: int, end: int) -> bool:
    # Compared in place: a slice of the buffer would be a copy the screen does not zero.
    return any(end - start == len(word) and buffer.startswith(word, start) for word in LINKING)


_COMMENT_WORDS = tuple(form for word in WORDS for form in (b"@" + word.lower().encode(), word.lower().encode()))


def comment_word(buffer: bytearray, at: int) -> int:
    """Where a comment's word (:data:`.comment_marks.WORDS`: a batch file's ``REM`` or ``@REM``, in
    any case) that ends at ``at`` starts, or ``at`` when none does."""
    for word in _COMMENT_WORDS:
        start = at - len(word)
        if start >= 0 and bytes(buffer[start:at]).lower() == word:
            return start
    return at


def margin_end(buffer: bytearray, line: int, pos: int) -> int:
    """Where the marks that start the line at ``line`` end, reading no further than ``pos``: its
    indentation, comments' and quotes' marks, a list item's marker or a numbered item's ``1.``."""
    marks = _line_marks().match(buffer, line, pos)  # it matches empty at worst
    return line if marks is None else marks.end()


def wrapped_line_end(buffer: bytearray, pos: int) -> int | None:
    """Where the quote or backtick that closes the line around ``pos`` stands, when one opens that
    line (after its indentation, a list item's marker, a quote's ``>`` or a comment's mark) and
    closes it (before its line break), and none comes between."""
    line = margin_end(buffer, buffer.rfind(b"\n", 0, pos) + 1, pos)
    if line >= pos or buffer[line] not in b"\"'`":
        return None
    end = buffer.find(b"\n", pos)
    end = len(buffer) if end < 0 else end
    while end > pos and buffer[end - 1] in b" \t\r":
        end -= 1
    close = end - 1
    if close <= pos or buffer[close] != buffer[line] or buffer.find(buffer[line], line + 1, close) >= 0:
        return None
    return close


@functools.cache
def _line_marks() -> re.Pattern[bytes]:
    """What may stand at a line's start before its text: spaces, comments' and quotes' marks
    (:mod:`.comment_marks`, a diff's or a list's ``+`` and ``-`` too) and a numbered item's ``1.``."""
    mark = mark_pattern(extra=("+", "-")).encode()
    return re.compile(rb"(?:[ \t]*(?:" + mark + rb"|[0-9]{1,3}[.)](?=[ \t])))*[ \t]*")


def ascending_run(buffer: bytearray, first: int, last: int, length: int) -> bool:
    """Whether ``buffer[first:last]`` holds ``length`` letters or digits in a row, each the one
    after the one before it (``abcdefgh``, ``01234567``): an alphabet written out, which nothing
    generated holds. Read in place, with no copy."""
    run = 1
    for at in range(first + 1, last):
        run = run + 1 if buffer[at] == buffer[at - 1] + 1 and chr(buffer[at]).isalnum() else 1
        if run >= length:
            return True
    return False


def base64_decoded(buffer: bytearray, first: int, last: int) -> bytes | None:
    """``buffer[first:last]`` read back from base64, its padding left out or not; ``None`` when it
    is no base64 (one byte longer than whole groups, or other characters)."""
    if (last - first) % 4 == 1:
        return None
    try:
        return binascii.a2b_base64(bytes(buffer[first:last]) + b"=" * (-(last - first) % 4))
    except binascii.Error:
        return None


def escaped_newline(buffer: bytearray, pos: int) -> bool:
    # Compared byte by byte: a slice of the buffer would be a copy the screen does not zero.
    return 0 <= pos < len(buffer) - 1 and buffer[pos] == ord("\\") and buffer[pos + 1] in b"nr"

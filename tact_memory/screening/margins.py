"""What a note reads as without the margin its lines share: a comment's marks, or indentation.

A note keeps configuration, code or a table that someone commented out or indented: ``# password:
|`` over ``#   …``, ``// | User | Password |``, ``-- INSERT INTO users …``, a YAML file pasted four
spaces in, a table as a list item's text. Each line then starts with what stands where the
screen's rules look for a line's start, a field's indentation, a table's first pipe or a label's
line. A rule whose name and value share one line finds them after a margin as it does without one;
what spans lines (a YAML block scalar, a label and the value under it, a table, a Kubernetes
Secret's data) it does not. So when the content holds nothing as written or as rendered,
:func:`unmargined` gives it without the marks of every run of two or more lines that start with the
same mark, and with the indentation that an indented block's lines share read as one space; the
screen reads that once more. A listing of a file numbered line by line (``cat -n``'s tab, the
arrow a coding agent's file reader puts after each number, a colon, a bar) loses its numbers first,
and a unified diff's hunk the sign before each line (so a line it removes reads as one it keeps).

A run's lines keep the spaces before their mark, and lose the mark and one space after it, which
is how editors comment a block out and back in: ``  # password: |`` over ``  #   …`` reads as
``  password: |`` over ``    …``. The marks are those of the languages notes quote: ``#`` (shell,
Python, YAML, TOML), ``//`` (C's family, JavaScript, Go, Rust), ``--`` (SQL, Lua, Haskell), ``;``
(INI, Lisp, assembly), ``%`` (TeX, Erlang, MATLAB), ``!`` (Fortran, X resources), ``*`` (the lines
inside a ``/* … */`` block), ``///`` (doc comments), ``REM`` and ``::`` (batch files), ``'``
(Visual Basic, and R's documentation after ``#``), ``"`` (Vim script), ``:`` (after ``#``, the
comments Sphinx documents attributes with), a block quote's ``>`` (:mod:`.markup` reads a quote as
rendered too, but the rules that read a note as written only see it here) and a diff's ``+`` and
``-`` (lines it adds or removes, with no hunk header). Where a line of the run has no space after
its mark, the mark alone goes, so the lines keep their indentation (``+db:`` over ``+  password:
|``); a run of ``- `` with a space on every line is a list's items and stays. One marked line alone
is left as it is: the rules read it as written already.

An indented block is a run of lines indented as a Markdown code block is (a tab, or four spaces),
or a list item's text with the lines under it that go on with it. Its indentation reads as one
space, not none: a Markdown heading or fence may have up to three before it, and a statement in a
function's body stays indented (``    token = nextchar`` is code, where ``token = nextchar`` alone
reads as a note's value). A block under a line that is itself indented is left, since there the
indentation nests (a YAML block scalar's value under its key).
"""

from __future__ import annotations

import functools
import itertools
import re

from .comment_marks import mark_pattern

__all__ = ["unmargined"]


_MARK = mark_pattern(extra=("+", "-"))
"""A line comment's or a quote's mark (:mod:`.comment_marks`), or a diff's sign. A word and the
marks that start a line of text as often (``REM``, ``'``, ``"``, ``:``) count only with a space
after them."""

_NUMBER_END = r"(?:\t|\u2192|: ?|[ \t]\|[ \t]?)"
"""What ends a listing's line number: ``cat -n``'s tab, an arrow, a colon or a bar (and a space)."""


@functools.cache
def _run() -> re.Pattern[str]:
    """The first two lines of a run: the same mark at the start of both, after spaces (searched
    for after a line break, in the text after one: a literal first byte is found fast)."""
    return re.compile(r"\n[ \t]*(%s)[^\n]*\n[ \t]*\1" % _MARK)


@functools.cache
def _marked() -> re.Pattern[str]:
    """A line's spaces (``\\1``), its mark (``\\2``) and one space after it (``\\3``)."""
    return re.compile(r"([ \t]*)(%s)([ ]?)" % _MARK)


@functools.cache
def _dash() -> re.Pattern[str]:
    """A line's spaces and one ``-``, in :func:`_marked`'s groups (no space after it)."""
    return re.compile(r"([ \t]*)(-)()")


@functools.cache
def _numbered_run() -> re.Pattern[str]:
    """The first two lines of a listing numbered line by line (``cat -n``'s tab, an editor's or an
    agent's arrow, a colon, a bar): a number and its separator at the start of both."""
    number = r"[ \t]*\d{1,6}" + _NUMBER_END
    return re.compile(r"\n%s[^\n]*\n%s" % (number, number))


@functools.cache
def _listed_line() -> re.Pattern[str]:
    """A line numbered as only a listing numbers one, so that one line alone reads as a listing's:
    a number and an arrow (a coding agent's file reader), or ``cat -n``'s right-aligned number and
    tab (a number at the line's start and a tab is as often a table's first column)."""
    return re.compile(r"\n(?:[ \t]*\d{1,6}\u2192| +\d{1,6}\t)")


@functools.cache
def _line_number() -> re.Pattern[str]:
    """A listing's line number (``\\1``) with the spaces before it and its separator after it."""
    return re.compile(r"[ \t]*(\d{1,6})" + _NUMBER_END)


def unmargined(text: str) -> str | None:
    """``text`` without a listing's line numbers, a diff hunk's signs and the marks of each run
    of two or more lines that start with the same mark, and with the indentation each indented
    block's lines share read as one space, or ``None`` when it has none of them."""
    listed = ("\u2192" in text or "\t" in text) and _listed_line().search("\n" + text) is not None
    if "\n" not in text and not listed:
        return None  # one line: the rules read it as written
    shown = text
    if listed or _numbered_run().search("\n" + shown) is not None:
        shown = _unnumbered(shown)
    if "\n@@ -" in shown or shown.startswith("@@ -"):
        shown = _unhunked(shown)
    for _ in range(MAX_NESTED):  # a quote in a quote (> > ), a block commented out twice (# # )
        if _run().search("\n" + shown) is None or (bare := _unmarked(shown)) == shown:
            break
        shown = bare
    if _indented().search("\n" + shown) is not None:
        shown = _dedented(shown)
    return None if shown == text else shown


MAX_NESTED = 4
"""How many marks deep a run is read (each pass removes one mark from each line of a run)."""


@functools.cache
def _indented() -> re.Pattern[str]:
    """A line indented by two spaces or a tab: one of a code block's, or a list item's next."""
    return re.compile(r"\n(?: {2}| ?\t)")


@functools.cache
def _item() -> re.Pattern[str]:
    """A list item's marker (``- ``, ``* ``, ``+ ``, ``1. ``, ``2) ``) and the spaces after it,
    before its text: where its text and the lines that go on with it start."""
    return re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+(?=\S)")


def _dedented(text: str) -> str:
    """``text`` with the indentation each indented block's lines share read as one space. A block
    is a run of lines indented as a code block is (a tab, or four spaces), blank lines among them,
    or a list item with the lines indented under its text that go on with it, its marker read as
    spaces (``- | Service | Password |`` over ``  |---|---|``). One item's line alone is left, and
    so is a block under a line that is indented itself: there the indentation nests (a YAML
    block scalar's value under its key), and one space would take the block out of it."""
    lines = text.split("\n")
    shown: list[str] = []
    outer = True  # whether the last line with text is at the margin or a fence (or there is none)
    at = 0
    while at < len(lines):
        line = lines[at]
        item = _item().match(line) if outer or line[:1] not in (" ", "\t") else None
        end = at + 1
        if item is not None:
            while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) >= item.end()):
                end += 1
            while end > at + 1 and not lines[end - 1].strip():
                end -= 1  # the blank lines after an item are no part of it
            if end > at + 1:
                shown.extend(_one_space([" " * item.end() + line[item.end() :], *lines[at + 1 : end]]))
                at = end
                outer = False
                continue
        elif outer and _indent(line) >= 4 and line.strip():
            while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) >= 4):
                end += 1
            shown.extend(_one_space(lines[at:end]))
            at = end
            outer = False
            continue
        shown.append(line)
        if line.strip():
            outer = _indent(line) == 0 or line.lstrip().startswith(("```", "~~~"))  # a fence opens literal text
        at += 1
    return "\n".join(shown)


def _indent(line: str) -> int:
    """How far ``line`` is indented, a tab counting as four spaces (as Markdown reads one)."""
    spaces = len(line) - len(line.lstrip(" "))
    return spaces + (4 if line[spaces : spaces + 1] == "\t" else 0)


def _one_space(block: list[str]) -> list[str]:
    """The lines of ``block`` with the indentation they share read as one space."""
    import textwrap

    joined = "\n".join(block)
    dedented = textwrap.dedent(joined)
    return block if dedented == joined else textwrap.indent(dedented, " ").split("\n")


def _unmarked(text: str) -> str:
    """``text`` without the marks of each run of two or more lines that start with the same mark,
    and the space after it where every line of the run with text after its mark has one. A run of
    ``-`` with a space after each is a list's items, not lines a diff removes (``-db:``), and stays."""
    marked = _marked()
    lines = ((line, marked.match(line)) for line in text.split("\n"))
    shown: list[str] = []
    for mark, group in itertools.groupby(lines, key=_run_mark):
        run = list(group)
        spaced = all(found[3] or found.end() == len(line) for line, found in run if found)
        if mark == "-":
            if spaced:
                mark = ""  # a list's items
            else:  # lines a diff removes, a single "-" before each ("------BEGIN" too)
                run = [(line, _dash().match(line)) for line, _ in run]
        if mark and len(run) > 1:
            shown.extend(found[1] + line[found.end() if spaced else found.end(2) :] for line, found in run if found)
        else:
            shown.extend(line for line, _ in run)
    return "\n".join(shown)


def _run_mark(line: tuple[str, re.Match[str] | None]) -> str | None:
    """The mark a line's run is one of: its own, but ``-`` for three dashes or more (``--`` then
    a dash is no SQL comment, but a diff's ``-`` before a line of dashes: ``------BEGIN …``)."""
    text, found = line
    if found is None:
        return None
    if found[2] == "--" and text[found.end(2) : found.end(2) + 1] == "-":
        return "-"
    return found[2]


def _unnumbered(text: str) -> str:
    """``text`` without the line numbers of each run of two or more lines numbered one after
    another (``     7\\tdb:`` over ``     8\\t  password: |``), as a listing of a file shows them,
    and of a line alone numbered as only a listing numbers one (:func:`_listed_line`)."""
    number, listed = _line_number(), _listed_line()
    lines = text.split("\n")
    found = [number.match(line) for line in lines]
    shown: list[str] = []
    at = 0
    while at < len(lines):
        end = at + 1
        first = found[at]
        if first is not None:
            while end < len(lines) and (other := found[end]) is not None and int(other[1]) == int(first[1]) + end - at:
                end += 1
        if end - at > 1 or (first is not None and listed.match("\n" + lines[at])):
            shown.extend(line[match.end() :] for line, match in zip(lines[at:end], found[at:end]) if match)
        else:
            shown.append(lines[at])
        at = end
    return "\n".join(shown)


@functools.cache
def _hunk() -> re.Pattern[str]:
    """A unified diff's hunk header (``@@ -12,7 +12,8 @@``)."""
    return re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")


def _unhunked(text: str) -> str:
    """``text`` with the first column of each unified diff hunk's lines removed: the ``+``, ``-``
    or space before what the hunk adds, removes or keeps, so the lines of both sides read as the
    file's (a replaced value reads twice, the old and the new)."""
    lines = text.split("\n")
    hunk = _hunk()
    inside = False
    for number, line in enumerate(lines):
        if hunk.match(line):
            inside = True
        elif inside and line[:1] in ("+", "-", " ", "\\"):
            lines[number] = line[1:]
        elif line:
            inside = False
    return "\n".join(lines)

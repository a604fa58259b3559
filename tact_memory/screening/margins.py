"""What a note reads as without the margin its lines share: indentation, or a comment's marks.

A note keeps configuration, code or a table that someone indented or commented out: a YAML file
pasted four spaces in, ``# password: |`` over ``#   …``, ``// | User | Password |``, ``-- INSERT
INTO users …``. Each line then starts with what stands where the screen's rules look for a line's
start, a field's indentation, a table's first pipe or a label's line. A rule whose name and value
share one line finds them after a margin as it does without one; what spans lines (a YAML block
scalar, a label and the value under it, a table, a Kubernetes Secret's data) it does not. So when
the content holds nothing as written or as rendered, :func:`unmargined` gives it with the
indentation of a code block that all its lines share (a tab, or four spaces or more) read as one
space, and without the marks of every run of two or more lines that start with the same mark, and
the screen reads that once more. One space, as a Markdown heading or fence may have up to three
before it and as a statement in a function's body stays indented (``    token = nextchar`` is code
where ``token = nextchar`` alone reads as a note's value); fewer spaces than four change no verdict
and are left.

A run's lines keep the spaces before their mark, and lose the mark and one space after it, which
is how editors comment a block out and back in: ``  # password: |`` over ``  #   …`` reads as
``  password: |`` over ``    …``. The marks are those of the languages notes quote: ``#`` (shell,
Python, YAML, TOML), ``//`` (C's family, JavaScript, Go, Rust), ``--`` (SQL, Lua, Haskell), ``;``
(INI, Lisp, assembly), ``%`` (TeX, Erlang, MATLAB), ``!`` (Fortran, X resources), ``*`` (the lines
inside a ``/* … */`` block) and a block quote's ``>`` (:mod:`.markup` reads a quote as rendered
too, but the rules that read a note as written only see it here). One marked line alone is left as
it is: the rules read it as written already.
"""

from __future__ import annotations

import functools
import itertools
import re

__all__ = ["unmargined"]


_MARK = r"(?:#|//|--|;|%|!|\*|>)"


@functools.cache
def _run() -> re.Pattern[str]:
    """The first two lines of a run: the same mark at the start of both, after spaces."""
    return re.compile(r"(?m)^[ \t]*(%s)[^\n]*\n[ \t]*\1" % _MARK)


@functools.cache
def _marked() -> re.Pattern[str]:
    """A line's spaces (``\\1``), its mark (``\\2``) and one space after it."""
    return re.compile(r"([ \t]*)(%s)[ ]?" % _MARK)


def unmargined(text: str) -> str | None:
    """``text`` without the marks of each run of two or more lines that start with the same mark,
    and with each indented block's shared indentation read as one space, or ``None`` when it has
    neither."""
    shown = text
    for _ in range(MAX_NESTED):  # a quote in a quote (> > ), a block commented out twice (# # )
        if _run().search(shown) is None:
            break
        shown = _unmarked(shown)
    if _indented().search(shown) is not None:
        shown = _dedented(shown)
    return None if shown == text else shown


MAX_NESTED = 4
"""How many marks deep a run is read (each pass removes one mark from each line of a run)."""


@functools.cache
def _indented() -> re.Pattern[str]:
    """A line indented as a code block (a tab, or four spaces) at the text's start or after a
    blank line or a fence's, where a Markdown code block may start."""
    return re.compile(r"(?:\A|\n[ \t]*(?:(?:```|~~~)[^\n]*)?\n)(?:\t| {1,3}\t| {4})[ \t]*\S")


def _dedented(text: str) -> str:
    """``text`` with the indentation each indented block's lines share read as one space: a block
    starts at a line indented as :func:`_indented` finds one and goes on over indented and blank
    lines."""
    import textwrap

    lines = text.split("\n")
    shown: list[str] = []
    at = 0
    while at < len(lines):
        end = at + 1
        if (at == 0 or _opens_block(lines[at - 1])) and _code_indent(lines[at]):
            while end < len(lines) and (not lines[end].strip() or _code_indent(lines[end])):
                end += 1
            block = "\n".join(lines[at:end])
            dedented = textwrap.dedent(block)
            shown.extend((block if dedented == block else textwrap.indent(dedented, " ")).split("\n"))
        else:
            shown.append(lines[at])
        at = end
    return "\n".join(shown)


def _opens_block(line: str) -> bool:
    """Whether an indented block may start after ``line``: a blank line, or a fence's."""
    return not line.strip() or line.lstrip().startswith(("```", "~~~"))


def _code_indent(line: str) -> bool:
    """Whether ``line`` has text after the indentation of a code block (a tab, or four spaces)."""
    spaces = len(line) - len(line.lstrip(" "))
    return bool(line.strip()) and (spaces >= 4 or line[spaces : spaces + 1] == "\t")


def _unmarked(text: str) -> str:
    """``text`` without the marks of each run of two or more lines that start with the same mark."""
    marked = _marked()
    lines = ((line, marked.match(line)) for line in text.split("\n"))
    shown: list[str] = []
    for mark, group in itertools.groupby(lines, key=lambda line: line[1] and line[1][2]):
        run = list(group)
        if mark and len(run) > 1:
            shown.extend(found[1] + line[found.end() :] for line, found in run if found)
        else:
            shown.extend(line for line, _ in run)
    return "\n".join(shown)

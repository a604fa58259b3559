"""The marks a line comment or a quote puts before a line's text, in one place.

Five readings look for them: the margin a run of lines shares (:mod:`.margins`), the start of a
line before a statement or a field (:data:`.assignments.LINE_MARKS`), a private key's armour line
on a line of its own (:meth:`.places.PlaceChecks.armour_alone`), the break between a key's armour
line and its body (the key rules in :mod:`.rules`) and a line that a quote opens and closes
(:func:`.buffers.wrapped_line_end`). Each builds what it needs from the tuples here, so a mark that
one of them knows, the others know too; a mark added here reaches all five.
"""

from __future__ import annotations

import re

__all__ = ["MARK_BYTES", "SPACED", "SYMBOLS", "WORDS", "mark_pattern"]

SYMBOLS = ("///", "//", "--", "#", ";", "%", "!", "*", ">")
"""Marks that count wherever they start a line: ``#`` (shell, Python, YAML, TOML), ``//`` (C's
family, JavaScript, Go, Rust), ``///`` (doc comments), ``--`` (SQL, Lua, Haskell), ``;`` (INI,
Lisp, assembly), ``%`` (TeX, Erlang, MATLAB), ``!`` (Fortran, X resources), ``*`` (the lines inside
a ``/* … */`` block) and a block quote's ``>``. Longer marks come before the marks they start with."""

SPACED = ("::", "'", '"', ":")
"""Marks that start a line of text as often as a comment, so they count only with a space or the
line's end after them: a batch file's ``::``, Visual Basic's ``'`` (and R's documentation after
``#``), Vim script's ``"``, and ``:`` (after ``#``, the comments Sphinx documents attributes with)."""

WORDS = ("REM",)
"""A comment's word, in any case and with a batch file's ``@`` before it, that counts as
:data:`SPACED` marks do."""

MARK_BYTES = bytes(sorted({ord(c) for mark in SYMBOLS + SPACED for c in mark}))
"""Every byte a mark of :data:`SYMBOLS` or :data:`SPACED` is made of, for a walk back over marks to
a line's start."""


def mark_pattern(*, extra: tuple[str, ...] = ()) -> str:
    """A regular expression's source for one mark: any of :data:`SYMBOLS`, any of ``extra`` (each
    taken as written), or any of :data:`SPACED` and :data:`WORDS` followed by a space, a line break
    or the end (not consumed)."""
    symbols = "|".join(re.escape(mark) for mark in SYMBOLS + extra)
    spaced = "|".join([*(r"@?(?i:%s)" % re.escape(word.lower()) for word in WORDS), *(re.escape(mark) for mark in SPACED)])
    return r"(?:%s|(?:%s)(?=[ \n]|\Z))" % (symbols, spaced)

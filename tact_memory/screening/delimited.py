"""A table written as delimited text (CSV, TSV, values joined by ``;``, a Markdown table with or
without its delimiter row) read as its cells under their headings: ``username,password`` over
``admin,…`` reads as ``username: admin; password: …``.

A note keeps test accounts or an exported list as such a table as often as a Markdown one, and the
name of each value stands on the header line, far from the value, where no rule looks for it. A
header is a line of two fields or more, each a short name (at most three words of letters, digits
and ``_ . / -``; no brackets, operators or quotes inside), one of them a credential's word, that
stands first in the text or under a blank line, a label or a code fence's opening; each line under it with as many fields is a row, up to the first that has another count. Fields are
split as :mod:`csv` splits them, so a quoted field may hold the delimiter. A sentence or a line of
code rarely has the header's shape in that place (``yield before, orig_token`` among other lines
of code), and a row that follows one is judged cell by cell, as after a label, so ``SELECT user,
password FROM t`` over ``ORDER BY a, b`` holds nothing.
"""

from __future__ import annotations

import functools
import re

__all__ = ["MAX_ROWS", "delimited_rows", "table_cells", "table_delimiter"]

MAX_ROWS = 64
"""How many rows under one header are read as its cells; a longer table's later rows are read as
written."""

_DELIMITERS = (",", "\t", ";", "|")
"""The delimiters a header is split at, the first one it holds deciding. ``|`` is a Markdown
table's, whose rows may open and close with one and whose delimiter row (``|---|---|``) a note may
leave out; a header of it that does not open with one has headings of one word each, as a shell's
pipeline of commands with their arguments has not."""


@functools.cache
def _credential_word() -> re.Pattern[str]:
    """A credential's word in a heading (``password``, ``Passwd``, ``api_key``, ``token``)."""
    return re.compile(r"(?i)pass|pwd|secret|token|key|credential|\bpin\b")


@functools.cache
def _heading() -> re.Pattern[str]:
    """One field of a header: a name of at most three words, optionally quoted as a whole."""
    word = r"[A-Za-z0-9_./-]+"
    return re.compile(r"[ \t]*(\"?)[A-Za-z_]%s?(?: %s){0,2}\1[ \t]*" % (r"[A-Za-z0-9_./-]*", word))


def delimited_rows(text: str) -> str:
    """``text`` with each row of a delimited table written as ``heading: cell; ...`` under the
    header above it (see the module's docstring); ``text`` itself when it has no such table."""
    if _credential_word().search(text) is None:
        return text  # no heading could name a credential: the common case costs one search
    lines = text.split("\n")
    shown = list(lines)
    number = 0
    while number < len(lines) - 1:
        header = _header(lines[number]) if _opens_table(lines, number) else None
        if header is None:
            number += 1
            continue
        delimiter, headings = header
        if delimiter == "|" and number + 1 < len(lines) and table_delimiter().fullmatch(lines[number + 1]):
            number += 1  # a Markdown table with its delimiter row, read as one (:mod:`.markup`)
            continue
        row = number + 1
        while row < len(lines) and row - number <= MAX_ROWS:
            cells = _fields(lines[row], delimiter)
            if cells is None or len(cells) != len(headings):
                break
            pairs = [f"{heading}: {cell}" for heading, cell in zip(headings, cells) if heading and cell]
            if pairs:
                shown[row] = "; ".join(pairs)
            row += 1
        number = row if row > number + 1 else number + 1
    return "\n".join(shown)


def _opens_table(lines: list[str], number: int) -> bool:
    """Whether line ``number`` stands where a table's header does: first in the text, or under a
    blank line, a label (``users.csv:``) or a code fence's opening. A line of code among others
    (``yield before, orig_token``) stands in none of those places."""
    if number == 0:
        return True
    above = lines[number - 1].strip()
    return not above or above.endswith(":") or above.startswith(("```", "~~~"))


def _header(line: str) -> tuple[str, list[str]] | None:
    """The delimiter and the headings of ``line`` when it is a header that names a credential."""
    for delimiter in _DELIMITERS:
        if delimiter not in line:
            continue
        fields = _fields(line, delimiter)
        if fields is None or len(fields) < 2:
            return None
        if not all(_heading().fullmatch(field) for field in fields):
            return None
        headings = [field.strip().strip('"') for field in fields]
        if not any(_credential_word().search(heading) for heading in headings):
            return None
        if delimiter == "|" and not line.lstrip().startswith("|") and any(" " in heading for heading in headings):
            return None  # a pipeline's commands (cat a | grep password | wc), not a table's headings
        return delimiter, headings
    return None


def _fields(line: str, delimiter: str) -> list[str] | None:
    """The fields of ``line`` split at ``delimiter`` as CSV splits them (at ``|`` as a Markdown
    table's cells, :func:`table_cells`), each stripped of the spaces around it; ``None`` for a line
    without the delimiter or one CSV cannot read."""
    if delimiter not in line:
        return None
    if delimiter == "|":  # a Markdown table's row, split as Markdown splits it
        return table_cells(line)
    import csv

    try:
        fields = next(csv.reader([line], delimiter=delimiter, skipinitialspace=True))
    except csv.Error:
        return None
    return [field.strip() for field in fields]


def table_cells(row: str) -> list[str]:
    """The cells of a Markdown table's row, without the ``|`` that may open and close it
    (``| a | b |`` and ``a | b`` alike; ``\\|`` is no border)."""
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip() for cell in _border().split(row)]


@functools.cache
def table_delimiter() -> re.Pattern[str]:
    """The delimiter row under a Markdown table's headings: ``|---|:--:|``."""
    return re.compile(r"[ \t]*\|(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?[ \t]*")


@functools.cache
def _border() -> re.Pattern[str]:
    """A border between two cells: ``|`` not escaped."""
    return re.compile(r"(?<!\\)\|")

"""What a note written in Markdown shows its reader once rendered: ``**Password:** …`` reads as
``Password: …``.

Models and people write notes in Markdown, and its emphasis sits where the screen's rules look for a
credential's name and its separator (``**Password:** …``, ``- **API token**: …``, ``_Password:_
…``), as its tables stand between a name and its value (``| Password | … |``, or a value under a
``Password`` heading), as a heading does over the lines that give what it names (``## Password``),
and as HTML's tags do (``<b>Password:</b> …``, ``<td>Password</td><td>…``), its line breaks
(``<br>``, a table cell's lines), its blocks (``<pre><code>…``) and its character references
(``&quot;``, ``&#39;``).
The screen reads content as written first; when that finds nothing,
:func:`rendered` gives the content as it reads rendered, which the screen reads once more.

An emphasis pair is removed as CommonMark pairs one, on one line: a run of ``*`` or ``_`` (one to
three) or ``~~`` that opens before text not starting with a space and closes after text not ending
with one, the opening run not after a letter, digit or marker and the closing one not before them.
So a ``_`` inside a name (``DB_PASSWORD``), a glob (``*.py``), a product (``a * b``) and Python's
``*args, **kwargs`` are left as they are, and so is a run next to a quote: ``'__root__'`` is a
string in code. The copy is a ``str`` like the content's own, which Python
cannot overwrite (see :mod:`.credentials`).
"""

from __future__ import annotations

import functools
import re

from .delimited import delimited_rows, table_cells, table_delimiter

__all__ = ["MAX_EMPHASIS", "rendered"]


MAX_EMPHASIS = 128
"""The longest text one emphasis pair holds here (a label or a value is short); bounding it keeps a
line of openers that never close from costing a search to the line's end for each."""


@functools.cache
def _emphasis() -> re.Pattern[str]:
    """An emphasis pair on one line, its text (``\\2``) between the opening run (``\\1``) and the
    same run closing it; compiled when first needed, as the screen's rules are."""
    return re.compile(r"(?<![\w*~\"'`])(\*{1,3}|_{1,3}|~~)(?=[^\s*_~])([^\n]{0,%d}?[^\s*_~\\])\1(?![\w*~\"'`])" % (MAX_EMPHASIS - 1))


def rendered(text: str) -> str | None:
    """``text`` as its reader sees it rendered, or ``None`` when that reads as it is written: HTML's
    inline tags removed and the cells of its tables and definition lists read as a name and its
    value (``<b>Password:</b> …``, ``<td>Password</td><td>…</td>``), every emphasis pair's
    markers removed, then each row of a table read as its cells under their headings
    (:func:`_table_rows`; a delimited one's too, and a Markdown table's without its delimiter
    row, :func:`.delimited.delimited_rows`), and each heading as a label (``## Password``, a line
    all in bold, an underlined line: each as ``Password:``), then HTML's line breaks as line breaks and its
    character references as the characters they stand for. The tags around an HTML block (a
    paragraph, preformatted text) read as line breaks, first. A block quote is read as the text it
    quotes, first (:func:`_quote_marks`), so a quoted table, heading or label and the value below
    it read as they do unquoted."""
    plain = text
    if ">" in plain:
        plain = _quote_marks().sub("", plain)
    if "<" in plain and ">" in plain:
        plain = _labelled_code().sub(r"\1\3", _inline_tags().sub("", _html_cells().sub(": ", _block_tags().sub("\n", plain))))
    if "*" in plain or "_" in plain or "~" in plain:
        plain = _emphasis().sub(r"\2", _bold_line().sub(r"\2:", plain))
    if "," in plain or "\t" in plain or ";" in plain or "|" in plain:
        plain = delimited_rows(plain)  # a Markdown table without its delimiter row too
    if "|" in plain:
        plain = _table_rows(plain)
    if "#" in plain:
        plain = _heading().sub(r"\1:", plain)
    if "\n-" in plain or "\n=" in plain:
        plain = _underlined().sub(r"\1:", plain)
    if "<" in plain:  # after the tables: a break in a cell (| Staging | user: app<br>password: … |)
        plain = _line_break().sub("\n", plain)
    if "&" in plain:
        plain = _entity().sub(_character, plain)
    return None if plain == text else plain


@functools.cache
def _line_break() -> re.Pattern[str]:
    """HTML's line break (``<br>``, ``<br/>``, ``<br />``), which Markdown's tables hold for one."""
    return re.compile(r"<br[ \t]*/?>", re.IGNORECASE)


@functools.cache
def _block_tags() -> re.Pattern[str]:
    """The tags around an HTML block, which starts its own line: a paragraph, a division,
    preformatted text with the code element in it (``<pre><code>…</code></pre>``)."""
    attributes = r"(?:\s[^<>\n]{0,200})?"
    return re.compile(
        r"<(?:p|div)%s>|</(?:p|div)>|<pre%s>(?:<code%s>)?|(?:</code>)?</pre>" % (attributes, attributes, attributes), re.IGNORECASE
    )


@functools.cache
def _entity() -> re.Pattern[str]:
    """A character reference that ends with its ``;`` (``&quot;``, ``&#39;``, ``&#x27;``); one
    without (``&para=1`` in a URL's query) is left as written."""
    return re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _character(reference: re.Match[str]) -> str:
    """The character a reference stands for, as a browser shows it (:func:`html.unescape`)."""
    import html

    return html.unescape(reference[0])


@functools.cache
def _quote_marks() -> re.Pattern[str]:
    """The marks of a Markdown block quote at a line's start (``> ``, nested ``> > ``), removed."""
    return re.compile(r"(?m)^[ ]{0,3}(?:>[ ]?)+")


@functools.cache
def _heading() -> re.Pattern[str]:
    """A Markdown heading (``## Password``, closing ``#`` optional) that ends with no colon of its
    own: read as a label, since what it names is what the lines under it give."""
    return re.compile(r"(?m)^[ ]{0,3}#{1,6}[ \t]+([^\n#:]{1,80}?)[ \t]*(?:[ \t]#+)?[ \t]*$")


@functools.cache
def _bold_line() -> re.Pattern[str]:
    """A line that is all one strong emphasis (``**Staging DB password**``), which notes write as a
    heading: read as a label, as :func:`_heading` is."""
    return re.compile(r"(?m)^[ ]{0,3}(\*\*|__)([^\n*_:]{1,80}?)\1[ \t]*$")


@functools.cache
def _underlined() -> re.Pattern[str]:
    """A heading underlined with ``=`` or ``-`` (``Password`` over ``--------``), the underline
    dropped: read as a label, as :func:`_heading` is."""
    return re.compile(r"(?m)^[ ]{0,3}([^\s#:|<>=-][^\n#:|<>]{0,79}?)[ \t]*\n[ ]{0,3}(?:=+|-+)[ \t]*$")


@functools.cache
def _inline_tags() -> re.Pattern[str]:
    """An HTML tag that changes how text looks, not what it is (``<b>``, ``</strong>``, ``<span
    class="x">``). Code (``<code>``, ``<kbd>``...) stays: what it holds is a name or an example,
    and its closing tag ends a value (see :meth:`~.value_checks.ValueChecks.value_at`)."""
    names = "b|strong|i|em|u|s|mark|span|font|small|big|del|ins"
    return re.compile(r"</?(?:%s)(?:\s[^<>\n]{0,200})?>" % names, re.IGNORECASE)


@functools.cache
def _labelled_code() -> re.Pattern[str]:
    """A code element that is all of a label's value (``API key: <code>…</code>``), read without its
    tags, as a value after a colon is read; one after a word (``with the token <code>token1</code>``,
    from an API's docs) keeps them: it names an example."""
    return re.compile(r"(:[ \t]*)<(code|kbd|samp|tt)(?:\s[^<>\n]{0,200})?>([^<>\n]{1,256})</\2>", re.IGNORECASE)


@functools.cache
def _html_cells() -> re.Pattern[str]:
    """The boundary between two cells of an HTML table row, or a term and its description: read
    as a colon (``Password</td><td>…`` as ``Password: …``)."""
    return re.compile(r"[ \t]*</(?:td|th|dt)>[ \t]*(?:\r?\n[ \t]*)?<(?:td|th|dd)(?:\s[^<>\n]{0,200})?>[ \t]*", re.IGNORECASE)


def _table_rows(text: str) -> str:
    """``text`` with each row of a Markdown table written as ``heading: cell; ...``, and a row of
    two cells also as ``first: second`` (``| Password | … |`` reads as ``Password: …``).

    A row starts with ``|`` and has two cells or more; its headings are the cells of the row above
    the table's delimiter row (``|---|:--:|``), when the counts agree.
    """
    lines = text.split("\n")
    shown = list(lines)
    headings: list[str] | None = None
    above: list[str] | None = None  # the cells of the line before, if it is a row
    for number, line in enumerate(lines):
        cells = _cells(line)
        if cells is None:
            headings = None
        elif table_delimiter().fullmatch(line):
            headings = above if above is not None and len(above) == len(cells) else None
        else:
            pairs = [f"{h}: {c}" for h, c in zip(headings, cells) if h and c] if headings and len(headings) == len(cells) else []
            if len(cells) == 2 and all(cells):
                pairs.append(f"{cells[0]}: {cells[1]}")
            if pairs:
                shown[number] = "; ".join(pairs)
        above = cells
    return "\n".join(shown)


def _cells(line: str) -> list[str] | None:
    """The cells of a table row (``| a | b |``, the last ``|`` optional; ``\\|`` is no border), or
    ``None`` for a line that is not one or has fewer than two."""
    if not line.lstrip().startswith("|"):
        return None
    cells = table_cells(line)
    return cells if len(cells) >= 2 else None

"""The section a bare ``key`` is written in, which says what the key opens.

Configuration often names a credential in two parts: the section says what it is for and the
entry under it is only ``key`` (ASP.NET's ``"Jwt": { "Key": "..." }``, YAML's ``jwt:`` then
``  key: ...``, TOML's ``[jwt]`` then ``key = "..."``). :func:`section_before` finds that section's
name for an entry, in the four ways such files name one:

- a JSON or JavaScript object: the nearest ``{`` before the entry that no ``}`` closes, and the
  name before its colon (quoted or bare);
- YAML's indentation: the nearest line above indented less than the entry's, when it is a name
  and a colon with nothing after them;
- a TOML or INI table: the nearest header above (``[jwt]``, ``[app.jwt]``, ``[[jwt]]``: its last
  part), when the entry starts its line;
- a .NET configuration path, whose parts a colon joins in one name (``"Jwt:Key"``,
  ``Jwt:Key=...``, ``Configuration["Jwt:Key"]``): the part before the entry.

Each looks back at most :data:`MAX_SECTION` bytes and reads bytes only, so it compiles nothing.
A section whose name ends in a word for settings (``JwtSettings``, ``jwt_options``) is named by
the word before it. :func:`configuration_path` tells a setting's path in quotes (``"Smtp:Password"``),
whose last part is judged as a name, from an ARN's or a URL's parts.
"""

from __future__ import annotations

from .buffers import is_word

__all__ = ["MAX_SECTION", "configuration_path", "section_before"]

MAX_SECTION = 512
"""How far before an entry its section's name is looked for."""

_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SPACE = frozenset(b" \t")
_SETTINGS = (b"settings", b"options", b"config", b"configuration", b"opts", b"section")
_PART = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_PART_FIRST = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_BEFORE_PATH = frozenset(b"\"'[ \t\n=")
MAX_PARTS = 8
"""How many parts before an entry a configuration path may have."""


def section_before(buffer: bytearray, start: int) -> tuple[int, int] | None:
    """Where the name of the section that holds the entry starting at ``start`` is (without a
    trailing word for settings), or ``None`` when no section is found near it."""
    part = _path_part(buffer, start)
    if part is not None:
        return _without_settings(buffer, *part)
    floor = max(0, start - MAX_SECTION)
    line = buffer.rfind(b"\n", floor, start) + 1
    opening = start - 1 if start and buffer[start - 1] in b"\"'" else start
    indent = _indent(buffer, line, opening)
    found = _object_name(buffer, floor, opening)
    if found is None and indent is not None:
        found = _parent_line(buffer, floor, line, indent) if indent else _table(buffer, floor, line)
    return None if found is None else _without_settings(buffer, *found)


def configuration_path(buffer: bytearray, start: int, end: int) -> bool:
    """Whether the name ``buffer[start:end]`` is the last part of a configuration path in quotes
    (``"Smtp:Password"``, ``'ConnectionStrings:Default'``): the parts before it are words joined by
    single colons, and the same quote stands before the first and after the name. An ARN or a
    URL (``arn:aws:secretsmanager:us-east-1:…:secret``, ``"https://…"``) has parts that are no words."""
    if end >= len(buffer) or buffer[end] not in b"\"'":
        return False
    found = _path_before(buffer, start)
    return found is not None and found[0] > 0 and buffer[found[0] - 1] == buffer[end]


def _path_part(buffer: bytearray, start: int) -> tuple[int, int] | None:
    """The part before the entry at ``start`` in a configuration path (``Jwt`` of ``Jwt:Key``),
    when the path is one name: its first part follows a quote, a bracket, a space, ``=`` or
    nothing."""
    found = _path_before(buffer, start)
    if found is None:
        return None
    first, part = found
    return part if not first or buffer[first - 1] in _BEFORE_PATH else None


def _path_before(buffer: bytearray, start: int) -> tuple[int, tuple[int, int]] | None:
    """Where the configuration path whose last part starts at ``start`` starts, and the part right
    before that one; ``None`` when no single colon joins a word to ``start``, a part is no word, or
    more than :data:`MAX_PARTS` parts stand before it."""
    part = last = _part_before(buffer, start)
    if last is None:
        return None
    for _ in range(MAX_PARTS):
        if part is None:
            return None
        first = part[0]
        if not first or buffer[first - 1] != ord(":"):
            return first, last
        part = _part_before(buffer, first)
    return None


def _part_before(buffer: bytearray, start: int) -> tuple[int, int] | None:
    """The word that a single colon joins to ``start`` (``Jwt`` in ``Jwt:Key``), or ``None``."""
    colon = start - 1
    if colon < 1 or buffer[colon] != ord(":") or buffer[colon - 1] == ord(":"):
        return None
    index = colon
    while index > 0 and colon - index < 64 and buffer[index - 1] in _PART:
        index -= 1
    if index == colon or buffer[index] not in _PART_FIRST or (index and buffer[index - 1] in _PART):
        return None
    return index, colon


def _indent(buffer: bytearray, line: int, at: int) -> int | None:
    """How many spaces (and a list's ``- ``) stand before the entry on its line, or ``None`` when
    something else does."""
    index = line
    while index < at and buffer[index] in _SPACE:
        index += 1
    if index + 1 < at and buffer[index] == ord("-") and buffer[index + 1] == ord(" "):
        index += 2
        while index < at and buffer[index] in _SPACE:
            index += 1
    return index - line if index == at else None


def _object_name(buffer: bytearray, floor: int, at: int) -> tuple[int, int] | None:
    """The name given to the innermost object that is open at ``at`` (``"Jwt": {``)."""
    depth = 0
    index = at
    while True:  # from brace to brace, so a long stretch without one costs two searches
        opening = buffer.rfind(b"{", floor, index)
        if opening < 0:
            return None
        closing = buffer.rfind(b"}", opening, index)
        if closing >= 0:
            depth += 1
            index = closing
        elif depth:
            depth -= 1
            index = opening
        else:
            index = opening
            break
    index = _skip_space_back(buffer, floor, index - 1)
    if index < floor or buffer[index] not in b":=":
        return None
    return _name_back(buffer, floor, _skip_space_back(buffer, floor, index - 1))


def _parent_line(buffer: bytearray, floor: int, line: int, indent: int) -> tuple[int, int] | None:
    """YAML: the name of the nearest line above ``line`` indented less than ``indent``, when it
    is ``name:`` with nothing after the colon but spaces or a comment."""
    end = line - 1
    while end > floor:
        start = buffer.rfind(b"\n", floor, end) + 1
        if start == 0 and floor:
            return None  # the line starts before the reach
        first = start
        while first < end and buffer[first] in _SPACE:
            first += 1
        if first < end and buffer[first] != ord("#"):
            if first - start >= indent:
                end = start - 1
                continue
            last = _line_end(buffer, first, end)
            if last <= first or buffer[last - 1] != ord(":"):
                return None
            return _name_back(buffer, first, last - 2)
        end = start - 1
    return None


def _table(buffer: bytearray, floor: int, line: int) -> tuple[int, int] | None:
    """TOML or INI: the last part of the nearest table header above ``line`` (``[app.jwt]``)."""
    end = line - 1
    while end > floor:
        start = buffer.rfind(b"\n", floor, end) + 1
        if start == 0 and floor:
            return None
        if buffer.startswith(b"[", start):
            last = _line_end(buffer, start, end)
            brackets = 2 if buffer.startswith(b"[[", start) else 1  # a table, or an array of tables
            name_end = last - brackets
            if name_end - start < 1 + brackets or buffer.count(b"]", name_end, last) != brackets:
                return None
            name_start = name_end
            while name_start > start + brackets and buffer[name_start - 1] in _NAME:
                name_start -= 1
            if name_start == name_end or buffer[name_start - 1] not in b"[.":
                return None
            return name_start, name_end
        end = start - 1
    return None


def _line_end(buffer: bytearray, start: int, end: int) -> int:
    """Where a line's content ends: before a comment, trailing spaces and a carriage return."""
    comment = buffer.find(b" #", start, end)
    last = end if comment < 0 else comment
    while last > start and buffer[last - 1] in b" \t\r":
        last -= 1
    return last


def _skip_space_back(buffer: bytearray, floor: int, index: int) -> int:
    while index >= floor and buffer[index] in b" \t\r\n":
        index -= 1
    return index


def _name_back(buffer: bytearray, floor: int, index: int) -> tuple[int, int] | None:
    """The name that ends at ``index`` (inclusive), without the quotes around it."""
    if index >= floor and buffer[index] in b"\"'":
        index -= 1
    end = index + 1
    while index >= floor and buffer[index] in _NAME:
        index -= 1
    start = index + 1
    return (start, end) if end - start >= 2 else None


def _without_settings(buffer: bytearray, start: int, end: int) -> tuple[int, int] | None:
    """The name without a last word that only says it holds settings (``JwtSettings`` -> ``Jwt``)."""
    for word in _SETTINGS:
        if end - start > len(word) and is_word(buffer, end - len(word), end, word):
            end -= len(word)
            if buffer[end - 1] in b"_-":
                end -= 1
            break
    return (start, end) if end - start >= 2 else None

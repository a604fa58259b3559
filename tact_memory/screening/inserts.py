"""Values an SQL ``INSERT`` gives a column named for a credential.

``INSERT INTO users (name, password) VALUES ('bob', '...')`` names the column in one list and
gives its value, by position, in another: a seed script's or a migration's account, a fixture's API
key. The check finds the column list just before ``VALUES``, marks the columns whose names are a
credential's (``password``, ``api_key``; not ``password_reset_at``), a bare ``key`` or ``value``
column in a table named for credentials (``api_keys``), or, in a settings table, the value column
of a row whose name column holds a credential's name, and reads each row that
follows, item by item, judging the literal at a marked position as a quoted value after such a
name is judged: a digit, a symbol or a case step in it. An expression there (``crypt(...)``, a
placeholder ``?`` or ``$2``, ``NULL``) is none. Rows and items are read in place, bounded in number.
"""

from __future__ import annotations

import re

from .assignments import AssignmentChecks
from .buffers import is_word
from .leads import compiled

__all__ = ["InsertChecks"]

MAX_COLUMNS = 32
"""The most columns an ``INSERT``'s list may name for its rows to be read."""

MAX_ROWS = 16
"""The most rows after ``VALUES`` that are read."""

MAX_INSERT = 768
"""How far before ``VALUES`` the ``INSERT`` whose columns it fills may start."""

_NAME = rb"[\"`\[]?[A-Za-z_][A-Za-z0-9_$]{0,63}[\"`\]]?"
INSERT_COLUMNS = (
    rb"(?<![A-Za-z0-9_])(?i:insert)[ \t\r\n]+(?:(?i:or)[ \t]+[A-Za-z]{1,16}[ \t\r\n]+|(?i:ignore)[ \t\r\n]+)?(?:(?i:into)[ \t\r\n]+)?"
    rb"(?P<table>[\"`\[]?[A-Za-z_][A-Za-z0-9_$.\"`\[\]]{0,127})[ \t\r\n]*"
    rb"\((?P<columns>[ \t\r\n]*" + _NAME + rb"(?:[ \t\r\n]*,[ \t\r\n]*" + _NAME + rb"){0,%d}[ \t\r\n]*)\)[ \t\r\n]*\Z" % (MAX_COLUMNS - 1)
)
"""An ``INSERT``'s table and column list, ending where ``VALUES`` starts: ``INSERT INTO users (name,
password)``, with ``OR REPLACE`` or ``IGNORE``, names quoted as SQLite, MySQL or SQL Server quote
them."""

_QUOTES = b"'\""
_SPACE = b" \t\r\n"


class InsertChecks(AssignmentChecks):
    """The check of the values an ``INSERT`` gives columns named for a credential."""

    insert_columns = compiled(INSERT_COLUMNS)
    column_name = compiled(rb"[A-Za-z_][A-Za-z0-9_$]{0,63}")
    setting_name_column = compiled(rb"(?i:key|name|(?:[a-z0-9]+_)+(?:key|name))")
    setting_value_column = compiled(rb"(?i:value|(?:[a-z0-9]+_)+value)")

    def credential_column(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether a column's name, or the name a settings row gives, is a credential's
        (``password``, ``smtp_password``; not ``password_reset_at``)."""
        return self.names_credential(buffer, start, end) and self.not_credential_name.fullmatch(buffer, start, end) is None

    def credential_table(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether a table's name (its last part, without quotes) is the plural of a credential's
        (``api_keys``, ``access_tokens``, ``"secrets"``; not ``keys`` or ``password_resets``)."""
        start = max(start, buffer.rfind(b".", start, end) + 1)
        while start < end and buffer[start] in b"\"`[":
            start += 1
        while end > start and buffer[end - 1] in b"\"`]":
            end -= 1
        return end - start > 1 and buffer[end - 1] in b"sS" and self.credential_column(buffer, start, end - 1)

    def inserted_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check the rows after ``VALUES (`` for a literal in a column named for a credential, or
        in a settings table's value column (``(key, value)``, WordPress's ``(option_name,
        option_value)``) of a row whose name is a credential's (``'smtp_password'``)."""
        before = match.start()
        while before > 0 and buffer[before - 1] in _SPACE:
            before -= 1
        if before == 0 or buffer[before - 1] != ord(")"):
            return False  # no column list closes just before: prose's "values (...)", an INSERT without one
        insert = self.insert_columns.search(buffer, max(0, match.start() - MAX_INSERT), match.start())
        if insert is None:
            return False
        marked: set[int] = set()
        setting_name = setting_value = -1
        columns = [column.span() for column in self.column_name.finditer(buffer, *insert.span("columns"))]
        # In a table of credentials a bare "value" column holds one, and so does "key" unless a
        # "value" column beside it makes it the name (INSERT INTO api_keys (name, key) ...).
        values = [i for i, span in enumerate(columns) if is_word(buffer, *span, b"value")]
        keys = [i for i, span in enumerate(columns) if is_word(buffer, *span, b"key")]
        if (values or keys) and self.credential_table(buffer, *insert.span("table")):
            marked.update(values or keys)
        for index, (start, end) in enumerate(columns):
            if index in marked:
                continue
            if self.credential_column(buffer, start, end):
                marked.add(index)
            elif setting_name < 0 and self.setting_name_column.fullmatch(buffer, start, end) is not None:
                setting_name = index
            elif setting_name >= 0 and setting_value < 0 and self.setting_value_column.fullmatch(buffer, start, end) is not None:
                setting_value = index
        if not marked and setting_value < 0:
            return False
        pos = match.end()  # just after the first row's "("
        for _ in range(MAX_ROWS):
            index = 0
            named = False  # the row's setting name is a credential's
            while True:
                pos = _past_space(buffer, pos)
                if pos >= len(buffer):
                    return False
                if buffer[pos] in _QUOTES:
                    close = _closing_quote(buffer, pos)
                    if close is None:
                        return False
                    if index == setting_name:
                        named = self.credential_column(buffer, pos + 1, close)
                    elif (index in marked or (named and index == setting_value)) and self.quoted_value(buffer, pos, texture=True):
                        return True
                    pos = close + 1
                else:
                    ended = _past_expression(buffer, pos)
                    if ended is None:
                        return False
                    pos = ended
                pos = _past_space(buffer, pos)
                if pos >= len(buffer):
                    return False
                if buffer[pos] == ord(","):
                    index += 1
                    pos += 1
                    continue
                if buffer[pos] != ord(")"):
                    return False
                break
            pos = _past_space(buffer, pos + 1)
            if pos >= len(buffer) or buffer[pos] != ord(","):
                return False
            pos = _past_space(buffer, pos + 1)
            if pos >= len(buffer) or buffer[pos] != ord("("):
                return False
            pos += 1
        return False


def _past_space(buffer: bytearray, pos: int) -> int:
    while pos < len(buffer) and buffer[pos] in _SPACE:
        pos += 1
    return pos


def _closing_quote(buffer: bytearray, opening: int) -> int | None:
    """Where the SQL string that opens at ``opening`` closes (a doubled quote is one inside it),
    on its line; ``None`` if it does not."""
    quote = buffer[opening]
    pos = opening + 1
    while pos < len(buffer) and buffer[pos] not in b"\r\n":
        if buffer[pos] == quote:
            if pos + 1 < len(buffer) and buffer[pos + 1] == quote:
                pos += 2
                continue
            return pos
        pos += 1
    return None


def _past_expression(buffer: bytearray, pos: int) -> int | None:
    """Where an item that is no literal ends (``NULL``, ``42``, ``now()``, ``crypt('...',
    gen_salt('bf'))``): at the ``,`` or ``)`` that closes it at its own depth, strings and brackets
    inside it passed over; ``None`` at a line's end or the content's."""
    depth = 0
    while pos < len(buffer):
        byte = buffer[pos]
        if byte in b"\r\n":
            return None
        if byte in _QUOTES:
            close = _closing_quote(buffer, pos)
            if close is None:
                return None
            pos = close + 1
            continue
        if byte == ord("("):
            depth += 1
        elif byte == ord(")"):
            if depth == 0:
                return pos
            depth -= 1
        elif byte == ord(",") and depth == 0:
            return pos
        pos += 1
    return None

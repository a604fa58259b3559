"""Passwords in a mail or file server's session, as a transcript of it shows them.

Someone who tests a server by hand (``telnet host 110``, ``openssl s_client -starttls smtp``, a
client's debug log) types the protocol's own commands, and a note keeps what was typed:

- FTP's and POP3's ``USER`` then ``PASS``: ``PASS`` starts its line, and a ``USER`` line stands
  within the :data:`MAX_USER_LINES` lines before it; anonymous FTP's password (an address, by
  convention) is none.
- IMAP's ``LOGIN``, after the command's tag (``a001 LOGIN alice …``, ``. LOGIN …``): the
  password is the command's last argument and ends its line. The tag has a digit in it, or is a
  ``.`` or ``*``, so SQL Server's ``ALTER LOGIN sa ENABLE`` is no such command.
- SMTP's ``AUTH PLAIN`` with its argument: base64 of a user and a password after a NUL each.
- SMTP's ``AUTH LOGIN``: the line after the server's ``334 UGFzc3dvcmQ6`` (``Password:`` in
  base64) is the password in base64.

A line may start with what a transcript or a client puts there: ``C: `` and ``S: `` (as RFCs
write a session), ``> `` or ``ftp> ``. The password is judged as a server's setting is: a value of
its own with a digit, a symbol or a case step in it (``PASS secret`` is kept); one read back from
base64 must be printable and have that texture too.
"""

from __future__ import annotations

import re

from .buffers import base64_decoded
from .leads import compiled
from .logins import LoginChecks

__all__ = ["MAX_USER_LINES", "TranscriptChecks"]

MAX_USER_LINES = 4
"""How many lines before ``PASS`` its ``USER`` may stand (a server's reply or two between)."""

_PREFIX = rb"[ \t]*(?:(?:[CScs]:|[a-z]{0,8}>|-+>)[ \t]*)?"
"""What a transcript or a client puts before a command on its line."""


class TranscriptChecks(LoginChecks):
    """The checks of passwords a protocol's own login commands give."""

    command_prefix = compiled(_PREFIX)
    user_command = compiled(rb"(?m:^" + _PREFIX + rb"USER[ \t]+(?P<user>[^\s]{1,64})[ \t]*\r?$)")
    anonymous = compiled(rb"(?i:anonymous|ftp)")
    address = compiled(rb"[^\s@]{0,64}@[^\s@]{0,255}")
    imap_tag = compiled(_PREFIX + rb"(?:[.*]|[A-Za-z]{0,8}[0-9]{1,8})")
    line_end = compiled(rb"[ \t]*(?:\r?\n|\Z)")
    base64_line = compiled(rb"(?P<encoded>[A-Za-z0-9+/]{4,512}={0,2})[ \t]*(?:\r?\n|\Z)")
    printable = compiled(rb"[\x21-\x7e]{1,256}")

    def _command_starts_line(self, buffer: bytearray, start: int) -> int | None:
        """Where the line of the command at ``start`` starts, when only a transcript's prefix
        stands before the command on it; else ``None``."""
        line = buffer.rfind(b"\n", 0, start) + 1
        return line if self.command_prefix.fullmatch(buffer, line, start) is not None else None

    def pass_command(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for FTP's or POP3's ``PASS`` after a ``USER`` line (see the module)."""
        line = self._command_starts_line(buffer, match.start())
        if line is None:
            return False
        window = line
        for _ in range(MAX_USER_LINES):
            if window == 0:
                break
            window = buffer.rfind(b"\n", 0, window - 1) + 1
        user = None
        for user in self.user_command.finditer(buffer, window, line):
            pass
        if user is None or self.anonymous.fullmatch(buffer, *user.span("user")) is not None:
            return False
        found = self.value_at(buffer, match.end())
        if found is None or self.address.fullmatch(buffer, found[0], found[1]) is not None:
            return False
        return self.own_value(buffer, found[0], found[1], texture=True)

    def imap_login(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for IMAP's tagged ``LOGIN`` user and password (see the module)."""
        line = buffer.rfind(b"\n", 0, match.start()) + 1
        if self.imap_tag.fullmatch(buffer, line, match.start()) is None:
            return False
        found = self.value_at(buffer, match.end())
        if found is None:
            return False
        end = found[1] + 1 if found[1] < len(buffer) and buffer[found[1]] in b"\"'" else found[1]
        if self.line_end.match(buffer, end) is None:
            return False
        return self.own_value(buffer, found[0], found[1], texture=True)

    def auth_plain(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for SMTP's ``AUTH PLAIN`` and its argument (see the module)."""
        if self._command_starts_line(buffer, match.start()) is None:
            return False
        decoded = base64_decoded(buffer, *match.span("encoded"))
        if decoded is None or decoded.count(b"\0") != 2:
            return False
        _, user, password = decoded.split(b"\0")
        return bool(user) and self._password_texture(password)

    def auth_login(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the password line after SMTP's ``334 UGFzc3dvcmQ6`` (see the module)."""
        if self._command_starts_line(buffer, match.start()) is None:
            return False
        after = self.command_prefix.match(buffer, match.end())
        encoded = self.base64_line.match(buffer, after.end() if after is not None else match.end())
        if encoded is None:
            return False
        decoded = base64_decoded(buffer, *encoded.span("encoded"))
        return decoded is not None and self._password_texture(decoded)

    def _password_texture(self, password: bytes) -> bool:
        return self.printable.fullmatch(password) is not None and self.header_texture.fullmatch(password) is not None

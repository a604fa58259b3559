"""Literals code gives a credential as its default, or marks as secret by their type.

- By keyword, in a call: python-decouple's and django-environ's ``config("SECRET_KEY",
  default="...")``, configparser's ``cfg.get("db", "password", fallback="...")``, argparse's
  ``add_argument("--api-key", default="...")``, pydantic's ``api_key: str = Field(default="...")``,
  the call written on one line or over several.
- After what a lookup gives back: a template's filter (Jinja's and Ansible's ``{{ lookup('env',
  'DB_PASSWORD') | default('...') }}``, Helm's ``{{ .Values.password | default "..." }}``), Rust's
  ``env::var("API_KEY").unwrap_or("...")`` and ``unwrap_or_else(|_| "...")``, Ruby's
  ``ENV.fetch("SECRET_KEY_BASE") { "..." }``, and a field's first argument, ``api_key: str =
  Field("...")``.
- As the fallback of a lookup of the environment: JavaScript's ``process.env.API_KEY || "..."``
  and ``?? "..."``, Python's ``os.getenv("API_KEY") or "..."``, C#'s ``??``, PHP's ``?:``.
- Wrapped in pydantic's secret types, whatever it is assigned to: ``SecretStr("...")``,
  ``SecretBytes(b"...")``.

A default counts where a word before it in its statement names a credential (the name assigned,
the key looked up, the option defined: :meth:`names_credential_before`); ``model =
config("MODEL", default="...")`` and ``add_argument("--tokenizer", default="...")`` are kept. The
literal is judged as a call's second argument is: a digit, a symbol or a case step in it, so
``default=""``, ``default="none"`` and a default that is code (``default=None``, ``default=...``,
``SecretStr(os.environ["PW"])``) are kept.
"""

from __future__ import annotations

import re

from .assignments import AssignmentChecks
from .buffers import NAME_CHARS, opening_quote, trimmed_line
from .leads import compiled
from .names import MAX_COMMAND
from .places import command_start

__all__ = ["DefaultChecks"]


MAX_LET = 96
"""How far before a block's brace RSpec's ``let(:name)`` may start."""

LOOKUP_ENDS = NAME_CHARS + b")]$"
"""The bytes a lookup of the environment may end with: its call's or subscript's bracket, or a
name's last character."""

MAX_LOOKUP = 160
"""How far before a fallback's operator the lookup of the environment it follows may start."""

ENVIRONMENT_LOOKUP = (
    rb"(?:(?<![A-Za-z0-9_$.])(?:process\.env|import\.meta\.env)(?:\.[A-Za-z_$][A-Za-z0-9_$]{0,63}|\[[ \t]*[\"'`][A-Za-z0-9_.-]{1,64}[\"'`][ \t]*\])"
    rb"|(?<![A-Za-z0-9_$])(?:os\.getenv|os\.environ\.get|Deno\.env\.get|getenv|env|System\.getenv|Environment\.GetEnvironmentVariable)"
    rb"\([ \t]*[\"'][A-Za-z0-9_.-]{1,64}[\"'][ \t]*\)"
    rb"|(?<![A-Za-z0-9_$])(?:os\.environ|ENV|\$_ENV|\$_SERVER)\[[ \t]*[\"'][A-Za-z0-9_.-]{1,64}[\"'][ \t]*\])[ \t]*\Z"
)
"""A lookup of the environment that an operator's fallback follows: Node's and Vite's
``process.env.NAME`` and ``import.meta.env.NAME``, ``os.getenv("NAME")``, ``os.environ.get("NAME")``,
Deno's, PHP's, Laravel's, Java's and .NET's calls, and the mappings ``os.environ["NAME"]``,
Ruby's ``ENV["NAME"]``, PHP's ``$_ENV["NAME"]``."""


class DefaultChecks(AssignmentChecks):
    """The checks of a credential's default given in code, and of pydantic's secret types."""

    word_in_code = compiled(rb"[A-Za-z_][A-Za-z0-9_-]*")
    let_name = compiled(rb"(?<![A-Za-z0-9_])let!?\([ \t]*:(?P<name>[A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*\)\Z")
    environment_lookup = compiled(ENVIRONMENT_LOOKUP)
    condition = compiled(rb"[ \t]*(?:if|elif|while|unless|until)(?![A-Za-z0-9_])|[^\r\n]*?(?:==|!=|<=|>=)")

    def keyword_default(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``default=`` or ``fallback=`` and a literal, inside a call whose statement
        names a credential before it."""
        opening = self.call_opening(buffer, match.start())
        if opening is None:
            return False  # a setting of a file's own (Terraform's default = "..."), not a call's argument
        return self.names_credential_before(buffer, command_start(buffer, opening), match.start()) and self.quoted_value(buffer, match.end(), texture=True)

    def default_after(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal after a template's ``| default``, a lookup's ``unwrap_or`` or
        block, or a field's opening bracket, in a statement that names a credential before it."""
        start = self.statement_start(buffer, match.start())
        return self.names_credential_before(buffer, start, match.start()) and self.quoted_value(buffer, match.end(), texture=True)

    def lookup_fallback(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal that an operator gives when a lookup of the environment finds
        nothing (``process.env.API_KEY || "..."``, ``os.getenv("API_KEY") or "..."``, C#'s
        ``??``, PHP's ``?:``), in a statement that names a credential before it."""
        end = match.start()
        while end > 0 and buffer[end - 1] in b" \t":
            end -= 1
        if end == 0 or buffer[end - 1] not in LOOKUP_ENDS:
            return False  # no lookup ends here: it ends with its call's or subscript's bracket, or a name
        start = self.statement_start(buffer, match.start())
        lookup = self.environment_lookup.search(buffer, max(start, match.start() - MAX_LOOKUP), match.start())
        if lookup is None:
            return False  # another operand: a message, a label, another variable
        if self.condition.match(buffer, start, lookup.start()) is not None:
            return False  # a condition's operand (if (key == process.env.X || "...")), not a value given
        return self.names_credential_before(buffer, start, match.start()) and self.quoted_value(buffer, match.end(), texture=True)

    def wrapped_secret(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal given to pydantic's ``SecretStr`` or ``SecretBytes``, or first to
        code that hashes or checks a password (``hash_password("...")``)."""
        return self.quoted_value(buffer, match.end(), texture=True)

    def ruby_block_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal that a Ruby block gives a credential's name: an attribute that
        starts its line (FactoryBot's ``password { "..." }``) or RSpec's ``let(:password) { "..." }``,
        with a digit, a symbol or a case step."""
        end = match.start()
        while end > 0 and buffer[end - 1] in b" \t":
            end -= 1
        if buffer[end - 1] == ord(")"):
            let = self.let_name.search(buffer, max(0, end - MAX_LET), end)
            if let is None:
                return False
            start, end = let.span("name")
        else:
            found = self.name_ending_at(buffer, end)
            if found is None:
                return False
            line = buffer.rfind(b"\n", 0, found) + 1
            if trimmed_line(buffer, line, found) > line:
                return False  # not a name alone at its line's start (a hash's or a call's block)
            start = found
        if self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        if self.credential_named(buffer, start, end):
            return self.quoted_value(buffer, match.end(), texture=True)
        # password_confirmation { "..." }: under a name that goes on, a value that looks generated
        return (
            self.holds_name_word(buffer, start, end)
            and self.suffixed_credential.fullmatch(buffer, start, end) is not None
            and self.generated_value(buffer, match.end())
        )

    def sole_secret(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal given as the only argument to code that sets a password
        (``user.set_password("...")``, ``setPassword("...")``)."""
        found = self.value_at(buffer, match.end())
        if found is None or not opening_quote(buffer, found[0]):
            return False
        after = found[1] + 1  # past the closing quote
        while after < len(buffer) and buffer[after] in b" \t":
            after += 1
        return after < len(buffer) and buffer[after] == ord(")") and self.own_value(buffer, found[0], found[1], texture=True)

    def names_credential_before(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether a word of code in ``buffer[start:end]`` names a credential: an identifier, a
        key in quotes or an option's name (``--api-key``), each judged alone."""
        if not self.word_within_reach(buffer, end, end - start):
            return False  # no credential word at all: most statements
        for word in self.word_in_code.finditer(buffer, start, end):
            first, last = word.span()
            if self.credential_named(buffer, first, last) and self.not_credential_name.fullmatch(buffer, first, last) is None:
                return True
        return False

    @staticmethod
    def statement_start(buffer: bytearray, end: int) -> int:
        """Where the statement that ``end`` is in starts: its line's start, or an earlier line's
        when the lines after it start with ``.`` (a chain of methods written one to a line), no
        more than :data:`~.names.MAX_COMMAND` bytes before ``end``."""
        bound = max(0, end - MAX_COMMAND)
        line = max(bound, buffer.rfind(b"\n", bound, end) + 1)
        while line > bound:
            indent = line
            while indent < end and buffer[indent] in b" \t":
                indent += 1
            if buffer[indent] != ord("."):
                break
            line = max(bound, buffer.rfind(b"\n", bound, line - 1) + 1)
        return line

    @staticmethod
    def call_opening(buffer: bytearray, pos: int) -> int | None:
        """Where the bracket opens the call whose arguments hold ``pos``, up to
        :data:`~.names.MAX_COMMAND` bytes before it and over lines; ``None`` when ``pos`` is in no
        call's arguments (a bracket that no name precedes opens a tuple, not a call). Quoted
        strings are passed over whole, so a bracket in one is not counted."""
        bound = max(0, pos - MAX_COMMAND)
        depth = 0
        at = pos
        while at > bound:
            at -= 1
            byte = buffer[at]
            if byte in b"\"'":
                at = buffer.rfind(buffer[at : at + 1], bound, at)
                if at < 0:
                    return None
            elif byte in b")]}":
                depth += 1
            elif byte in b"([{":
                if depth == 0:
                    return at if byte == ord("(") and at and buffer[at - 1] in NAME_CHARS else None
                depth -= 1
        return None

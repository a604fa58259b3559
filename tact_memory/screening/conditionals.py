"""Literals a conditional expression gives a credential in one of its branches.

- Python's ``x if c else "..."``: ``password = os.getenv("PW") if prod else "..."``, also as a
  keyword argument (``connect(password=os.getenv("PW") if prod else "...")``) or a dictionary's
  entry; Kotlin's ``val apiKey = if (prod) System.getenv("KEY") else "..."``.
- The ``c ? a : b`` of C, Java, JavaScript, PHP and their kin, in either branch: ``const password
  = isProd ? process.env.DB_PASSWORD : "..."``, ``apiKey = debug ? "..." : System.getenv("KEY")``,
  ``String password = prod ? System.getenv("PW") : "..."``, ``$password = $prod ? getenv("PW") :
  "..."``, an object's ``password: isProd ? ... : "..."``.

Only the name the conditional is given to counts: the one assigned, the keyword or the key right
before its condition (:data:`_TARGET`). Any other word may be a label (``label = "Password" if
shown else "..."``, ``title = shown ? "Password" : "..."``), and so may a quoted string before a
ternary's colon, which is no key there: ``shown ? "Password" : "..."`` is kept, as ``{"Password":
"..."}`` is not. The literal is judged as a call's second argument is: a digit, a symbol or a case
step in it.
"""

from __future__ import annotations

import re

from .defaults import DefaultChecks
from .leads import compiled
from .names import MAX_COMMAND

__all__ = ["ConditionalChecks"]

_TARGET = (
    rb"(?<![A-Za-z0-9_$])[\"']?\$?(?P<name>[A-Za-z_][A-Za-z0-9_]*)[\"']?[ \t]*"
    rb"(?::[ \t]*[A-Za-z_][A-Za-z0-9_.?\[\], |]{0,64}[ \t]*)?(?:=(?![=>])|:(?![:=]))[ \t]*"
)
"""The name a conditional is given to and what gives it: ``password =``, ``password=`` as a
keyword, ``"password":``, ``password:`` in an object, ``$password =``, ``api_key: str =`` (after
``String`` or ``val``, as the search goes on to the next word)."""
_OPERAND = (
    rb"(?:[\"'][^\"'\r\n]{0,128}[\"']|[0-9]+"
    rb"|[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\[[^\[\]\r\n]{0,64}\]|\([^()\r\n]{0,64}\)){0,8})"
)
"""A branch of a conditional before the part that gives the literal: a string, a number, or a
name with its attributes, elements and calls (``process.env.DB_PASSWORD``, ``os.getenv("PW")``),
none with a bracket of its own kind inside."""
_CONDITION = rb"[^\r\n;?:,{]{1,128}?"
"""A conditional's condition: ``prod``, ``env === "prod"``, ``not DEBUG``, on the statement's line,
with no ``:``, ``,`` or ``{`` that would make it span a key or an item before it (``cfg = {
password: prod ? ...`` gives the conditional to ``password``)."""


class ConditionalChecks(DefaultChecks):
    """The checks of a literal in a branch of a conditional given to a credential's name."""

    python_branch = compiled(_TARGET + _OPERAND + rb"[ \t]+if[ \t]+" + _CONDITION + rb"[ \t]+\Z")
    kotlin_branch = compiled(_TARGET + rb"if[ \t]*\(" + _CONDITION + rb"\)[ \t]*" + _OPERAND + rb"[ \t]+\Z")
    ternary = compiled(_TARGET + _CONDITION + rb"[ \t]+\Z")
    ternary_colon = compiled(rb"\?[ \t]+" + _OPERAND + rb"[ \t]+\Z")
    ternary_literal = compiled(rb"([\"'`])(?:(?!\1)[^\r\n]){1,256}\1[ \t]+:")

    def conditional_default(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the literal after ``else`` in Python's or Kotlin's conditional."""
        return self._given_to_credential(buffer, match.start(), (self.python_branch, self.kotlin_branch), match.end())

    def ternary_default(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the literal a ternary gives first, after its ``?`` and before its ``:``."""
        if self.ternary_literal.match(buffer, match.end()) is None:
            return False  # not a ternary's branch: a question in prose before a quote
        return self._given_to_credential(buffer, match.start(), (self.ternary,), match.end())

    def assignment(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """A ternary's ``:``, after its ``?`` and first branch, gives its second branch, which is
        judged as such; any other separator is an assignment's
        (:meth:`.AssignmentChecks.assignment`)."""
        colon = match.start()
        if buffer[colon] == ord(":") and match.end() == colon + 1:
            mark = buffer.rfind(b"?", max(0, colon - MAX_COMMAND), colon)
            if mark > 0 and buffer[mark - 1] in b" \t" and self.ternary_colon.match(buffer, mark, colon) is not None:
                return self._given_to_credential(buffer, mark, (self.ternary,), match.end())
        return super().assignment(buffer, match)

    def _given_to_credential(self, buffer: bytearray, end: int, forms: tuple[re.Pattern[bytes], ...], literal: int) -> bool:
        """Whether the conditional that ends at ``end`` in one of ``forms`` is given to a name
        that names a credential, and a literal with a password's texture starts at ``literal``."""
        start = self.statement_start(buffer, end)
        if not self.word_within_reach(buffer, end, end - start):
            return False  # no credential word in the statement: most conditionals
        if not self.quoted_value(buffer, literal, texture=True):
            return False
        for form in forms:
            given = form.search(buffer, start, end)
            if given is not None:
                first, last = given.span("name")
                return self.credential_named(buffer, first, last) and self.not_credential_name.fullmatch(buffer, first, last) is None
        return False

"""The screen's shape checks: what decides, once a rule's pattern has matched, whether it found a
credential.

Design:

- Prose uses the same separators, so context decides. A value is taken as certain when it is
  written tight against its separator (``password=x``, ``password:x``), quoted, or ends its clause
  (``password: x`` at the end of a line, before a comment, a comma or a closing bracket). A word
  followed by more words (``token: see the docs``, ``Secret: rotate it every 90 days``) is prose,
  and only a value that looks generated there is refused: eight or more bytes, four distinct
  characters, a letter together with a digit or a symbol. Words to the end of their line after a
  credential name are refused as one value with spaces in it when none of them is a word of
  grammar, a stand-in or a reference (``see the vault entry``, ``ask Alice``, ``the one from the
  team vault`` are prose) and they mix three of lower case, upper case inside a word, digits and
  symbols (``PASSWORD: Summer 2024!``), or are four plain words or more in one case, a passphrase
  (``password: correct horse battery staple``).
- A sentence names a credential and gives its value after a linking word, without a separator:
  ``the staging password is Tr0ub4dor&3``, ``set the API key to 9f8e7d6c5b4a3f2e``, ``the token is
  now ...``. What follows such a word is mostly a description (``the token is expired``, ``the
  secret is base64-encoded``, ``the key is ed25519``), so the value must look generated, or end its
  sentence and be no plain word (``the admin password is hunter2.``); a word joined to a
  description by a hyphen, an algorithm or an encoding is kept. The name may be followed by what
  it is for, in up to four words (``the password for the staging DB is ...``). A colon may stand
  after those words (``the password for the intern account: ...``, ``the password is: ...``).
  With no verb at all (``login with password Hunter2024``), only a value that no word of prose
  has the texture of counts: three of lower case, upper case, digits and symbols, or an unbroken
  hex or base32 run of sixteen or more.
- Code names credentials without holding them, and a record may quote it: a template or a
  variable after a header name (``f"Bearer {api_key}"``, ``= _digest_auth``), a variable passed
  on under its own name (``api_key=api_key``, ``self.token = token``, ``= request.url.password``),
  names unpacked from names (``username, password = auth``), a name stored under a variable key
  (``meta[TOKEN_KEY] = stats``), a type (``auth: BearerAuth | None = None``), a private or
  special name (``_digest_auth``, ``__root__``), a header's own name (``X-API-Key``) and a one-byte
  value (``token = 0``) are kept. A name here is a dotted identifier without a digit; the same
  forms with a quoted, digit-bearing or symbol-bearing value are judged as values, and so is a
  list of pairs (``user=admin, password=...``) or a table cell (``| password: ... |``).
"""

from __future__ import annotations

import bisect
import re

from .buffers import (
    NAME_CHARS,
    cut_by_escaped_quote,
    cut_by_other_quote,
    distinct,
    escaped_newline,
    is_linking,
    opening_quote,
    same_bytes,
    same_name,
    string_prefix,
    trimmed,
    trimmed_line,
)
from .leads import compiled
from .names import (
    BASE64_DATA,
    COOKIE_ATTRIBUTE,
    COOKIE_PAIR,
    CREDENTIAL_NAME,
    KEY_CONSTANT,
    KEY_CONSTANT_SECRET,
    KEY_HEADER,
    KEY_NAME_VALUE,
    LOOKUP_VALUE,
    MAX_COMMAND,
    MAX_ENTRIES,
    MAX_NAME,
    NAMED_CREDENTIAL,
    NAME_BEFORE,
    NOT_CREDENTIAL_NAME,
    NUMBER,
    OPTION_TOOL,
    PAIR_NAME,
    PAIR_REACH,
    PASSWORD_TOOL,
    PASS_NAME,
    SECRET_DATA,
    SECRET_ENTRY,
    SECRET_FLAG,
    SECRET_REFERENCE_NAME,
    SESSION_COOKIE,
    SESSION_COOKIE_NAME,
    SPACED_KEY_NAME,
    SUFFIXED_CREDENTIAL,
    WEAK_NAME,
)
from .vocabulary import (
    BETWEEN_STRINGS,
    CLAUSE_END,
    CREDENTIAL_WORD,
    DESCRIPTION,
    ELIDED_PREFIX,
    GRAMMAR_WORD,
    HEADER_TEXTURE,
    MAX_NAMED,
    MAX_PURPOSE,
    MAX_QUOTED,
    MAX_UNPACKED,
    MIN_DISTINCT,
    MIN_LINKED,
    MIN_VALUE,
    NAMED_THING,
    NEXT_FLAG,
    OPEN_STAND_IN,
    PASSPHRASE,
    PATTERN_CLASS,
    PATTERN_CONSTRUCT,
    PATTERN_RANGE,
    PHRASE,
    PLACEHOLDER,
    PLACEHOLDER_WORD,
    PUBLIC_VALUE,
    PUBLISHED_EXAMPLE,
    PURPOSE,
    QUOTED_REFERENCE,
    QUOTED_STAND_IN,
    TERMINAL_ESCAPE,
    TEXTURE,
    TOKEN_RUN,
    TYPE_NAME,
    UNQUOTED_REFERENCE,
    URLSAFE_BYTES,
    VALUE,
    WORD,
)

__all__ = ["Checks"]


class Checks:
    """The shape checks, one per kind of rule, and the judgements of values they share."""

    def __init__(self) -> None:
        import _thread  # threading.local is _thread._local; a cold process need not import threading

        self.calls = _thread._local()
        """What one screen has spent, per thread: ``named`` counts its sentence-name searches."""

    # The shape checks' own patterns, each compiled on its first use.
    value = compiled(VALUE)
    clause_end = compiled(CLAUSE_END)
    next_flag = compiled(NEXT_FLAG)
    placeholder = compiled(PLACEHOLDER)
    reference = compiled(UNQUOTED_REFERENCE)
    placeholder_word = compiled(PLACEHOLDER_WORD)
    quoted_reference = compiled(QUOTED_REFERENCE)
    quoted_stand_in = compiled(QUOTED_STAND_IN)
    public_value = compiled(PUBLIC_VALUE)
    published_example = compiled(PUBLISHED_EXAMPLE)
    elided_prefix = compiled(ELIDED_PREFIX)
    open_stand_in = compiled(OPEN_STAND_IN)
    pattern_construct = compiled(PATTERN_CONSTRUCT)
    terminal_escape = compiled(TERMINAL_ESCAPE)
    pattern_class = compiled(PATTERN_CLASS)
    pattern_range = compiled(PATTERN_RANGE)
    between_strings = compiled(BETWEEN_STRINGS)
    texture = compiled(TEXTURE)
    header_texture = compiled(HEADER_TEXTURE)
    type_name = compiled(TYPE_NAME)
    word = compiled(WORD)
    credential_name = compiled(CREDENTIAL_NAME)
    named_credential = compiled(NAMED_CREDENTIAL)
    suffixed_credential = compiled(SUFFIXED_CREDENTIAL)
    key_constant = compiled(KEY_CONSTANT)
    key_constant_secret = compiled(KEY_CONSTANT_SECRET)
    lookup_value = compiled(LOOKUP_VALUE)
    weak_name = compiled(WEAK_NAME)
    pass_name = compiled(PASS_NAME)
    number = compiled(NUMBER)
    not_credential_name = compiled(NOT_CREDENTIAL_NAME)
    name_before = compiled(NAME_BEFORE)
    secret_reference_name = compiled(SECRET_REFERENCE_NAME)
    secret_flag = compiled(SECRET_FLAG)
    key_name_value = compiled(KEY_NAME_VALUE)
    spaced_key_name = compiled(SPACED_KEY_NAME)
    word_gap = compiled(rb"\s")
    phrase = compiled(PHRASE)
    phrase_word = compiled(rb"[^ \t]+")
    passphrase = compiled(PASSPHRASE)
    grammar_word = compiled(GRAMMAR_WORD)
    alnum = compiled(rb"[A-Za-z0-9]")
    letters = compiled(rb"[A-Za-z]+")
    token_run = compiled(TOKEN_RUN)
    path = compiled(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
    ends_authorization = compiled(rb"(?i:authorization)\Z")
    named_thing = compiled(NAMED_THING)
    lower = compiled(rb"[a-z]")
    upper = compiled(rb"[A-Z]")
    digit = compiled(rb"[0-9]")
    joiner = compiled(rb"[-_.]")
    symbol = compiled(rb"[\x00-\x2c\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]")  # ASCII, not alnum, - . _ or /
    credential_word = compiled(CREDENTIAL_WORD)
    redacted = compiled(
        rb".*<(?i:redacted|removed|hidden|masked|omitted|elided|snip|snipped|censored|truncated|secret|password|token|key)>"
    )
    template = compiled(
        rb"(?:(?i:basic|bearer|token|digest|apikey|key)[ \t]+)?\{(?:await[ \t]+)?[A-Za-z_][A-Za-z0-9_]*"
        rb"(?:\.[A-Za-z_][A-Za-z0-9_]*|\([^(){}\"']{0,64}\)|\[[^\[\]{}]{1,64}\])*\}"
    )
    type_name_in_code = compiled(rb"_{0,2}[A-Z][A-Za-z_]*(?:\.[A-Za-z_]+)*")
    annotation_rest = compiled(
        rb"(?:[ \t]*\|[ \t]*(?:None|_{0,2}[A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|[a-z]+))+(?:[ \t]*=[ \t]*[^=\s]|[ \t]*[,)])"
        rb"|[ \t]+=[ \t]+[^=\s]"
    )
    description = compiled(DESCRIPTION)
    purpose = compiled(PURPOSE)
    key_header_name = compiled(KEY_HEADER)
    cookie_pair = compiled(COOKIE_PAIR)
    cookie_attribute = compiled(COOKIE_ATTRIBUTE)
    session_cookie = compiled(SESSION_COOKIE)
    password_tool = compiled(PASSWORD_TOOL)
    session_cookie_name = compiled(SESSION_COOKIE_NAME)
    secret_data = compiled(SECRET_DATA)
    secret_entry = compiled(SECRET_ENTRY)
    base64_data = compiled(BASE64_DATA)
    pair_name = compiled(PAIR_NAME)
    unjoined_part = compiled(rb"[^-_./]{8,}")
    inner_digit = compiled(rb"[A-Za-z][0-9]+[A-Za-z]")
    block_marker = compiled(rb"[|>][-+]?[0-9]?")
    block_line = compiled(rb"[|>][-+]?[0-9]?[ \t]*(?:#[^\r\n]{0,256})?\r?\n(?P<indent>)[ ]{0,64}(?P<line>[^\s#][^\r\n]{0,1024})")
    net_use = compiled(rb"(?i:net[ \t]+use)[ \t]")

    # -- values ------------------------------------------------------------------------------------

    def value_at(self, buffer: bytearray, pos: int, *, tight: bool = True) -> tuple[int, int, bool] | None:
        """The value that starts at ``pos``, as ``(start, end, certain)``, or ``None`` if there is none.

        ``certain`` says the context makes it a value rather than a word of prose: it is quoted,
        it ends its clause, or (when ``tight``) it follows its separator without a space.
        """
        value = self.value.match(buffer, pos)
        if value is None:
            return None
        if value.start("quoted") >= 0:
            return value.start("quoted"), value.end("quoted"), True
        start, end = value.span("bare")
        certain = (tight and start == pos) or self.clause_end.match(buffer, end) is not None
        return start, end, certain

    def is_value(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` is a value of its own rather than a stand-in or a reference.

        A single byte is never one (``token = 0``, ``"token": i``), nor is a format template
        that fills in a variable (``f"Bearer {api_key}"``), a value with a redaction marker
        (``ya29.<redacted>``, ``Hunter<REDACTED>``) or a key its provider publishes as public
        (:data:`PUBLIC_VALUE`: ``pk_live_...``).

        A quoted value is a string, whatever characters it holds: it stands for a value only as a
        whole template or reference (:data:`QUOTED_STAND_IN`), and capitalised words in it are a
        passphrase (``"CorrectHorseBatteryStaple"``), not a type name as they are in code
        (``password: SecretStr``, ``token = OAuth2Token``).
        """
        if self.template.fullmatch(buffer, start, end) is not None or self.redacted.fullmatch(buffer, start, end):
            return False
        quoted = opening_quote(buffer, start)
        if quoted and self.between_strings.match(buffer, start, end) is not None:
            quoted = 0  # not a string: code between two of them, judged as code
        if quoted and self.quoted_code(buffer, start, end, quoted):
            return False
        last = trimmed(buffer, start, end)
        if last - start <= 1 or self.public_value.fullmatch(buffer, start, last) is not None:
            return False
        if self.token_stand_in(buffer, start, last):
            return False
        if buffer.startswith(b"...", last) and self.elided_prefix.fullmatch(buffer, start, last) is not None:
            return False
        if distinct(buffer, start, last) <= 2 and last - start >= 4:  # a mask such as xxxx, 0000 or aaaa1111
            return False
        if quoted:
            return (
                self.placeholder_word.fullmatch(buffer, start, last) is None
                and self.quoted_reference.fullmatch(buffer, start, last) is None
            )
        return (
            self.placeholder.fullmatch(buffer, start, last) is None
            and self.reference.fullmatch(buffer, start, last) is None
            and not self.is_type_name(buffer, start, last)
        )

    def quoted_code(self, buffer: bytearray, start: int, end: int, quote: int) -> bool:
        """Whether the quoted value ``buffer[start:end]``, opened by ``quote``, stands for a value
        or is code: a whole template, reference, call or colour; the opening of one that a string
        inside it cuts short; an f-string or a JavaScript template literal that interpolates
        (``f'{__name__}.lang'``, a backquoted ``${prefix}-key``); a terminal's escape sequence
        (``'\\033[92m'``, a colour a test runner prints a result in); or a regular expression, which
        a raw string holding a bracket, an escape or an operator is (``r'[^\\W\\d]\\w*'``)."""
        if self.quoted_stand_in.fullmatch(buffer, start, end) is not None:
            return True
        cut = cut_by_other_quote(buffer, end, quote) or cut_by_escaped_quote(buffer, start, end, quote)
        if cut and self.open_stand_in.fullmatch(buffer, start, end) is not None:
            return True
        prefix = string_prefix(buffer, start - 1)
        if ord("f") in prefix and buffer.find(b"{", start, end) >= 0:
            return True
        if quote == ord("`") and buffer.find(b"${", start, end) >= 0:
            return True
        if ord("r") in prefix and any(buffer.find(c, start, end) >= 0 for c in b"[(\\^|*+?{"):
            return True
        if self.pattern_construct.search(buffer, start, end) is not None:
            return True
        if self.terminal_escape.search(buffer, start, end) is not None:
            return True
        return any(
            self.pattern_range.search(buffer, found.start(), found.end()) is not None
            for found in self.pattern_class.finditer(buffer, start, end)
        )

    def looks_secret(self, buffer: bytearray, start: int, end: int, *, header: bool = False, shortest: int = MIN_VALUE) -> bool:
        """Whether ``buffer[start:end]``, met in prose, has the shape of a generated credential
        (``shortest`` bytes or more)."""
        end = trimmed(buffer, start, end)
        texture = self.header_texture if header else self.texture
        return (
            end - start >= shortest
            and distinct(buffer, start, end) >= MIN_DISTINCT
            and texture.fullmatch(buffer, start, end) is not None
            and self.is_value(buffer, start, end)
        )

    def is_type_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` reads as a class name made of words."""
        if self.type_name.fullmatch(buffer, start, end) is None:
            return False
        words = self.word.finditer(buffer, start, end)
        return next(words, None) is not None and next(words, None) is not None

    def credential_after(
        self, buffer: bytearray, pos: int, *, tight: bool = True, header: bool = False, spaced: bool = False
    ) -> bool:
        """Whether a credential value starts at ``pos``: any real value in a certain context, else
        one that looks generated, or (when ``spaced``) words that are one (:meth:`spaced_value`)."""
        found = self.value_at(buffer, pos, tight=tight)
        if found is None:
            return False
        start, end, certain = found
        if certain and self.block_marker.fullmatch(buffer, start, end) is not None and not opening_quote(buffer, start):
            return self.block_value(buffer, start)
        if certain:
            return self.is_value(buffer, start, end)
        return self.looks_secret(buffer, start, end, header=header) or (spaced and self.spaced_value(buffer, start))

    def block_value(self, buffer: bytearray, marker: int) -> bool:
        """Whether the YAML block scalar that the marker at ``marker`` opens (``password: |``,
        ``password: >-``) holds a value: its first line, indented past its name's line, judged as
        a value of its own, or as words with spaces in them (:meth:`spaced_value`), so a template
        or a stand-in there (``{{ vault_password }}``, ``<your password>``) is kept."""
        block = self.block_line.match(buffer, marker)
        if block is None:
            return False
        line = buffer.rfind(b"\n", 0, marker) + 1
        indent = line
        while indent < marker and buffer[indent] == ord(" "):
            indent += 1
        first, last = block.span("line")
        if first - block.start("indent") <= indent - line:
            return False  # not indented past the name: the block is empty
        while last > first and buffer[last - 1] in b" \t\r":
            last -= 1
        if buffer.find(b" ", first, last) >= 0 or buffer.find(b"\t", first, last) >= 0:
            return self.spaced_value(buffer, first)
        return self.is_value(buffer, first, last)

    def spaced_value(self, buffer: bytearray, start: int) -> bool:
        """Whether the unquoted words from ``start`` to the end of their line are a value with
        spaces in it: a password (``Summer 2024!``: three of lower case, upper case, digits and
        symbols, where a capital that starts a word does not count, as prose capitalises names:
        ``Release Train 2024``) or a passphrase (four words or more of letters in one case:
        ``correct horse battery staple``).

        Prose and code write words there too, so none of them may be a word of grammar (``the one
        from the team vault``, ``token if token else None``), a stand-in or a reference (``see the
        vault entry``, ``ask Alice``, ``same as staging``, ``Optional[str] = None``), a description
        or a name (``expires 2025-01-01``, ``check 1Password``), or punctuation alone (``| None``).
        """
        phrase = self.phrase.match(buffer, start)
        if phrase is None:
            return False
        end = trimmed(buffer, start, phrase.end())
        lower = upper = digit = symbol = False
        for word in self.phrase_word.finditer(buffer, start, end):
            first, last = word.start(), trimmed(buffer, *word.span())
            if not self.phrase_part(buffer, first, last):
                return False
            lower = lower or self.lower.search(buffer, first, last) is not None
            upper = upper or self.upper.search(buffer, first + 1, last) is not None
            digit = digit or self.digit.search(buffer, first, last) is not None
            symbol = symbol or self.symbol.search(buffer, first, last) is not None
        if self.passphrase.fullmatch(buffer, start, end) is not None:
            return True
        return end - start >= MIN_VALUE and lower + upper + digit + symbol >= 3

    def phrase_part(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether the word ``buffer[first:last]`` may be part of a value with spaces in it: a
        letter or a digit in it, and no word of grammar, stand-in, reference, description or name."""
        if last <= first or self.alnum.search(buffer, first, last) is None:
            return False
        if self.grammar_word.fullmatch(buffer, first, last) is not None:
            return False
        if last - first == 1:
            return True  # one digit or letter between words (Tr0ub 4 dor!), which is_value takes for none
        if not self.is_value(buffer, first, last):
            return False
        if self.letters.fullmatch(buffer, first, last) is not None:
            return True  # a word (Summer, horse); a name or a description has a digit or a joiner
        return (
            self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )

    # -- checks, one per kind of rule ---------------------------------------------------------------

    def value_follows(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a bearer token in prose: the value must look generated."""
        found = self.value_at(buffer, match.end(), tight=False)
        return found is not None and self.looks_secret(buffer, found[0], found[1])

    def given_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for places that always hold a value (netrc, ``sshpass -p``, ``mysql -pVALUE``)."""
        found = self.value_at(buffer, match.end())
        return found is not None and self.is_value(buffer, found[0], found[1])

    def flag_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``--password VALUE``: certain when quoted, last, or followed by another option."""
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):  # none, or the next option
            return False
        start, end, certain = found
        if certain or self.next_flag.match(buffer, end) is not None:
            return self.is_value(buffer, start, end)
        return self.looks_secret(buffer, start, end)

    def short_option(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``-p``, ``-a``, ``-w``, ``-P``, ``-N`` or ``-U`` given to a tool that takes the
        password there: the nearest such tool before it on its line (``zip -r a.zip . && sshpass
        -p ...`` is sshpass's). Samba's ``-U`` takes ``user%password``, and only the part after
        ``%`` is judged (``-U admin`` prompts)."""
        line = buffer.rfind(b"\n", max(0, match.start() - MAX_COMMAND), match.start()) + 1
        tool = None
        for tool in self.password_tool.finditer(buffer, line, match.start()):
            pass
        if tool is None or tool.lastgroup not in OPTION_TOOL[buffer[match.start() + 1]]:
            return False
        found = self.value_at(buffer, match.end())
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        first, last = found[0], found[1]
        attached = first == match.end() or (first == match.end() + 1 and buffer[match.end()] in b"\"'`")
        if tool.lastgroup == "attached" and not attached:
            return False  # "mysql -p dbname" prompts for the password and opens dbname; -p'VALUE' is one
        if tool.lastgroup == "samba":
            first = buffer.find(b"%", first, last) + 1
            if not first:
                return False
        return self.is_value(buffer, first, last)

    def htpasswd_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``htpasswd -b``, which takes the password as its last argument, after the
        file and the user (``-nb``: after the user alone). Without ``-b`` it prompts."""
        options_start, options_end = match.span("options")
        if buffer.find(b"b", options_start, options_end) < 0:
            return False
        pos = match.end()
        for _ in range(1 if buffer.find(b"n", options_start, options_end) >= 0 else 2):  # the file, the user
            while pos < len(buffer) and buffer[pos] not in b" \t\r\n":
                pos += 1
            while pos < len(buffer) and buffer[pos] in b" \t":
                pos += 1
        found = self.value_at(buffer, pos)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        return self.is_value(buffer, found[0], found[1])

    def windows_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the password of a Windows-style command line: FreeRDP's ``/p:...`` (after
        ``/u:`` or the tool's name), and ``net use ... /user:NAME PASSWORD``, whose ``*`` prompts
        and whose next ``/option`` is none."""
        line = buffer.rfind(b"\n", max(0, match.start() - MAX_COMMAND), match.start()) + 1
        if "user" not in match.re.groupindex:
            if buffer.find(b"freerdp", line, match.start()) < 0 and buffer.find(b" /u:", line, match.start()) < 0:
                return False
        elif self.net_use.search(buffer, line, match.start()) is None:
            return False
        found = self.value_at(buffer, match.end())
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("/"):
            return False
        return self.is_value(buffer, found[0], found[1])

    def header_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for authorization headers, whose base64 values may be letters only; a variable
        named for the header (``authorization=authorization``, ``= dest.authorization``) is code."""
        value = self.value.match(buffer, match.end())
        if value is not None and value.start("bare") >= 0:
            first, last = value.start("bare"), trimmed(buffer, *value.span("bare"))
            if self.path.fullmatch(buffer, first, last) and self.ends_authorization.search(buffer, first, last):
                return False
        return self.credential_after(buffer, match.end(), tight=False, header=True)

    def key_header(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``X-Api-Key:``-style headers: a known name before the ending, then a value."""
        start = self.name_ending_at(buffer, match.start())
        return (
            start is not None
            and self.key_header_name.fullmatch(buffer, start, match.start()) is not None
            and self.header_value(buffer, match)
        )

    def cookie(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``Cookie:`` headers: a ``name=value`` pair with a real value, when the name
        says the cookie carries a session or a login (:data:`SESSION_COOKIE`) or the value looks
        generated. A preference (``theme=dark``, ``lang=en-US``) is no credential."""
        pos = match.end()
        for _ in range(32):
            pair = self.cookie_pair.match(buffer, pos)
            if pair is None or pair.end() == pos:
                return False
            name, (first, last) = pair.span(1), pair.span(2)
            if self.cookie_attribute.fullmatch(buffer, *name) is None and self.is_value(buffer, first, last):
                if self.session_cookie.fullmatch(buffer, *name) is not None:
                    return True
                if self.looks_secret(buffer, first, last, header=True):
                    return True
            pos = pair.end()
        return False

    def session_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a session cookie given outside a header (``_gitlab_session=...``,
        ``cookies={"sessionid": "..."}``): a name frameworks give one (:data:`SESSION_COOKIE_NAME`)
        and a value that looks generated, sixteen bytes or more."""
        end = match.start("end")
        start = self.name_ending_at(buffer, end)
        if start is None or self.session_cookie_name.fullmatch(buffer, start, end) is None:
            return False
        found = self.value_at(buffer, match.end())
        return found is not None and self.looks_secret(buffer, found[0], found[1], shortest=16)

    def secret_object(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Kubernetes Secret (``kind: Secret`` anywhere in the record) whose ``data:``
        holds a value in base64 of ten characters or more, whatever its key (``extra: ...``,
        ``.dockercfg: |`` over the value). A stand-in there (``<base64>``, ``{{ .Values.x |
        b64enc }}``) is no base64, and ``stringData:`` is judged as any other setting."""
        for data in self.secret_data.finditer(buffer):
            indent = data.end("indent") - data.start("indent")
            pos = data.end()
            for _ in range(MAX_ENTRIES):
                entry = self.secret_entry.match(buffer, pos)
                if entry is None or entry.end() == pos or entry.end("indent") - entry.start("indent") <= indent:
                    break
                pos = entry.end()
                first, last = entry.span("value")
                if first < 0:
                    continue
                block = self.block_line.match(buffer, first)
                if block is not None and self.block_marker.fullmatch(buffer, first, trimmed_line(buffer, first, last)):
                    first, last = block.span("line")
                    pos = block.end()
                if self.base64_data.fullmatch(buffer, first, last) is not None and distinct(buffer, first, last) >= MIN_DISTINCT:
                    return True
        return False

    def armour_alone(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a private-key armour line on a line of its own (in prose it is only mentioned)."""
        start, end = match.start(), match.end()
        quoted = start > 0 and buffer[start - 1] in b"\"'`"  # the whole of a quoted value: "-----BEGIN..."
        while start and buffer[start - 1] in b" \t\"'`":
            start -= 1
        while end < len(buffer) and buffer[end] in b" \t\"'`,":
            end += 1
        before = quoted or start == 0 or buffer[start - 1] in b"\r\n" or escaped_newline(buffer, start - 2)
        after = end == len(buffer) or buffer[end] in b"\r\n" or escaped_newline(buffer, end)
        return before and after

    def url_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for credential URLs: any password except a placeholder, however short. One
        character, or one repeated (``u:p@h``, ``:1@``, ``:***@``), is how documentation and tests
        write a password they do not show.

        A password written with ``/``, ``?`` or ``#`` unescaped (as many connection-string parsers
        take it) is one too, unless what comes before the first of them is a port: then the ``@``
        belongs to the path (``https://host:8443/@scope/pkg``). A URL's password is delimited as a
        quoted value is, so it stands for one only as a whole template (``${DB_PASSWORD}``, ``%s``,
        ``{password}``): one that starts with a percent-encoded byte (``%40...``) or a symbol is a
        password. One that repeats the user's name is a well-known local default, as in curl's
        ``-u 'test:test'`` (``amqp://guest:guest@localhost``, ``postgres://postgres:postgres@...``).
        """
        start, end = match.span("body")
        if same_bytes(buffer, match.span("user"), (start, end)):
            return False
        cut = min((i for i in (buffer.find(c, start, end) for c in b"/?#") if i >= 0), default=end)
        if cut < end and (cut == start or bytes(buffer[start:cut]).isdigit()):
            return False
        return (
            self.quoted_stand_in.fullmatch(buffer, start, end) is None
            and self.placeholder_word.fullmatch(buffer, start, end) is None
            and distinct(buffer, start, end) > 1
            and not self.token_stand_in(buffer, start, end)
        )

    def user_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``curl -u user:password``: a password as :meth:`url_password` takes one (not a
        template, a stand-in word, or one character or one repeated: ``--user "xxx:yyy"``), and
        not the user's own name again, which is how examples write a default (``-u 'test:test'``)."""
        pos = match.end()
        opened = match.start("open")
        closed = pos - 2 != opened and buffer[pos - 2] in b"\"'"  # "admin":"...": the user quoted apart
        if opened >= 0 and not closed and pos < len(buffer) and buffer[pos] == buffer[opened]:
            return False  # -u ":" or -u "user:": no password, curl asks for one
        found = self.value_at(buffer, pos)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        if same_bytes(buffer, match.span("user"), (first, last)):
            return False
        return (
            distinct(buffer, first, last) > 1
            and self.placeholder_word.fullmatch(buffer, first, last) is None
            and self.is_value(buffer, first, found[1])
        )

    def token_user(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a URL's user that is a generated token: upper and lower case, digits, and ten
        distinct characters or more (a login name such as ``deploy-bot-2024`` has no capitals)."""
        start, end = match.span("body")
        with memoryview(buffer) as view:
            part = view[start:end]
            kinds = (any(0x41 <= c <= 0x5A for c in part), any(0x61 <= c <= 0x7A for c in part), any(0x30 <= c <= 0x39 for c in part))
        return all(kinds) and distinct(buffer, start, end) >= 10

    def body(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for provider shapes: the random part is not a run of one character or a placeholder.

        The part is delimited by its shape, as a quoted value is by its quotes, so it stands for a
        value only as a whole template: a signature or a cookie that starts with a percent-encoded
        byte (``sig=%2B...``, ``xoxd-%2F...``) is one.
        """
        start, end = match.span("body") if "body" in match.re.groupindex else (-1, -1)
        if start < 0:  # no body group, or it sits in an alternative that did not take part
            start, end = match.span()
        token = min(start, match.start()), max(end, match.end())  # a marked token's body may precede its match
        if (
            distinct(buffer, start, end) >= MIN_DISTINCT
            and self.placeholder_word.fullmatch(buffer, start, end) is None
            and self.quoted_stand_in.fullmatch(buffer, start, end) is None
            and self.published_example.fullmatch(buffer, start, end) is None
            and self.published_example.fullmatch(buffer, *token) is None
        ):
            return True
        # A placeholder: kept here, and wherever else the whole of it is a value (GITHUB_TOKEN=ghp_xxxx...).
        stand_ins = getattr(self.calls, "stand_ins", None)
        if stand_ins is None:
            stand_ins = self.calls.stand_ins = set()
        stand_ins.update(((start, end), token))
        return False

    def token_stand_in(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` is the whole of a provider's token that its rule found a
        placeholder (a body of fewer than four distinct characters: ``ghp_aaaa...``), or a value its
        publisher prints as an example (:data:`PUBLISHED_EXAMPLE`): a stand-in wherever it is given.

        The rules that find tokens run before every rule that judges a value (see :data:`RULES`),
        so by then each placeholder token in the content has been seen and its place noted.
        """
        stand_ins = getattr(self.calls, "stand_ins", None)
        if stand_ins and (start, end) in stand_ins:
            return True
        return self.published_example.fullmatch(buffer, start, end) is not None

    def discord_bot(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Discord bot token: its first part, read back from base64, is a decimal id."""
        dot = match.start()
        start = dot
        while start and buffer[start - 1] in URLSAFE_BYTES:
            start -= 1
        first = bytes(buffer[start:dot])
        if not 23 <= len(first) <= 28 or first[:1] not in (b"M", b"N", b"O"):
            return False
        import base64
        import binascii

        try:
            decoded = base64.urlsafe_b64decode(first + b"=" * (-len(first) % 4))
        except (binascii.Error, ValueError):
            return False
        return decoded.isdigit() and 17 <= len(decoded) <= 20 and self.body(buffer, match)

    def assignment(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a separator: a credential-like name before it and a value after.

        The rule searches for separators rather than names because a pattern that starts with a
        name would be tried at every word of the content.
        """
        end = match.start()
        for _ in range(4):
            if end and buffer[end - 1] in b" \t":
                end -= 1
        variable_key = False
        if end and buffer[end - 1] == ord("]"):  # ENV['API_TOKEN'] = ...
            end -= 1
            variable_key = bool(end) and buffer[end - 1] in NAME_CHARS  # meta[TOKEN_KEY] = stats
        if end and buffer[end - 1] in b"\"'`":  # "password": ...
            end -= 1
        for _ in range(3):
            if end and buffer[end - 1] == ord("\\"):  # {\"password\": ...} inside a JSON string
                end -= 1
        start = self.name_ending_at(buffer, end)
        if start is None:
            return False
        if buffer[match.start()] == ord(":") and match.end() - match.start() == 1 and start:
            if buffer[start - 1] in b"/:":  # a path or ARN segment ("...:secret:prod/db"), not a key
                return False
            if start >= 2 and buffer[start - 2] == ord("$") and buffer[start - 1] == ord("{") and (
                match.end() < len(buffer) and buffer[match.end()] == ord("?")
            ):
                return False  # ${DB_PASSWORD:?must be set}: the message a shell gives when it is unset
        if self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_COMMAND), start) + 1
        if buffer.find(b"-secrets", line, start) >= 0 and self.secret_flag.search(buffer, line, start) is not None:
            return False  # gcloud run deploy --set-secrets=DB_PASSWORD=db-password:latest
        if self.credential_named(buffer, start, end):
            if self.code_reference(buffer, start, end, match, variable_key=variable_key):
                return False
            if self.names_secret_key(buffer, start, end, match.end()):
                return False
            if self.names_lookup(buffer, start, end, match.end()):
                return False
            return self.credential_after(buffer, match.end(), spaced=True)
        if self.suffixed_credential.fullmatch(buffer, start, end) is not None:
            return self.generated_value(buffer, match.end())
        if self.weak_name.fullmatch(buffer, start, end) is not None:
            found = self.value_at(buffer, match.end())
            if found is None:
                return False
            first, last, certain = found
            if self.pass_name.fullmatch(buffer, start, end) is not None:
                return self.pass_value(buffer, first, last, certain=certain)
            return self.looks_secret(buffer, first, last, header=True)
        # A sentence that names the credential before a colon: "the password for the intern
        # account: ...", "the vault password is: ...". Such words end many a bullet (token for CI:
        # repo scopes, the token is: opaque), so only a value with a password's texture counts, as
        # after a name with no verb (bare_after_name).
        if buffer[match.start()] != ord(":") or match.start() != end:
            return False  # not a colon right after the words (":class:`Token`" is markup)
        if not self.word_within_reach(buffer, end):
            return False  # checked first, as colons are common
        if not self.prose_value(buffer, match.end()):
            return False
        if is_linking(buffer, start, end) and start >= 2 and buffer[start - 1] == ord(" "):
            end = start - 1
        return self.named_before(buffer, end)

    def generated_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos``, after a name that holds a credential word and goes on
        past it (:data:`SUFFIXED_CREDENTIAL`), looks generated: eight bytes or more with a letter
        and a digit or a symbol that mix three of lower case, upper case, digits and symbols (or
        are an unbroken hex or base32 run of sixteen or more, :meth:`mixed`), and no reference,
        version, address or description. A number, a duration, a URL, a path or an identifier
        in one case is what such a name holds when it is a setting (``TOKEN_TTL_SECONDS=3600``,
        ``PASSWORD_RESET_URL=https://...``, ``TOKEN_ENCODING=cl100k_base``, ``token_id: <uuid>``)."""
        found = self.value_at(buffer, pos)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        return (
            self.looks_secret(buffer, first, last)
            and self.mixed(buffer, first, last)
            and self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )

    def call_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's name and its value given to a call as its first two arguments,
        both quoted (``define('DB_PASSWORD', '...')``, ``os.Setenv("API_KEY", "...")``,
        ``headers.put("X-Api-Key", "...")``). A tuple or a list of names (``("password",
        "email")``) is no call, and a call's second argument is as often a default, a label or a
        translation (``get("token", "none")``, ``_("password", "Passwort")``) as a value: a value
        of its own counts when it has a digit, a symbol or a case step inside."""
        end = match.start()  # the quote that closes the name
        start = self.name_ending_at(buffer, end)
        if start is None or start < 3 or buffer[start - 1] != buffer[end] or buffer[start - 2] != ord("("):
            return False
        if buffer[start - 3] not in NAME_CHARS:  # "(" opens a tuple, not a call's arguments
            return False
        if self.not_credential_name.fullmatch(buffer, start, end) is not None or not self.credential_named(buffer, start, end):
            return False
        return self.quoted_value(buffer, match.end(), texture=True)

    def auth_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password given as a pair of strings (``auth=("admin", "...")``)."""
        return self.quoted_value(buffer, match.end(), texture=False)

    def quoted_value(self, buffer: bytearray, pos: int, *, texture: bool) -> bool:
        """Whether a quoted value that is one of its own starts at ``pos`` (with a digit, a symbol
        or a case step in it, when ``texture``)."""
        found = self.value_at(buffer, pos)
        if found is None or not opening_quote(buffer, found[0]):
            return False
        first, last = found[0], found[1]
        return self.is_value(buffer, first, last) and (
            not texture or self.header_texture.fullmatch(buffer, first, trimmed(buffer, first, last)) is not None
        )

    def pass_value(self, buffer: bytearray, start: int, end: int, *, certain: bool) -> bool:
        """Whether ``buffer[start:end]``, after ``pass`` alone, is a password: never a number
        (``pass: 14``, ``PASS = 0x01``); when ``certain``, one run with a letter and a digit or a
        symbol (``PASS=hunter2``; not ``PASS = "passed"``); else, or besides, a value that looks
        generated, as after any weak name."""
        last = trimmed(buffer, start, end)
        if self.number.fullmatch(buffer, start, last) is not None:
            return False
        if (
            certain
            and self.word_gap.search(buffer, start, last) is None
            and self.texture.fullmatch(buffer, start, last) is not None
            and self.is_value(buffer, start, end)
        ):
            return True
        return self.looks_secret(buffer, start, end, header=True)

    def code_reference(self, buffer: bytearray, start: int, end: int, match: re.Match[bytes], *, variable_key: bool = False) -> bool:
        """Whether the unquoted value after the separator ``match``, given to the name
        ``buffer[start:end]``, is code that names where the value comes from: the same name
        (``api_key=api_key``, ``self.token = token``), a name stored under a variable key
        (``meta[TOKEN_KEY] = stats``), names unpacked from names (``username, password = auth``),
        or a type (``auth: BearerAuth | None = None``). A name here is a dotted identifier without
        a digit or a password's mix of cases and symbols; anything else is judged as a value."""
        value = self.value.match(buffer, match.end())
        if value is None or value.start("bare") < 0:
            return False
        first, last = value.start("bare"), trimmed(buffer, *value.span("bare"))
        if same_name(buffer, start, end, first, last):
            return True
        if not self.code_name(buffer, first, last):
            return False
        if variable_key:  # meta[TOKEN_KEY] = stats; a shell's db[password]=value has no spaces
            return buffer[match.start() - 1] in b" \t"
        if buffer[match.start()] == ord(":"):  # a class's name, then the rest of a union or a default
            return self.type_name_in_code.fullmatch(buffer, first, last) is not None and (
                self.annotation_rest.match(buffer, last) is not None
            )
        spaced = buffer[match.start() - 1] in b" \t" and match.end() < len(buffer) and buffer[match.end()] in b" \t"
        return spaced and self.unpacked(buffer, start, last)  # a, b = c: not a keyword argument

    def names_secret_key(self, buffer: bytearray, start: int, end: int, pos: int) -> bool:
        """Whether the name ``buffer[start:end]`` is one a chart gives a Secret's name or a key's
        under (:data:`SECRET_REFERENCE_NAME`: ``secretKey``, ``passwordSecret``) and the value at
        ``pos`` names a key (:data:`KEY_NAME_VALUE`: ``secretKey: postgres-password``)."""
        if self.secret_reference_name.fullmatch(buffer, start, end) is None:
            return False
        found = self.value_at(buffer, pos)
        if found is None or not found[2]:
            return False
        return self.key_name_value.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None

    def names_lookup(self, buffer: bytearray, start: int, end: int, pos: int) -> bool:
        """Whether the name ``buffer[start:end]`` is a constant ending in ``_KEY`` that says
        nothing of a credential (:data:`KEY_CONSTANT`: ``SPAN_KEY``, ``CONFIGFILE_KEY``; not
        ``API_KEY`` or ``JWT_KEY``) and the value at ``pos`` names what it looks up
        (:data:`LOOKUP_VALUE`: ``SPAN_KEY = "current-span"``)."""
        if (
            self.key_constant.fullmatch(buffer, start, end) is None
            or self.named_credential.fullmatch(buffer, start, end) is not None
            or self.key_constant_secret.fullmatch(buffer, start, end) is not None
        ):
            return False
        found = self.value_at(buffer, pos)
        if found is None or not found[2]:
            return False
        return self.lookup_value.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None

    def code_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` reads as a name in code: a dotted identifier without a digit."""
        return self.path.fullmatch(buffer, start, end) is not None and self.digit.search(buffer, start, end) is None

    def unpacked(self, buffer: bytearray, start: int, last: int) -> bool:
        """Whether the name at ``start`` is one of several targets of one assignment (``user,
        password = ...``: names and commas back to the start of the statement, no other
        separator), and every value on the right after ``last`` is a name too."""
        at = start
        for _ in range(MAX_UNPACKED + 1):
            while at and buffer[at - 1] in b" \t":
                at -= 1
            if not at or buffer[at - 1] != ord(","):
                break
            at -= 1
            while at and buffer[at - 1] in b" \t":
                at -= 1
            name_end = at
            while at and buffer[at - 1] in NAME_CHARS:
                at -= 1
            if at == name_end:
                return False  # a comma after no name
        else:
            return False  # too many to be the targets of one statement
        if at == start:
            return False  # one target
        while at and buffer[at - 1] in b" \t":
            at -= 1
        if at and buffer[at - 1] not in b"\n\r;":
            return False  # a list that another clause or a call comes before (user=admin, password=...)
        for _ in range(MAX_UNPACKED + 1):
            if last >= len(buffer) or buffer[last] != ord(","):
                return True
            item = self.value.match(buffer, last + 1)
            if item is None or item.start("bare") < 0:
                return False
            first, last = item.start("bare"), trimmed(buffer, *item.span("bare"))
            if not self.code_name(buffer, first, last):
                return False
        return False  # too many to be the names of a few targets

    def element(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``<password>VALUE</password>``: an element named for a credential (after any
        namespace prefix) whose text is a value of its own."""
        start, end = match.span("name")
        colon = buffer.rfind(b":", start, end)
        start = start if colon < 0 else colon + 1
        if start == end or not self.credential_named(buffer, start, end):
            return False
        first, last = match.span("body")
        while first < last and buffer[first] in b" \t":
            first += 1
        while last > first and buffer[last - 1] in b" \t":
            last -= 1
        return last > first and self.is_value(buffer, first, last)

    def pair_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the ``value`` of a name/value pair whose name is a credential's
        (``name="password" value="..."``, ``key="ClearTextPassword" value="..."``, or a
        ``- name: DB_PASSWORD`` line above ``value: ...``)."""
        pair = self.pair_name.search(buffer, max(0, match.start() - PAIR_REACH), match.start())
        if pair is None:
            return False
        start, end = pair.span("name")
        if self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        return (
            self.credential_named(buffer, start, end)
            and not self.names_lookup(buffer, start, end, match.end())
            and self.credential_after(buffer, match.end(), spaced=True)
        )

    def quoted_after_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a quoted value right after a credential name in prose (``use the password
        "hunter2"``): one word, closed by the same quote, that is a value of its own and is not
        a plain word (it has a digit, a symbol or a capital inside)."""
        end = match.start() - 1  # the space before the quote
        start = self.name_ending_at(buffer, end)
        if start is not None and start >= 2 and buffer[start - 1] == ord(" ") and is_linking(buffer, start, end):
            end = start - 1  # the password is "hunter2": the name is before the verb
            start = self.name_ending_at(buffer, end)
        if start is None or self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        if not self.credential_named(buffer, start, end):
            return False
        first = match.end()
        close = buffer.find(buffer[match.start()], first, first + MAX_QUOTED)
        if close < first + 4 or self.word_gap.search(buffer, first, close) is not None:
            return False  # no closing quote near, too short to be a password, or a phrase
        return (
            distinct(buffer, first, close) >= 3
            and self.is_value(buffer, first, close)
            and self.header_texture.fullmatch(buffer, first, close) is not None
        )

    def mixed(self, buffer: bytearray, start: int, end: int, *, joined: bool = True) -> bool:
        """Whether ``buffer[start:end]`` mixes three of lower case, upper case, digits and symbols,
        or is an unbroken run of sixteen or more letters of one case and digits, with both (hex,
        base32). ``-``, ``_`` and ``.`` join words and are no symbol; a byte of a non-ASCII letter
        is neither. Unless ``joined``, ``/`` joins words too, and a value with a joiner in it and
        no symbol does not count, unless one of its parts mixes three classes on its own in eight
        bytes or more, with a digit between letters, and is no class name (``Ab3_xY9kLm2Qw``; not
        ``Qwen2.5-7B`` or ``ResNet50_v2``). Each class is one search in the engine, not a loop here."""
        lower = self.lower.search(buffer, start, end) is not None
        upper = self.upper.search(buffer, start, end) is not None
        digit = self.digit.search(buffer, start, end) is not None
        symbol = self.symbol.search(buffer, start, end) is not None or (joined and buffer.find(b"/", start, end) >= 0)
        joiner = self.joiner.search(buffer, start, end) is not None or (not joined and buffer.find(b"/", start, end) >= 0)
        if joiner and not symbol and not joined:
            return any(
                self.mixed(buffer, *part.span())
                and self.inner_digit.search(buffer, *part.span()) is not None
                and self.named_thing.fullmatch(buffer, *part.span()) is None
                for part in self.unjoined_part.finditer(buffer, start, end)
            )
        if lower + upper + digit + symbol >= 3:
            return True
        unbroken = not (symbol or joiner)
        return end - start >= 16 and unbroken and digit and lower != upper and distinct(buffer, start, end) >= 8

    def prose_value(self, buffer: bytearray, pos: int, *, joined: bool = True) -> bool:
        """Whether the unquoted value at ``pos`` has a texture no word of prose has: eight bytes or
        more that mix three of lower case, upper case, digits and symbols, or an unbroken hex or
        base32 run of sixteen or more; and is not a name, a description, a type, an address or a
        digest (``ERC20Token``, ``v1.2.3-Beta``, ``0xA0b8...``, ``sha512-...``, ``C:/Users/...``).
        Unless ``joined``, parts joined by ``-``, ``_``, ``.`` or ``/`` without a symbol are a name
        (``Qwen2.5-7B``, ``meta-llama/Llama-3.1-8B``), as a value right after a name with no verb
        so often is."""
        found = self.value_at(buffer, pos, tight=False)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        return (
            last - first >= MIN_VALUE
            and self.mixed(buffer, first, last, joined=joined)
            and self.is_value(buffer, first, found[1])  # untrimmed: is_value reads a closing ">" first
            and self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )

    def bare_after_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an unquoted value right after a credential word in prose, with no verb or
        separator (``login with password Hunter2024``, ``TOTP secret JBSWY3DPEHPK3PXP``).

        Many words follow these names in prose (``password reset``, ``token cl100k_base``,
        ``secret us-east-1``), so only a value that could not be one counts (:meth:`prose_value`,
        with ``/`` joining words as in ``meta-llama/Llama-3.1-8B``).
        """
        if not self.prose_value(buffer, match.end(), joined=False):
            return False
        end = match.end()
        while buffer[end - 1] in b" \t":
            end -= 1
        return self.named_before(buffer, end)

    def linked_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an unquoted value after a credential name and a linking word, in a sentence
        (``the staging password is Tr0ub4dor&3``, ``set the API key to 9f8e7d6c5b4a3f2e``).

        Prose says much after such words (``the token is expired``, ``the secret is base64-encoded``),
        so a value counts when it looks generated, or when it ends its clause and is no plain word:
        six bytes or more, four distinct, a letter with a digit or a symbol (``is hunter2.``). A
        word joined to a description (``HS256-signed``, ``256-bit``) is a description. The value is
        looked at first: linking words are common, values that could be a credential are not.
        """
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None:
            return False
        first, last, certain = found
        last = trimmed(buffer, first, last)
        if not self.looks_secret(buffer, first, last, shortest=MIN_LINKED if certain else MIN_VALUE):
            return False
        return self.description.fullmatch(buffer, first, last) is None and self.named_before(buffer, match.start())

    def word_within_reach(self, buffer: bytearray, end: int) -> bool:
        """Whether a credential word (:data:`CREDENTIAL_WORD`) starts within :data:`MAX_PURPOSE`
        bytes before ``end``. The words' places are found in one pass per screen, then looked up."""
        starts = getattr(self.calls, "words", None)
        if starts is None:
            starts = self.calls.words = [found.start() for found in self.credential_word.finditer(buffer)]
        at = bisect.bisect_left(starts, max(0, end - MAX_PURPOSE))
        return at < len(starts) and starts[at] < end

    def named_before(self, buffer: bytearray, end: int) -> bool:
        """Whether the words that end at ``end`` name a credential: the name itself (``the admin
        password``), or the name and what it is for (``the password for the staging DB``, ``the
        API key of the billing service``), in the sentence's own words.

        It is asked only after a value that could be a password, and searches only where a
        credential word stands within reach, so prose asks it rarely. Past :data:`MAX_NAMED`
        times in one screen it answers no: that bounds the work a kilobyte can cause, and every
        rule that needs no sentence (a name with a separator, a provider's token) still runs.
        """
        if not self.word_within_reach(buffer, end):
            return False  # nothing to look for, and nothing spent
        self.calls.named = getattr(self.calls, "named", 0) + 1  # set to 0 by each first_kind
        if self.calls.named > MAX_NAMED:
            return False
        start = self.name_ending_at(buffer, end)
        if start is not None and self.sentence_credential(buffer, start, end):
            return True
        at = max(0, end - MAX_PURPOSE)
        for _ in range(4):  # the cache for the token for prod: the nearer name may be the one
            phrase = self.purpose.search(buffer, at, end)
            if phrase is None:
                return False
            if self.sentence_credential(buffer, phrase.start("name"), phrase.end("name")):
                return True
            at = phrase.end("name")
        return False

    def sentence_credential(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]``, a word of a sentence, names a credential (``1Password``,
        a product, starts with a digit and is none). ``PAT`` in capitals names a personal access
        token there, as a name in code it does not (``pat`` is a pattern)."""
        return (
            chr(buffer[start]).isalpha()
            and (start == 0 or buffer[start - 1] not in NAME_CHARS)
            and self.not_credential_name.fullmatch(buffer, start, end) is None
            and (self.credential_named(buffer, start, end) or (end - start == 3 and buffer.startswith(b"PAT", start)))
        )

    def name_ending_at(self, buffer: bytearray, end: int) -> int | None:
        """Where the name that ends at ``end`` starts; ``None`` when no name ends there, or one
        longer than any credential name worth matching."""
        name = self.name_before.search(buffer, max(0, end - MAX_NAME), end)
        if name is None or (name.start() and buffer[name.start() - 1] in NAME_CHARS):
            return None
        return name.start()

    def credential_named(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the name ``buffer[start:end]`` names a credential, alone or as the ``key`` of a
        two-word key name such as ``API key``."""
        if self.credential_name.fullmatch(buffer, start, end) is not None:
            return True
        if start < 2 or buffer[start - 1] != ord(" "):
            return False
        word = self.name_ending_at(buffer, start - 1)
        return word is not None and self.spaced_key_name.fullmatch(buffer, word, end) is not None

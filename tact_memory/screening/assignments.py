"""Values given to names: assignments, a call's arguments, name/value pairs, elements.

Design:

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

import re

from .buffers import NAME_CHARS, ascending_run, comment_word, digits_only, is_linking, is_word, opening_quote, quoted_with_colon, same_name, spells_name, trimmed
from .comment_marks import MARK_BYTES
from .leads import compiled
from .names import (
    KEY_CONSTANT,
    KEY_CONSTANT_SECRET,
    KEY_NAME_VALUE,
    LOOKUP_VALUE,
    MAX_NAME,
    NAMED_CREDENTIAL,
    NUMBER,
    OBJECT_NAME,
    PAIR_NAME,
    PAIR_REACH,
    PASS_NAME,
    SECRET_FLAG,
    SECRET_REFERENCE_NAME,
    SUFFIXED_CREDENTIAL,
    WEAK_NAME,
)
from .places import command_start
from .sections import configuration_path, section_before
from .sentences import SentenceChecks
from .vocabulary import (
    ANNOTATED_TYPE,
    GO_DECLARATION,
    MAX_ANNOTATED,
    MAX_FALLBACKS,
    MAX_QUOTED,
    MAX_UNPACKED,
    MIN_LINKED,
    PROMPTED_PATH,
    SQL_DECLARATION,
    URL_SCHEME,
    VB_DECLARATION,
    YAML_ALIAS,
)

__all__ = ["AssignmentChecks"]

MAX_TYPE_BEFORE = 96
"""How far before a C++ variable's name its type may start (``const std::basic_string<char> ``)."""

MAX_TAG = 128
"""How long an opening tag before a ``<Value>`` element may be, its attributes included."""


MIN_ALPHABET = 8
"""How many letters or digits in order make an alphabet written out (:meth:`AssignmentChecks.generated`)."""

MAX_LISTED = 8
"""How many of a list's string literals are looked at after a credential's name
(:meth:`AssignmentChecks.listed_value`)."""

_OPERATOR_STARTS = (b"??", b"||", b"&&", b"?", b":")
_CLOSING = {ord("("): ord(")"), ord("{"): ord("}"), ord("["): ord("]")}
"""The bracket that closes each opening one."""
"""What an assignment's operator may have before its ``=`` (or ``:=``), longest first."""

MAX_PROMPTED_PATH = 160
"""How far before a name a prompt's "for" and the path it asks a password for may start (``Enter
passphrase for key '/home/u/.ssh/id_rsa':``; the path itself is :data:`.vocabulary.PROMPTED_PATH`)."""

COUNTED_UNITS = (
    "文字", "字符", "字", "位", "桁", "ビット", "日", "天", "回", "次", "分", "秒", "時間", "小时", "个", "個",
    "자리", "자", "비트", "일", "번", "개",
)  # fmt: skip
"""Units a number is written with, and no space, in Japanese, Chinese and Korean: characters, digits,
bits, days, times, minutes, seconds, hours, items."""


def item_start(buffer: bytearray, at: int, *, code: bool = False) -> int:
    """Where the text that starts at ``at`` starts once the spaces, a list item's marker (``- ``,
    ``* ``, ``+ ``) and, with ``code``, an inline code span's opening backtick or any marks of
    :data:`LINE_MARKS` back to its line's start (``# ``, ``// ``, ``> ``, ``1. ``) before it are
    left out (``REM`` too): a statement or a field is at its line's start after them."""
    while at and buffer[at - 1] in b" \t":
        at -= 1
    if code and at and buffer[at - 1] == ord("`"):
        at -= 1
        while at and buffer[at - 1] in b" \t":
            at -= 1
    if at and buffer[at - 1] in b"-*+" and (at == 1 or buffer[at - 2] in b" \t\n"):
        at -= 1
        while at and buffer[at - 1] in b" \t":
            at -= 1
    if code:
        marks = at
        while marks and buffer[marks - 1] in LINE_MARKS:
            marks -= 1
        word = comment_word(buffer, marks)  # a batch file's comment: REM username, password = …
        spaced = marks < len(buffer) and buffer[marks] in b" \t"
        if word < marks and spaced and (not word or buffer[word - 1] == ord("\n")):
            return word
        if not marks or buffer[marks - 1] == ord("\n"):
            return marks
    return at


def diff_sign(buffer: bytearray, start: int) -> bool:
    """Whether the name at ``start`` starts its line with one ``-`` or ``+`` glued to a letter, as
    a line a diff removes or adds does (``-secretKey: …``); an option's ``--`` is no such sign."""
    return (
        buffer[start] in b"-+"
        and (not start or buffer[start - 1] == ord("\n"))
        and start + 1 < len(buffer)
        and chr(buffer[start + 1]).isalpha()
    )


def body_statement(buffer: bytearray, start: int) -> bool:
    """Whether the name at ``start`` starts an indented line (or follows a ``;``), as a statement
    in a function's or a block's body does: ``    token = nextchar``."""
    at = start
    while at and buffer[at - 1] in b" \t":
        at -= 1
    return at < start and (not at or buffer[at - 1] in b"\n\r;")


def word_after(buffer: bytearray, last: int) -> bool:
    """Whether a word follows the name that ends at ``last``, after spaces: a name in code ends its
    statement or is followed by an operator, where a passphrase goes on (``correct horse …``)."""
    after = last
    while after < len(buffer) and buffer[after] in b" \t":
        after += 1
    return after > last and after < len(buffer) and (chr(buffer[after]).isalnum() or buffer[after] in b"\"'")


LINE_MARKS = MARK_BYTES + b"+`.)|0123456789 \t\xe2\x86\x92"
"""What the marks at a line's start before code are made of: a comment's or a quote's
(:mod:`.comment_marks`), a list item's (numbered too), an inline code span's backtick, a
listing's line number and its separator (a tab, a colon, a bar, an arrow), and the spaces among
them. A batch file's ``REM`` before them counts as one (:func:`item_start`)."""


_NSS_SOURCE = (
    rb"(?:files|compat|db|nis|nisplus|systemd|sss|ldap|winbind|altfiles|cache|extrausers|hesiod|usrfiles"
    rb"|\[!?[A-Za-z]+=[a-z]+\])"
)
"""A source nsswitch.conf looks a database up in, or an action between two (``[NOTFOUND=return]``)."""


class AssignmentChecks(SentenceChecks):
    """The checks of values given to names: assignments, calls, pairs and elements."""

    # The patterns of these checks, each compiled on its first use.
    named_credential = compiled(NAMED_CREDENTIAL)
    annotated_type = compiled(ANNOTATED_TYPE)
    go_declaration = compiled(GO_DECLARATION)
    plist_key = compiled(rb"<key>[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_.:-]{0,63})[ \t]*</key>\s*\Z")
    vb_declaration = compiled(VB_DECLARATION)
    sql_declaration = compiled(SQL_DECLARATION)
    # A C++ type's name and the space before a variable's (std::string, const QString&,
    # std::basic_string<char>), not a keyword that comes before an expression (return token("..."),
    # new Token("...")).
    declared_type = compiled(
        rb"(?<![A-Za-z0-9_:])(?!(?:return|new|throw|else|case|co_return|co_yield|delete|sizeof|typeof|await|yield|goto|and|or|not"
        rb"|print|puts|echo|call|expect|assert|function|def|fn|func|then|do|if|while|for|elif|when|unless|in|is|of|with)[ \t])"
        rb"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*(?:<[^<>\r\n]{0,64}>)?[ \t]*[*&]?[ \t]+\Z"
    )
    literal_alone = compiled(rb"(?:u8|[LuU])?\"(?:[^\"\\\r\n]|\\.){1,256}\"[ \t]*[)}]")
    yaml_alias = compiled(YAML_ALIAS)
    declaration_keyword = compiled(
        rb"(?<![A-Za-z0-9_])(?:let|var|val|const|export|public|private|protected|internal|readonly|static|final"
        rb"|lateinit|override|open|fileprivate|pub|mut|declare)\Z"
    )
    prose_word_after = compiled(rb"[a-z]{2,}(?![A-Za-z0-9_.@:/-])")
    fallback_operator = compiled(rb"(?:\|\||\?\?|\?:|(?<![A-Za-z0-9_])or)\Z")
    code_word = compiled(rb"[.\[$(]")  # what a reference written as code has: process.env.X, ENV["X"], $X, getenv(...)
    suffixed_credential = compiled(SUFFIXED_CREDENTIAL)
    quote_or_line = compiled(rb"[\"'\r\n]")
    element_opening = compiled(rb"[\[{(,][ \t\r\n]*\Z")
    pair_closing = compiled(rb"[ \t]*[bBrRuUfF@$]{0,2}(?P<q>[\"'`])(?:(?!(?P=q))[^\\\r\n]|\\.){1,256}(?P=q)[ \t]*[)}\]]")
    # A class's or an object's name and :: or -> before a constant (Config::DB_PASSWORD,
    # $this->PASSWORD); one joined by a dot is part of the name (Context.SECURITY_CREDENTIALS).
    dotted_prefix = compiled(rb"(?:\$?[A-Za-z_][A-Za-z0-9_.]{0,63}(?:::|->))+\Z")
    key_constant = compiled(KEY_CONSTANT)
    key_constant_secret = compiled(KEY_CONSTANT_SECRET)
    lookup_value = compiled(LOOKUP_VALUE)
    weak_name = compiled(WEAK_NAME)
    pass_name = compiled(PASS_NAME)
    # A test runner's result line, which another line of a test log is (FAIL: vers2 under PASS: vers1).
    result_line = compiled(
        rb"(?:^|\n)[ \t]*(?:---[ \t]+)?(?P<word>PASS|FAIL|XFAIL|XPASS|KFAIL|KPASS|SKIP|UNSUPPORTED|UNRESOLVED|UNTESTED):[ \t]"
    )
    # The sources nsswitch.conf looks a database up in, as the whole value (passwd: compat, passwd:
    # files systemd [NOTFOUND=return] sss).
    nss_sources = compiled(rb"[ \t]*" + _NSS_SOURCE + rb"(?:[ \t]+" + _NSS_SOURCE + rb")*[ \t]*(?:\r?\n|\Z)")
    # "=" right after a name, one space and a word in lower case that goes on in prose: how
    # systemd's manuals name a setting (LoadCredential= setting, see ...; SetCredential= is ...),
    # not how a file gives a value.
    setting_named = compiled(rb"=[ ][a-z]+(?:[.,;:)]|[ ][a-z(])")
    glob = compiled(rb"\*\.|\.\*|/\*|\*/|(?<![^\s\"'])\*")  # a wildcard as a pattern holds one: *.py, lang.*, src/**/x
    glob_chars = compiled(rb"[a-z_./*?-]+")  # a pattern's words in lower case, no digit: no generated value's
    pattern_name = compiled(rb"(?:[_.-](?i:pat)|(?<=[a-z0-9])Pat)\Z")  # GROUP_PAT, filePat: a pattern as often as a token
    go_result = compiled(rb"[ \t]*---[ \t]+")  # what starts Go's result line before its PASS
    # What follows "PASS: " on a test runner's result line: a test's name (test_login2,
    # TestParseV2, t0001-init.sh, gdb.base/break.exp), or any name and Go's duration (TestRun/a (0.00s)).
    test_name = compiled(
        rb"[ \t]+(?:[A-Za-z0-9_./-]*(?:test|Test|TEST)[A-Za-z0-9_./-]*|[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.[a-z]{1,5})(?![^:\s])"
        rb"|[ \t]+[^\s]{1,128}[ \t]+\([0-9]+(?:\.[0-9]+)?m?s\)"
    )
    number = compiled(NUMBER)
    # A name that counts credentials rather than holding one: a limit's or a count's word before
    # it, or its word in the plural (max_access_token, num_keys, passwords, API_TOKENS).
    counted_name = compiled(
        rb"(?i:(?:max|min|num|n|count|total|limit)[_.-].*"
        rb"|.*(?:tokens|passwords|passwds|secrets|keys|codes|credentials|creds|passcodes|passphrases))"
    )
    secret_reference_name = compiled(SECRET_REFERENCE_NAME)
    secret_flag = compiled(SECRET_FLAG)
    key_name_value = compiled(KEY_NAME_VALUE)
    type_name_in_code = compiled(rb"_{0,2}[A-Z][A-Za-z_]*(?:\.[A-Za-z_]+)*")
    # What no type is named like: an environment variable's name, or a variable's in camel case
    # (a class is capitalised; a built-in such as str or string holds no credential word).
    no_type_name = compiled(rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
    annotation_rest = compiled(
        rb"(?:[ \t]*\|[ \t]*(?:None|_{0,2}[A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|[a-z]+))+(?:[ \t]*=[ \t]*[^=\s]|[ \t]*[,)])"
        rb"|[ \t]+=[ \t]+[^=\s]"
    )
    pair_name = compiled(PAIR_NAME)
    object_name = compiled(OBJECT_NAME)
    name_attribute = compiled(rb"[ \t\r\n](?i:name|key)[ \t]*=[ \t]*(?P<quote>[\"'])(?P<name>[A-Za-z0-9_.:-]{1,64})(?P=quote)")
    ascii_run = compiled(rb"[!-~]{1,%d}" % MAX_QUOTED)
    alnum_run = compiled(rb"[A-Za-z0-9]+")
    # A dotted class name, or lower-case words joined as an option's or a variant's name
    # (django.contrib.auth.hashers.PBKDF2PasswordHasher, +i6t-not-inline).
    listed_name = compiled(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[^A-Za-z0-9]{0,2}[a-z0-9]+(?:[-_.][a-z0-9]+)+")
    list_opening = compiled(rb"[ \t]*[\[({][ \t\r\n]*")
    listed_string = compiled(rb"(?P<quote>[\"'])(?P<text>[^\"'\r\n\\]{1,256})(?P=quote)[ \t\r\n]*(?P<after>[,\])}])[ \t\r\n]*")
    counted_unit = compiled(rb"[0-9]{1,4}(?:" + "|".join(COUNTED_UNITS).encode() + rb")")
    # A prompt that asks for a password for a path (ssh-add's Enter passphrase for
    # /home/u/.ssh/id_rsa: ..., ssh's for key '/home/u/.ssh/id_rsa': ...) or a URL (password for
    # https://ci.example.com: ...): the name before the colon is the path's last part.
    prompted_path = compiled(rb"(?<![A-Za-z])for(?:[ \t]+[A-Za-z]{1,16})?[ \t]+[\"']?(?:" + URL_SCHEME + rb")?" + PROMPTED_PATH + rb"\Z")
    # A variable's name in snake case: lower-case words joined by "_", none of them a number
    # (traced_item, environment_key; not summer_2024), which no password is written as in code.
    snake_name = compiled(rb"[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+")
    argument_end = compiled(rb"[ \t]*[,)}]")
    name_after = compiled(rb"[ \t]*(?:[A-Za-z_][A-Za-z0-9_]*\.)*(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_(])")

    def assignment(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a separator: a credential-like name before it and a value after.

        The rule searches for separators rather than names because a pattern that starts with a
        name would be tried at every word of the content.
        """
        end, variable_key = self.name_end_before(buffer, match.start())
        start = self.name_ending_at(buffer, end)
        if start is not None and diff_sign(buffer, start):
            start += 1  # -secretKey: postgres-password, a line a diff removes: the name is secretKey
        named = start is not None and self.credential_named(buffer, start, end)
        if not named and buffer[match.start()] == ord("=") and match.end() - match.start() == 1:
            annotated = self.annotated_name(buffer, match.start())
            if annotated is not None and start == annotated[1] + 1 and not self.credential_named(buffer, *annotated):
                annotated = None  # Jwt:Key=...: the parts of a configuration path, not a name and its type
            if annotated is not None:  # api_key: str = "...": the name is before its type
                if not self.string_follows(buffer, match.end()):
                    return False  # typed code gives a default as code (= None, = _UNSET, = not_given)
                start, end = annotated
                named = self.credential_named(buffer, start, end)
        if not named and start is not None and buffer[match.start()] == ord(":"):
            numbered = self.numbered_name(buffer, start, end)
            if numbered is not None:  # Unseal Key 1: ..., Password 2: ...
                (start, end), named = numbered, True
        if start is None:
            return False
        if buffer[match.start()] == ord(":") and quoted_with_colon(buffer, start, match.start()):
            return False  # the name quoted with its colon, as prose names a label: the lines starting with "passwd:"
        value = match.end()  # where the value starts
        if buffer[match.start()] == ord(":") and match.end() - match.start() == 1 and start:
            if self.ends_prompt(buffer, match.end()) or self.spaced_prompt(buffer, start, match.end()):
                return False  # a quoted prompt that ends in the colon: expect "Password:" {...}, getpass('Password: ', ...)
            if buffer[start - 1] in b"/:" and not self.field_list(buffer, start - 1) and not configuration_path(buffer, start, end):
                if self.prompted_path.search(buffer, max(0, start - MAX_PROMPTED_PATH), start) is None:
                    return False  # a path or ARN segment ("...:secret:prod/db"), not a key ("Smtp:Password")
                named = False  # a prompt's path (passphrase for /home/u/.ssh/id_rsa:): its last part names nothing
            if start >= 2 and buffer[start - 2] == ord("$") and buffer[start - 1] == ord("{") and value < len(buffer):
                if buffer[value] in b"?+":
                    # ${DB_PASSWORD:?must be set}: the message a shell gives when it is unset; :+,
                    # what it gives when it is set
                    return False
                if buffer[value] == ord("-"):
                    value += 1  # ${DB_PASSWORD:-...}: the default is the value
        if self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        if buffer[match.start() - 1] not in b" \t" and self.setting_named.match(buffer, match.start()) is not None:
            return False  # a manual names the setting: LoadCredential= setting, see ...
        line = command_start(buffer, start)
        if buffer.find(b"-secrets", line, start) >= 0 and self.secret_flag.search(buffer, line, start) is not None:
            return False  # gcloud run deploy --set-secrets=DB_PASSWORD=db-password:latest
        if named:
            if self.code_reference(buffer, start, end, match, variable_key=variable_key):
                return False
            if self.counted_name.fullmatch(buffer, start, end) is not None and self.number_value(buffer, value):
                return False  # a count of them: max_access_tokens: 50, passwords: 12
            if self.names_secret_key(buffer, start, end, value):
                return False
            if self.names_lookup(buffer, start, end, value):
                return False
            if self.nss_sources.match(buffer, value) is not None and buffer.startswith(b"passwd", start) and end - start == 6:
                return False  # nsswitch.conf's passwd database and where it is looked up: passwd: files systemd
            found = self.value_at(buffer, value)
            if found is not None:
                first, last = found[0], trimmed(buffer, found[0], found[1])
                if self.name_spelled(buffer, start, end, first, last):
                    return False  # the name spelled again: CLIENT_SECRET=client-secret
                if self.pattern_name.search(buffer, start, end) and self.glob_value(buffer, first, last):
                    return False  # "pat" for a pattern, with a wildcard no token has: GROUP_PAT = 'fr.comp.lang.*'
            if start and buffer[start - 1] in b"?&" and value < len(buffer) and buffer[value] in b" \t\r\n":
                return False  # a query's empty parameter: GET /login?user=bob&password= HTTP/1.1
            if buffer[match.start()] == ord(":") and self.yaml_alias.match(buffer, value) is not None:
                return False  # password: *db_password, the anchor's value
            return (
                self.credential_after(buffer, value, spaced=True)
                or (buffer[match.start()] == ord(":") and self.next_line_value(buffer, value))
                or self.listed_value(buffer, value)
            )
        if self.holds_name_word(buffer, start, end) and self.suffixed_credential.fullmatch(buffer, start, end) is not None:
            return self.generated_value(buffer, value) or self.listed_value(buffer, value)
        if (
            is_word(buffer, start, end, b"key")
            and self.generated_value(buffer, value)
            and self.section_names_key(buffer, start)
        ):
            return True  # "Jwt": { "Key": ... }, [jwt] key = ...
        if self.weak_name.fullmatch(buffer, start, end) is not None:
            found = self.value_at(buffer, value)
            if found is None:
                return False
            first, last, certain = found
            if self.pass_name.fullmatch(buffer, start, end) is not None:
                return not self.test_result(buffer, start, match) and self.pass_value(buffer, first, last, certain=certain)
            return self.looks_secret(buffer, first, last, header=True)
        # A sentence that names the credential before a colon, or a spaced "=" that a note writes
        # for one: "the password for the intern account: ...", "the vault password is: ...", "pw
        # for grafana = ...". Such words end many a bullet (token for CI: repo scopes, the token
        # is: opaque), so only a value with a password's texture counts, as after a name with no
        # verb (bare_after_name), or one that ends its clause, as after "is".
        if not self.sentence_separator(buffer, match, end):
            return False  # not a colon right after the words (":class:`Token`" is markup)
        # A user and a password as one word, with no space after the colon: the login is admin:...
        pair = match.end() < len(buffer) and buffer[match.end()] not in b" \t"
        if not self.word_within_reach(buffer, end):  # checked first, as colons are common
            return pair and self.user_pair(buffer, end, match.end())
        if pair and self.pair_address.match(buffer, match.end()) is not None and self.user_pair(buffer, end, match.end()):
            return True  # credentials admin:...@db.internal: a pair before a host, which reads as no value below
        linking = is_linking(buffer, start, end) and start >= 2 and buffer[start - 1] == ord(" ")
        if linking and self.linked_at(buffer, start - 1, match.end()):
            return True  # the wifi password is: ..., judged as after "is" alone
        if not (self.prose_value(buffer, match.end()) or self.clause_value(buffer, match.end()) or self.next_line_value(buffer, match.end())):
            return self.password_phrase(buffer, match.end(), start - 1 if linking else end)
        if linking:
            end = start - 1
        return self.named_or_changed(buffer, end) or (pair and self.user_pair(buffer, end, match.end()))

    @staticmethod
    def sentence_separator(buffer: bytearray, match: re.Match[bytes], end: int) -> bool:
        """Whether the separator ``match`` after words that end at ``end`` gives their value as a
        note does: a colon right after them, or after one space, as French typography writes it
        (``le mot de passe du serveur : …``), or after the quote that closes them (a prompt's
        ``Password for 'https://bob@github.com': …``), or an ``=`` alone between spaces (``pw for
        grafana = …``; code writes no spaces inside a name)."""
        at = match.start()
        if buffer[at] == ord(":"):
            if at == end or (at == end + 1 and buffer[end] == ord(" ")):
                return True
            if at != end + 1 or buffer[end] not in b"'\"":
                return False
            # The quote must close words a quote after a space opened on the line ('https://...'):
            # in b":" or f":" the quote before the colon opens a string.
            opening = buffer.rfind(buffer[end : end + 1], max(0, end - MAX_QUOTED), end)
            return opening > 0 and buffer[opening - 1] in b" \t" and buffer.find(b"\n", opening, end) < 0
        return (
            match.end() - at == 1
            and buffer[at] == ord("=")
            and at >= 1
            and buffer[at - 1] in b" \t"
            and match.end() < len(buffer)
            and buffer[match.end()] in b" \t"
        )

    @staticmethod
    def field_list(buffer: bytearray, colon: int) -> bool:
        """Whether the colon at ``colon`` opens a reStructuredText field (``:password: …``): it
        starts its line, after indentation or a list's marker at most."""
        if buffer[colon] != ord(":"):
            return False
        before = item_start(buffer, colon)  # - :password: ...
        return before == 0 or buffer[before - 1] == ord("\n")

    def assignment_in_other_words(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value after "password" in another script or in another language's words of
        more than one, or an API key's or a secret key's name there, and a colon or ``=``
        (:data:`.vocabulary.OTHER_PASSWORD_WORDS`, :data:`.vocabulary.OTHER_KEY_WORDS`): the value
        is judged as after ``password:``, and only when it has an ASCII letter or digit: what
        these languages write there without one is a word (``パスワード: 未設定``, not set), and a
        number with its unit is a length or a count (``パスワード: 8文字以上``, eight characters or
        more; ``密钥: 256位``, 256 bits), also inside a sentence (``至少12位``, at least twelve
        digits; ``每90天更换一次``, changed every 90 days). NFKC has made a full-width colon ``:``
        already."""
        found = self.value_at(buffer, match.end())
        if found is None or self.alnum.search(buffer, found[0], found[1]) is None:
            return False
        if all(self.counted_unit.match(buffer, run.start(), found[1]) for run in self.alnum_run.finditer(buffer, *found[:2])):
            return False  # every number in it is a count with its unit: 至少12位, 每90天更换一次
        return self.credential_after(buffer, match.end())

    def listed_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether a list, a tuple or a set of string literals starts at ``pos`` (``passwords =
        ["...", "..."]``, ``SECRET_KEY_FALLBACKS = ("...",)``) and one of its first
        :data:`MAX_LISTED` items looks generated (:meth:`generated`): such a name's list holds
        names, fields, classes and words as often (``SECRET_FIELDS = ["password", "token"]``,
        ``tokens = ["the", "cat"]``, the dotted class names of Django's ``PASSWORD_HASHERS``,
        variants' names such as ``token_variants = ['+i6t-not-inline', ...]``)."""
        opening = self.list_opening.match(buffer, pos)
        if opening is None:
            return False
        at = opening.end()
        for _ in range(MAX_LISTED):
            item = self.listed_string.match(buffer, at)
            if item is None:
                return False
            first, last = item.span("text")
            if self.generated(buffer, first, last) and self.listed_name.fullmatch(buffer, first, last) is None:
                return True
            if item.group("after") != b",":
                return False
            at = item.end()
        return False

    def sentence_in_other_words(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value written right after "password" and a particle that links it, in a
        script without spaces between words (``パスワードはXk9v2LmQ7tです``, ``密码是...``,
        ``비밀번호는 ...``): the run of printable ASCII there, which ends at the sentence's next
        character, is judged as a value after "is" is (:meth:`linked_value`)."""
        run = self.ascii_run.match(buffer, match.end())
        if run is None:
            return False
        first, last = run.start(), trimmed(buffer, *run.span())
        return self.looks_secret(buffer, first, last, shortest=MIN_LINKED) and self.description.fullmatch(buffer, first, last) is None

    def section_names_key(self, buffer: bytearray, start: int) -> bool:
        """Whether the section that holds the bare ``key`` at ``start`` says what it opens, so that
        the two read as one credential's name (``Jwt`` and ``Key`` as ``Jwt_Key``, ``stripe:`` and
        ``key:`` as ``stripe_key``; not ``cache`` and ``key``): see :mod:`.sections`."""
        section = section_before(buffer, start)
        if section is None:
            return False
        with memoryview(buffer) as view:
            joined = bytearray(view[section[0] : section[1]]) + b"_key"
        try:
            return self.named_credential.fullmatch(joined) is not None and self.not_credential_name.fullmatch(joined) is None
        finally:
            joined[:] = bytes(len(joined))  # a copy of the content, zeroed as the screen's buffer is

    def numbered_name(self, buffer: bytearray, start: int, end: int) -> tuple[int, int] | None:
        """Where the credential's name before ``buffer[start:end]`` is, when that is the number of
        one of several (``Unseal Key 1``, as Vault's init prints them; ``Password 2``); else ``None``."""
        if end - start > 2 or not digits_only(buffer, start, end) or start < 2 or buffer[start - 1] != ord(" "):
            return None
        word = self.name_ending_at(buffer, start - 1)
        if word is None or not self.credential_named(buffer, word, start - 1):
            return None
        return word, start - 1

    def annotated_name(self, buffer: bytearray, pos: int) -> tuple[int, int] | None:
        """The span of the name declared with a type before the ``=`` at ``pos``, on its line:
        ``api_key: str = ...``, ``let apiKey: String = ...``, ``token: str | None = ...``, Go's
        ``var apiKey string = ...``, Visual Basic's ``Dim apiKey As String = ...``, SQL's ``DECLARE
        @password NVARCHAR(100) = ...``; ``None`` when there is none. Looked for only where a
        credential word stands within reach, as most assignments in code have no type before them."""
        if not self.word_within_reach(buffer, pos, MAX_ANNOTATED):
            return None
        line = buffer.rfind(b"\n", max(0, pos - MAX_ANNOTATED), pos) + 1
        colon = buffer.rfind(b":", line, pos)
        if colon < 0:
            declared = None
            if buffer.find(b" As ", line, pos) >= 0 or buffer.find(b" as ", line, pos) >= 0:
                declared = self.vb_declaration.search(buffer, line, pos)
            if declared is None and (buffer.find(b"var", line, pos) >= 0 or buffer.find(b"const", line, pos) >= 0):
                declared = self.go_declaration.search(buffer, line, pos)
            if declared is None and (buffer.find(b"DECLARE", line, pos) >= 0 or buffer.find(b"declare", line, pos) >= 0):
                declared = self.sql_declaration.search(buffer, line, pos)
            return None if declared is None else declared.span("name")
        if self.annotated_type.fullmatch(buffer, colon + 1, pos) is None:
            return None
        kind, last = colon + 1, pos
        while kind < last and buffer[kind] in b" \t":
            kind += 1
        while last > kind and buffer[last - 1] in b" \t":
            last -= 1
        if self.holds_name_word(buffer, kind, last) and self.no_type_name.fullmatch(buffer, kind, last) is not None:
            return None  # Note: DB_PASSWORD_ORDERS=..., 1: apiKey = '...': a credential's name after a label
        end = colon
        while end > line and buffer[end - 1] in b" \t":
            end -= 1
        if end > line and buffer[end - 1] == ord("?"):
            end -= 1  # TypeScript's optional property: password?: string = ...
        start = self.name_ending_at(buffer, end)
        if start is None or start < line:
            return None
        # The name starts its statement (after the indentation, a declaration's keywords, or a
        # parameter list's bracket or comma); a colon after other words ends a block's header
        # (for token in tokens: count = ...), and no type follows it.
        before = start
        while before > line and buffer[before - 1] in b" \t":
            before -= 1
        if before == line or buffer[before - 1] in b"(,":
            return start, end
        return (start, end) if self.declaration_keyword.search(buffer, line, before) is not None else None

    @staticmethod
    def string_follows(buffer: bytearray, pos: int) -> bool:
        """Whether a string literal starts at ``pos``: a quote of any kind, past spaces and a
        prefix of up to two letters or an ``@`` (``b"...``, ``r'...``, C#'s ``@"...``, SQL's
        ``N'...``)."""
        while pos < len(buffer) and buffer[pos] in b" \t":
            pos += 1
        if pos + 1 < len(buffer) and buffer[pos] in b"NE" and buffer[pos + 1] == ord("'"):
            return True
        for _ in range(2):
            if pos < len(buffer) and buffer[pos] in b"bBrRuUfFL@":
                pos += 1
        return pos < len(buffer) and buffer[pos] in b"\"'`"

    def ends_prompt(self, buffer: bytearray, pos: int) -> bool:
        """Whether the quote at ``pos`` closes a prompt: a string its line opened before it (an odd
        number of the same quote stands before it there) followed by the block that answers it, a
        call's bracket, the line's end (``expect "Password:" {``, ``child.expect('Password:')``)
        or a word of prose in lower-case letters (``the "Password:" prompt times out``). Not
        ``password:"..."``, where the quote opens the value, nor a label and its value
        (``print("password:", "...")``)."""
        if pos >= len(buffer) or buffer[pos] not in b"\"'":
            return False
        line = buffer.rfind(b"\n", 0, pos) + 1
        if buffer.count(buffer[pos], line, pos) % 2 == 0:
            return False
        after = pos + 1
        while after < len(buffer) and buffer[after] in b" \t":
            after += 1
        if after == len(buffer) or buffer[after] in b"{)\r\n":
            return True
        return after > pos + 1 and self.prose_word_after.match(buffer, after) is not None

    @staticmethod
    def spaced_prompt(buffer: bytearray, start: int, pos: int) -> bool:
        """Whether the spaces at ``pos``, after the colon of the name at ``start``, end a quoted
        prompt: the quote after them closes a string that opened before the name, on its line,
        and code or the line's end follows it (``getpass(prompt='Password: ', stream=None)``,
        ``read -p "API key: " KEY``), as a prompt leaves a space for the answer. Not a label
        and its value (``print("password: ", "...")``), nor a value quoted after the colon."""
        after = pos
        while after < len(buffer) and buffer[after] in b" \t":
            after += 1
        if after == pos or after >= len(buffer) or buffer[after] not in b"\"'":
            return False
        line = buffer.rfind(b"\n", 0, start) + 1
        opening = buffer.rfind(buffer[after : after + 1], line, start)
        if opening < 0 or buffer.find(buffer[after : after + 1], opening + 1, after) >= 0:
            return False  # the string does not hold the name: "password": "...", a value's own quote
        nxt = after + 1
        if nxt < len(buffer) and buffer[nxt] not in b" \t,);\r\n":
            return False  # a value right after the quote
        while nxt < len(buffer) and buffer[nxt] in b" \t,":
            nxt += 1
        # a label and its value in a call, print("password: ", "..."), gives it
        return not (buffer.find(b",", after + 1, nxt) >= 0 and nxt < len(buffer) and buffer[nxt] in b"\"'")

    @staticmethod
    def name_end_before(buffer: bytearray, end: int) -> tuple[int, bool]:
        """Where the name before the separator or operator at ``end`` ends, past a few spaces, an
        empty ``[]``, a subscript's ``]``, a closing quote and the backslashes that escape it; and
        whether that name is a variable key of a subscript (``meta[TOKEN_KEY]``). An assignment's
        operator may start before its ``=``: Make's ``?=`` and ``::=``, ``??=`` (JavaScript, C#,
        PHP), ``||=`` and ``&&=`` (Ruby, JavaScript)."""
        if end and buffer[end - 1] in b"?|&:" and end < len(buffer) and buffer[end] in b":=":  # most separators have none
            for operator in _OPERATOR_STARTS:
                if end >= len(operator) and buffer.startswith(operator, end - len(operator)):
                    end -= len(operator)
                    break
        for _ in range(4):
            if end and buffer[end - 1] in b" \t":
                end -= 1
        variable_key = False
        if end >= 2 and buffer[end - 2] == ord("[") and buffer[end - 1] == ord("]"):
            end -= 2  # an element added to a list under the name: $password[] = ..., apikey[]= ...
        elif end and buffer[end - 1] == ord("]"):  # ENV['API_TOKEN'] = ...
            end -= 1
            variable_key = bool(end) and buffer[end - 1] in NAME_CHARS  # meta[TOKEN_KEY] = stats
        if end and buffer[end - 1] in b"\"'`":  # "password": ...
            end -= 1
        for _ in range(3):
            if end and buffer[end - 1] == ord("\\"):  # {\"password\": ...} inside a JSON string
                end -= 1
        return end, variable_key

    def comparison(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's name compared with a quoted value, either way round (``if
        password == "..."``, ``assert resp["token"] == "..."``, ``"..." === apiKey``): code that
        checks a hard-coded credential holds it (:meth:`compared_value`); ``token == ""``,
        ``auth === "basic"``, ``password != "<unset>"`` and ``token == "endfor"`` are kept."""
        end = self.name_end_before(buffer, match.start())[0]
        start = self.name_ending_at(buffer, end)
        if start is not None and start < end and self.compared_name(buffer, start, end):
            found = self.value_at(buffer, match.end())
            if found is not None and opening_quote(buffer, found[0]):
                return self.compared_value(buffer, found[0], found[1])
        close = match.start()
        while close and buffer[close - 1] in b" \t":
            close -= 1
        if not close or buffer[close - 1] not in b"\"'`":
            return False
        close -= 1
        first = buffer.rfind(buffer[close], max(0, close - MAX_QUOTED), close) + 1
        name = self.name_after.match(buffer, match.end())
        if not first or name is None or not self.compared_name(buffer, *name.span("name")):
            return False
        return self.compared_value(buffer, first, close)

    def compared_value(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the quoted ``buffer[start:end]``, compared with a credential's name, is a
        password: six bytes or more that mix three of lower case, upper case, digits and symbols,
        and a value of its own. Code compares a lexer's ``token`` or a page's ``continuation_token``
        with words, punctuation and identifiers (``token == "#bygroup"``, ``== "stream_tok_2"``)."""
        return self.looks_secret(buffer, start, end, shortest=MIN_LINKED) and self.mixed(buffer, start, trimmed(buffer, start, end))

    def compared_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]``, compared with a value, names a credential."""
        return self.credential_named(buffer, start, end) and self.not_credential_name.fullmatch(buffer, start, end) is None

    def generated_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos``, after a name that holds a credential word and goes on
        past it (:data:`SUFFIXED_CREDENTIAL`), looks generated: eight bytes or more with a letter
        and a digit or a symbol that mix three of lower case, upper case, digits and symbols (or
        are an unbroken hex or base32 run of sixteen or more, :meth:`mixed`), and no reference,
        version, address or description. A number, a duration, a URL, a path or an identifier
        in one case is what such a name holds when it is a setting (``TOKEN_TTL_SECONDS=3600``,
        ``PASSWORD_RESET_URL=https://...``, ``TOKEN_ENCODING=cl100k_base``, ``token_id: <uuid>``)."""
        found = self.value_at(buffer, pos)
        return found is not None and self.generated(buffer, found[0], trimmed(buffer, found[0], found[1]))

    def generated(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]`` looks generated, as :meth:`generated_value` judges it. An
        alphabet written out (``TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ..."``) is what
        values are drawn from, not one."""
        return (
            self.looks_secret(buffer, first, last)
            and self.mixed(buffer, first, last)
            and self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
            and not ascending_run(buffer, first, last, MIN_ALPHABET)
        )

    def call_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's name and its value given to a call as its first two arguments,
        both quoted (``define('DB_PASSWORD', '...')``, WordPress's ``define( 'AUTH_KEY', '...' )``,
        ``os.Setenv("API_KEY", "...")``, ``headers.put("X-Api-Key", "...")``), or as its second
        and third after a section's name (configparser's ``cfg.set("db", "password", "...")``);
        or as a pair in brackets (:meth:`bracketed_pair`). A tuple or a list of names
        (``("password", "email")``) is no call, and a call's second
        argument is as often a default, a label or a translation (``get("token", "none")``,
        ``_("password", "Passwort")``) as a value: a value of its own counts when it has a digit,
        a symbol or a case step inside."""
        end = match.start()  # the quote that closes the name
        start = self.name_ending_at(buffer, end)
        if start is None or start < 2 or buffer[start - 1] != buffer[end]:
            return False
        bracket = self.before_spaces(buffer, start - 2)  # define( 'DB_PASSWORD', '...' )
        called = self.opens_call(buffer, bracket)
        if buffer[bracket] in b"({[" and not called:
            # a pair as an element of a list or a map (a tuple alone is as often one of names)
            outer = self.element_opening.search(buffer, max(0, bracket - 64), bracket)
            return outer is not None and self.bracketed_pair(buffer, bracket, start, end, match.end())
        if buffer[bracket] == ord(","):  # after a section's name: set("db", "password", "...")
            section = self.before_spaces(buffer, bracket - 1)
            opening = buffer.rfind(buffer[section : section + 1], max(0, section - 64), section) if buffer[section] in b"\"'" else -1
            if opening < 0 or self.quote_or_line.search(buffer, opening + 1, section) is not None:
                return False
            bracket = self.before_spaces(buffer, opening - 1)
            called = self.opens_call(buffer, bracket)
        if not called:
            return False  # no call, or "(" opens a tuple, not a call's arguments
        return self.credential_argument(buffer, start, end, match.end())

    def infix_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's quoted name and its quoted value joined by Kotlin's ``to``
        (``mapOf("password" to "...")``), the value one of its own with a digit, a symbol or a
        case step (:meth:`credential_argument`)."""
        end = match.start()  # the quote that closes the name
        start = self.name_ending_at(buffer, end)
        if start is None or start < 1 or buffer[start - 1] != buffer[end]:
            return False
        return self.credential_argument(buffer, start, end, match.end())

    def atom_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's name as an atom and its value, a pair in braces as Erlang and
        Elixir configure an application (``{password, "..."}``, ``{:api_key, "..."}``), judged as
        a bracketed pair of quoted strings is (:meth:`bracketed_pair`)."""
        return self.bracketed_pair(buffer, match.start(), *match.span("symbol"), match.end())

    def bracketed_pair(self, buffer: bytearray, bracket: int, start: int, end: int, value: int) -> bool:
        """Whether a tuple, a list or a brace of exactly two, opened at ``bracket``, holds a
        credential's name and its value (a form's fields as pairs, ``data=[("username", "ann"),
        ("password", "...")]``; a C++ map's ``{{"password", "..."}}``; Erlang's ``{password,
        "..."}``): the bracket closes right after the value, and the value is one of its own with
        a digit, a symbol or a case step (:meth:`credential_argument`), as a tuple of names
        (``("password", "email")``) or a choice's value and label (``("password", "Password")``)
        has none. A pair of quoted strings counts as an element of a list or a map only (see
        :meth:`call_pair`): a tuple alone is as often one of names."""
        closing = self.pair_closing.match(buffer, value)
        if closing is None or buffer[closing.end() - 1] != _CLOSING[buffer[bracket]]:
            return False
        return self.credential_argument(buffer, start, end, value)

    def constant_argument(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a constant that names a credential given to a call and then a quoted value
        (``curl_setopt($ch, CURLOPT_PASSWORD, "...")``, JNDI's
        ``env.put(Context.SECURITY_CREDENTIALS, "...")``, ``cfg.set(Keys.DB_PASSWORD, "...")``):
        the constant in upper case, maybe after a class's or a module's name and a dot, ``::`` or
        ``->``, opens the call's arguments or follows a comma in them, and the value is one of its
        own with a digit, a symbol or a case step (:meth:`credential_argument`)."""
        end = match.start() + len(match.group(0).split(b",", 1)[0].rstrip(b" \t"))
        start = self.name_ending_at(buffer, end)
        if start is None:
            return False
        dotted = self.dotted_prefix.search(buffer, max(0, start - MAX_NAME), start)
        before = self.before_spaces(buffer, (start if dotted is None else dotted.start()) - 1)
        if before < 1 or (buffer[before] != ord(",") and not self.opens_call(buffer, before)):
            return False  # no call's argument: a tuple, a list, a sentence
        return self.credential_argument(buffer, start, end, match.end())

    def credential_argument(self, buffer: bytearray, start: int, end: int, value: int) -> bool:
        """Whether the call's argument ``buffer[start:end]`` names a credential and the quoted
        value at ``value`` after it is one of its own with a digit, a symbol or a case step."""
        if not self.credential_named(buffer, start, end) or self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        return self.quoted_value(buffer, value, texture=True)

    def constructed_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a variable that C++ (or Qt, or an Arduino sketch) declares with its type and
        builds from a literal in brackets, with no "=" (``std::string token("...")``, ``QString
        password{"..."}``, ``String apiKey("...")``): a type's name before the variable's, which
        names a credential, and only the literal inside the brackets; a call (``password("...")``,
        ``return token("...")``) has no type before it."""
        end = match.start()
        start = self.name_ending_at(buffer, end)
        if start is None or self.declared_type.search(buffer, max(0, start - MAX_TYPE_BEFORE), start) is None:
            return False
        literal = end + 1  # right after the bracket, at the literal's prefix or quote
        return self.literal_alone.match(buffer, literal) is not None and self.credential_argument(buffer, start, end, literal)

    def symbol_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a credential's name as a Ruby symbol and its value as a call's first two
        arguments (``config.fetch(:api_key, "...")``, ``set(:password, '...')``), judged as
        :meth:`call_pair` judges a quoted name's."""
        callee_end = buffer[match.start() - 1] if match.start() else 0
        if callee_end not in NAME_CHARS and callee_end not in b"?!":
            return False  # "(" opens a tuple or a condition, not a call's arguments (Ruby's fetch?( is one)
        return self.credential_argument(buffer, *match.span("symbol"), match.end())

    @staticmethod
    def opens_call(buffer: bytearray, bracket: int) -> bool:
        """Whether ``buffer[bracket]`` is ``(`` right after a name: a call's arguments open there, not
        a tuple's or a condition's."""
        return bracket >= 1 and buffer[bracket] == ord("(") and buffer[bracket - 1] in NAME_CHARS

    @staticmethod
    def before_spaces(buffer: bytearray, at: int) -> int:
        """``at``, or the byte before the spaces and tabs that end at ``at``, passing over three at
        most (the spaces a style puts inside brackets and after commas)."""
        first = at
        while first > 0 and at - first < 3 and buffer[first] in b" \t":
            first -= 1
        return first

    def fallback_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the literal a credential's name falls back to when the reference it is
        given first is unset (``const apiKey = process.env.API_KEY || "..."``, ``?? "..."``,
        Kotlin's ``?: "..."``, ``password = os.getenv("DB_PASSWORD") or "..."``), on one line:
        the name, ``=`` or ``:``, a reference written as code (a dot, a bracket or a ``$`` in it)
        or the name's own variable, then the operator; or a chain of such references, each
        falling back to the next. The literal is judged as a call's second argument is (a digit, a
        symbol or a case step in it): ``|| ""``, ``or "dev"`` and ``?? "none"`` are kept."""
        line = command_start(buffer, match.start())
        references: list[tuple[int, int]] = []
        sep = match.start()
        for _ in range(MAX_FALLBACKS):  # a chain: settings.api_key or os.environ.get("API_KEY") or "..."
            ref_end = sep
            while ref_end > line and buffer[ref_end - 1] in b" \t":
                ref_end -= 1
            ref_start = ref_end
            while ref_start > line and buffer[ref_start - 1] not in b" \t=:,;":
                ref_start -= 1
            if ref_start == ref_end:
                return False
            references.append((ref_start, ref_end))
            sep = ref_start
            while sep > line and buffer[sep - 1] in b" \t":
                sep -= 1
            operator = self.fallback_operator.search(buffer, max(line, sep - 3), sep)
            if operator is None:
                break
            sep = operator.start()
        if sep - line < 2 or buffer[sep - 1] not in b"=:" or buffer[sep - 2] in b"=!<>":
            return False  # no assignment, or a comparison (==, !=, <=, >=)
        end = sep - 1
        if buffer[end] == ord("=") and buffer[end - 1] == ord(":"):
            end -= 1  # Go's :=
        while end > line and buffer[end - 1] in b" \t":
            end -= 1
        start = self.name_ending_at(buffer, end)
        if start is not None and start >= 2 and buffer.startswith(b": ", start - 2) and not self.credential_named(buffer, start, end):
            end = start - 2  # TypeScript's const apiKey: string = ...: the name is before the type
            start = self.name_ending_at(buffer, end)
        if start is None or not self.credential_named(buffer, start, end):
            return False
        if self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        # Each reference is code, or the name's own variable (password = password or "...").
        if not all(
            self.code_word.search(buffer, *reference) is not None or same_name(buffer, start, end, *reference)
            for reference in references
        ):
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
        return self.own_value(buffer, found[0], found[1], texture=texture)

    def number_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos`` is a number (``50``, ``0x10``, ``1.5e3``), quoted or not."""
        found = self.value_at(buffer, pos)
        return found is not None and self.number.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None

    def glob_value(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]`` is a file pattern, as a name ending in "pat" may hold one
        (``GROUP_PAT = 'fr.comp.lang.*'``, ``filePat = '*.py'``): words in lower case and no digit,
        with a wildcard beside a dot or a slash, or first."""
        return self.glob_chars.fullmatch(buffer, first, last) is not None and self.glob.search(buffer, first, last) is not None

    def name_spelled(self, buffer: bytearray, start: int, end: int, first: int, last: int) -> bool:
        """Whether the value ``buffer[first:last]`` spells the name ``buffer[start:end]`` again up
        to its credential's word (:func:`.buffers.spells_name`: ``DB_PASSWORD="db-password"``,
        ``STRIPE_SECRET_KEY=stripe-secret``); a word before it alone is a value (``SPAN_KEY=span``)."""
        return spells_name(buffer, start, end, first, last) and self.credential_word.search(buffer, first, last) is not None

    def test_result(self, buffer: bytearray, start: int, separator: re.Match[bytes]) -> bool:
        """Whether ``PASS`` at ``start`` and the colon ``separator`` open a test runner's result
        line rather than give a password: in capitals, as runners print it, and then a test's name
        (Automake's and DejaGnu's ``PASS: t0001-init.sh 3 - ...``, ``PASS: gdb.base/break.exp:
        ...``), Go's ``--- PASS: TestParseV2 (0.01s)``, or any name when another line of the
        content is a result too (``PASS: vers1`` over ``FAIL: vers2``). ``PASS=...`` and ``pass:
        ...`` are still a password's, and so is ``PASS: hunter2`` alone or under ``USER: admin``."""
        if not buffer.startswith(b"PASS:", start) or separator.start() != start + 4:
            return False
        line = buffer.rfind(b"\n", 0, start) + 1
        if self.go_result.fullmatch(buffer, line, start) is not None:
            return True  # Go's result line, indented under its parent test
        if self.test_name.match(buffer, separator.end()) is not None:
            return True
        end = buffer.find(b"\n", start)
        # another result line in the same content: a test log (PASS: vers1 over FAIL: vers2)
        return (line > 0 and self.result_line.search(buffer, 0, line) is not None) or (
            end >= 0 and self.result_line.search(buffer, end) is not None
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
        a name that a statement in a body gives alone (``    token = nextchar``, indented, where
        ``    DB_PASSWORD = correct horse …`` goes on in words), a variable in snake case passed on
        as a keyword argument or under a quoted key (``auth_token=environment_key,``, ``{"token":
        traced_item}``), or a type (``auth: BearerAuth | None = None``). A name here is a dotted
        identifier without a digit or a password's mix of cases and symbols; anything else is
        judged as a value."""
        value = self.value.match(buffer, match.end())
        if value is None or value.start("bare") < 0:
            return False
        first, last = value.start("bare"), trimmed(buffer, *value.span("bare"))
        if same_name(buffer, start, end, first, last):
            return True
        if self.snake_name.fullmatch(buffer, first, last) is not None and self.passed_on(buffer, end, match, last):
            return True  # f(auth_token=environment_key, ...), {"token": traced_item}
        if not self.code_name(buffer, first, last):
            return False
        if variable_key:  # meta[TOKEN_KEY] = stats; a shell's db[password]=value has no spaces
            return buffer[match.start() - 1] in b" \t"
        if buffer[match.start()] == ord(":"):  # a class's name, then the rest of a union or a default
            return self.type_name_in_code.fullmatch(buffer, first, last) is not None and (
                self.annotation_rest.match(buffer, last) is not None
            )
        spaced = buffer[match.start() - 1] in b" \t" and match.end() < len(buffer) and buffer[match.end()] in b" \t"
        if not spaced:
            return False  # a keyword argument (user=admin)
        return self.unpacked(buffer, start, last) or (body_statement(buffer, start) and not word_after(buffer, last))

    def passed_on(self, buffer: bytearray, end: int, match: re.Match[bytes], last: int) -> bool:
        """Whether a value that ends at ``last`` is passed on as code passes a variable: as a
        keyword argument (``name=value`` with no spaces, then ``,`` or ``)``), or under a key in
        quotes in a literal object (``"name": value``, then ``,`` or ``}``)."""
        after = self.argument_end.match(buffer, last)
        if after is None:
            return False
        closing = buffer[after.end() - 1]
        if buffer[match.start()] == ord("="):
            return closing in b",)" and buffer[match.start() - 1] not in b" \t" and buffer[match.end()] not in b" \t"
        return buffer[match.start()] == ord(":") and closing in b",}" and end < len(buffer) and buffer[end] in b"\"'"

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
        several = False
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
            several = True
        else:
            return False  # too many to be the targets of one statement
        if not several:
            return False  # one target
        at = item_start(buffer, at, code=True)  # as a note lists code: - username, password = auth; `user, pw = creds`
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
        namespace prefix) whose text is a value of its own; or a ``<Value>`` element that opens
        one so named, as Windows' answer files give a password
        (``<AdministratorPassword><Value>…</Value>``)."""
        start, end = match.span("name")
        if is_word(buffer, start, end, b"value"):
            found = self.enclosing_tag(buffer, match.start())
            if found is None:
                return False
            start, end, tag_end = found
            if not self.tag_named_credential(buffer, start, end):
                # Spring's <property name="password"><value>…</value>, .NET's <setting name="Password"
                # serializeAs="String"><value>…</value>: the opening tag's name attribute names it
                attribute = self.name_attribute.search(buffer, end, tag_end)
                if attribute is None or not self.tag_named_credential(buffer, *attribute.span("name")):
                    return False
        elif is_word(buffer, start, end, b"string") and not self.tag_named_credential(buffer, start, end):
            return self.plist_value(buffer, match)
        elif not self.tag_named_credential(buffer, start, end):
            return False
        first, last = _element_text(buffer, match)
        return last > first and self.is_value(buffer, first, last)

    def plist_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a property list's ``<string>`` after the ``<key>`` that names it, only white
        space between (``<key>APIKey</key>`` and ``<string>...</string>`` on the next line, as an
        app's Info.plist holds one), its text judged as an attributed element's
        (:meth:`setting_text`)."""
        key = self.plist_key.search(buffer, max(0, match.start() - MAX_TAG), match.start())
        return key is not None and self.tag_named_credential(buffer, *key.span("name")) and self.setting_text(buffer, match)

    def attributed_element(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an element whose ``name`` or ``key`` attribute names a credential and whose text
        is its value: Android's ``<string name="api_key">...</string>``, a Java properties file in
        XML's ``<entry key="db.password">...</entry>``. The text must be one run with a digit, a
        symbol or a case step, as a label's (``<string name="password">Password</string>``) is not."""
        attribute = self.name_attribute.search(buffer, match.end("name"), match.start("body"))
        return attribute is not None and self.tag_named_credential(buffer, *attribute.span("name")) and self.setting_text(buffer, match)

    def setting_text(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether the text of the element ``match`` is a setting's value: one run with a digit, a
        symbol or a case step, as a label's (``Password``, ``Enter your password``) is not."""
        first, last = _element_text(buffer, match)
        if last <= first or buffer.find(b" ", first, last) >= 0 or buffer.find(b"\t", first, last) >= 0:
            return False
        return self.own_value(buffer, first, last, texture=True)

    def tag_named_credential(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the tag or attribute value ``buffer[start:end]`` names a credential, after any
        namespace prefix or path (``ns:Password``, ``Smtp:Password``)."""
        colon = buffer.rfind(b":", start, end)
        start = start if colon < 0 else colon + 1
        return start < end and self.credential_named(buffer, start, end)

    @staticmethod
    def enclosing_tag(buffer: bytearray, at: int) -> tuple[int, int, int] | None:
        """Where the name of the opening tag right before ``at`` starts and ends (without its
        attributes) and where the tag's ``>`` is (only white space between it and ``at``); ``None``
        when something else stands there."""
        end = at - 1
        while end >= 0 and buffer[end] in b" \t\r\n":
            end -= 1
        if end < 1 or buffer[end] != ord(">") or buffer[end - 1] == ord("/"):
            return None
        opening = buffer.rfind(b"<", max(0, end - MAX_TAG), end)
        if opening < 0 or buffer.find(b">", opening, end) >= 0:
            return None
        name_end = opening + 1
        while name_end < end and buffer[name_end] not in b" \t\r\n/":
            name_end += 1
        return (opening + 1, name_end, end) if name_end > opening + 1 else None

    def pair_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the ``value`` (or ``default``) of a name/value pair whose name is a
        credential's (``name="password" value="..."``, ``key="ClearTextPassword" value="..."``, a
        ``- name: DB_PASSWORD`` line above ``value: ...``, other fields of the pair between them),
        or of an object or mapping that a credential's name is the key of (``"adminPassword":
        {"type": "securestring", "defaultValue": "..."}``)."""
        bound = max(0, match.start() - PAIR_REACH)
        pair = self.pair_name.search(buffer, bound, match.start()) or self.object_name.search(buffer, bound, match.start())
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


def _element_text(buffer: bytearray, match: re.Match[bytes]) -> tuple[int, int]:
    """Where an element's text (the match's ``body``) starts and ends without the spaces around it."""
    first, last = match.span("body")
    while first < last and buffer[first] in b" \t":
        first += 1
    while last > first and buffer[last - 1] in b" \t":
        last -= 1
    return first, last

"""Passwords given where a login happens: to a login call, typed into a password field, or set
for a server to ask for.

- A call that logs in, or makes the credentials of a login, from a user and a password given in
  that order: ``smtp.login("me@example.com", "...")``, ``ftp.login("deploy", "...")``, requests'
  and httpx's ``HTTPBasicAuth("admin", "...")``, aiohttp's ``BasicAuth(...)``, .NET's
  ``NetworkCredential("svc", "...")``, Java's ``PasswordAuthentication(...)`` and
  ``DriverManager.getConnection(url, "app", "...")``. The user may be a variable; the password is
  a literal.
- What a browser test types into a password field: Playwright's ``page.fill('#password', '...')``
  and ``getByLabel('Password').fill('...')``, Puppeteer's ``page.type('#password', '...')``,
  Cypress's ``cy.get('#password').type('...')``, Selenium's ``find_element(By.ID,
  "password").send_keys("...")``, WebdriverIO's ``setValue``, TestCafe's ``typeText``, Capybara's
  ``fill_in "Password", with: "..."``. The field is named by the selector given with the value, or by
  one in the chain before the method on its statement (a line that starts with ``.`` goes on the
  line before it).

- A Java keystore's or key's password as a literal made a character array in the call that opens
  it: ``keyStore.load(in, "...".toCharArray())``, ``kmf.init(ks, "...".toCharArray())``,
  ``new PBEKeySpec("...".toCharArray(), ...)``.
- A Redis server's password: in ``redis.conf`` and on ``redis-server``'s command line (``requirepass
  ...``, ``masterauth ...``, ``--requirepass ...``), set at run time (``CONFIG SET requirepass
  ...``), and given to ``AUTH`` in ``redis-cli`` (``redis-cli AUTH ...``, at its prompt
  ``127.0.0.1:6379> AUTH default ...``).
- A password after a configuration directive whose name ends in a password's word as identifiers
  write one (keepalived's ``auth_pass ...``, nslcd's ``bindpw ...``, ``SmtpPass ...``), where the
  name opens its line or a block opened earlier on it; nginx's ``proxy_pass`` and its kin forward
  requests.
- A secret echoed into a process substitution given to an option that reads a password, a
  passphrase, a secret or a token from a file: ``restic --password-file <(echo ...)``,
  ``--vault-password-file=<(echo ...)``; or echoed by the command an option or a setting runs to
  get one: ``restic --password-command 'echo ...'``, msmtp's ``passwordeval "echo ..."``,
  isync's ``PassCmd "echo ..."``.
- A user and a password joined by a colon in a literal that code encodes for HTTP Basic
  authentication: ``base64.b64encode(b"svc:...")``, ``btoa("svc:...")``, ``Buffer.from("svc:...")``,
  Go's ``base64.StdEncoding.EncodeToString([]byte("svc:..."))``.
- A network device's secrets, as its configuration holds them (the rules in :mod:`.rules`): a
  password or secret given with type 0, Cisco's reversible type 7 or Juniper's ``$9$``, SNMP
  communities, key strings, routing, AAA and VPN keys; a key given with its type counts where
  ``key`` opens its line.

The password is judged as a call's second argument is: a digit, a symbol or a case step in it, so
``login("admin", "secret")``, ``.fill('#password', password)``, ``.type('#password', '{enter}')``
and redis.conf's own example, ``requirepass foobared``, are kept.
"""

from __future__ import annotations

import re

from .buffers import trimmed
from .conditionals import ConditionalChecks
from .leads import compiled
from .places import command_start
from .vocabulary import MAX_QUOTED, PASSWORD_WORD

__all__ = ["LoginChecks", "PASSWORD_FIELD"]

MAX_FILE_OPTION = 72
"""How far before a process substitution the option it is given to may start."""
_CHAR_ARRAY_CALLS = frozenset(
    (b"load", b"store", b"getKey", b"init", b"setKeyEntry", b"PBEKeySpec", b"PasswordProtection")
)
"""Calls that open a keystore or a key with a password as a character array, or derive a key from one."""
MAX_COMMAND_OPTION = 48
"""How far before the quoted command that prints a password the option or setting that runs it
may start (``--password-command '...'``, ``passwordeval "..."``)."""
_FORWARDING = frozenset(
    (b"proxy_pass", b"fastcgi_pass", b"uwsgi_pass", b"scgi_pass", b"grpc_pass", b"memcached_pass", b"proxypass")
)
"""Directives whose names end in ``pass`` and that forward a request (nginx's, Apache's ``ProxyPass``)."""
MAX_REDIS_REACH = 128
"""How far before Redis's ``AUTH`` in a note the word Redis may stand (the line before, as a
heading: ``Redis:\n  AUTH ...``), and after it on its line (``AUTH ... in redis-cli``)."""

PASSWORD_FIELD = rb"(?i:pass(?:word|wd|phrase|code)|pwd|" + PASSWORD_WORD + rb")|(?i:pass)(?![a-z])"
"""What a selector or label of a password field holds: ``#password``, ``input[name="passwd"]``,
``[data-test=pwd]``, ``Password``, ``newPassword``, ``#pass``, a password in another language;
``passport`` is no such field."""


_SCHEMES = (b"data", b"urn", b"mailto", b"tel", b"file", b"blob", b"javascript")
"""Schemes whose addresses have a colon and no user: what a literal's part before a colon is not."""


class LoginChecks(ConditionalChecks):
    """The checks of passwords given to a login: its call, the field a test types them into, the
    server's setting."""

    password_field = compiled(PASSWORD_FIELD)
    quoted_in_code = compiled(rb"([\"'`])((?:(?!\1)[^\r\n]){1,256}?)\1")
    file_option = compiled(rb"(?<![A-Za-z0-9_-])--?[A-Za-z0-9-]{0,32}(?i:pass|secret|token|cred)[A-Za-z0-9-]{0,32}\Z")
    redis_word = compiled(rb"(?i:redis)")
    # An option or a setting that runs a command to get a password, a secret or a token, then what
    # stands between it and the command's opening quote.
    command_option = compiled(
        rb"(?<![A-Za-z0-9_-])-{0,2}(?i:(?:pass(?:word|wd|phrase)?|secret|token)[-_]?(?:command|cmd|eval))"
        rb"[ \t]*(?:=|:|[ \t])[ \t]*\Z"
    )
    gmail_user = compiled(rb"@(?i:gmail|googlemail)\.com[\"']")
    google_app_password = compiled(rb"(?P<quote>[\"'])[a-z]{4}(?:[ ]?[a-z]{4}){3}(?P=quote)")
    call_name = compiled(rb"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")
    c_identifier = compiled(rb"[A-Za-z_][A-Za-z0-9_]*")
    directive_end = compiled(rb"[ \t]*(?:[;}#]|\r?\n|\Z)")
    # An e-mail address's local part right before its "@", then the password after the host's colon.
    address_local = compiled(rb"(?<![^\s\"'`(,;<\[])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}\Z")
    address_value = compiled(rb"[^\s\"'`<>/\\~:.@,;()\[\]{}]{8,128}(?=[\s\"'`),;\]]|\.(?:\s|\Z)|\Z)")
    copy_tool = compiled(rb"(?<![A-Za-z0-9_-])(?:scp|rsync|sftp|ssh|git|hg|svn|rclone|ansible|ansible-playbook)(?![A-Za-z0-9_-])")

    def login_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal password given after a user to a login call. Anonymous FTP's
        password is the convention ``anonymous@`` or an address, never a secret. A Google app
        password, sixteen lower-case letters (in four groups or not), counts without a digit, a
        symbol or a case step when the user is a Gmail address (``smtp.login("me@gmail.com",
        "...")``)."""
        quote = match.group("user")
        if quote is not None and buffer[match.end("user") : match.end("user") + 10].lower() == b"anonymous" + quote:
            return False
        if self.quoted_value(buffer, match.end(), texture=True):
            return True
        return (
            quote is not None
            and self.gmail_user.search(buffer, match.end("user"), match.end()) is not None
            and self.google_app_password.match(buffer, match.end()) is not None
        )

    def encoded_login_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password joined by a colon in a literal that code encodes in
        base64 for HTTP Basic authentication (``base64.b64encode(b"svc:...")``, ``btoa("svc:...")``,
        ``Buffer.from('svc:...')``), or gives libcurl as a login (``CURLOPT_USERPWD, "svc:..."``):
        the password runs to the literal's closing quote, with no
        space, and has a digit, a symbol or a case step in it and is a value of its own, as a
        login call's password (``b64encode(b"user:pass")`` and ``btoa("a:b")`` are kept). A
        Buffer is made for more than base64, so it counts only when base64 follows (a data URI,
        ``Buffer.from("data:image/png;base64,...")``, is a user-less scheme's, and kept). The
        address of a scheme (``data:``, ``urn:``, ``mailto:``) is no user."""
        user = match.start("quote") + 1
        if buffer[user : match.end() - 1].lower() in _SCHEMES:
            return False
        quote = buffer[match.start("quote")]
        close = buffer.find(quote, match.end(), match.end() + MAX_QUOTED)
        if close <= match.end() or self.word_gap.search(buffer, match.end(), close) is not None:
            return False
        if buffer.startswith(b"Buffer", match.start()) and buffer.find(b"base64", close, close + 48) < 0:
            return False
        return self.own_value(buffer, match.end(), close, texture=True)

    def substituted_secret(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a secret that ``echo`` or ``printf`` writes into a process substitution given
        to an option that reads a password, a passphrase, a secret or a token from a file
        (``--password-file <(echo ...)``, ``--vault-password-file=<(echo ...)``): the option right
        before it, then a value of its own with a password's texture. ``<(echo $PW)`` is a
        variable, and ``diff <(echo a) <(echo b)`` names no such option."""
        end = match.start()
        if end and buffer[end - 1] == ord("="):
            end -= 1
        while end > 0 and buffer[end - 1] in b" \t":
            end -= 1
        if self.file_option.search(buffer, max(0, end - MAX_FILE_OPTION), end) is None:
            return False
        return self.textured_value_at(buffer, match.end())

    def commanded_secret(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a secret that ``echo`` or ``printf`` prints as the command an option or a
        setting runs to get a password, a secret or a token (``--password-command 'echo ...'``,
        msmtp's ``passwordeval "echo ..."``, isync's ``PassCmd "echo ..."``): the option right
        before the command's opening quote, then a value of its own with a password's texture.
        ``'echo $PW'`` is a variable, and ``pass show db`` prints what another store holds."""
        quote = match.start()
        if self.command_option.search(buffer, max(0, quote - MAX_COMMAND_OPTION), quote) is None:
            return False
        return self.textured_value_at(buffer, match.end())

    def directive_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password after a configuration directive whose name ends in a password's
        word as identifiers write one (keepalived's ``auth_pass ...``, nslcd's ``bindpw ...``,
        ``SmtpPass ...``, ``DB_PASS ...``). The name opens its line, or follows a block's ``{``
        opened earlier on it (``authentication { auth_type PASS auth_pass ... }``); the value ends
        the line, or a ``;``, a ``}`` or a comment does; and it could be a password of the kind
        people pick (keepalived's own example, ``auth_pass 1111``, is kept). nginx's
        ``proxy_pass`` and its kin forward requests (:data:`_FORWARDING`)."""
        lead_end = match.start() + len(match.group(0).rstrip(b" \t"))
        first = self.name_ending_at(buffer, match.start())
        if first is None:
            return False
        if first and buffer[first - 1] not in b" \t\n\r{;":
            return False
        if bytes(buffer[first:lead_end]).lower() in _FORWARDING:
            return False
        line = max(buffer.rfind(b"\n", 0, first), buffer.rfind(b"\r", 0, first)) + 1
        before = bytes(buffer[line:first])
        if before.strip(b" \t") and b"{" not in before.rsplit(b"}", 1)[-1]:
            return False  # a word earlier on the line, outside a block opened on it: prose
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or self.directive_end.match(buffer, found[1]) is None:
            return False
        last = trimmed(buffer, found[0], found[1])
        if buffer.startswith(b";", last) and self.c_identifier.fullmatch(buffer, found[0], last):
            return False  # a declaration in C's family: VkRenderPass shadowPass2;
        return self.own_value(buffer, found[0], last, texture=True) and self.weak_password(buffer, found[0], last)

    def char_array_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal made a character array (``"...".toCharArray()``) as an argument of a
        call that opens a keystore or a key with it, or derives a key from it (:data:`_CHAR_ARRAY_CALLS`:
        ``load``, ``store``, ``getKey``, ``init``, ``setKeyEntry``, ``PBEKeySpec``,
        ``PasswordProtection``); elsewhere such an array is an alphabet (``"0123456789ABCDEF"
        .toCharArray()``). The literal must be a value of its own with a digit, a symbol or a case
        step (the JDK's default, ``changeit``, is kept)."""
        close = match.start()
        opening = buffer.rfind(b'"', max(0, close - MAX_QUOTED), close)
        if opening < 0 or buffer.find(b"\n", opening, close) >= 0:
            return False
        bracket = self.call_opening(buffer, opening)
        if bracket is None:
            return False
        call = self.call_name.search(buffer, max(0, bracket - 64), bracket)
        if call is None or call.group(0) not in _CHAR_ARRAY_CALLS:
            return False
        return self.own_value(buffer, opening + 1, close, texture=True)

    def server_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password, quoted or not, after a directive or command that always takes one."""
        return self.server_password_at(buffer, match.end())

    def line_key(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a secret after ``key`` and its type where ``key`` opens its line, as in a key
        chain or a RADIUS or TACACS+ server's block; elsewhere ``key 0`` is any key numbered 0."""
        start = match.start()
        indent = buffer[max(0, start - 32) : start]
        line = max(indent.rfind(b"\n"), indent.rfind(b"\r"))
        if line < 0 and start > 32:
            return False  # more than 32 characters of the line before it
        return not indent[line + 1 :].strip(b" \t") and self.server_password(buffer, match)

    def redis_auth(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for Redis's ``AUTH`` command written in a note (``Redis: AUTH ...``, ``in
        redis-cli run AUTH ... first``): Redis named on its line or the end of the line before
        (within :data:`MAX_REDIS_REACH` bytes), then a value with a password's texture right after
        ``AUTH`` or after a user (``AUTH default ...``), Redis named within as many bytes after
        it on its line too (``AUTH ... in redis-cli``). Elsewhere ``AUTH`` is any protocol's."""
        start = max(0, match.start() - MAX_REDIS_REACH)
        end = buffer.find(b"\n", match.end(), match.end() + MAX_REDIS_REACH)
        if self.redis_word.search(buffer, start, match.end() + MAX_REDIS_REACH if end < 0 else end) is None:
            return False
        spots = (match.start("user"), match.end()) if match.start("user") >= 0 else (match.end(),)
        return any(self.server_password_at(buffer, spot) for spot in spots)

    def address_and_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an e-mail address and a password after a colon, as a list of test accounts
        or a leaked combination writes them (``qa@example.com:Xk9mQ2vLp7``): one run that looks
        generated (:meth:`generated`), with no path's, file's or port's marks, on a line that runs
        no tool whose target is written ``user@host:path`` (``git@github.com:org/app.git``,
        ``scp app.tar deploy@web1:Releases2024``)."""
        at = match.start()
        if self.address_local.search(buffer, max(0, at - 64), at) is None:
            return False
        value = self.address_value.match(buffer, match.end())
        if value is None:
            return False
        return self.copy_tool.search(buffer, command_start(buffer, at), at) is None and self.generated(buffer, *value.span())

    def server_password_at(self, buffer: bytearray, pos: int) -> bool:
        """Whether a value of its own with a password's texture starts at ``pos``."""
        found = self.value_at(buffer, pos)
        return found is not None and self.own_value(buffer, found[0], found[1], texture=True)

    def typed_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a literal typed into a field that a selector names as a password's."""
        selector = match.span("selector") if match.group("selector") is not None else None
        if selector is not None:
            named = self.password_field.search(buffer, *selector) is not None
        else:
            named = self.field_before(buffer, match.start())
        return named and self.quoted_value(buffer, match.end(), texture=True)

    def field_before(self, buffer: bytearray, end: int) -> bool:
        """Whether a quoted string of the statement that ends at ``end`` names a password field
        (:meth:`statement_start`), not looking past a ``;`` that ends an earlier statement."""
        line = self.statement_start(buffer, end)
        start = buffer.rfind(b";", line, end) + 1 or line
        if self.password_field.search(buffer, start, end) is None:
            return False  # most statements: no password's name anywhere, quoted or not
        return any(
            self.password_field.search(buffer, *quoted.span(2)) is not None
            for quoted in self.quoted_in_code.finditer(buffer, start, end)
        )

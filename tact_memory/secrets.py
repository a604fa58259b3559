"""A best-effort screen that keeps obvious credentials out of memory records.

:func:`find_secret` is called on every candidate record before it is stored, and on stored records
before they are shown to a model. It returns ``None`` for content that looks safe, or the name of the
*kind* of credential it found (a key of :data:`KINDS`). The kind is always one of a fixed set of
constant names, so an error message built from it can never echo any part of the matched value.

Design:

- Every rule is a compiled bytes regular expression plus a small shape check. Rules run in a fixed
  priority order, most specific first: a GitHub token assigned to ``GITHUB_TOKEN`` is reported as
  ``github_token`` rather than as a generic ``credential_assignment``. The result is the first rule,
  in that order, with a match that passes its check.
- Provider tokens are recognised by their published prefixes and usual lengths, anchored so they
  cannot start in the middle of a longer word. A body made of fewer than four distinct characters
  (``ghp_xxxx...``) is a documentation placeholder and is kept.
- Headers, URLs and ``name = value`` assignments carry no prefix to anchor on, so the *value* must
  look like a credential: one run without spaces, at least eight bytes long, with at least four
  distinct characters, containing a letter together with a digit or a symbol (an authorization
  header value may instead show a lower-to-upper case step, as short base64 does). Placeholders
  (``<token>``, ``${API_KEY}``, ``$TOKEN``, ``%TOKEN%``, ``{{ secret }}``, ``****``, ``changeme``),
  references (``settings.KEY``, ``API_KEY_V2``, ``os.getenv(...)``, paths, URLs, emails, ARNs),
  lower-case identifiers (``hmac-sha256``, ``db-creds-v2``) and class names (``Ed25519PrivateKey``)
  are kept because they carry no secret.
- A credential-like name must *end* in a credential word at a word boundary (``DB_PASSWORD``,
  ``clientSecret``, ``api_key``, ``authToken``), so ``TOKEN_TTL_SECONDS``, ``password_min_length``,
  ``token_url`` and ``max_tokens`` are not credential names at all.

Speed: every quantifier is bounded or runs over a character class disjoint from what follows it, so
a scan is linear in the input length. Every rule starts with a literal (a token's "must not continue
a longer word" look-behind sits after its prefix, and an assignment is found by its separator, not
its name), which lets the regex engine jump between candidates; a 1 KiB record takes well under a
millisecond. The rules are compiled once, on the first screen rather than on import, because
compiling them costs over ten milliseconds that a process which never writes memory should not pay.

Buffer hygiene: the content is encoded once into a :class:`bytearray` that this module owns. All
matching and shape checks run on that buffer through positions (``pattern.match(buffer, pos,
endpos)`` and a memoryview), never on copied slices, and the buffer is overwritten with zeros in a
``finally`` block, even when a rule raises. This protects only that buffer. It does not and cannot
clear the caller's ``str`` (Python strings are immutable), the transient ``bytes`` object the UTF-8
encoder creates before it is copied into the buffer, pydantic's parsed copies, the tool arguments of
the agent loop, SQLite's bindings and pages, or operating-system copies.

Limits: this is not a complete secret scanner. It cannot recognise every private value, a password
made of letters only, of ordinary words or containing spaces, a numeric or short value (under eight
bytes), a key with an unpublished shape that is not assigned to a credential-like name, a credential
split across lines, or any encoded, encrypted or obfuscated secret. Passing the screen is no proof that
content is free of secrets.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

__all__ = ["KINDS", "find_secret"]

KINDS: Mapping[str, str] = MappingProxyType(
    {
        "private_key": "a private key block",
        "github_token": "a GitHub token",
        "gitlab_token": "a GitLab token",
        "aws_access_key": "an AWS access key ID",
        "aws_secret_key": "an AWS secret access key",
        "slack_token": "a Slack token",
        "slack_webhook": "a Slack webhook URL",
        "discord_webhook": "a Discord webhook URL",
        "anthropic_key": "an Anthropic API key",
        "openai_key": "an OpenAI-style API key",
        "google_api_key": "a Google API key",
        "google_oauth_token": "a Google OAuth client secret or access token",
        "stripe_key": "a Stripe secret key",
        "huggingface_token": "a Hugging Face token",
        "npm_token": "an npm access token",
        "pypi_token": "a PyPI API token",
        "sendgrid_key": "a SendGrid API key",
        "digitalocean_token": "a DigitalOcean token",
        "shopify_token": "a Shopify access token",
        "databricks_token": "a Databricks access token",
        "telegram_bot_token": "a Telegram bot token",
        "vault_token": "a HashiCorp Vault token",
        "azure_connection_string": "an Azure connection string with an account key",
        "signed_url": "a pre-signed URL carrying an access signature",
        "jwt": "a JSON Web Token",
        "credential_url": "a URL with an embedded password",
        "authorization_header": "an authorization header carrying a credential",
        "bearer_token": "a bearer token",
        "command_line_credential": "a credential passed as a command-line argument",
        "netrc_password": "a netrc entry with a password",
        "credential_assignment": "a value assigned to a credential-like name",
    }
)
"""Every kind :func:`find_secret` can return, with a short description for error messages."""

_MIN_VALUE = 8
_MIN_DISTINCT = 4
_TRAILING = b",;.:)]}>"  # trimmed from a value so "set password=abc123xyz." leaves out the full stop

# What a value is in prose or config: one run up to whitespace or a quote.
_VALUE = rb"[ \t]{0,8}[\"'`]?([^\s\"'`]{1,256})"

# Values that stand for a secret without being one: template and environment references, masks,
# and the usual "put your key here" wording.
_PLACEHOLDER = (
    rb"[$%<{\[(#].*|.*[>}]|\*+|\.+|x+|X+"
    rb"|(?i:(?:your|my|insert|replace|put|enter)[-_].*|.*[-_]here"
    rb"|password|passwd|pass|pwd|secret|token|changeme|changeit|redacted|placeholder|hidden|masked)"
)

# Values that name where a secret lives, or name something else, rather than containing a secret.
_REFERENCE = (
    rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+"  # settings.SECRET_KEY, ed25519.PrivateKey
    rb"|[A-Z]+[0-9]{0,2}(?:_[A-Z]+[0-9]{0,2})+"  # OPENAI_API_KEY_V2, but not a random RUN_OF_CAPS7X2
    rb"|[a-z]+[0-9]*(?:[-_.](?:[a-z]+[0-9]*|[0-9]+))+"  # hmac-sha256, db-creds-v2
    rb"|[a-z0-9_-]+(?:/[a-z0-9_.-]+)+"  # projects/123/secrets/db
    rb"|(?:~|\.{1,2})?/.*|[A-Za-z]:\\.*"  # file paths
    rb"|[A-Za-z][A-Za-z0-9+.-]*://.*"  # URLs; embedded passwords have their own rule
    rb"|(?i:arn|vault|op|env|file|ssm|sm|gsm|keyvault|secretsmanager|ref):.*"
    rb"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"  # email addresses
    rb"|.*[(\[].*"  # a call or subscript: os.getenv("X"), env["X"]
    rb"|[A-Za-z_][A-Za-z0-9_]*=[^=].*"  # an option list such as id=npmrc,src=..., not padding
)

# A letter together with a digit or a symbol: "hunter2x", "pa$$word". Letters alone are too often
# type and variable names (credentials: OAuthCredentials); a header value may also qualify by a
# lower-to-upper step, as base64 of a short user:password pair ("dXNlcjpwYXNz") does.
_TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]).*"
_HEADER_TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]|[a-z][A-Z]).*"

# A class name with digits in it (Ed25519PrivateKey, PKCS7PrivateKeyTypes, OAuth2Token): blocks
# of an optional acronym, optional digits and a capitalised word, with at least two real words.
_TYPE_NAME = rb"(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]+)+"
_WORD = rb"[A-Z][a-z]{2,}"

# Pagination cursors, the names of existing secret objects and public values (.NET's
# publicKeyToken) end in "token" or "secret" too.
_NOT_CREDENTIAL_NAME = (
    rb"(?i:.*?(?:next|page|continuation|cursor|sync|existing)[_.-]?(?:token|secret)|.*public.*)"
)

# A name ends in a credential word. Distinctive words may follow any prefix (dbpassword); short
# ones need a separator or a camel-case step before them (GITHUB_TOKEN, authToken, DB_PWD).
_CREDENTIAL_NAME = (
    rb"[A-Za-z0-9_.-]*?(?:(?i:pass(?:word|wd|phrase)|secret|credentials?"
    rb"|(?:auth|access|refresh|api|bot|oauth|session)token"
    rb"|(?:api|access|secret|private|signing|encryption|master|account|app|client|consumer|license"
    rb"|auth|shared[_.-]?access)[_.-]?key|secret[_.-]?key[_.-]?base)"
    rb"|(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z])|(?<![A-Za-z0-9_.-]))(?i:token|pwd|pass))"
)
_NAME_BEFORE = rb"[A-Za-z0-9_.-]+\Z"
_KEY_HEADER = (
    rb"(?i:(?:x-(?:[a-z0-9]+-){0,2})?"
    rb"(?:api|auth|access|security|session|vault|private|subscription|functions))"
)
_NAME_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_MAX_NAME = 64

# A colon separates a value only when a space or quote follows, as in YAML and JSON, so the
# "secret:prod/db" inside an ARN is not an assignment.
_SEPARATOR = rb"=>|:=|=(?!=)|:(?=[ \t\"'`])"

_TOKEN_GAP = rb"[A-Za-z0-9_-]"
_E = rb"(?![A-Za-z0-9_-])"  # a token ends where its run of token characters ends


def _lead(lead: bytes, rest: bytes, gap: bytes = _TOKEN_GAP) -> bytes:
    """``lead`` then ``rest``, where ``lead`` (fixed width) must not continue a run of ``gap``.

    The look-behind follows the lead instead of preceding it, so the pattern still starts with a
    literal and the engine jumps between its occurrences instead of trying every position, which is
    what keeps a screen well under a millisecond.
    """
    return lead + rb"(?<!" + gap + lead + rb")" + rest


class _Screen:
    """The compiled rules and the shape checks that use them."""

    def __init__(self) -> None:
        self.value = re.compile(_VALUE)
        self.placeholder = re.compile(_PLACEHOLDER)
        self.reference = re.compile(_REFERENCE)
        self.texture = re.compile(_TEXTURE)
        self.header_texture = re.compile(_HEADER_TEXTURE)
        self.type_name = re.compile(_TYPE_NAME)
        self.word = re.compile(_WORD)
        self.credential_name = re.compile(_CREDENTIAL_NAME)
        self.not_credential_name = re.compile(_NOT_CREDENTIAL_NAME)
        self.name_before = re.compile(_NAME_BEFORE)
        self.key_header_name = re.compile(_KEY_HEADER)
        self.rules = tuple((kind, re.compile(source), check) for kind, source, check in _RULES)

    def first_kind(self, buffer: bytearray) -> str | None:
        """The kind of the first rule, in priority order, with a match that passes its check."""
        for kind, pattern, check in self.rules:
            for match in pattern.finditer(buffer):
                if check(self, buffer, match):
                    return kind
        return None

    def looks_secret(self, buffer: bytearray, start: int, end: int, *, header: bool = False) -> bool:
        """Whether ``buffer[start:end]`` has the shape of a credential rather than a word or reference."""
        while end > start and buffer[end - 1] in _TRAILING:
            end -= 1
        texture = self.header_texture if header else self.texture
        return (
            end - start >= _MIN_VALUE
            and _distinct(buffer, start, end) >= _MIN_DISTINCT
            and texture.fullmatch(buffer, start, end) is not None
            and self.placeholder.fullmatch(buffer, start, end) is None
            and self.reference.fullmatch(buffer, start, end) is None
            and not self.is_type_name(buffer, start, end)
        )

    def is_type_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` reads as a class name made of words."""
        if self.type_name.fullmatch(buffer, start, end) is None:
            return False
        words = self.word.finditer(buffer, start, end)
        return next(words, None) is not None and next(words, None) is not None

    def value_follows(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for rules that end where a value starts (flags, netrc, bearer)."""
        value = self.value.match(buffer, match.end())
        return value is not None and self.looks_secret(buffer, value.start(1), value.end(1))

    def header_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for authorization headers, whose base64 values may be letters only."""
        value = self.value.match(buffer, match.end())
        return value is not None and self.looks_secret(buffer, value.start(1), value.end(1), header=True)

    def body(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for provider shapes: the random part is not a run of one character or a placeholder."""
        start, end = match.span("body") if "body" in match.re.groupindex else (-1, -1)
        if start < 0:  # no body group, or it sits in an alternative that did not take part
            start, end = match.span()
        return (
            _distinct(buffer, start, end) >= _MIN_DISTINCT
            and self.placeholder.fullmatch(buffer, start, end) is None
        )

    def url_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for credential URLs: any password except a placeholder, however short."""
        start, end = match.span("body")
        return self.placeholder.fullmatch(buffer, start, end) is None and _distinct(buffer, start, end) > 1

    def key_header(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``X-Api-Key:``-style headers: a known name before the ending, then a value."""
        name = self.name_before.search(buffer, max(0, match.start() - _MAX_NAME), match.start())
        return (
            name is not None
            and not (name.start() and buffer[name.start() - 1] in _NAME_CHARS)
            and self.key_header_name.fullmatch(buffer, name.start(), match.start()) is not None
            and self.header_value(buffer, match)
        )

    def assignment(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a separator: a credential-like name before it and a credential-shaped value after.

        The rule searches for separators rather than names because a pattern that starts with a
        name would be tried at every word of the content.
        """
        end = match.start()
        for _ in range(4):
            if end and buffer[end - 1] in b" \t":
                end -= 1
        if end and buffer[end - 1] == ord("]"):  # ENV['API_TOKEN'] = ...
            end -= 1
        if end and buffer[end - 1] in b"\"'":  # "password": ...
            end -= 1
        name = self.name_before.search(buffer, max(0, end - _MAX_NAME), end)
        if name is None or (name.start() and buffer[name.start() - 1] in _NAME_CHARS):
            return False  # no name, or one longer than any credential name worth matching
        return (
            self.credential_name.fullmatch(buffer, name.start(), end) is not None
            and self.not_credential_name.fullmatch(buffer, name.start(), end) is None
            and self.value_follows(buffer, match)
        )


def _distinct(buffer: bytearray, start: int, end: int) -> int:
    # A memoryview slice reads the bytes in place; a bytearray slice would copy them.
    with memoryview(buffer) as view:
        return len(set(view[start:end]))


_Check = Callable[[_Screen, bytearray, re.Match[bytes]], bool]

# In priority order: the most specific description of a credential wins.
_RULES: tuple[tuple[str, bytes, _Check], ...] = (
    (
        "private_key",
        rb"-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[nr])*"
        rb"(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]{2,32}:[ \t])",
        _Screen.body,
    ),
    ("private_key", rb"Private-Lines:[ \t]*[0-9]+\s+[A-Za-z0-9+/=]{16}", _Screen.body),
    ("private_key", rb"AGE-SECRET-KEY-1(?P<body>[0-9A-Z]{58})", _Screen.body),
    ("github_token", _lead(rb"gh", rb"[pousr]_(?P<body>[A-Za-z0-9]{36,251})" + _E), _Screen.body),
    ("github_token", _lead(rb"github_pat_", rb"(?P<body>[A-Za-z0-9_]{60,240})" + _E), _Screen.body),
    (
        "gitlab_token",
        _lead(rb"gl", rb"(?:pat|ptt|dt|rt|cbt|soat|ffct|imt)-(?P<body>[A-Za-z0-9_.-]{20,255})"),
        _Screen.body,
    ),
    (
        "aws_access_key",
        _lead(rb"A", rb"(?:KIA|SIA|BIA|CCA)(?P<body>[A-Z0-9]{16})(?![A-Za-z0-9])", gap=rb"[A-Za-z0-9]"),
        _Screen.body,
    ),
    (
        "aws_secret_key",
        rb"(?i)"
        + _lead(rb"a", rb"ws[_.-]?secret[_.-]?(?:access[_.-]?)?key[\"']?", gap=rb"[a-z0-9]")
        + rb"[ \t]{0,4}(?:=>|:=|=|:)[ \t]{0,4}[\"']?(?P<body>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        _Screen.body,
    ),
    ("slack_token", _lead(rb"x", rb"(?:ox[abposre]|app)-(?P<body>[A-Za-z0-9-]{10,250})"), _Screen.body),
    (
        "slack_webhook",
        rb"hooks\.slack\.com/(?:services|workflows|triggers)/"
        rb"(?:[A-Za-z0-9]+/){1,4}(?P<body>[A-Za-z0-9]{16,})",
        _Screen.body,
    ),
    (
        "discord_webhook",
        rb"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/(?P<body>[A-Za-z0-9_-]{40,})",
        _Screen.body,
    ),
    ("anthropic_key", _lead(rb"sk-ant-", rb"(?P<body>[A-Za-z0-9_-]{20,250})"), _Screen.body),
    ("openai_key", _lead(rb"sk-", rb"(?:proj|svcacct|admin)-(?P<body>[A-Za-z0-9_-]{20,250})"), _Screen.body),
    ("openai_key", _lead(rb"sk-", rb"[A-Za-z0-9]{32,200}" + _E), _Screen.body),
    ("google_api_key", _lead(rb"AIza", rb"(?P<body>[A-Za-z0-9_-]{35})" + _E), _Screen.body),
    ("google_oauth_token", _lead(rb"GOCSPX-", rb"(?P<body>[A-Za-z0-9_-]{24,64})"), _Screen.body),
    ("google_oauth_token", _lead(rb"ya29\.", rb"(?P<body>[A-Za-z0-9_-]{30,})"), _Screen.body),
    ("stripe_key", _lead(rb"[sr]k_", rb"(?:live|test)_(?P<body>[A-Za-z0-9]{16,250})"), _Screen.body),
    ("stripe_key", _lead(rb"whsec_", rb"(?P<body>[A-Za-z0-9]{24,250})"), _Screen.body),
    ("huggingface_token", _lead(rb"hf_", rb"(?P<body>[A-Za-z0-9]{30,64})" + _E), _Screen.body),
    ("huggingface_token", _lead(rb"api_org_", rb"(?P<body>[A-Za-z0-9]{30,64})" + _E), _Screen.body),
    ("npm_token", _lead(rb"npm_", rb"(?P<body>[A-Za-z0-9]{36})" + _E), _Screen.body),
    ("pypi_token", _lead(rb"pypi-AgE", rb"(?P<body>[A-Za-z0-9_-]{50,})"), _Screen.body),
    ("sendgrid_key", _lead(rb"SG\.", rb"(?P<body>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})" + _E), _Screen.body),
    ("digitalocean_token", _lead(rb"do", rb"[opr]_v1_(?P<body>[a-f0-9]{64})" + _E), _Screen.body),
    ("shopify_token", _lead(rb"shp", rb"(?:at|ca|pa|ss)_(?P<body>[a-fA-F0-9]{32})" + _E), _Screen.body),
    ("databricks_token", _lead(rb"dapi", rb"(?P<body>[a-f0-9]{32})(?:-[0-9])?" + _E), _Screen.body),
    (
        "telegram_bot_token",
        _lead(rb"[0-9]", rb"[0-9]{7,9}:(?P<body>AA[A-Za-z0-9_-]{33})" + _E, gap=rb"[A-Za-z0-9:]"),
        _Screen.body,
    ),
    ("vault_token", _lead(rb"hv", rb"[sbr]\.(?P<body>[A-Za-z0-9_-]{24,})"), _Screen.body),
    (
        "azure_connection_string",
        rb"(?:Account|SharedAccess)Key[ \t]*=[ \t]*(?P<body>[A-Za-z0-9+/]{20,}={0,2})",
        _Screen.body,
    ),
    (
        "signed_url",
        rb"[?&](?:sig|X-Amz-Signature|X-Goog-Signature|Signature)=(?P<body>[A-Za-z0-9%+/_-]{16,})",
        _Screen.body,
    ),
    ("jwt", _lead(rb"eyJ", rb"[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"), _Screen.body),
    # Only the part after the scheme matters, and "://" is a literal the engine can jump to.
    (
        "credential_url",
        rb"://[^\s:/?#@\"'<>]{0,128}:(?P<body>[^\s/?#@\"'<>]{1,128})@[A-Za-z0-9\[_.-]",
        _Screen.url_password,
    ),
    (
        "authorization_header",
        rb"(?i)"
        + _lead(rb"a", rb"uthorization[\"']?[ \t]*[:=][ \t]*[\"']?", gap=rb"[a-z0-9]")
        + rb"(?:(?:basic|bearer|token|digest|apikey|api-key|key|sso-key|bot|hmac|negotiate|ntlm)[ \t]+)?",
        _Screen.header_value,
    ),
    # X-Api-Key, X-Auth-Token, Private-Token...: found by their "-key:" or "-token:" ending, the
    # one literal part, with the rest of the name checked before it.
    ("authorization_header", rb"-(?i:key|token)[\"']?[ \t]*:", _Screen.key_header),
    ("bearer_token", rb"(?i)" + _lead(rb"b", rb"earer[ \t]+", gap=rb"[a-z0-9_-]"), _Screen.value_follows),
    (
        "command_line_credential",
        rb"(?i)"
        + _lead(
            rb"-",
            rb"(?:-?(?:[a-z0-9]+-){0,3}"
            rb"(?:password|passwd|pass|token|api-?key|access-key|secret-key|auth-token)[ \t]+"
            rb"|(?:u|-user)[ \t]+[\"']?[^\s:\"']{1,64}:)",
            gap=rb"[a-z0-9_-]",
        ),
        _Screen.value_follows,
    ),
    (
        "netrc_password",
        _lead(rb"machine", rb"\s+\S{1,253}\s+login\s+\S{1,253}\s+password[ \t]+"),
        _Screen.value_follows,
    ),
    ("credential_assignment", _SEPARATOR, _Screen.assignment),
)


@functools.cache
def _screen() -> _Screen:
    # Compiling every rule takes over ten milliseconds, so it happens once, on the first screen,
    # rather than on import: a process that never writes memory never pays for it.
    return _Screen()


def _screen_and_zero(buffer: bytearray) -> str | None:
    """Screen ``buffer`` and overwrite it with zeros, whatever happens.

    Args:
        buffer: UTF-8 content owned by the caller for this call only; it is all zeros on return.

    Returns:
        The kind of the first rule, in priority order, that matches, or ``None``.
    """
    try:
        return _screen().first_kind(buffer)
    finally:
        # Same-length slice assignment writes into the existing allocation rather than replacing it.
        buffer[:] = bytes(len(buffer))


def find_secret(content: str) -> str | None:
    """Find the first obvious credential in ``content``.

    Args:
        content: Candidate memory content.

    Returns:
        ``None`` when nothing looks like a credential, else a key of :data:`KINDS`. The result is one
        of those constant names and never contains any part of the matched value.
    """
    # surrogatepass: a lone surrogate from parsed JSON must be screened, not crash the screen.
    return _screen_and_zero(bytearray(content, "utf-8", "surrogatepass"))

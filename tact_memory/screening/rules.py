"""The screen's rules: each a kind, a pattern and the check that confirms its matches, in priority
order.

Design:

- Every rule is a compiled bytes regular expression plus a small shape check. Rules run in a fixed
  priority order, most specific first: a GitHub token assigned to ``GITHUB_TOKEN`` is reported as
  ``github_token`` rather than as a generic ``credential_assignment``. The result is the first rule,
  in that order, with a match that passes its check.
- Provider tokens are recognised by their published prefixes and usual lengths, anchored so they
  cannot start in the middle of a longer word. A body made of fewer than four distinct characters
  (``ghp_xxxx...``) is a documentation placeholder and is kept, and so is the whole token wherever
  it is given as a value (``GITHUB_TOKEN=ghp_aaaa...``, a header, a URL's password).

Why this module is longer than ~300 lines: it is one table; the rules read best side by side, and
splitting them would hide which rule wins.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from . import providers
from .buffers import LINKING
from .checks import Checks
from .comment_marks import mark_pattern
from .leads import TOKEN_END, cased, literal_lead, spelled, word_start
from .names import COOKIE_SEPARATOR, ECHOED_INTO, HERE_DOCUMENT, HERE_STRING, STDIN_READERS
from .printed import NAMED, PRINTING
from .vocabulary import (
    BARE_PASSWORD_WORDS,
    FENCE_OPENING,
    LATIN_KEY_WORDS,
    OTHER_FOR,
    OTHER_KEY_WORDS,
    OTHER_PARTICLES,
    OTHER_PASSWORD_WORDS,
)

__all__ = ["OTHER_SCRIPTS", "PROVIDERS", "RULES", "rule_leads", "rules_digest"]


_LOGIN_USER = (
    rb"(?:(?P<user>[\"'])[^\"'\r\n]{1,128}(?P=user)"
    rb"|[$@]?[A-Za-z_][A-Za-z0-9_.]{0,64}(?:\[[^\[\]\r\n]{1,64}\]|\([^()\r\n]{0,64}\)|\.[A-Za-z_][A-Za-z0-9_]{0,32}|->[A-Za-z_][A-Za-z0-9_]{0,32}){0,4})"
)
"""The user a login call is given before its password: a string, or a variable, an element of one,
what a call returns or an attribute of either (``cfg["user"]``, ``os.environ["SMTP_USER"]``,
``get_user()``, ``users[0].name``), a PHP or Perl variable too (``$user``, ``$cfg->user``)."""
_LOGIN_HOST = rb"(?:(?P<host>[\"'])[^\"'\r\n]{1,253}(?P=host)|[$@]?[A-Za-z_][A-Za-z0-9_.]{0,64})"
"""The host or server a login call is given before its user: a string, or a variable or an
attribute (``"db.internal"``, ``hostname``, ``self.server``, ``$host``)."""

_KEYRING_SERVICE = rb"(?:[\"'][^\"'\r\n]{1,128}[\"']|[A-Za-z_][A-Za-z0-9_.]{0,64})"
"""The service a keyring holds a password for, before its user: a string or a name."""
_SELECTOR = rb"(?P<quote>[\"'`])(?P<selector>(?:(?!(?P=quote))[^\r\n]){1,128}?)(?P=quote)"
"""A field's selector or label in quotes, as a browser test gives it."""

_SEPARATOR = rb"=>|:=|=(?!=)|:(?![:/])"

_SEED_WORD_COUNT = rb"[ -](?i:words?)(?:[ _-](?i:phrase|seed|mnemonic|backup))?"
"""What follows a seed phrase's count of words as its name (``12 words``, ``24-word phrase``)."""
_WALLET_PHRASE = rb"[ _-]?(?:(?i:recovery|secret|seed|backup)[ _-])?(?i:phrase|words|seed)"
"""What follows a wallet's name when a note names its seed phrase by it (``MetaMask phrase``, ``Ledger
recovery phrase``, ``Phantom seed``)."""

_PAIR_VALUE = rb"[\"']?[ \t]*(?:=|:(?![:/]))"
"""What follows a name/value pair's ``value``: a closing quote (JSON's ``"value":``) and its separator."""

_PAYLOAD = rb"[ \t]*\{[^{}()\r\n]{0,256}\}[ \t]*"
"""A token's claims written in place, one level of braces with commas inside (``{"sub": "42",
"role": "admin"}``), before the signing secret."""

_NAME_ENDS = rb"(?=[.!?]?[ \t]*(?:\Z|[\r\n,;:)\"'`])|[ \t]+(?:for|of|to|on|in|at|when|whenever|if|unless)[ \t])"
"""What may follow a credential's name that a sentence gives after its value: the clause's end, what
it is for (hunter2 is the password for the demo), or when it is asked for (use ... as the password
when prompted)."""

_ADVERB = rb"(?:(?:now|still|also|currently|simply|just|always|both|literally|actually|really|temporarily)[ \t]+)?"
"""A word that may stand between a linking word and the value (the key is now ...)."""


_Check = Callable[[Checks, bytearray, re.Match[bytes]], bool]


_UNLOCKED_WITH = rb"(?:s|ed|ing)?(?:[ \t]+(?:[^\s.,;:!?()]|\.(?=\S))+){0,6}?(?:[ \t]+(?:with|using)|,?[ \t]+(?:type|enter))[ \t]+"
"""An unlocking verb's end to what it is given (:meth:`~.sentences.SentenceChecks.unlocking_value`):
what it unlocks, in one clause, then "with" or "using", or "type" or "enter" (to unlock the
laptop, type ...)."""

_LOGIN_FOR = rb"(?:[ \t]+(?:for|in[ \t]+case|if|when|until|while)[ \t]+[^:\n]{1,40}?|[ \t]+\([^()\n]{1,40}\))?"
"""What a login's word may say of it before its colon: what it is for or when it serves, in up to
forty bytes (``for the demo``, ``in case 1Password is down``), or an aside after a space
(``creds (staging)``; ``login(credentials)`` is a function's)."""
_LOGIN_PAIR = (
    _LOGIN_FOR + rb"(?:[ \t]*:|[ \t]+(?:is|are|was)(?:[ \t]*:)?)[ \t]+"
    rb"(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})(?P<joint>/|,[ \t]+|[ \t]+and[ \t]+)"
)
"""A login's word's end to a password's start (:meth:`~.sentences.SentenceChecks.login_joined_pair`):
what the login is for (:data:`_LOGIN_FOR`), a colon or "is", the user and a slash with no space, a
comma or "and"."""
_IT_IS = rb"[Ii]t(?:'s|\xe2\x80\x99s| is)"
""""It is" as a note gives a value with it: it's, it\u2019s, it is (the pronoun and answer rules)."""
_NEXT_LINE = rb"[ \t]*\r?\n(?:" + FENCE_OPENING + rb")?[ \t]*(?:[-*][ \t]+)?"
"""A line break, and what may open the next line before a value: a code fence's line, a list's mark."""
_LOGIN_PAIR_BELOW = (
    _LOGIN_FOR + rb"(?:[ \t]*:|[ \t]+(?:is|are|was)[ \t]*:)" + _NEXT_LINE
    + rb"(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})(?P<joint>/|[ \t]+/[ \t]+|" + _NEXT_LINE + rb")"
)
"""The same pair below a login's word and a colon that end their line: the user, then a slash
(spaced or not) or a line break before the password (``Credentials:`` / ``app`` / ``...``)."""


def _provider_rules() -> tuple[tuple[str, bytes, _Check], ...]:
    """Published prefixes and lengths of other providers' tokens, and tokens marked inside (:mod:`.providers`)."""
    return (
        *((kind, word_start(prefix, rb"(?P<body>" + shape + rb")" + TOKEN_END), Checks.body) for kind, prefix, shape in providers.PREFIXED),
        *((kind, pattern, Checks.body) for kind, pattern in providers.MARKED),
    )


def _other_word(word: bytes, after: bytes, check: _Check) -> tuple[str, bytes, _Check]:
    """A rule for "password" written as ``word`` (in no longer word), then ``after``."""
    return ("credential_assignment", word + rb"(?<![A-Za-z]" + re.escape(word) + rb")" + after, check)


_OTHER_COLON = rb"[ \t]*[:=](?![:=/])"
_LATIN_KEY_COLON = rb"(?:[ \t]+(?:" + OTHER_FOR + rb")[ \t]+[^\r\n:=,.;!?]{1,48}?)?" + _OTHER_COLON
"""The colon after an API key's or a secret key's name in Latin letters, also after what the key is
for (la clé API du service : …, der API-Schlüssel für Produktion: …, la chiave API del servizio: …)."""


def _colon_after(word: bytes) -> bytes:
    """What a colon after ``word`` may follow: :data:`_LATIN_KEY_COLON` for a key's name in Latin letters."""
    return _LATIN_KEY_COLON if word in LATIN_KEY_WORDS else _OTHER_COLON


_OTHER_PARTICLE = rb"(?:" + b"|".join(OTHER_PARTICLES) + rb")[ \t]?"
_OTHER_WORDS = OTHER_PASSWORD_WORDS + OTHER_KEY_WORDS
_CYRILLIC_WORDS = tuple(word for word in _OTHER_WORDS if any("\u0400" <= letter <= "\u04ff" for letter in word.decode()))
_CYRILLIC_LINK = (
    "[ \t]+(?:(?:—|–|-)[ \t]+|(?:для|от|к|на|від|до)[ \t]+[^\r\n:,.;!?]{1,48}?(?::(?![:/])[ \t]*|[ \t]+(?:—|–|-)[ \t]+))"
).encode()
"""Russian and Ukrainian: a dash for "is", or what the password or key is for and a colon or a
dash (пароль для сервера: …, ключ API от продакшена — …)."""
_OTHER_LINKS = (
    (b"salasana", rb"[ \t]+on[ \t]+"),  # Finnish
    (b"Salasana", rb"[ \t]+on[ \t]+"),
    (b"parola", rb"[ \t]+este[ \t]+"),  # Romanian's definite form (Italian's "parola", a word, takes no "este")
    (b"Parola", rb"[ \t]+este[ \t]+"),
    (b"kata sandi", rb"(?:nya)?[ \t]+adalah[ \t]+"),  # Indonesian
    (b"Kata sandi", rb"(?:nya)?[ \t]+adalah[ \t]+"),
    ("mật khẩu".encode(), "[ \t]+là[ \t]+".encode()),  # Vietnamese
    ("Mật khẩu".encode(), "[ \t]+là[ \t]+".encode()),
    ("κωδικός πρόσβασης".encode(), "[ \t]+είναι[ \t]+".encode()),  # Greek
    ("Κωδικός πρόσβασης".encode(), "[ \t]+είναι[ \t]+".encode()),
    ("รหัสผ่าน".encode(), "[ \t]*คือ[ \t]*".encode()),  # Thai
    *((word, _CYRILLIC_LINK) for word in _CYRILLIC_WORDS),  # Russian, Ukrainian
)
"""A password's word in a language whose "is" the linking words do not know, and that "is": Finnish
"on" and Indonesian "adalah" are English and Malay words too, so each counts only after the word
for a password; the value is judged as after "is" in a script without spaces. Russian and
Ukrainian words count with their "is" and with what they are for."""
_OTHER_SCRIPT_RULES = tuple(
    _other_word(word, after, check)
    for word in _OTHER_WORDS
    if not word.isascii()
    for after, check in (
        (_colon_after(word), Checks.assignment_in_other_words),
        (_OTHER_PARTICLE, Checks.sentence_in_other_words),
    )
) + tuple(_other_word(word, link, Checks.sentence_in_other_words) for word, link in _OTHER_LINKS if not word.isascii())
"""The words not in ASCII, before a colon, a particle or their language's "is": content in ASCII
alone skips them (:data:`OTHER_SCRIPTS`)."""
_OTHER_WORD_RULES = (
    _OTHER_SCRIPT_RULES
    + tuple(_other_word(word, _colon_after(word), Checks.assignment_in_other_words) for word in _OTHER_WORDS if word.isascii())
    + tuple(_other_word(word, link, Checks.sentence_in_other_words) for word, link in _OTHER_LINKS if word.isascii())
)

_ARMOUR_OPEN = rb"-? ?"  # after four dashes: a fifth (PEM), or a space (SSH2)
_ARMOUR_CLOSE = rb" ?-{4,5}"
_KEY_BREAK = rb"(?:\s|\\[nr]|" + mark_pattern().encode() + rb")*"
"""Between a key's armour line and its body: line breaks (escaped in a string too), and the marks a
quote or a comment puts before each line (``> ``, ``# ``, ``// ``, ``-- ``, ``REM `` and the
others of :mod:`.comment_marks`)."""
_OPENVPN_KEY = rb"OpenVPN (?:Static key V1|tls-crypt-v2 (?:server|client) key)"


def _options_then_argument(valued: bytes, other: bytes = b"") -> bytes:
    """A command's options, then the space before its argument: the long options in ``valued``
    with their values (``--registry x``, ``--name=x``), ``other`` alternatives of the tool's own,
    and any other option alone, which is read as taking no value."""
    return (
        rb"(?:[ \t]+(?:--(?:" + valued + rb")(?:[ \t]+|=)\S{1,128}" + other
        + rb"|-(?!-(?:" + valued + rb")(?![A-Za-z0-9-]))-?[A-Za-z][A-Za-z0-9_-]{0,31}))*[ \t]+"
    )


_ARGUMENT_GAPS = (
    rb"[ \t]+",
    rb"(?P<item>[\"'])[ \t]*,[ \t]*(?=(?P=item))",
    rb"(?:(?P<item>[\"'])(?=[ \t]*\r?\n[ \t]*-[ \t]+(?P=item)))?[ \t]*\r?\n[ \t]*-[ \t]+",
)
"""What stands between an option and its value: spaces on a command line; the quote, comma and
space between the items of an argument list (JSON's, Python's, a Dockerfile's exec form:
["--password", "..."]); the line break and dash between the items of YAML's block list, each
quoted or not. The list forms name their quote ``item``, by which a check tells a list's quoting,
given to every item, from a command line's (:meth:`.PlaceChecks.flag_value`)."""

_DEFAULT_ACCOUNTS = (b"admin", b"administrator", b"root", b"superuser", b"sysadmin", b"dbadmin", b"guest", b"vagrant")
"""The accounts systems come with (:data:`.vocabulary.DEFAULT_ACCOUNT`) that lead the rules of a
user and a password joined without spaces around a slash or by "and"; ``sa`` and the cloud images'
users are left out, as a lead of two letters or a product's name would cost every record a check."""

_NO_TYPE = rb"(?!(?i:int|str|string|float|double|bool|boolean|number|any|bytes|list|dict|none|null|true|false)(?![A-Za-z0-9_]))"
_SHORT_PAIR = rb"[ \t]*" + _NO_TYPE + rb"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}[ \t]*[,;/|]?[ \t]*[pP]:[ \t]*"
"""After a user's short label and its colon: the user (no type's name), then ``p:`` (``u: admin p: ``)."""
_SHORT_PAIR_SET = _NO_TYPE + rb"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}(?:[ \t]+|[ \t]*[,;&|][ \t]*)[pP]="
"""... and with ``=`` for the colons, the pairs apart (``u=ci-bot p=…``, ``?u=ann&p=…``)."""

_HOST = (
    rb"(?!sha(?:1|224|256|384|512)\b)"
    rb"(?:(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z][A-Za-z0-9-]{0,62}|[0-9]{1,3}(?:\.[0-9]{1,3}){3}|\[[0-9A-Fa-f:.]{2,45}\])"
)
"""A host: a name whose last label starts with a letter (so a package's ``@1.2.3`` version is none)
and is no digest's algorithm (an image's ``name:tag@sha256:...``), an IPv4 or a bracketed IPv6
address."""
_PROXY_USERINFO = (
    rb"[\"']?(?P<user>[^\s:/?#@\"'<>]{1,128}):(?P<body>[^\s@\"'<>]{1,128})@" + _HOST
    + rb"(?![A-Za-z0-9_@-]|\.[A-Za-z0-9_-])"  # a sentence's full stop may follow
)
"""A user, a password and a host."""
_LOGON_USER = rb"[\"']?[A-Za-z][A-Za-z0-9_$#.]{0,63}/"
"""An Oracle user before the "/" that starts its password."""
_HOST_PORT = _HOST + rb":[0-9]{2,5}(?![0-9A-Za-z_])"
"""A host and a port."""
_PAIR_LABEL = (
    rb"(?i:password|passwd|pass|pwd|pw|p)(?![A-Za-z0-9])[ \t]*(?:[:=-]|(?<=[ \t]))[ \t]*"
    rb"(?P<user>[^\s/:]{1,64})(?:/|:|[ \t]+/[ \t]+)(?=\S)"
)
"""What follows the slash of a label that names a user and a password (``password: ``, ``pw = ``,
``pwd - ``, ``pass ``), then the user and what joins the password to it."""
_ENCODED_PAIR = rb"(?P<encoded>[A-Za-z0-9+/]{12,256}={0,2})(?![A-Za-z0-9+/=])"
"""A user and a password as base64 holds them: ``a:bcdefg`` is twelve characters."""
_DEVICE_TYPE = rb"(?:[07][ \t]+)?"
"""The type a network device's configuration may give before a secret: 0 for clear text, 7 for
Cisco's reversible encoding. Both stand for the secret itself."""
_SERVER_KEY = rb"[ \t]+(?:host[ \t]+\S{1,64}[ \t]+(?:[a-z-]{1,16}[ \t]+[0-9]{1,5}[ \t]+){0,3})?key[ \t]+"
"""What comes between ``tacacs-server`` or ``radius-server`` and its key: a host and its ports, or nothing."""
_COMMUNITY = rb"[ \t]+community[ \t]+"
"""What comes between ``snmp-server`` (Cisco) or ``snmp`` (Juniper's ``set snmp``) and a community."""
_DEVICE_VALUE = rb"(?![0-9][ \t]|[\"']?\$(?!9\$)[0-9A-Za-z]{1,8}\$|ENC[ \t]|sha[0-9]{3}[ \t])(?=\S)"
"""Where a device's secret starts: not at another type (5, 8 and 9 give hashes, 6 an encrypted
value), a hash (``$1$...``, ``$6$...``) or FortiOS's encrypted ``ENC ...``. Juniper's ``$9$...``
with no type before it is an encoding anyone can turn back, as Cisco's type 7 is: the secret."""

# In priority order: the most specific description of a credential wins.
RULES: tuple[tuple[str, bytes, _Check], ...] = (
    # PEM and OpenSSH armour has five dashes; the SSH2 format (RFC 4716) has four and a space
    # (---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----).
    (
        "private_key",
        rb"----" + _ARMOUR_OPEN + rb"BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?" + _ARMOUR_CLOSE + _KEY_BREAK
        + rb"(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]{2,32}:[ \t])",
        Checks.body,
    ),
    # An armour line on its own is refused even without its body: the key was there, or is next.
    (
        "private_key",
        rb"----" + _ARMOUR_OPEN + rb"(?:BEGIN|END)[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?" + _ARMOUR_CLOSE,
        Checks.armour_alone,
    ),
    # OpenVPN's shared keys (--secret, --tls-auth, --tls-crypt) and tls-crypt-v2 keys: hex or
    # base64 lines between armour lines of their own, after an optional comment line.
    (
        "openvpn_key",
        rb"-----BEGIN " + _OPENVPN_KEY + rb"-----(?:\s|\\[nr])*(?:#[^\r\n\\]{0,80}(?:\s|\\[nr])+)?" + _KEY_BREAK
        + rb"[A-Za-z0-9+/=]{16}",
        Checks.body,
    ),
    ("openvpn_key", rb"-----(?:BEGIN|END) " + _OPENVPN_KEY + rb"-----", Checks.armour_alone),
    ("private_key", rb"Private-Lines:[ \t]*[0-9]+\s" + _KEY_BREAK + rb"[A-Za-z0-9+/=]{16}", Checks.body),
    ("private_key", rb"AGE-SECRET-KEY-1(?P<body>[0-9A-Z]{58})", Checks.body),
    # A private key's PEM in base64, as a Kubernetes Secret's tls.key or an environment variable
    # holds it: "-----BEGIN" encodes as LS0tLS1CRUdJTi, and its armour line names the key.
    ("private_key", rb"LS0tLS1CRUdJTi[A-Za-z0-9+/]{26,}", Checks.encoded_armour),
    # minisign's and signify's secret keys: a comment line that says so, then the key in base64.
    ("private_key", rb"untrusted comment:[^\r\n]{0,96}secret key[ \t]*\r?\n(?P<body>[A-Za-z0-9+/]{40,}={0,2})", Checks.body),
    # A JSON Web Key's private member: "d" of an EC, RSA or OKP key, "k" of a symmetric one
    # (kty "oct"), in the object whose "kty" the rule finds.
    ("private_key", rb"\"kty\"[ \t\r\n]*:[ \t\r\n]*\"(?P<kty>EC|RSA|OKP|oct)\"", Checks.private_jwk),
    ("github_token", word_start(rb"gh", rb"[pousr]_(?P<body>[A-Za-z0-9]{36,251})" + TOKEN_END), Checks.body),
    # A fine-grained token has 82 characters after its prefix; a shorter run with a digit in it is
    # still one (as the shipped version's own tests write it), in either case.
    *(
        ("github_token", word_start(lead, rb"(?P<body>[A-Za-z0-9_]{60,240}|(?=[A-Za-z_]{0,58}[0-9])[A-Za-z0-9_]{12,59})" + TOKEN_END), Checks.body)
        for lead in (rb"github_pat_", rb"GITHUB_PAT_")
    ),
    (
        "gitlab_token",
        word_start(rb"gl", rb"(?:pat|ptt|dt|rt|cbt|soat|ffct|imt|oas|ft|agent)-(?P<body>[A-Za-z0-9_.-]{20,255})"),
        Checks.body,
    ),
    ("gitlab_token", word_start(rb"GR1348941", rb"(?P<body>[A-Za-z0-9_-]{20,64})" + TOKEN_END), Checks.body),  # runner registration
    (
        "aws_access_key",
        word_start(rb"A", rb"(?:KIA|SIA|BIA|CCA)(?P<body>[A-Z0-9]{16})(?![A-Za-z0-9])", gap=rb"[A-Za-z0-9]"),
        Checks.body,
    ),
    (
        "aws_secret_key",
        rb"(?i)"
        + word_start(rb"a", rb"ws[_.-]?secret[_.-]?(?:access[_.-]?)?key[\"']?", gap=rb"[a-z0-9]")
        + rb"[ \t]{0,4}(?:=>|:=|=|:)[ \t]{0,4}[\"']?(?P<body>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        Checks.body,
    ),
    # xoxc- is the token of Slack's own clients (a browser session), used with the "d" cookie,
    # xoxd- and URL-encoded base64 (%2F, %2B, %3D).
    ("slack_token", word_start(rb"x", rb"(?:ox[abposrec]|app)-(?P<body>[A-Za-z0-9-]{10,250})"), Checks.body),
    ("slack_token", word_start(rb"xoxd-", rb"(?P<body>[A-Za-z0-9%/+=]{40,1000})(?![A-Za-z0-9%/+=_-])"), Checks.body),
    (
        "slack_webhook",
        rb"hooks\.slack\.com/(?:services|workflows|triggers)/"
        rb"(?:[A-Za-z0-9]+/){1,4}(?P<body>[A-Za-z0-9]{16,})",
        Checks.body,
    ),
    (
        "discord_webhook",
        rb"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/(?P<body>[A-Za-z0-9_-]{40,})",
        Checks.body,
    ),
    # A bot token is the bot's id (a decimal snowflake) in base64, a 6-character timestamp and an
    # HMAC. The rule starts at the first dot (a literal) and looks back for the id, whose decoding
    # must be 17 to 20 digits, so dotted names in code are not taken for one.
    (
        "discord_bot_token",
        rb"\.(?=[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27})(?:" + rb"|".join(rb"(?<=[MNO][A-Za-z0-9_-]{%d}\.)" % n for n in range(22, 28)) + rb")"
        rb"(?P<body>[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})" + TOKEN_END,
        Checks.discord_bot,
    ),
    ("anthropic_key", word_start(rb"sk-ant-", rb"(?P<body>[A-Za-z0-9_-]{20,250})"), Checks.body),
    ("openrouter_key", word_start(rb"sk-or-", rb"(?:v[0-9]{1,2}-)?(?P<body>[a-f0-9]{64})" + TOKEN_END), Checks.body),
    ("openai_key", word_start(rb"sk-", rb"(?:proj|svcacct|admin|None)-(?P<body>[A-Za-z0-9_-]{20,250})"), Checks.body),
    # Keys have 48 characters after "sk-"; a shorter run with a digit in it is still one.
    ("openai_key", word_start(rb"sk-", rb"(?:[A-Za-z0-9]{32,200}|(?=[A-Za-z]{0,30}[0-9])[A-Za-z0-9]{12,31})" + TOKEN_END), Checks.body),
    # Every key OpenAI issues carries T3BlbkFJ (base64 of "OpenAI") in its body, whatever comes
    # between "sk-" and it (sk-proj-, sk-None-, a name the prefix list does not know yet).
    (
        "openai_key",
        word_start(rb"sk-", rb"(?P<body>(?=[A-Za-z0-9_-]{0,160}T3BlbkFJ)[A-Za-z0-9_-]{28,400})" + TOKEN_END),
        Checks.body,
    ),
    *(_PROVIDER_RULES := _provider_rules()),
    ("grafana_token", word_start(rb"glc_", rb"(?P<body>[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9+/=])"), Checks.body),
    ("square_token", word_start(rb"sq0", rb"(?:atp-(?P<body>[A-Za-z0-9_-]{22})|csp-[A-Za-z0-9_-]{43})" + TOKEN_END), Checks.body),
    # A browser key is "NRJS-" and nineteen hex digits; an insert key's thirty-two may hold dashes.
    (
        "newrelic_key",
        word_start(rb"NR", rb"(?:AK|JS|II|AA)-(?P<body>[A-Za-z0-9]{19,40}|(?<=II-)[A-Za-z0-9-]{32})" + TOKEN_END),
        Checks.body,
    ),
    ("sentry_token", word_start(rb"sntry", rb"(?:s_eyJ(?P<body>[A-Za-z0-9+/=_-]{40,400})|u_[a-f0-9]{64})" + TOKEN_END), Checks.body),
    ("doppler_token", word_start(rb"dp\.", rb"(?:pt|st|ct|sa|scim|audit)\.(?P<body>[A-Za-z0-9._-]{40,200})" + TOKEN_END), Checks.body),
    (
        "terraform_token",
        rb"\.atlasv1\.(?<=[A-Za-z0-9]{14}\.atlasv1\.)(?P<body>[A-Za-z0-9_=-]{60,100})" + TOKEN_END,
        Checks.body,
    ),
    ("google_api_key", word_start(rb"AIza", rb"(?P<body>[A-Za-z0-9_-]{35})" + TOKEN_END), Checks.body),
    ("google_oauth_token", word_start(rb"GOCSPX-", rb"(?P<body>[A-Za-z0-9_-]{24,64})"), Checks.body),
    ("google_oauth_token", word_start(rb"ya29\.", rb"(?P<body>[A-Za-z0-9_-]{30,})"), Checks.body),
    ("stripe_key", word_start(rb"[sr]k_", rb"(?:live|test|prod)_(?P<body>[A-Za-z0-9]{16,250})"), Checks.body),
    ("stripe_key", word_start(rb"whsec_", rb"(?P<body>[A-Za-z0-9]{24,250})"), Checks.body),
    ("huggingface_token", word_start(rb"hf_", rb"(?P<body>[A-Za-z0-9]{30,64})" + TOKEN_END), Checks.body),
    ("huggingface_token", word_start(rb"api_org_", rb"(?P<body>[A-Za-z0-9]{30,64})" + TOKEN_END), Checks.body),
    ("npm_token", word_start(rb"npm_", rb"(?P<body>[A-Za-z0-9]{36})" + TOKEN_END), Checks.body),
    ("pypi_token", word_start(rb"pypi-AgE", rb"(?P<body>[A-Za-z0-9_-]{50,})"), Checks.body),
    ("sendgrid_key", word_start(rb"SG\.", rb"(?P<body>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})" + TOKEN_END), Checks.body),
    ("digitalocean_token", word_start(rb"do", rb"[opr]_v1_(?P<body>[a-f0-9]{64})" + TOKEN_END), Checks.body),
    ("shopify_token", word_start(rb"shp", rb"(?:at|ca|pa|ss)_(?P<body>[a-fA-F0-9]{32})" + TOKEN_END), Checks.body),
    ("databricks_token", word_start(rb"dapi", rb"(?P<body>[a-f0-9]{32})(?:-[0-9])?" + TOKEN_END), Checks.body),
    (
        "telegram_bot_token",
        word_start(rb"[0-9]", rb"[0-9]{7,9}:(?P<body>AA[A-Za-z0-9_-]{33})" + TOKEN_END, gap=rb"[A-Za-z0-9:]"),
        Checks.body,
    ),
    # ... and in the Bot API's address, right after "bot": https://api.telegram.org/bot<token>/getMe.
    ("telegram_bot_token", word_start(rb"bot", rb"[0-9]{8,10}:(?P<body>AA[A-Za-z0-9_-]{33})" + TOKEN_END, gap=rb"[A-Za-z0-9]"), Checks.body),
    ("vault_token", word_start(rb"hv", rb"[sbr]\.(?P<body>[A-Za-z0-9_-]{24,})"), Checks.body),
    (
        "azure_connection_string",
        rb"(?:Account|SharedAccess)Key[ \t]*=[ \t]*(?P<body>[A-Za-z0-9+/]{20,}={0,2})",
        Checks.body,
    ),
    (
        "signed_url",
        rb"[?&](?:sig|X-Amz-Signature|X-Goog-Signature|Signature)=(?P<body>[A-Za-z0-9%+/_-]{16,})",
        Checks.body,
    ),
    ("jwt", word_start(rb"eyJ", rb"[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"), Checks.body),
    # A JWT wrapped in base64 once more (a cookie or a Kubernetes Secret holds one so): "eyJ" reads
    # "ZXlK", and the ".eyJ" that starts its payload reads LmV5S, uZXlK or 5leU, by where it falls.
    (
        "jwt",
        word_start(
            rb"ZXlK",
            rb"(?P<body>(?=[A-Za-z0-9+/]{0,400}(?:LmV5S|uZXlK|5leU))[A-Za-z0-9+/]{40,2000}={0,2})(?![A-Za-z0-9+/=])",
            gap=rb"[A-Za-z0-9+/]",
        ),
        Checks.body,
    ),
    # Only the part after the scheme matters, and "://" is a literal the engine can jump to. The
    # host may be empty, with a path, a query or a port after the "@" (a Unix socket: Cloud SQL's
    # postgresql+pg8000://app:PW@/app?unix_sock=..., mysql+pymysql://u:PW@/db), or percent-encoded
    # (postgres://u:PW@%2Fvar%2Frun%2Fpostgresql/db).
    (
        "credential_url",
        rb"://(?P<user>[^\s:/?#@\"'<>]{0,128}):(?P<body>[^\s@\"'<>]{1,128})@[A-Za-z0-9\[_.%/?:-]",
        Checks.url_password,
    ),
    # A proxy's address is a URL whose scheme may be left out (pip's --proxy user:PW@proxy:3128,
    # HTTPS_PROXY=user:PW@proxy:3128, pip.conf's proxy = ..., git's http.proxy, curl's -x): found by
    # the word proxy as a name before ":" or "=", as an option or a dotted key before a space, or
    # by curl's -x, before a user, a password and a host, and judged as a URL's. Not after the word
    # in a sentence ("the proxy user:...").
    *(
        ("credential_url", pattern + _PROXY_USERINFO, Checks.proxy_password)
        for pattern in (
            *spelled(b"proxy", rb"[A-Za-z0-9_.-]{0,24}[\"']?[ \t]*[:=][ \t]*", gap=rb"[A-Za-z0-9]"),
            rb"proxy(?<=[-._]proxy)[A-Za-z0-9_.-]{0,24}[ \t]+",
            word_start(rb"-x", rb"[ \t]+", gap=rb"[A-Za-z0-9_-]"),
        )
    ),
    # A URL's user and password before the rest of an address with no scheme: Go's MySQL driver's
    # DSN (root:PW@tcp(localhost:3306)/app, app:PW@unix(/run/mysqld.sock)/db), judged as a URL's;
    # and a host with a port (admin:PW@db.internal:5432/app), which an e-mail address never has,
    # judged as a value that looks generated, since a scheme says nothing of what it is. Found by
    # the "@" and what follows it; the user and the password are looked for before it.
    ("credential_url", rb"@tcp6?\(", Checks.address_password),
    ("credential_url", rb"@unix\(", Checks.address_password),
    ("credential_url", rb"@" + _HOST_PORT, Checks.port_password),
    # With no port, the service or the tool named right before the user says the same
    # (FTP: deploy:PW@ftp.example.com, lftp deploy:PW@ftp.example.com), judged as a URL's.
    ("credential_url", rb"@" + _HOST, Checks.labelled_address_password),
    # An e-mail address and a password after its colon, as a list of test accounts or a leaked
    # combination writes them (qa@example.com:...): only a password that looks generated.
    ("credential_assignment", rb"@" + _HOST + rb":(?=[^\s/~])", Checks.address_and_password),
    # A token given as the user of a URL (https://<token>@git.example.com/...): no password, but a
    # user part as random as a generated token.
    ("credential_url", rb"://(?P<body>[A-Za-z0-9_-]{20,128})@[A-Za-z0-9\[_.-]", Checks.token_user),
    # Authorization and Proxy-Authorization, as a header line, a JSON or dict entry (also escaped
    # inside a string) or a subscript; the scheme word is skipped so "Basic abc" is judged by "abc".
    *(
        ("authorization_header", pattern, Checks.authorization_value)
        for pattern in cased(
            b"authorization",
            rb"\\{0,3}[\"']?\]?[ \t]*[:=][ \t]*\\{0,3}[\"']?"
            rb"(?:(?i:basic|bearer|token|digest|apikey|api-key|key|sso-key|bot|hmac|negotiate|ntlm|dpop|mac"
            rb"|oauth|aws4-hmac-sha256)[ \t]+)?",
            gap=rb"[A-Za-z0-9]",
        )
    ),
    # X-Api-Key, X-Auth-Token, Private-Token...: found by their "-key:" or "-token:" ending, the
    # one literal part, with the rest of the name checked before it.
    ("authorization_header", rb"-(?i:key|token)\\{0,3}[\"']?[ \t]*:[ \t]*\\{0,3}[\"']?", Checks.key_header),
    *(
        ("cookie_header", pattern, Checks.cookie)
        for pattern in cased(
            b"cookie", rb"\\{0,3}[\"']?\]?[ \t]*[:=][ \t]*\\{0,3}[\"']?", gap=rb"[A-Za-z0-9]"
        )
    ),
    # A session cookie outside a Cookie header, found by the word its name ends in.
    *(
        ("session_cookie", lead + COOKIE_SEPARATOR, Checks.session_value)
        for lead in (rb"session(?:_id|id)?", rb"SESS(?:ION)?ID", rb"SessionId", rb"\.sid")
    ),
    *(
        ("bearer_token", pattern, Checks.value_follows)
        for pattern in cased(b"bearer", rb"[ \t]+", gap=rb"[A-Za-z0-9_-]")
    ),
    *(
        (
            "command_line_credential",
            rb"(?i)"
            + word_start(
                rb"-",
                rb"-?(?:[a-z0-9]+-){0,3}(?:password|passwd|passphrase|pass|pwd|token|secret|api-?key|access-key"
                rb"|secret-key|auth-token|(?:store|key|src|dest|srcstore|deststore|srckey|destkey)pass)" + between,
                gap=rb"[a-z0-9_-]",
            ),
            Checks.flag_value,
        )
        for between in _ARGUMENT_GAPS
    ),
    # A personal access token's option (vsce publish --pat VALUE): "pat" abbreviates a pattern as
    # well, so the value must look generated, quoted or not.
    ("command_line_credential", word_start(rb"--pat", rb"(?:[ \t]+|=)", gap=rb"[A-Za-z0-9_-]"), Checks.generated_option),
    # curl -u user:password, wget --user user:password, httpie --auth user:password, Jenkins's CLI
    # -auth user:token: the password follows the first colon; the user may be empty (-u
    # ":password") or quoted apart ("u":"p").
    (
        "command_line_credential",
        rb"(?i)"
        + word_start(
            rb"-",
            rb"(?:u[ \t]+|-user(?:[ \t]+|=)|-?auth(?:[ \t]+|=))(?P<open>[\"'])?(?P<user>[^\s:\"'=]{0,64})(?:[\"'](?=:))?:",
            gap=rb"[a-z0-9_-]",
        ),
        Checks.user_password,
    ),
    # Tools whose short option takes the password itself: sshpass -p, docker login -p,
    # redis-cli -a, ldapsearch -w, ipmitool -P, SNMP's -c (a community) and SNMPv3's -A and -X,
    # mysql -pVALUE and -p'VALUE' (mysql's "-p VALUE" names a database instead), rar's -pVALUE and
    # -hpVALUE, codecov's -t, the personal access token of vsce -p and ovsx -p, a package feed's
    # API key (dotnet nuget push -k, choco push -k).
    # Found by the option, the one literal part; the tool is looked for earlier on the line.
    ("command_line_credential", rb"-(?:[pawPNUkAXtc]|hp)(?:(?<=[ \t]-[pawPNUkAXtc])|(?<=[ \t]-hp))", Checks.short_option),
    # httpie's -a user:password, on an http or https command line (-a is other tools' option).
    (
        "command_line_credential",
        word_start(rb"-a", rb"[ \t]+(?P<open>[\"'])?(?P<user>[^\s:\"'=]{0,64})(?:[\"'](?=:))?:", gap=rb"[A-Za-z0-9_-]"),
        Checks.httpie_password,
    ),
    # lftp -u user,password: the password after the user's comma, as curl's after its colon.
    (
        "command_line_credential",
        word_start(rb"lftp", rb"(?:[ \t]+\S{1,64}){0,4}?[ \t]+-u[ \t]+[\"']?[^\s,\"']{1,64},(?=\S)", gap=rb"[A-Za-z0-9_-]"),
        Checks.given_value,
    ),
    # A secret echoed into a process substitution that an option reading a password, a passphrase,
    # a secret or a token from a file is given: restic --password-file <(echo ...),
    # ansible-playbook --vault-password-file=<(echo ...), gpg --passphrase-file <(printf '%s' ...).
    *(
        ("command_line_credential", lead + rb"(?:[ \t]+-[neE])?[ \t]+(?:[\"']%s(?:\\n)?[\"'][ \t]+)?", Checks.substituted_secret)
        for lead in (rb"<\(echo", rb"<\(printf")
    ),
    # A password or a secret echoed into a tool that reads it from its input (echo "..." | docker
    # login --password-stdin, printf '...' | sudo -S, echo 'user:...' | chpasswd, echo "..." |
    # wrangler secret put NAME), found by the tool; or given to one as a here-string (... <<< "..."),
    # found by the "<<<".
    *(("command_line_credential", pattern, Checks.echoed_password) for pattern in STDIN_READERS),
    # ... or into base64 to encode it, as a Kubernetes Secret's data or a Basic header is made (echo
    # -n '...' | base64): only a value with a generated one's texture, as tutorials encode words
    # (echo -n admin | base64); decoding (base64 -d) reads what is already encoded.
    (
        "command_line_credential",
        word_start(rb"base64", rb"(?![ \t]+(?:-[A-Za-z]*[dD]|--decode))(?![A-Za-z0-9_.-])", gap=rb"[A-Za-z0-9_./-]"),
        Checks.echoed_encoded,
    ),
    ("command_line_credential", HERE_STRING, Checks.here_string_password),
    # ... or as a here-document's first line: docker login --password-stdin <<EOF, then the value.
    ("command_line_credential", HERE_DOCUMENT, Checks.here_document_password),
    # A value echoed into a file named for a credential: echo "..." > ~/.vault-pass.
    *(("command_line_credential", pattern, Checks.echoed_into_file) for pattern in ECHOED_INTO),
    # A script that answers a password prompt: Tcl expect's send "...\r" (exp_send) and pexpect's
    # child.send('...') or sendline('...'), after an expect of a prompt that asks for a password.
    *(
        ("command_line_credential", word_start(lead, rest, gap=rb"[A-Za-z0-9_]"), Checks.prompted_password)
        for lead, rest in (
            (b"send", rb"(?:line)?(?:[ \t]+--)?(?:[ \t]+|[ \t]*\([ \t]*)(?=[\"'])"),
            (b"exp_send", rb"(?:[ \t]+--)?[ \t]+(?=[\"'])"),
        )
    ),
    # htpasswd -b takes the password as its last argument: htpasswd -b .htpasswd user VALUE.
    (
        "command_line_credential",
        word_start(rb"htpasswd", rb"(?P<options>(?:[ \t]+-[A-Za-z]{1,8}){1,4})[ \t]+", gap=rb"[A-Za-z0-9_-]"),
        Checks.htpasswd_value,
    ),
    # Oracle's tools log on with user/password[@database] as an argument (sqlplus, sqlldr,
    # expdp, impdp, exp, imp, dgmgrl; rman's target and catalog), and SQL*Plus's CONNECT takes the
    # same: the password ends at "@", a space or a quote. Prose names these tools too, so it must
    # have a password's texture (sqlplus scott/tiger@orcl, the demo's, is kept).
    *(
        ("command_line_credential", word_start(lead, rest, gap=rb"[A-Za-z0-9_-]") + _LOGON_USER, Checks.logon_password)
        for lead, rest in (
            *((tool, rb"(?:[ \t]+-[A-Za-z]{1,8}){0,3}[ \t]+") for tool in (b"sqlplus", b"sqlldr", b"expdp", b"impdp", b"exp", b"imp", b"dgmgrl")),
            (b"rman", rb"(?:[ \t]+\S{1,64}){0,4}?[ \t]+(?:target|catalog|auxiliary)[ \t]*=?[ \t]*"),
            (b"CONNECT", rb"[ \t]+"),
            (b"CONN", rb"[ \t]+"),
        )
    ),
    # Tools that take a password as an argument after their own words: net user NAME VALUE, net use,
    # NickServ's IDENTIFY VALUE, openssl passwd [-6] VALUE, rabbitmqctl add_user|change_password
    # NAME VALUE, kickstart's rootpw VALUE; and SQL's IDENTIFIED BY VALUE in a statement that makes
    # or changes an account (not BY PASSWORD '<hash>', BY VALUES '<hash>' or BY RANDOM PASSWORD). Found by the tool's name, the words
    # between in the rule (its first two words, with one space between them, are the literal a
    # rule is looked for by, so that "network" or "through" reach none); prose names these tools
    # too ("the net user command"), so an unquoted value must have a password's texture.
    *(
        ("command_line_credential", pattern, Checks.argument_password)
        for pattern in (
            *(
                word_start(lead, rb"[ \t]+[^\s/*]\S{0,63}[ \t]+", gap=rb"[A-Za-z0-9_.-]")
                for lead in (b"net user", b"NET USER", b"Net user", b"net USER")
            ),
            # IRC's services: /msg NickServ IDENTIFY [account] VALUE, REGISTER VALUE email, /ns
            # identify VALUE (PRIVMSG NickServ :IDENTIFY VALUE as the protocol sends it).
            *(
                word_start(lead, rest, gap=rb"[A-Za-z0-9_-]")
                for lead in (b"NickServ", b"nickserv", b"NICKSERV", b"/ns")
                for rest in (
                    rb"[ \t]+:?(?i:identify)[ \t]+(?:[^\s]{1,64}[ \t]+(?=[^\s]{1,128}[ \t]*(?:\r?\n|\Z)))?",
                    rb"[ \t]+:?(?i:register)[ \t]+",
                )
            ),
            # net use [X:] \\server\share VALUE [/user:NAME], or the value after /user:NAME (not *,
            # which prompts for it, nor an option such as /persistent:no).
            *(
                word_start(lead, rest, gap=rb"[A-Za-z0-9_.-]")
                for lead in (b"net use", b"NET USE", b"Net use", b"net USE")
                for rest in (
                    rb"(?:[ \t]+(?:[A-Za-z]:|\*))?[ \t]+\\\\[^\s\\]{1,253}\\\S{1,256}[ \t]+(?![/*])",
                    rb"[^\r\n]{0,256}?[ \t]/(?i:user|u):\S{1,128}[ \t]+(?![/*])",
                )
            ),
            word_start(
                b"openssl passwd", rb"(?:[ \t]+-(?:salt[ \t]+\S{1,64}|[A-Za-z0-9]{1,8})){0,8}[ \t]+", gap=rb"[A-Za-z0-9_-]"
            ),
            # MinIO's client: mc alias set ALIAS URL ACCESS_KEY SECRET_KEY (and its older mc
            # config host add); wpa_passphrase SSID PASSPHRASE.
            word_start(
                b"mc alias", rb"[ \t]+set[ \t]+\S{1,64}[ \t]+\S{1,256}[ \t]+\S{1,128}[ \t]+", gap=rb"[A-Za-z0-9_.-]"
            ),
            word_start(
                b"mc config", rb"[ \t]+host[ \t]+add[ \t]+\S{1,64}[ \t]+\S{1,256}[ \t]+\S{1,128}[ \t]+", gap=rb"[A-Za-z0-9_.-]"
            ),
            # A proxy of proxychains' list with its user and password: socks5 HOST PORT USER VALUE.
            *(
                word_start(lead, rb"[ \t]+" + _HOST + rb"[ \t]+[0-9]{2,5}[ \t]+[^\s]{1,64}[ \t]+", gap=rb"[A-Za-z0-9_.-]")
                for lead in (b"socks5", b"socks4", b"http")
            ),
            # An IRC server's password as irssi's /connect (and /server) takes it after the port.
            *(
                word_start(lead, rb"(?:[ \t]+-[A-Za-z0-9_-]{1,32})*[ \t]+" + _HOST + rb"[ \t]+\+?[0-9]{2,5}[ \t]+", gap=rb"[A-Za-z0-9_.-]")
                for lead in (b"/connect", b"/server", b"/CONNECT", b"/SERVER")
            ),
            # Db2's CONNECT TO database USER name USING password (ATTACH TO a node likewise).
            *(
                word_start(lead, rb"[ \t]+\S{1,64}[ \t]+(?i:user)[ \t]+\S{1,64}[ \t]+(?i:using)[ \t]+", gap=rb"[A-Za-z0-9_-]")
                for lead in (b"connect to", b"CONNECT TO", b"attach to", b"ATTACH TO")
            ),
            word_start(b"wpa_passphrase", rb"[ \t]+(?:\"[^\"\r\n]{1,32}\"|'[^'\r\n]{1,32}'|\S{1,32})[ \t]+", gap=rb"[A-Za-z0-9_-]"),
            # A kickstart file's root password: rootpw [--plaintext] VALUE (or --iscrypted and a
            # crypt hash, which can be cracked offline); rootpw --lock gives none.
            word_start(b"rootpw", rb"(?:[ \t]+--(?:plaintext|iscrypted|allow-ssh))*[ \t]+(?!--)", gap=rb"[A-Za-z0-9_-]"),
            # A registry's token or API key that a package tool stores: cargo login [options] TOKEN
            # (its options that take a value: --registry, --color, --config, -Z), nuget setapikey KEY.
            word_start(b"cargo login", _options_then_argument(rb"registry|color|config", rb"|-Z[ \t]*\S{1,64}"), gap=rb"[A-Za-z0-9_.-]"),
            word_start(b"nuget", rb"(?:\.exe)?[ \t]+(?i:setapikey)[ \t]+", gap=rb"[A-Za-z0-9_.-]"),
            # The value ansible-vault encrypt_string encrypts, given as its argument (its options
            # that take a value: --name, --stdin-name, --vault-id, --encrypt-vault-id, --output,
            # --vault-password-file, --vault-pass-file).
            word_start(
                b"ansible-vault",
                rb"[ \t]+encrypt_string" + _options_then_argument(rb"name|stdin-name|vault-id|encrypt-vault-id|output|vault-pass(?:word)?-file"),
                gap=rb"[A-Za-z0-9_.-]",
            ),
            # ngrok's authtoken TOKEN and config add-authtoken TOKEN; snyk auth TOKEN.
            word_start(b"ngrok", rb"(?:[ \t]+config)?[ \t]+(?:add-)?authtoken[ \t]+", gap=rb"[A-Za-z0-9_.-]"),
            word_start(b"snyk", rb"[ \t]+auth[ \t]+", gap=rb"[A-Za-z0-9_.-]"),
            # HashiCorp Vault's login with a token, its default method: vault login TOKEN (after
            # its options; another method's fields, username=..., are pairs of their own).
            word_start(b"vault login", rb"(?:[ \t]+-[A-Za-z][A-Za-z0-9-]{0,31}(?:=\S{1,128})?)*[ \t]+(?![-A-Za-z0-9_.]{1,64}=)", gap=rb"[A-Za-z0-9_.-]"),
            word_start(
                b"rabbitmqctl",
                rb"(?:[ \t]+-{1,2}[A-Za-z][A-Za-z-]{0,31}(?:[ \t=]+[^\s-]\S{0,127})?){0,4}"
                rb"[ \t]+(?:add_user|change_password)[ \t]+\S{1,64}[ \t]+",
                gap=rb"[A-Za-z0-9_-]",
            ),
        )
    ),
    # SQL's IDENTIFIED BY VALUE (see above); and MySQL's SET PASSWORD [FOR account] = 'VALUE', or =
    # PASSWORD('VALUE') as older releases wrote it: a string, as the statement takes (a user
    # variable, @pw, is none). Without FOR and PASSWORD() it is an assignment to a credential's
    # name, refused as one.
    *(
        ("command_line_credential", pattern, check)
        for lead, rest, check in (
            (
                b"identified",
                rb"(?:[ \t]+(?i:with)[ \t]+[A-Za-z0-9_'\"`]{1,64})?[ \t]+(?i:by)[ \t]+"
                rb"(?!(?i:values|password|random)(?![A-Za-z0-9_]))",
                Checks.sql_password,
            ),
            (
                b"set password",
                rb"(?:[ \t]+(?i:for)[ \t]+[^\s=]{1,128}?[ \t]*=[ \t]*(?:(?i:password)\([ \t]*)?"
                rb"|[ \t]*=[ \t]*(?i:password)\([ \t]*)(?=[\"'])",
                Checks.argument_password,
            ),
        )
        for pattern in spelled(lead, rest, gap=rb"[A-Za-z0-9_]")
    ),
    # netlify's --auth TOKEN, on a netlify command line (httpie's --auth user:password is judged
    # as curl's -u); unquoted, with a token's texture, as prose names the option too.
    (
        "command_line_credential",
        word_start(b"netlify", rb"[^\r\n]{0,128}?(?<=[ \t])--auth(?:[ \t]+|=)", gap=rb"[A-Za-z0-9_.-]"),
        Checks.argument_password,
    ),
    # Options that set a stored secret to the value given: gh secret set NAME --body VALUE (or
    # -b VALUE), az keyvault secret set ... --value VALUE; and aws configure set NAME VALUE where
    # the name is a credential's (aws_secret_access_key; not region or aws_access_key_id).
    # Chocolatey's push and apikey take a feed's API key as --key VALUE too.
    (
        "command_line_credential",
        word_start(
            b"choco", rb"(?:latey)?(?:\.exe)?[ \t]+(?:push|apikey)[ \t][^\r\n]{0,160}?(?<=[ \t])--key(?:[ \t]+|=)", gap=rb"[A-Za-z0-9_.-]"
        ),
        Checks.flag_value,
    ),
    (
        "command_line_credential",
        word_start(
            b"gh secret", rb"[ \t]+set[ \t][^\r\n]{0,128}?(?<=[ \t])(?:--body(?:[ \t]+|=)|-b[ \t]*)", gap=rb"[A-Za-z0-9_.-]"
        ),
        Checks.option_password,
    ),
    (
        "command_line_credential",
        word_start(
            b"az keyvault", rb"[ \t]+secret[ \t]+set[ \t][^\r\n]{0,192}?(?<=[ \t])--value(?:[ \t]+|=)", gap=rb"[A-Za-z0-9_.-]"
        ),
        Checks.option_password,
    ),
    (
        "command_line_credential",
        word_start(
            b"aws secretsmanager",
            rb"[ \t]+(?:create-secret|put-secret-value|update-secret)[ \t][^\r\n]{0,192}?(?<=[ \t])--secret-string(?:[ \t]+|=)",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.option_password,
    ),
    # A SecureString parameter's value (aws ssm put-parameter --type SecureString --value VALUE);
    # a String parameter's is a setting.
    (
        "command_line_credential",
        word_start(b"aws ssm", rb"[ \t]+put-parameter[ \t][^\r\n]{0,192}?(?<=[ \t])--value(?:[ \t]+|=)", gap=rb"[A-Za-z0-9_.-]"),
        Checks.secure_parameter,
    ),
    # npm's, yarn's and pnpm's config set KEY VALUE, where the key ends in a credential's name
    # (//registry.npmjs.org/:_authToken, npmAuthToken), judged as aws configure set's.
    *(
        (
            "command_line_credential",
            word_start(tool, rb"[ \t]+set[ \t]+(?:[^\s=]{0,128}[:./])?(?P<name>[A-Za-z0-9_-]{1,64})[ \t]+", gap=rb"[A-Za-z0-9_.-]"),
            Checks.named_argument,
        )
        for tool in (b"npm config", b"yarn config", b"pnpm config")
    ),
    # pulumi config set [--secret] KEY VALUE (a project's namespace before the key, app:dbPassword).
    (
        "command_line_credential",
        word_start(
            b"pulumi config",
            rb"[ \t]+set(?:[ \t]+--[a-z-]{1,16})*[ \t]+(?:[A-Za-z0-9_.-]{1,64}:)?(?P<name>[A-Za-z0-9_-]{1,64})[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.named_argument,
    ),
    # git config [--global] KEY VALUE, where the key's last part names a credential (github.token,
    # sendemail.smtpPass), judged the same way; user.signingkey names a public key's id or file.
    (
        "command_line_credential",
        word_start(
            b"git config",
            rb"(?:[ \t]+--(?:global|local|system|worktree|add|replace-all|file[ \t=][^\s]{1,128}))*"
            rb"[ \t]+(?:[A-Za-z0-9_-]{1,64}\.){1,3}(?!(?i:signingkey)[ \t])(?P<name>[A-Za-z0-9_-]{1,64})[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.named_argument,
    ),
    (
        "command_line_credential",
        word_start(
            b"aws configure",
            rb"[ \t]+set[ \t]+(?:[A-Za-z0-9_-]{1,64}\.){0,3}(?P<name>[A-Za-z0-9_-]{1,64})[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.named_argument,
    ),
    # A GitHub Actions variable set to a value under a credential's name (gh variable set
    # DB_PASSWORD --body VALUE): variables are stored in the clear, but the value given is the
    # same; judged as aws configure set's (gh variable set REGION --body ... is a setting).
    (
        "command_line_credential",
        word_start(
            b"gh variable",
            rb"[ \t]+set[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]{0,63})(?![A-Za-z0-9_])[^\r\n]{0,128}?(?<=[ \t])(?:--body(?:[ \t]+|=)|-b[ \t]*)",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.named_argument,
    ),
    # Netlify's env:set NAME VALUE, where the name is a credential's, judged as aws configure set's.
    (
        "command_line_credential",
        word_start(b"netlify", rb"[ \t]+env:set[ \t]+(?P<name>[A-Za-z0-9_-]{1,64})[ \t]+", gap=rb"[A-Za-z0-9_.-]"),
        Checks.named_argument,
    ),
    # Package managers' stored credentials for a repository: poetry config pypi-token.REPO VALUE and
    # http-basic.REPO USER VALUE; composer config [--global|--auth] github-oauth.HOST VALUE (and
    # gitlab-oauth, gitlab-token, bearer), http-basic.HOST USER VALUE, bitbucket-oauth.HOST KEY
    # VALUE; bundle config [set] [--global] HOST USER:VALUE; each value judged as gh secret set's.
    (
        "command_line_credential",
        word_start(
            b"poetry config",
            rb"(?:[ \t]+--local)?[ \t]+(?:pypi-token\.[A-Za-z0-9_.-]{1,64}|http-basic\.[A-Za-z0-9_.-]{1,64}[ \t]+[^\s-]\S{0,63})[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.option_password,
    ),
    (
        "command_line_credential",
        word_start(
            b"composer config",
            rb"(?:[ \t]+(?:--global|-g|--auth|-a))*[ \t]+"
            rb"(?:(?:github-oauth|gitlab-oauth|gitlab-token|bearer)\.[A-Za-z0-9.-]{1,128}"
            rb"|(?:http-basic|bitbucket-oauth)\.[A-Za-z0-9.-]{1,128}[ \t]+[^\s-]\S{0,63})[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.option_password,
    ),
    (
        "command_line_credential",
        word_start(
            b"bundle config",
            rb"(?:[ \t]+set)?(?:[ \t]+--(?:global|local))*[ \t]+(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}[ \t]+[^\s:/$-][^\s:/]{0,63}:",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.option_password,
    ),
    # rclone config create|update NAME TYPE KEY VALUE ..., where the key is one of the secrets its
    # backends take (an S3 secret key, a password, a token, an Azure account key).
    (
        "command_line_credential",
        word_start(
            b"rclone config",
            rb"[ \t]+(?:create|update)[ \t][^\r\n]{0,256}?[ \t]"
            rb"(?:secret_access_key|client_secret|pass|password|token|account_key|key|sas_url)[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.option_password,
    ),
    # .NET's dotnet user-secrets set KEY VALUE, where the key's last segment (after ":" or "__")
    # names a credential ("Db:Password", Stripe__SecretKey), judged as aws configure set's.
    (
        "command_line_credential",
        word_start(
            b"dotnet user-secrets",
            rb"(?:[ \t]+--?[A-Za-z-]{1,32}[ \t]+[^\s-]\S{0,127}){0,2}"
            rb"[ \t]+set[ \t]+(?:--?[A-Za-z-]{1,32}[ \t]+[^\s-]\S{0,127}[ \t]+){0,2}[\"']?(?:[A-Za-z0-9_.-]{1,64}(?::|__)){0,8}"
            rb"(?P<name>[A-Za-z0-9_-]{1,64})[\"']?[ \t]+",
            gap=rb"[A-Za-z0-9_.-]",
        ),
        Checks.named_argument,
    ),
    # A Terraform variable's default, where the variable names a credential: variable
    # "db_password" { default = "VALUE" }. Found by the default, the variable looked for before it.
    ("credential_assignment", word_start(b"default", rb"[ \t]*=[ \t]*(?=\")", gap=rb"[A-Za-z0-9_.-]"), Checks.variable_default),
    # PowerShell's ConvertTo-SecureString "VALUE" -AsPlainText (or -AsPlainText "VALUE"): the
    # password written in the script.
    *(
        (
            "command_line_credential",
            word_start(lead, rb"(?:[ \t]+-(?i:string|asplaintext|force))*[ \t]+(?=[\"'])", gap=rb"[A-Za-z0-9_-]"),
            Checks.plain_secure_string,
        )
        for lead in (b"ConvertTo-SecureString", b"convertto-securestring")
    ),
    # A Wi-Fi network's QR code text: WIFI:T:WPA;S:name;P:VALUE;; (the fields in any order).
    (
        "command_line_credential",
        word_start(b"WIFI:", rb"(?:[A-Z]{1,8}:(?:[^\r\n;\\]|\\.){0,64};){0,6}P:", gap=rb"[A-Za-z0-9_]"),
        Checks.option_password,
    ),
    # Windows-style options: xfreerdp /u:me /p:VALUE (winrs -u:me -p:VALUE), cmdkey /pass:VALUE,
    # net use \\host\share /user:me VALUE.
    *(
        ("command_line_credential", lead + rb"(?<=[ \t]" + lead + rb")", Checks.windows_password)
        for lead in (
            rb"/p:", rb"-p:", rb"/pass:", rb"/PASS:", rb"/Pass:", rb"/password:", rb"/PASSWORD:", rb"/Password:", rb"/pwd:", rb"/PWD:",
        )
    ),
    # ... an option whose longer name ends in a credential's word (sqlpackage /TargetPassword:VALUE,
    # appcmd's /processModel.password:VALUE, /token:VALUE), found by the word and the colon;
    *(
        ("command_line_credential", word + rb":(?<=[A-Za-z0-9_./-]" + word + rb":)", Checks.named_windows_option)
        for word in (b"password", b"Password", b"PASSWORD", b"token", b"Token", b"TOKEN", b"secret", b"Secret", b"apikey", b"ApiKey")
    ),
    # ... and a command's /p after its /u (schtasks, systeminfo, taskkill: /s HOST /u USER /p VALUE),
    # schtasks' /rp after /ru.
    *(("command_line_credential", word_start(lead, rb"[ \t]+(?![/-])", gap=rb"[A-Za-z0-9_-]"), Checks.windows_spaced_password) for lead in (b"/p", b"/rp", b"/RP")),
    # A registry value named for a credential and its data: reg add KEY /v Password /t REG_SZ /d
    # VALUE, and as reg query prints it: DefaultPassword    REG_SZ    VALUE.
    ("command_line_credential", word_start(b"/d", rb"[ \t]+(?![/-])", gap=rb"[A-Za-z0-9_-]"), Checks.registry_value),
    ("credential_assignment", word_start(b"REG_SZ", rb"[ \t]+(?=\S)", gap=rb"[A-Za-z0-9_-]"), Checks.registry_value),
    *(
        ("command_line_credential", lead + rb"(?<=[ \t]" + lead + rb")(?P<user>[^\s/\"']{1,64})[ \t]+", Checks.windows_password)
        for lead in (rb"/user:", rb"/USER:", rb"/u:")
    ),
    # openssl's "-passin pass:VALUE" (env:, file: and fd: name where the password is instead).
    ("command_line_credential", rb"-pass(?:in|out|word)?[ \t]+pass:", Checks.given_value),
    (
        "netrc_password",
        word_start(rb"machine", rb"\s+\S{1,253}\s+login\s+\S{1,253}\s+password[ \t]+"),
        Checks.given_value,
    ),
    # A line of PostgreSQL's password file (host:port:database:user:password), found by its port
    # as such files write it: the default ports and pgbouncer's, or any (*). The host is checked.
    *(
        (
            "pgpass_password",
            re.escape(port) + rb"(?P<database>[^\s:\\]{1,64}):(?P<user>[^\s:\\]{1,64}):"
            rb"(?P<body>(?:[^\s:\\\"'`]|\\[:\\]){1,128})(?![^\s\"'`])",
            Checks.pgpass_entry,
        )
        for port in (b":5432:", b":5433:", b":6432:", b":*:")
    ),
    # A Kubernetes Secret's data under keys of any name: found by its kind, the data looked for.
    ("kubernetes_secret", rb"kind:[ \t]{0,8}[\"']?Secret[\"']?[ \t]*(?:#[^\r\n]{0,256})?(?:\r?\n|\Z)", Checks.secret_object),
    # A password given after a user to a call that logs in or makes a login's credentials:
    # smtp.login("me@example.com", "..."), HTTPBasicAuth("admin", "..."), NetworkCredential("svc",
    # "..."), python-ldap's simple_bind_s("cn=admin,...", "...").
    *(
        ("login_password", lead + rb"\([ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", Checks.login_password)
        for lead in (
            word_start(rb"login", rb"", gap=rb"[A-Za-z0-9]"), rb"BasicAuth", rb"DigestAuth", word_start(rb"NetworkCredential", rb""),
            word_start(rb"PasswordAuthentication", rb""), rb"UsernamePasswordCredentials", rb"UsernamePasswordAuthenticationToken",
            word_start(rb"simple_bind", rb"(?:_s)?", gap=rb"[A-Za-z0-9_]"),
            # an MQTT client's user and password: paho's username_pw_set("user", "..."),
            # AsyncMqttClient's setCredentials("user", "..."); RabbitMQ's pika.PlainCredentials
            rb"username_pw_set", rb"setCredentials", rb"PlainCredentials",
            # MongoDB's shell: db.changeUserPassword("app", "...")
            rb"changeUserPassword",
            # superagent's and supertest's .auth("user", "..."), and a client's like it
            rb"\.auth",
        )
    ),
    # A C++ variable built from a literal in brackets, with its type before it: std::string
    # token("..."), QString password{"..."}, an Arduino sketch's String apiKey("..."). Found by the
    # bracket and the quote (and a string's prefix).
    *(
        ("credential_assignment", bracket + prefix + b'"', Checks.constructed_value)
        for bracket in (rb"\(", rb"\{")
        for prefix in (b"", b"L", b"u8")
    ),
    # A wireless network's name and then its passphrase, as a board joins or opens it: Arduino's
    # and the ESP boards' WiFi.begin("HomeNet", "...") and WiFi.softAP, WiFiMulti's addAP,
    # MicroPython's wlan.connect(ssid, "...") (and sta_if, station), CircuitPython's
    # wifi.radio.connect.
    *(
        ("login_password", lead + rb"\([ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'])", Checks.login_password)
        for lead in (
            rb"WiFi\.begin", rb"WiFi\.softAP", rb"\.addAP", word_start(rb"wlan\.connect", rb""), word_start(rb"sta_if\.connect", rb""),
            word_start(rb"station\.connect", rb""), rb"wifi\.radio\.connect",
        )
    ),
    # A user and a password joined by a colon in a literal that code encodes in base64 for HTTP
    # Basic authentication: base64.b64encode(b"svc:..."), btoa("svc:..."), Buffer.from("svc:..."),
    # Ruby's Base64.strict_encode64, Go's EncodeToString([]byte("svc:...")).
    *(
        (
            "login_password",
            lead + rb"\((?:\[\]byte\()?[bB]?(?P<quote>[\"'`])[A-Za-z0-9._%+@-]{1,64}:(?=[^\s\"'`])",
            Checks.encoded_login_pair,
        )
        for lead in (rb"b64encode", rb"btoa", rb"Buffer\.from", rb"encode64", rb"EncodeToString")
    ),
    # A Java keystore's or key's password made a character array in the call that opens it:
    # keyStore.load(in, "...".toCharArray()), new PBEKeySpec("...".toCharArray(), ...).
    ("login_password", rb"\"\.toCharArray\(\)", Checks.char_array_password),
    # ... and libcurl's option that takes them so: curl_setopt($ch, CURLOPT_USERPWD, "svc:..."),
    # pycurl's setopt(pycurl.USERPWD, ...), and the proxy's PROXYUSERPWD.
    ("login_password", rb"USERPWD[ \t]*,[ \t]*[bBL]?(?P<quote>[\"'])[A-Za-z0-9._%+@-]{1,64}:(?=[^\s\"'`])", Checks.encoded_login_pair),
    # Firebase's signInWithEmailAndPassword and createUserWithEmailAndPassword (Pyrebase's
    # sign_in_with_email_and_password), whose modular SDK takes the auth instance first:
    # signInWithEmailAndPassword(auth, "ann@example.com", "...").
    *(
        (
            "login_password",
            lead + rb"\((?:[ \t]*[A-Za-z_][A-Za-z0-9_.]{0,64}(?:\(\))?[ \t]*,)?[ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'`])",
            Checks.login_password,
        )
        for lead in (rb"WithEmailAndPassword", rb"with_email_and_password")
    ),
    # A password given by position after a host, maybe a port, and a user: the DB-API's
    # MySQLdb.connect("localhost", "app", "..."), paramiko's connect(host, 22, "root", "..."),
    # ftplib's FTP("ftp.example.com", "bob", "...") and FTP_TLS, PHP's mysqli_connect('localhost',
    # 'app', '...'), new mysqli(...) and mysql_connect; after a server and a user, ldap3's
    # Connection(server, "cn=admin,...", "..."); and first after the user, Oracle's
    # oracledb.connect("scott", "...", dsn) and cx_Oracle's.
    *(
        (
            "login_password",
            word_start(lead + rb"\(", rb"[ \t]*" + _LOGIN_HOST + rb"[ \t]*,[ \t]*(?:[0-9]{1,5}[ \t]*,[ \t]*)?" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[bBrRuUfF]{0,2}[\"'])"),
            Checks.login_password,
        )
        for lead in (rb"connect", rb"FTP", rb"FTP_TLS", rb"Connection", rb"mysqli_connect", rb"mysql_connect", rb"mysql_pconnect", rb"mysqli")
    ),
    *(
        ("login_password", word_start(lead + rb"\.connect\(", rb"[ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'])"), Checks.login_password)
        for lead in (rb"oracledb", rb"cx_Oracle")
    ),
    # After what names the database, a user, then the password: JDBC's
    # DriverManager.getConnection(url, "app", "..."), Spring's DriverManagerDataSource(url, "app",
    # "...") and SingleConnectionDataSource, PHP's new PDO($dsn, 'app', '...') and Sequelize's new
    # Sequelize('app', 'app', '...', {...}); after the application's id, Azure's
    # UsernamePasswordCredential(client_id, "ann@example.com", "...") and, the secret after the
    # tenant and the client, ClientSecretCredential(tenant_id, client_id, "...").
    *(
        ("login_password", word_start(lead, rb"\([^,()\r\n]{1,256},[ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'`])"), Checks.login_password)
        for lead in (
            rb"getConnection", rb"PDO", rb"Sequelize", rb"DriverManagerDataSource", rb"SingleConnectionDataSource", rb"UsernamePasswordCredential",
            rb"ClientSecretCredential",
        )
    ),
    # After a realm and a host, a user, then the password: sbt's Credentials("Sonatype Nexus",
    # "nexus.example.com", "ann", "...").
    (
        "login_password",
        word_start(rb"Credentials", rb"\([ \t]*" + _LOGIN_HOST + rb"[ \t]*,[ \t]*[^,()\r\n]{1,256},[ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'])"),
        Checks.login_password,
    ),
    # What a browser test types into a password field, the field named by the selector given with
    # the value or by one in the chain before the method: page.fill('#password', '...'),
    # cy.get('#password').type('...'), find_element(By.ID, "password").send_keys("..."), Capybara's
    # fill_in "Password", with: "...".
    *(
        ("login_password", rb"\." + method + rb"\((?:[ \t]*" + _SELECTOR + rb"[ \t]*,)?[ \t]*(?=[bBrRuUfF]?[\"'`])", Checks.typed_password)
        for method in (rb"fill", rb"type", rb"typeText", rb"setValue", rb"sendKeys", rb"send_keys", rb"pressSequentially", rb"press_sequentially")
    ),
    # What a program stores in the system's keyring: Python's keyring.set_password("service",
    # "user", "...") and Node's keytar.setPassword('service', 'account', '...').
    *(
        (
            "login_password",
            word_start(method, rb"\([ \t]*" + _KEYRING_SERVICE + rb"[ \t]*,[ \t]*" + _LOGIN_USER + rb"[ \t]*,[ \t]*(?=[\"'`])"),
            Checks.server_password,
        )
        for method in (rb"set_password", rb"setPassword")
    ),
    # A Redis server's password: requirepass and masterauth in redis.conf, on redis-server's command
    # line (--requirepass) or in CONFIG SET; and what redis-cli gives AUTH, after a user or alone.
    *(
        ("credential_assignment", word_start(word, between, gap=rb"[A-Za-z0-9_]"), Checks.server_password)
        for word in (rb"requirepass", rb"masterauth")
        for between in _ARGUMENT_GAPS
    ),
    (
        "login_password",
        word_start(rb"redis-cli", rb"[^\r\n|;&]{0,160}?[ \t]AUTH[ \t]+(?:[^\s\"']{1,64}[ \t]+(?=\S))?"),
        Checks.server_password,
    ),
    # ... and at its prompt: 127.0.0.1:6379> AUTH ..., 127.0.0.1:6379[1]> (a database chosen),
    # redis> (older releases' prompt) ...
    (
        "login_password",
        rb"AUTH(?:(?<=[0-9\]]> AUTH)|(?<=redis> AUTH))[ \t]+(?:[^\s\"']{1,64}[ \t]+(?=\S))?",
        Checks.server_password,
    ),
    # ... and in a note that names Redis: Redis: AUTH ..., in redis-cli run AUTH ... first.
    ("login_password", word_start(rb"AUTH", rb"[ \t]+(?P<user>[^\s\"']{1,64}[ \t]+(?=\S))?", gap=rb"[A-Za-z0-9_-]"), Checks.redis_auth),
    # A password after a configuration directive whose name ends in a password's word as
    # identifiers write one: keepalived's auth_pass, nslcd's bindpw, SmtpPass, DB_PASS, rpcpassword
    # (the word alone is read by the rules of a value right after a credential word).
    *(
        ("credential_assignment", lead + rb"(?<=[A-Za-z0-9]" + lead + rb")(?![A-Za-z0-9_-])[ \t]+", Checks.directive_password)
        for lead in (b"_pass", b"_PASS", b"-pass", b"Pass", b"pw", b"password")
    ),
    # The command an option or a setting runs to get a password, when it echoes one: restic
    # --password-command 'echo ...', msmtp's passwordeval "echo ...", isync's PassCmd "echo ...".
    *(
        ("command_line_credential", quote + command + rb"(?:[ \t]+-[neE]{1,3})*[ \t]+" + printed_format, Checks.commanded_secret)
        for quote in (b"'", b'"')
        for command, printed_format in ((b"echo", b""), (b"printf", rb"(?:(?:'%s(?:\\n)?'|%s)[ \t]+)?"))
    ),
    # What a command that prints a secret printed on the line under it (see printed): gh auth
    # token, op read op://.../password, echo $DB_PASSWORD (a credential's name) and the like.
    *(("printed_secret", pattern, Checks.printed_secret) for pattern in (*PRINTING, *NAMED)),
    # A mail or file server's login as a session's transcript shows it (see transcripts): FTP's and
    # POP3's USER then PASS, IMAP's a001 LOGIN user ..., SMTP's AUTH PLAIN and AUTH LOGIN in base64.
    ("login_password", rb"PASS[ \t]+", Checks.pass_command),
    ("login_password", rb" LOGIN[ \t]+(?:\"[^\"\r\n]{1,64}\"|[^\s\"]{1,64})[ \t]+", Checks.imap_login),
    ("login_password", rb"AUTH[ \t]+PLAIN[ \t]+(?P<encoded>[A-Za-z0-9+/]{8,512}={0,2})", Checks.auth_plain),
    ("login_password", rb"334[ \t]+(?:UGFzc3dvcmQ6|cGFzc3dvcmQ6)[ \t]*\r?\n", Checks.auth_login),
    # A network device's secrets as its configuration holds them (Cisco IOS, NX-OS and ASA, Arista,
    # Juniper, FortiOS, VyOS, Aruba, Linux's ifupdown, strongSwan): a password or secret given with
    # type 0 or 7, a user's or enable's, SNMP communities, routing, AAA and VPN keys, a Wi-Fi PSK.
    *(("credential_assignment", word_start(word, rb"[ \t]+[07][ \t]+" + _DEVICE_VALUE), Checks.server_password) for word in (rb"password", rb"secret")),
    *(
        ("credential_assignment", word_start(lead, rest + _DEVICE_TYPE + _DEVICE_VALUE), Checks.server_password)
        for lead, rest in (
            (rb"enable", rb"[ \t]+(?:secret|password)[ \t]+(?:level[ \t]+[0-9]{1,2}[ \t]+)?"),
            (rb"username", rb"[ \t]+\S{1,64}[ \t]+(?:(?:privilege|role|group)[ \t]+\S{1,64}[ \t]+){0,2}(?:secret|password)[ \t]+"),
            (rb"neighbor", rb"[ \t]+\S{1,64}[ \t]+password[ \t]+"),
            (rb"snmp-server", _COMMUNITY),
            (rb"snmp", _COMMUNITY),
            (rb"rocommunity", rb"6?[ \t]+"),
            (rb"rwcommunity", rb"6?[ \t]+"),
            (rb"v3", rb"[ \t]+(?:encrypted[ \t]+)?auth[ \t]+(?:md5|sha(?:-?[0-9]{1,3})?)[ \t]+"),
            (rb"priv", rb"[ \t]+(?:des|3des|aes(?:-?[0-9]{3})?(?:[ \t]+[0-9]{3})?)[ \t]+"),
            (rb"key-string", rb"[ \t]+"),
            (rb"authentication-key", rb"[ \t]+(?:[0-9]{1,5}[ \t]+(?=md5))?(?:md5[ \t]+)?"),
            (rb"message-digest-key", rb"[ \t]+[0-9]{1,3}[ \t]+md5[ \t]+"),
            (rb"md5", rb"[ \t]+[0-9]{1,3}[ \t]+key[ \t]+"),
            (rb"tacacs-server", _SERVER_KEY),
            (rb"radius-server", _SERVER_KEY),
            (rb"isakmp", rb"[ \t]+key[ \t]+"),
            (rb"pre-shared-key", rb"[ \t]+(?:(?:local|remote|ascii-text|address[ \t]+\S{1,64}[ \t]+key)[ \t]+)?"),
            (rb"wpa-psk", rb"[ \t]+(?:(?:ascii|hex)[ \t]+)?"),
            (rb"chap", rb"[ \t]+password[ \t]+"),
            (rb"pap", rb"[ \t]+sent-username[ \t]+\S{1,64}[ \t]+password[ \t]+"),
            (rb"set", rb"[ \t]+(?:psksecret|passwd|password|auth-password|priv-password)[ \t]+"),
            (rb"password", rb"[ \t]+(?:(?:manager|operator)[ \t]+(?:user-name[ \t]+\S{1,64}[ \t]+)?)?plaintext[ \t]+"),
            (rb"plaintext-password", rb"[ \t]+"),
            (rb"plain-text-password-value", rb"[ \t]+"),
        )
    ),
    # ... a key given with its type on a line of its own, in a key chain or a server's block; and
    # strongSwan's ipsec.secrets (: PSK "...", user : EAP "...").
    ("credential_assignment", word_start(rb"key", rb"[ \t]+[07][ \t]+" + _DEVICE_VALUE), Checks.line_key),
    *(("credential_assignment", word + rb"(?<=: " + word + rb")[ \t]+(?=\S)", Checks.server_password) for word in (rb"PSK", rb"EAP", rb"XAUTH")),
    (
        "login_password",
        word_start(rb"fill_in", rb"[ \t(]+" + _SELECTOR + rb"[ \t]*,[ \t]*with:[ \t]*(?=[\"'])", gap=rb"[A-Za-z0-9_]"),
        Checks.typed_password,
    ),
    ("credential_assignment", _SEPARATOR, Checks.assignment),
    # R's assignment arrows, <- and <<-: api_key <- "...".
    ("credential_assignment", rb"<<?-(?![-<>])", Checks.assignment),
    # A Docker config in base64 (a Kubernetes Secret's .dockerconfigjson: {"auths":... is eyJhdXRocyI6),
    # read back: an "auth", "password" or "identitytoken" of its own inside it is the secret.
    (
        "credential_assignment",
        word_start(rb"eyJhdXRocyI6", rb"[A-Za-z0-9+/]{8,4000}={0,2}(?![A-Za-z0-9+/=])", gap=rb"[A-Za-z0-9+/]"),
        Checks.encoded_docker_config,
    ),
    # A user and a password in base64 after a word of authentication or credentials, where no
    # header or key says what the value is: the docker auth is dXNlcjo..., use Basic dXNlcjo...,
    # the registry creds in base64: dXNlcjo... (read back and judged).
    *(
        ("authorization_header", pattern, Checks.encoded_pair)
        for pattern in (
            *spelled(b"auth", rb"[^\r\n]{0,48}?(?<![A-Za-z0-9+/])" + _ENCODED_PAIR, gap=rb"[A-Za-z0-9]"),
            *spelled(b"cred", rb"(?:s|entials?)?[^\r\n]{0,48}?(?<![A-Za-z0-9+/])" + _ENCODED_PAIR, gap=rb"[A-Za-z0-9]"),
            *spelled(b"basic", rb"[ \t]+" + _ENCODED_PAIR, gap=rb"[A-Za-z0-9]"),
        )
    ),
    # A credential's name compared with a quoted value, either way round: if password == "...".
    ("credential_assignment", rb"===?|!==?", Checks.comparison),
    # A constant that names a credential and a quoted value as a call's arguments: curl_setopt($ch,
    # CURLOPT_PASSWORD, "..."), env.put(Context.SECURITY_CREDENTIALS, "..."). Found by the
    # constant's last word in upper case and the comma.
    *(
        ("credential_assignment", word + rb"(?![A-Za-z0-9_])[ \t]*,[ \t]{0,16}(?=[bBrRuUfFL@]{0,2}[\"'`])", Checks.constant_argument)
        for word in (b"PASSWORD", b"PASSWD", b"PASSPHRASE", b"SECRET", b"TOKEN", b"CREDENTIALS", b"KEY", b"PWD")
    ),
    # A credential's name and its value as the first two arguments of a call: define('DB_PASSWORD',
    # '...'), os.Setenv("API_KEY", "..."). Found by the closing quote and the comma.
    *(
        ("credential_assignment", quote + rb",(?<=" + quote + rb",)[ \t]{0,16}(?=[bBrRuUfF@$]{0,2}[\"'`])", Checks.call_pair)
        for quote in (b'"', b"'")
    ),
    # ... and the name as a Ruby symbol: config.fetch(:api_key, "...").
    ("credential_assignment", rb"\(:(?P<symbol>[A-Za-z_][A-Za-z0-9_]{0,63}),[ \t]{0,16}(?=[\"'])", Checks.symbol_pair),
    # ... and Kotlin's pair of them with "to": mapOf("password" to "...").
    *(("credential_assignment", quote + rb" to (?=[\"'])", Checks.infix_pair) for quote in (b'"', b"'")),
    # ... and a pair of an atom (Erlang's, or Elixir's after a colon) and its value in braces, as an
    # application's configuration gives one: {password, "..."}, {:api_key, "..."}.
    ("credential_assignment", rb"\{[ \t]*:?(?P<symbol>[A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*,[ \t]{0,16}(?=[\"'])", Checks.atom_pair),
    # A literal a credential falls back to when its reference is unset: const apiKey =
    # process.env.API_KEY || "...", ?? "...", Kotlin's ?: "...", password = os.getenv("PW") or "...".
    # Found by the operator; the name and the reference are looked for before it on its line.
    *(
        ("credential_assignment", operator + rb"[ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", Checks.fallback_value)
        for operator in (rb"\|\|", rb"\?\?", rb"\?:", rb" or")
    ),
    # A literal given as a credential's default: by keyword, in a call (config("SECRET_KEY",
    # default="..."), cfg.get("db", "password", fallback="..."), Field(default="...")); after a
    # template's filter or a lookup's method ({{ ... | default('...') }}, Helm's | default "...",
    # env::var("API_KEY").unwrap_or("...")); as a field's first argument (api_key: str =
    # Field("...")). The statement must name the credential before it. And a literal wrapped in
    # pydantic's secret types, SecretStr("...") and SecretBytes(b"...").
    *(
        (
            "credential_assignment",
            word_start(word, rb"[ \t]{0,4}=(?!=)[ \t]{0,4}(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"),
            Checks.keyword_default,
        )
        for word in (rb"default", rb"fallback")
    ),
    ("credential_assignment", rb"default(?:(?<=\|default)|(?<=\| default))(?:\([ \t]*|[ \t]+)(?=[\"'])", Checks.default_after),
    ("credential_assignment", rb"\.unwrap_or(?:_else\([ \t]*\|[A-Za-z_]*\|[ \t]*|\([ \t]*)(?=[\"'])", Checks.default_after),
    ("credential_assignment", word_start(rb"Field", rb"\([ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"), Checks.default_after),
    # A literal that code only converts or wraps on its way to a credential's name: Starlette's
    # SECRET_KEY = Secret("..."), str("...") and bytes("...", "utf-8"), Java's new String("..."),
    # Rust's String::from("..."), Ruby's String.new("..."), Node's Buffer.from("..."), Go's
    # []byte("..."), .NET's Encoding.UTF8.GetBytes("..."), Qt's QStringLiteral("..."), Windows'
    # _T("...") and TEXT("..."). The statement must name the credential
    # before it, as for a field's first argument: a Pulumi resource's Secret("db-password") names a
    # secret, and a word holds none.
    *(
        ("credential_assignment", word_start(word + rb"\(", rb"[ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=gap), Checks.default_after)
        for words, gap in (
            ((rb"Secret", rb"str", rb"bytes", rb"bytearray"), rb"[A-Za-z0-9_.]"),
            ((rb"String", rb"String::from", rb"String\.new", rb"Buffer\.from", rb"GetBytes"), rb"[A-Za-z0-9_]"),
            ((rb"QStringLiteral", rb"QLatin1String", rb"_T", rb"TEXT", rb"wxT"), rb"[A-Za-z0-9_]"),
        )
        for word in words
    ),
    ("credential_assignment", rb"\[\]byte\([ \t]*(?=[\"`])", Checks.default_after),
    # What a conditional expression gives a credential otherwise: password = os.getenv("PW") if
    # prod else "..."; and what a ternary gives first: apiKey = debug ? "..." : System.getenv("KEY")
    # (its second branch is found by the assignment rule's colon).
    ("credential_assignment", word_start(rb"else", rb"[ \t]+(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"), Checks.conditional_default),
    ("credential_assignment", rb"\?(?<=[ \t]\?)[ \t]+(?=[\"'`])", Checks.ternary_default),
    # Ruby's ENV.fetch("SECRET_KEY_BASE") { "..." }: the block gives the default.
    (
        "credential_assignment",
        word_start(rb"fetch", rb"\([^()\r\n]{1,128}\)[ \t]*\{[ \t]*(?:\|[^|\r\n]{0,32}\|[ \t]*)?(?=[\"'])", gap=rb"[A-Za-z0-9_]"),
        Checks.default_after,
    ),
    *(
        ("credential_assignment", word_start(word, rb"\([ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"), Checks.wrapped_secret)
        for word in (rb"SecretStr", rb"SecretBytes")
    ),
    # SQL's INSERT INTO users (name, password) VALUES ('bob', '...'): the value a row gives, by
    # position, to a column named for a credential (:mod:`.inserts`).
    *(("credential_assignment", pattern, Checks.inserted_value) for pattern in spelled(b"values", rb"[ \t\r\n]*\(", gap=rb"[A-Za-z0-9_]")),
    # The fallback an operator gives when a lookup of the environment finds nothing:
    # process.env.API_KEY || "...", ?? "...", os.getenv("API_KEY") or "...", PHP's ?: "...".
    *(
        ("credential_assignment", pattern, Checks.lookup_fallback)
        for pattern in (
            rb"\|\|[ \t]*(?=[\"'`])",
            rb"\?\?[ \t]*(?=[\"'`])",
            rb"\?:[ \t]*(?=[\"'`])",
            word_start(rb"or", rb"[ \t]+(?=[bBrRuUfF]{0,2}[\"'])", gap=rb"[A-Za-z0-9_]"),
        )
    ),
    # A password given in quotes to code that hashes or checks one, as its first argument:
    # hash_password("..."), Django's make_password and check_password("...", encoded), bcrypt's
    # hashpw(b"...", salt) and Node's bcrypt.hash('...', 10), passlib's pwd_context.hash("..."),
    # PHP's password_hash('...', PASSWORD_DEFAULT), Laravel's Hash::make('...') and bcrypt('...'),
    # crypt('...', salt) (Python's, PHP's and PostgreSQL's pgcrypto);
    # and as the only argument to code that sets one: user.set_password("..."), JDBC's and
    # HikariCP's setPassword("..."), Testcontainers' withPassword("...") (keyring's
    # set_password(service, user, ...) is the rule's above).
    *(
        ("credential_assignment", word_start(word, rb"\([ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"), check)
        for words, check in (
            (
                (
                    rb"hash_password", rb"hashPassword", rb"make_password", rb"check_password", rb"checkPassword",
                    rb"verify_password", rb"verifyPassword", rb"password_hash", rb"password_verify", rb"hashpw", rb"checkpw",
                    rb"generate_password_hash", rb"bcrypt\.hash", rb"bcrypt\.hashSync", rb"bcrypt\.compare", rb"bcrypt\.compareSync",
                    rb"pwd_context\.hash", rb"pwd_context\.verify", rb"Hash::make", rb"bcrypt", rb"crypt",
                ),
                Checks.wrapped_secret,
            ),
            ((rb"set_password", rb"setPassword", rb"withPassword"), Checks.sole_secret),
        )
        for word in words
    ),
    # A JSON Web Token's signing secret, the second argument of PyJWT's and Ruby's jwt.encode and
    # decode and of Node's jsonwebtoken sign and verify: jwt.encode(payload, "...", algorithm="HS256").
    (
        "credential_assignment",
        word_start(rb"jwt", rb"\.(?:encode|decode|sign|verify)\((?:" + _PAYLOAD + rb"|[^,(){}\r\n]{1,128}),[ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"),
        Checks.wrapped_secret,
    ),
    (
        "credential_assignment",
        word_start(rb"JWT", rb"\.(?:encode|decode)\((?:" + _PAYLOAD + rb"|[^,(){}\r\n]{1,128}),[ \t]*(?=[\"'])", gap=rb"[A-Za-z0-9_]"),
        Checks.wrapped_secret,
    ),
    # A signing or encryption key given to the code that uses it: Python's hmac.new(b"...", msg,
    # ...) and hmac.digest, Node's crypto.createHmac("sha256", "..."), Ruby's
    # OpenSSL::HMAC.hexdigest("SHA256", "...", data), Go's hmac.New(sha256.New, []byte("...")),
    # PHP's hash_hmac("sha256", $data, "..."), Java's new SecretKeySpec("...".getBytes(), ...) and
    # jjwt's Keys.hmacShaKeyFor and signWith(SignatureAlgorithm.HS256, "..."), .NET's
    # SymmetricSecurityKey(Encoding.UTF8.GetBytes("...")), cryptography's Fernet(b"..."), a
    # cipher's key (below); and a
    # value its infrastructure code marks as a secret given in plain text: AWS CDK's
    # SecretValue.unsafePlainText("...") and plainText, Pulumi's pulumi.secret("...") and
    # Output.secret("...").
    *(
        ("credential_assignment", pattern, Checks.wrapped_secret)
        for pattern in (
            word_start(
                rb"hmac\.",
                rb"(?:(?:new|digest)\([ \t]*(?:key[ \t]*=[ \t]*)?|New\([^,()\r\n]{1,64},[ \t]*\[\]byte\([ \t]*)(?=[bBrRuU]{0,2}[\"'`])",
                gap=rb"[A-Za-z0-9_]",
            ),
            word_start(rb"createHmac\(", rb"[^,()\r\n]{1,64},[ \t]*(?=[\"'`])"),
            word_start(rb"HMAC\.", rb"(?:hexdigest|digest|base64digest)\([^,()\r\n]{1,64},[ \t]*(?=[\"'])"),
            word_start(rb"hash_hmac\(", rb"[^,()\r\n]{1,64},[^,()\r\n]{1,128},[ \t]*(?=[\"'])"),
            word_start(rb"SecretKeySpec\(", rb"[ \t]*(?=\")"),
            word_start(rb"hmacShaKeyFor\(", rb"[ \t]*(?=\")"),
            word_start(rb"signWith\(", rb"[^,()\r\n]{1,64},[ \t]*(?=\")"),
            word_start(rb"SymmetricSecurityKey\(", rb"[ \t]*(?:Encoding\.[A-Za-z0-9]{1,16}\.GetBytes\([ \t]*)?(?=\")"),
            word_start(rb"Fernet\(", rb"[ \t]*(?=[bB]?[\"'])"),
            # a cipher's key: PyCryptodome's AES.new(b"...", ...) and its kin, cryptography's
            # algorithms.AES(b"...") and AESGCM(b"..."), Node's createCipheriv("aes-256-gcm",
            # "...", iv), Go's aes.NewCipher([]byte("...")), PHP's openssl_encrypt($data, "aes-256-cbc", "...")
            *(
                word_start(cipher, rb"\.new\([ \t]*(?:key[ \t]*=[ \t]*)?(?=[bB]?[\"'])", gap=rb"[A-Za-z0-9_]")
                for cipher in (b"AES", b"DES3", b"DES", b"ChaCha20", b"ChaCha20_Poly1305", b"XChaCha20", b"Salsa20", b"Blowfish", b"ARC4", b"CAST")
            ),
            *(
                word_start(cipher + rb"\(", rb"[ \t]*(?:key[ \t]*=[ \t]*)?(?=[bB]?[\"'])", gap=rb"[A-Za-z0-9_]")
                for cipher in (b"algorithms.AES", b"algorithms.ChaCha20", b"AESGCM", b"AESCCM", b"AESSIV", b"AESOCB3", b"ChaCha20Poly1305")
            ),
            *(word_start(call, rb"[^,()\r\n]{1,64},[ \t]*(?=[\"'`])") for call in (rb"createCipheriv\(", rb"createDecipheriv\(")),
            word_start(rb"NewCipher\(", rb"[ \t]*\[\]byte\([ \t]*(?=[\"'`])"),
            *(word_start(call, rb"[^,()\r\n]{1,128},[^,()\r\n]{1,64},[ \t]*(?=[\"'])") for call in (rb"openssl_encrypt\(", rb"openssl_decrypt\(")),
            word_start(rb"SecretValue\.", rb"(?:unsafePlainText|plainText)\([ \t]*(?=[\"'`])"),
            word_start(rb"pulumi\.secret\(", rb"[ \t]*(?=[\"'`])", gap=rb"[A-Za-z0-9_]"),
            word_start(rb"Output\.secret\(", rb"[ \t]*(?=[\"'`])"),
        )
    ),
    # werkzeug's check_password_hash(pwhash, "..."): the password is its second argument.
    (
        "credential_assignment",
        word_start(rb"check_password_hash", rb"\([^,()\r\n]{1,128},[ \t]*(?=[bBrRuUfF]{0,2}[\"'`])", gap=rb"[A-Za-z0-9_]"),
        Checks.wrapped_secret,
    ),
    # What a Ruby block gives a credential's name: FactoryBot's password { "..." } and RSpec's
    # let(:password) { "..." }.
    ("credential_assignment", rb"\{(?<=[A-Za-z0-9_)][ \t]\{)[ \t]*(?=[\"'])", Checks.ruby_block_value),
    # Django's create_user("ann", "ann@example.com", "...") and create_superuser(...): the password
    # is the third argument after a user and an email (or None).
    *(
        (
            "credential_assignment",
            word_start(word, rb"\([ \t]*" + _KEYRING_SERVICE + rb"[ \t]*,[ \t]*(?:" + _KEYRING_SERVICE + rb")[ \t]*,[ \t]*(?=[\"'])"),
            Checks.wrapped_secret,
        )
        for word in (rb"create_user", rb"create_superuser")
    ),
    # A user and a password as a pair of strings: requests' auth=("admin", "..."), the
    # Elasticsearch client's basic_auth=("elastic", "...") and its older http_auth.
    *(
        (
            "credential_assignment",
            word_start(name, rb"[ \t]*=[ \t]*\([ \t]*(?P<user>[\"'])[^\"'\r\n]{0,64}(?P=user)[ \t]*,", gap=rb"[A-Za-z0-9_]"),
            Checks.auth_pair,
        )
        for name in (rb"auth", rb"basic_auth", rb"http_auth")
    ),
    # XML and HTML: an element named for a credential, or the value of a pair whose name is one.
    (
        "credential_assignment",
        rb"<(?P<name>[A-Za-z_][A-Za-z0-9_.:-]{0,63})>(?P<body>[^<>\r\n]{1,256})</(?P=name)>",
        Checks.element,
    ),
    # A setting's element that a name or key attribute names: Android's <string name="api_key">
    # ...</string>, a Java properties file's <entry key="db.password">...</entry>, a <property>,
    # <param>, <setting> or <env> so written, Jetty's <Set name="password">, <Put> and <Arg>, in
    # either case (not HTML's <a>, <option> or <label>, whose text is shown).
    (
        "credential_assignment",
        rb"<(?P<name>(?:[A-Za-z_][A-Za-z0-9_.-]{0,31}:)?(?i:string|entry|item|property|param|parameter|setting|variable|var|env|secret|field|attribute|config|value|set|put|arg))"
        rb"[ \t][^<>\r\n]{0,256}>(?P<body>[^<>\r\n]{1,256})</(?P=name)>",
        Checks.attributed_element,
    ),
    # (Value and VALUE too, as CloudFormation and AWS's APIs write it, a stack parameter's
    # ParameterValue, and a parameter's default, CloudFormation's Default, or an Azure Resource
    # Manager defaultValue.)
    *(
        ("credential_assignment", pattern, Checks.pair_value)
        for pattern in (
            *spelled(b"value", _PAIR_VALUE, gap=rb"[A-Za-z0-9_-]"),
            word_start(rb"ParameterValue", _PAIR_VALUE, gap=rb"[A-Za-z0-9_-]"),
            word_start(rb"default", _PAIR_VALUE, gap=rb"[A-Za-z0-9_-]"),
            word_start(rb"Default", _PAIR_VALUE, gap=rb"[A-Za-z0-9_-]"),
            word_start(rb"defaultValue", _PAIR_VALUE, gap=rb"[A-Za-z0-9_-]"),
        )
    ),
    # A PIN, a wallet's seed phrase and an account's recovery codes (or a device's unlock code, a
    # licence's activation code), after their names, each in the shape it is issued in
    # (:mod:`.codes`): PIN: 4921, MNEMONIC="…", recovery codes: 3f9a2-c81d0.
    # Each rule is the name alone; the check reads the separator and the value after it, so a
    # process compiles their patterns only once a name is found ("backup" and "pin" are common).
    # A SIM's PUK (the code that unblocks its PIN) is one by another name.
    *(
        ("credential_assignment", pattern, Checks.pin)
        for word in (b"pin", b"puk")
        for pattern in spelled(word, rb"(?:[ _-]?(?i:code))?", gap=rb"[A-Za-z0-9_]")
    ),
    # A door's, a gate's or an alarm's code is a PIN by another name (door code: 4921), and so is a
    # passcode or a phone's unlock code of digits (a meeting's: the passcode is 482913); one with
    # letters is a password, which the rules for names judge.
    *(
        ("credential_assignment", pattern, Checks.pin)
        for word in (b"door", b"gate", b"alarm", b"keypad", b"lockbox", b"garage", b"pass", b"unlock")
        for pattern in spelled(word, rb"[ _-]?(?i:code)", gap=rb"[A-Za-z0-9_]")
    ),
    # A seed phrase by the names wallets and notes give it: the mnemonic, the seed phrase, the wallet
    # seed, the secret phrase, BIP39, the 12 (or 24) words, a wallet's name and "phrase".
    # A lock's combination: Safe combination: 31-7-22, the padlock combo is 4821.
    *(
        ("credential_assignment", pattern, Checks.combination)
        for word in (b"combination", b"combo")
        for pattern in spelled(word, rb"", gap=rb"[A-Za-z0-9_]")
    ),
    *(
        ("credential_assignment", pattern, Checks.seed_phrase)
        for word, name in (
            (b"mnemonic", rb"(?:[ _-]?(?i:phrase|words))?"),
            (b"seed", rb"[ _-]?(?i:phrase|words)"),
            (b"wallet", rb"[ _-]?(?i:seed|phrase|words|mnemonic)"),
            (b"secret", rb"[ _-]?(?i:phrase|words)"),
            (b"bip", rb"[ _-]?39(?:[ _-]?(?i:mnemonic|phrase|seed|words))?"),
            *(
                (wallet, _WALLET_PHRASE)
                for wallet in (b"metamask", b"phantom", b"ledger", b"trezor", b"exodus", b"keplr", b"rabby", b"electrum")
            ),
            *((count, _SEED_WORD_COUNT) for count in (b"twelve", b"fifteen", b"eighteen", b"twenty-one", b"twenty one", b"twenty-four", b"twenty four")),
        )
        for pattern in spelled(word, name, gap=rb"[A-Za-z0-9_]")
    ),
    *(
        ("credential_assignment", word_start(count, _SEED_WORD_COUNT, gap=rb"[A-Za-z0-9_.]"), Checks.seed_phrase)
        for count in (b"12", b"15", b"18", b"21", b"24")
    ),
    ("credential_assignment", word_start(b"MetaMask", _WALLET_PHRASE, gap=rb"[A-Za-z0-9_]"), Checks.seed_phrase),
    # An app password in the shape Google issues one: app password for Gmail: abcd efgh ijkl mnop.
    # Found by the whole name, each spelling a literal: "app" alone is in most notes.
    *(
        ("credential_assignment", word_start(name, rb"", gap=rb"[A-Za-z0-9_]"), Checks.app_password)
        for name in (b"app password", b"App password", b"App Password", b"APP PASSWORD", b"app_password", b"APP_PASSWORD", b"app-password")
    ),
    *(
        ("credential_assignment", pattern, Checks.recovery_code)
        for word in (b"recovery", b"backup", b"unlock", b"activation")
        for pattern in spelled(word, rb"[ _-]?(?:(?P<phrase>(?i:phrase|words|seed))|(?i:codes?|keys?))", gap=rb"[A-Za-z0-9_]")
    ),
    # "Password" in other scripts and in other languages' words of more than one, before a colon
    # or "=" (パスワード: ..., пароль = ..., mot de passe : ...): judged as after `password:`.
    *_OTHER_WORD_RULES,
    # A credential named in a sentence and given after a linking word, unquoted: the staging
    # password is Tr0ub4dor&3. Found by the linking word, the name checked before it.
    ("credential_assignment", rb" (?:" + b"|".join(LINKING) + rb")[ \t]+" + _ADVERB, Checks.linked_value),
    # The same with "is" written as "'s": the password's hunter2.
    *(("credential_assignment", apostrophe + rb"s[ \t]+", Checks.linked_value) for apostrophe in (b"'", "\u2019".encode())),
    # A value after an arrow or a dash in a note (new password -> ..., password for prod - ...,
    # password -- ...), also after an arrow from the old value (password: changeme -> ...), or
    # after an aside in brackets and a colon or a spaced "=" (password (prod): ...). Found by the
    # separator.
    # Each separator is a rule of its own, so that each has a literal lead and costs nothing
    # where it does not occur.
    *(
        ("credential_assignment", pattern, Checks.prose_separator)
        for pattern in (
            rb" ->?[ \t]+",
            rb" =>[ \t]+",  # from an old value to a new one: password: changeme => ...
            rb" --[ \t]+",  # two hyphens, as plain text writes a dash
            # a right arrow: →, ⇒, ⟶, ➔, ➜
            *(arrow.encode() + rb"(?<=[ \t]...)[ \t]+" for arrow in ("\u2192", "\u21d2", "\u27f6", "\u2794", "\u279c")),
            "\u2013".encode()[:2] + rb"[\x93\x94](?<=[ \t]...)[ \t]+",  # an en or em dash
            rb"\):[ \t]+",
            rb"\):(?=[ \t]*\r?\n)",  # password (prod): and the value below it
            rb"\)[ \t]+=[ \t]+",  # password (prod) = ...
            rb"\]:[ \t]+",  # AWS Secret Access Key [None]: ..., as aws configure prompts
        )
    ),
    # A user and a password after a label that names both: username/password: ann/..., user/pass =
    # ann:..., login/pw ann / ...; the label says the slash joins a pair, not a path's parts.
    *(
        ("credential_assignment", word_start(label + slash, _PAIR_LABEL, gap=rb"[A-Za-z0-9_]"), Checks.labelled_pair)
        for word in (b"u", b"user", b"username", b"login", b"email")
        for label in dict.fromkeys((word, word.capitalize(), word.upper()))
        for slash in (b"/", b" / ")
    ),
    # A label, a user and a password set off by spaced dashes: Grafana - admin - ..., Grafana —
    # admin — ... (the screen reads en and em dashes as hyphens), found by the second dash.
    ("credential_assignment", rb" -[ \t]+", Checks.dashed_pair),
    # A user and a password on either side of a spaced slash: DB creds: app / ... (the pair with
    # a colon is found by the assignment rule's separator).
    ("credential_assignment", rb" / ", Checks.slashed_pair),
    # ... and a wireless network's quoted name before a colon: Wi-Fi "Office 5G": ....
    *(("credential_assignment", quote + rb":[ \t]+", Checks.quoted_network_value) for quote in (b'"', b"'")),
    # ... and on either side of a spaced colon, after a word of a login or with an address for the
    # user: creds -> ann@example.com : ...; only a password that looks generated counts.
    ("credential_assignment", rb" : ", Checks.spaced_colon_pair),
    # A user and a password right after a login's word and a colon or "is", joined with no space
    # around a slash, by a comma or by "and": Staging login: ann/..., Credentials for the demo:
    # demo, ..., the DB creds are app and .... Found by the word (each spelling a literal); the
    # pair must follow it at once, so a path or a list later in the sentence is not read as one.
    *(
        ("credential_assignment", pattern, Checks.login_joined_pair)
        for word in (b"login", b"logins", b"creds", b"credentials", b"credential")
        for pair in (_LOGIN_PAIR, _LOGIN_PAIR_BELOW)
        for pattern in spelled(word, pair, gap=rb"[A-Za-z0-9_-]")
    ),
    # A password given to what it unlocks, after "with" or "using": Unlock the keychain with ...,
    # decrypt backup.tar.gpg using ..., the vault unseals with ..., the zip is protected with ...,
    # the PDF is locked with .... Found by the verb (each spelling a literal); at most six words
    # stand between it and "with", in one clause. (Not "encrypt": what encrypts is as often a
    # public key, a recipient's.)
    *(
        ("credential_assignment", pattern, Checks.unlocking_value)
        for verb in (b"unlock", b"decrypt", b"unseal", b"protect", b"lock")
        for pattern in spelled(verb, _UNLOCKED_WITH, gap=rb"[A-Za-z0-9_]")
    ),
    # A value that "it" gives for a credential named earlier on the line: the DB password changed;
    # it's now ... (or now it's ...). Found by the pronoun and "now" (literals).
    *(
        ("credential_assignment", lead, Checks.pronoun_value)
        for lead in (
            b"it's now ", b"It's now ", b"it is now ", b"It is now ", "it\u2019s now ".encode(), "It\u2019s now ".encode(),
            b"now it's ", b"Now it's ", b"now it is ", b"Now it is ", "now it\u2019s ".encode(), "Now it\u2019s ".encode(),
        )  # fmt: skip
    ),
    # The same without "now" right after the clause that names the credential: staging admin
    # password? it's ..., the admin password, it's .... Found by the clause's mark.
    *(
        ("credential_assignment", mark + rb"[ \t]+" + _IT_IS + rb" ", Checks.pronoun_value)
        for mark in (rb"\?", b";", b",", b":", b" -")
    ),
    # ... or with no mark between, as a condition runs on: if the build asks for a signing password
    # it's ....
    *(("credential_assignment", lead, Checks.conditional_pronoun_value) for lead in (b" it's ", b" it is ", " it\u2019s ".encode())),
    # The answer, on the line below, to a question that asks for a credential: Q: staging db
    # password? / A: ...; User: what's the admin password? / Assistant: It's .... Found by the
    # question mark that ends a line; or on the same line, as the rest of it: The password? ....
    ("credential_assignment", rb"\?[ \t]+(?=[^\s])", Checks.answered_value),
    (
        "credential_assignment",
        rb"\?[ \t]*\r?\n[ \t]*(?:[A-Z][A-Za-z]{0,15}[ \t]*:[ \t]*)?(?:" + _IT_IS + rb"[ \t]+)?",
        Checks.answered_value,
    ),
    # A value given with the login or the unlocking it is for after it: use ... to log in, enter
    # ... to unlock the vault, uses ... to get into the dashboard, ... to access the API. Found by
    # "to" and the verb (literals); the giving verb and the value are looked for before them.
    *(
        ("credential_assignment", lead + rb"(?:to)?(?![A-Za-z])", Checks.value_to_log_in)
        for lead in (
            b" to log in", b" to log on", b" to login", b" to sign in", b" to unlock", b" to decrypt", b" to authenticate",
            b" to get in", b" to access",
        )
    ),
    # A password after the user a login logs in as, joined by "with" or "using": log in as bob
    # with ..., sign in as admin using ..., connect as root with .... Found by the verb's end and
    # "as" ("in as" ends log in, login, sign in, logged in and ssh in; "as" alone is in most
    # notes), the whole verb checked before it.
    *(
        ("credential_assignment", lead + rb"[ \t]+(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})[ \t]+(?:with|using)[ \t]+", Checks.login_as_value)
        for lead in (
            b"in as", b"IN AS", b"connect as", b"Connect as", b"connected as", b"authenticate as", b"Authenticate as",
            b"authenticated as",
        )
    ),
    # A password after an account given as a login's, a user's or an account's value, joined to it
    # by "with" or "using": the shared login is ops@example.com with ..., user: deploy using ....
    # Found by the name; only a value that looks generated counts (the login is ann with Google).
    *(
        ("credential_assignment", pattern, Checks.account_with_value)
        for word in (b"login", b"user", b"username", b"account")
        for pattern in spelled(
            word,
            rb"(?:[ \t]*:[ \t]*|[ \t]+is[ \t]+)(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})[ \t]+(?:with|using)[ \t]+",
            gap=rb"[A-Za-z0-9_-]",
        )
    ),
    # ... with what it logs into first: log into staging as admin with .... Found by "into".
    (
        "credential_assignment",
        word_start(
            b"into",
            rb"(?:[ \t]+[^\s]{1,32}){1,3}?[ \t]+as[ \t]+(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})[ \t]+(?:with|using)[ \t]+",
            gap=rb"[A-Za-z0-9_-]",
        ),
        Checks.login_as_value,
    ),
    # A user and a password with a space between after a login's label and its colon (login:
    # deploy ..., Basic auth for staging: deploy ...): found by the label's word; only a
    # password with a symbol, a digit and both cases counts, as a label's words go on in prose.
    *(
        ("credential_assignment", pattern, Checks.spaced_login_pair)
        for word in (b"login", b"basic auth", b"creds")
        for pattern in spelled(
            word, rb"(?:[ \t]+[A-Za-z0-9_-]{1,24}){0,3}:[ \t]+(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})[ \t]+", gap=rb"[A-Za-z0-9_-]"
        )
    ),
    # A password given right after a login's "with" and the user after it: logged in with ... as
    # admin. Found by the verb's end and "with"; only a value that looks generated counts, as
    # such a verb is given ways in as often (signed in with Google as ann).
    *(
        ("credential_assignment", lead + rb"[ \t]+(?=[^\s]{6,64}[ \t]+as[ \t]+[A-Za-z0-9])", Checks.login_with_value)
        for lead in (b"in with", b"IN WITH", b"in using", b"login with", b"Login with", b"authenticated with", b"Authenticated with")
    ),
    # A value to type or give where a password is asked for: For the sudo password, enter ...;
    # When asked for the password, type ...; At the password prompt type ...; When asked for the
    # vault passphrase, answer .... Found by the verb.
    *(
        ("credential_assignment", pattern, Checks.typed_when_asked)
        for verb in (b"enter", b"type", b"paste", b"input", b"answer", b"reply", b"respond", b"give", b"use", b"supply", b"provide")
        for pattern in spelled(verb, rb"(?:[ \t]+(?:in|with))?[ \t]+", gap=rb"[A-Za-z0-9_-]")[:2]
    ),
    # An address and a password that "use" or "enter" gives together: use demo@example.com and
    # .... Found by the verb; only a password with a symbol, a digit and both cases counts.
    *(
        (
            "credential_assignment",
            word_start(verb, rb"[ \t]+[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}[ \t]+(?:and|with)[ \t]+", gap=rb"[A-Za-z0-9_-]"),
            Checks.given_address_pair,
        )
        for verb in (b"use", b"Use", b"enter", b"Enter")
    ),
    # A password alone after a login's "with", maybe after what it logs into: log in with ...,
    # log into the dashboard with .... Found by the verb's end and "with", or by "to" and "with"
    # after what it logs into; only a password with a symbol, a digit and both cases counts.
    *(
        ("credential_assignment", lead + rb"[ \t]+", Checks.login_with_password)
        for lead in (
            b"in with", b"IN WITH", b"in using", b"login with", b"Login with", b"connect with", b"authenticate with",
            b"authenticated with", b"Authenticated with",
        )
    ),
    *(
        ("credential_assignment", word_start(lead, rb"(?:[ \t]+[^\s]{1,32}){1,3}?[ \t]+(?:with|using)[ \t]+", gap=rb"[A-Za-z0-9_-]"), Checks.login_with_password)
        for lead in (b"into", b"in to")
    ),
    # A user and a password joined by "and" after a login's verb and "with" or "using": log in
    # with deploy and ..., authenticate using svc_ci and .... Found by the verb's end and "with"
    # (as "in as" above), the whole verb checked before the user.
    *(
        ("credential_assignment", lead + rb"[ \t]+(?P<user>[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63})(?P<joint>[ \t]+)and[ \t]+", Checks.login_with_pair)
        for lead in (
            b"in with", b"IN WITH", b"in using", b"login with", b"Login with", b"LOGIN WITH", b"connect with", b"Connect with",
            b"authenticate with", b"Authenticate with", b"authenticate using",
        )
    ),
    # The same with no spaces, where the user is an account systems come with: around a slash or
    # joined by "and" after a word of a login (creds: admin/..., log in with admin and ...; a
    # path's "admin/" follows a slash or a letter), or around a slash or a colon without one when
    # the password looks generated (Grafana admin:Xk9mQ2vLp, root/Tr0ub4dor&3; with the login's
    # word, the assignment rule's pair finds a colon's). One rule per spelling of the account,
    # whichever joins the pair.
    *(
        ("credential_assignment", pattern, Checks.account_pair)
        for account in _DEFAULT_ACCOUNTS
        for pattern in spelled(
            account, rb"(?:(?P<slash>/)|(?P<colon>:)|(?P<joint>[ \t]+)and[ \t]+)", gap=rb"[A-Za-z0-9_./-]"
        )
    ),
    # A value right after a credential word, no verb: login with password Hunter2024. Found by
    # the word (each spelling a literal), the rest of the name checked before it; "key" counts
    # only as the end of a key's two-word name (the secret key 8f14e45fceea167a5a36dedd4bea2543).
    *(
        ("credential_assignment", pattern, Checks.bare_after_password_name)
        for word in (b"password", b"passwd", b"passphrase", b"pwd", b"pw")
        for pattern in spelled(word, rb"[ \t]+", gap=rb"[A-Za-z0-9]")
    ),
    # The same after a password's word in another language (Passwort Xk9…, пароль Xk9…), where only
    # a value with a generated one's texture counts.
    *(
        ("credential_assignment", pattern, Checks.bare_after_other_password_word)
        for word in BARE_PASSWORD_WORDS
        for pattern in (spelled(word, rb"[ \t]+", gap=rb"[A-Za-z0-9]") if word[:1].islower() else (word_start(word, rb"[ \t]+", gap=rb"[A-Za-z0-9]"),))
    ),
    *(
        ("credential_assignment", pattern, Checks.bare_after_name)
        for word in (b"secret", b"token", b"seed")
        for pattern in spelled(word, rb"[ \t]+", gap=rb"[A-Za-z0-9]")
    ),
    *(("credential_assignment", pattern, Checks.bare_after_key) for pattern in spelled(b"key", rb"[ \t]+", gap=rb"[A-Za-z0-9]")),
    # A value set off by commas after the credential it names: the admin password, ..., works.
    *(
        ("credential_assignment", pattern, Checks.appositive_value)
        for word in (b"password", b"passphrase", b"secret", b"token", b"key")
        for pattern in spelled(word, rb",[ \t]+", gap=rb"[A-Za-z0-9]")
    ),
    # A password after "p:" where a user was given after "u:" right before: u: admin p: ..., or
    # the same with "=": u=admin p=.... Found by the user's label, at a line's or a word's start;
    # a type is no user (f(u: int, p: ...)).
    *(
        ("credential_assignment", word_start(label + mark, pair, gap=rb"[^\s]"), Checks.abbreviated_password)
        for word in (b"u", b"user", b"usr", b"login", b"username")
        for label in dict.fromkeys((word, word.capitalize(), word.upper()))
        for mark, pair in ((b":", _SHORT_PAIR), (b"=", _SHORT_PAIR_SET))
    ),
    # A password after "pass" or "pw" where a user is given right before: user bob pass ...
    *(
        ("credential_assignment", pattern, Checks.pass_after_user)
        for word in (b"pass", b"pw")
        for pattern in spelled(word, rb"[ \t]+", gap=rb"[A-Za-z0-9_-]")[:1]  # lower case, as a note writes it mid-line
    ),
    # A value that its sentence names only after it: hunter2 is the password, use ... as the token
    # for CI. Found by the word, which ends its clause or is followed by what it is for.
    *(
        ("credential_assignment", pattern, Checks.named_after_value)
        for word in (b"password", b"passphrase", b"secret", b"token", b"key")
        for pattern in spelled(word, _NAME_ENDS, gap=rb"[A-Za-z0-9]")  # hunter2 is the PASSWORD too
    ),
    # A credential named in a sentence and given in quotes, without a separator: the password
    # "hunter2", Markdown's password `hunter2`. Found by the opening quote after a space, the name
    # checked before it.
    *(
        ("credential_assignment", quote + rb"(?<=[ \t]" + quote + rb")", Checks.quoted_after_name)
        for quote in (b'"', b"'", b"`")
    ),
)


@functools.cache
def rule_leads() -> tuple[bytes, ...]:
    """Each rule's literal lead, found on the first screen rather than on import.

    Reading them from some 400 patterns takes about 2 ms, which every cold process that screens
    (a ``tool`` scan serving five cards) would pay, so the leads are kept in :mod:`.lead_table`
    with a digest of the patterns they were read from, and read again only when the patterns are
    not those (:func:`rules_digest`).
    """
    from . import lead_table

    if lead_table.DIGEST == rules_digest() and len(lead_table.LEADS) == len(RULES):
        return lead_table.LEADS
    return tuple(literal_lead(source) for _, source, _ in RULES)


def rules_digest() -> str:
    """A digest of every rule's pattern, in order (each with its length, so none can run into the
    next): what :mod:`.lead_table`'s leads were read from."""
    try:  # the same BLAKE2b, without loading OpenSSL (hashlib's import) into every tool process
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import blake2b

    digest = blake2b(digest_size=16)
    for _, source, _ in RULES:
        digest.update(len(source).to_bytes(4, "big"))
        digest.update(source)
    return digest.hexdigest()


_FIRST_OTHER = RULES.index(_OTHER_SCRIPT_RULES[0])
OTHER_SCRIPTS = range(_FIRST_OTHER, _FIRST_OTHER + len(_OTHER_SCRIPT_RULES))
"""Where the rules for "password" in words not in ASCII sit in :data:`RULES`: content in ASCII
alone (most of it) skips them without looking for each word."""

_FIRST_PROVIDER = RULES.index(_PROVIDER_RULES[0])
PROVIDERS = range(_FIRST_PROVIDER, _FIRST_PROVIDER + len(_PROVIDER_RULES))
"""Where :mod:`.providers`' rules sit in :data:`RULES`. Each of their tokens has a run of at least
sixteen :data:`TOKEN_RUN` characters; content without one (most prose) skips their lead checks,
each a pass over the content."""


def _write_lead_table() -> None:  # pragma: no cover - run by hand after a rule changes; a test checks its result
    """Write :mod:`.lead_table` for the rules as they are."""
    from pathlib import Path

    path = Path(__file__).with_name("lead_table.py")
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("DIGEST = ")]
    leads = "".join(f"    {literal_lead(source)!r},\n" for _, source, _ in RULES)
    path.write_text(f'{head}DIGEST = "{rules_digest()}"\n\nLEADS: tuple[bytes, ...] = (\n{leads})\n', encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _write_lead_table()

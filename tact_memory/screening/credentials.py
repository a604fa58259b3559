"""A best-effort screen that keeps obvious credentials out of memory records.

:func:`find_secret` is called on every candidate record before it is stored, and on stored records
before they are shown to a model. It returns ``None`` for content that looks safe, or the name of the
*kind* of credential it found (a key of :data:`KINDS`). The kind is always one of a fixed set of
constant names, so an error message built from it can never echo any part of the matched value.

Design:

- The screen reads the content as a reader would see it: in NFKC form (full-width letters and
  colons become ASCII, a no-break space becomes a space) with default-ignorable code points
  (zero-width spaces and joiners, soft hyphens, variation selectors, tag characters) removed, and
  separators that only look like ``:``, ``-`` or ``=`` (the ratio sign, the non-breaking hyphen)
  read as them. Pure ASCII content is already in that form and skips the step.
- Every rule is a compiled bytes regular expression plus a small shape check. Rules run in a fixed
  priority order, most specific first: a GitHub token assigned to ``GITHUB_TOKEN`` is reported as
  ``github_token`` rather than as a generic ``credential_assignment``. The result is the first rule,
  in that order, with a match that passes its check.
- Provider tokens are recognised by their published prefixes and usual lengths, anchored so they
  cannot start in the middle of a longer word. A body made of fewer than four distinct characters
  (``ghp_xxxx...``) is a documentation placeholder and is kept, and so is the whole token wherever
  it is given as a value (``GITHUB_TOKEN=ghp_aaaa...``, a header, a URL's password).
- Values a provider prints in its documentation and never issues are kept, as an exact list
  (:data:`_PUBLISHED_EXAMPLE`): AWS's example key ids (the suffix ``EXAMPLE``, as in
  ``AKIAIOSFODNN7EXAMPLE``) and its two example secret access keys, and the account key Azurite,
  Microsoft's storage emulator, gives every developer. They fill tutorials and test configuration,
  and refusing them would teach that the screen refuses what is plainly no secret; a key that
  differs from them by one character is refused.
- A value assigned to a credential-like name, given to a password flag, or carried by an
  ``Authorization``, ``Proxy-Authorization``, API-key or ``Cookie`` header is refused whatever its
  length (a session cookie outside a header, under a framework's name for it, only when its value
  looks generated), unless it stands for a value instead of being one: empty, a template or environment
  reference (``<token>``, ``${API_KEY}``, ``$(pass show db)``, ``%TOKEN%``, ``{{ secret }}``), a mask
  (``****``, ``xxxx``), a word that marks a missing value (``None``, ``null``, ``changeme``,
  ``redacted``, ``required``), a type (``str``, ``SecretStr``), or a reference to where the value
  lives (``settings.KEY``, ``os.getenv(...)``, ``API_KEY_V2``, ``dbPassword``, paths, URLs, ARNs).
  A quoted value is a string: it stands for a value only when the whole of it is a template, a
  reference or a call (``"${API_KEY}"``, ``"{{ secret }}"``, ``'os.environ["KEY"]'``), or when it
  is code (an f-string that interpolates, a regular expression, a colour, a terminal's escape
  sequence such as ``"\\033[92m"``); a bracket, ``$``, ``%``, ``<`` or ``#`` anywhere else in it
  is a password's own character (``"Tr0ub(4dor&3"``, ``"#9fK2mL!xqW"``, a Django ``SECRET_KEY``),
  and capitalised words in it are a passphrase (``"CorrectHorseBatteryStaple"``), not a type.
- Some values only name a secret, or are public by design, and are kept: a cookie that holds a
  preference (``Cookie: theme=dark``; one named for a session or a login, or with a generated
  value, is refused), the name of a Secret object or of a key inside one under the names charts
  give it in (``secretKey: postgres-password``), a CAPTCHA's site key, and a key whose provider
  publishes it as public (Stripe's ``pk_live_...``, Mapbox's ``pk.`` tokens) under any name.
  A key whose public and secret forms share a shape (Firebase's ``AIza...`` web keys, Algolia's
  search-only keys) is refused.
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
- A credential-like name *ends* in a credential word at a word boundary (``DB_PASSWORD``,
  ``clientSecret``, ``api-key``, ``authToken``, ``STRIPE_KEY``), optionally followed by an
  environment or version qualifier (``DB_PASSWORD_PROD``, ``JWT_SECRET_1``, ``dbPasswordV2``).
  A name that goes on past the credential word with other words may say something *about* the
  credential (``TOKEN_TTL_SECONDS``, ``password_min_length``, ``token_url``: lengths, counts,
  addresses) or name what it is for (``DB_PASSWORD_ORDERS``, ``GITHUB_TOKEN_BOTS``): under it only
  a value that looks generated is refused, eight bytes or more that mix three of lower case, upper
  case, digits and symbols (or a long hex or base32 run), so numbers, durations, URLs, paths and
  identifiers are kept. ``max_tokens`` and ``tokenizer`` go on with no separator and name no
  credential at all. An
  upper-case name that ends in ``_KEY`` and says nothing of a credential (``SPAN_KEY``,
  ``CONFIGFILE_KEY``) is one only while its value could be: lower-case words joined by ``-``,
  ``_`` or ``.`` (``"current-span"``) name what it looks up, and are kept. ``pass`` alone names a
  count or a test's result as often as a password (``pass: 14``, ``PASS = "PASS"``, ``PASS = 0``):
  after it, a value written as one is refused when it is one run with a letter and a digit or a
  symbol (``PASS=hunter2``, ``export PASS="hunter2"``), and a plain word or a number is kept.

Speed: every quantifier is bounded or runs over a character class disjoint from what follows it, so
a scan is linear in the input length. Every rule starts with a literal (a token's "must not continue
a longer word" look-behind sits after its prefix, and an assignment is found by its separator, not
its name), which lets the regex engine jump between candidates; a 1 KiB record takes well under a
millisecond. Nothing is compiled on import, and a rule is compiled the first time content holds its
literal lead (:func:`literal_lead`, read from the pattern's text without compiling it): compiling
every rule and check costs some thirty milliseconds, which a cold process that screens a few
ordinary records (a scan serving five cards) should not pay for rules their text cannot reach.

Buffer hygiene: the content is encoded once into a :class:`bytearray` that this module owns. All
matching and shape checks run on that buffer through positions (``pattern.match(buffer, pos,
endpos)`` and a memoryview), never on copied slices, and the buffer is overwritten with zeros in a
``finally`` block, even when a rule raises. This protects only that buffer. It does not and cannot
clear the caller's ``str`` (Python strings are immutable), the normalised ``str`` made for content
that is not pure ASCII, the transient ``bytes`` object the UTF-8 encoder creates before it is copied
into the buffer, pydantic's parsed copies, the tool arguments of the agent loop, SQLite's bindings
and pages, or operating-system copies.

Limits: this is not a complete secret scanner. It cannot recognise every private value: a password
written in running prose without a digit or symbol (or a short one that the sentence goes on
after: ``the password is hunter2 for staging``, or one of lower case and digits right after the
name: ``password hunter2024``), a password with spaces after ``pass`` or ``auth`` alone, which
head steps and modes far more often (``first pass: collect imports``), or one of fewer than four
plain words (``password: correct horse battery``), a key with an unpublished shape that is not
assigned to a credential-like name, a credential split across lines, letters from other scripts that
merely look like Latin ones, or any encoded, encrypted or obfuscated secret. Passing the screen is no
proof that content is free of secrets. The other way, four plain words in one case after a
credential name are taken for a passphrase even when they are a note (``password: reset last
friday morning``).

Why this module is longer than ~300 lines: it is one rule table with the scanner that runs it; the
rules read best side by side, and splitting them would hide which rule wins.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import AnyStr

from . import providers

__all__ = ["KINDS", "find_secret", "literal_lead"]

KINDS: Mapping[str, str] = MappingProxyType(
    {
        "private_key": "a private key block",
        "openvpn_key": "an OpenVPN static or tls-crypt key",
        "github_token": "a GitHub token",
        "gitlab_token": "a GitLab token",
        "aws_access_key": "an AWS access key ID",
        "aws_secret_key": "an AWS secret access key",
        "slack_token": "a Slack token",
        "slack_webhook": "a Slack webhook URL",
        "discord_webhook": "a Discord webhook URL",
        "discord_bot_token": "a Discord bot token",
        "anthropic_key": "an Anthropic API key",
        "openai_key": "an OpenAI-style API key",
        "google_api_key": "a Google API key",
        "google_oauth_token": "a Google OAuth client secret, access token or refresh token",
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
        "openrouter_key": "an OpenRouter API key",
        "atlassian_token": "an Atlassian API token",
        "notion_token": "a Notion integration token",
        "grafana_token": "a Grafana token",
        "square_token": "a Square access token or secret",
        "newrelic_key": "a New Relic API key",
        "sentry_token": "a Sentry auth token",
        "doppler_token": "a Doppler token",
        "terraform_token": "a Terraform Cloud API token",
        "azure_connection_string": "an Azure connection string with an account key",
        "signed_url": "a pre-signed URL carrying an access signature",
        "jwt": "a JSON Web Token",
        "credential_url": "a URL with an embedded password",
        "authorization_header": "an authorization header carrying a credential",
        "cookie_header": "a cookie header carrying a session value",
        "session_cookie": "a session cookie's value",
        "bearer_token": "a bearer token",
        "command_line_credential": "a credential passed as a command-line argument",
        "netrc_password": "a netrc entry with a password",
        "kubernetes_secret": "a Kubernetes Secret's encoded data",
        "credential_assignment": "a value assigned to a credential-like name",
        **providers.KINDS,
    }
)
"""Every kind :func:`find_secret` can return, with a short description for error messages."""

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties): code points a reader does not see.
_IGNORABLE = (
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)

_MIN_VALUE = 8
_MAX_QUOTED = 256  # how far a quoted value after a credential name may run to its closing quote
_MIN_DISTINCT = 4
_MAX_PURPOSE = 160  # how far before a linking word "<name> for <what it is for>" may start
_CREDENTIAL_WORD = rb"(?i:pass|pw|psk|pat|secret|token|key|cred|auth)"
"""A part of every name :meth:`_Screen.credential_named` takes."""
_MAX_NAMED = 24  # sentence-name searches one screen makes; past them, no sentence names a credential
_MAX_UNPACKED = 16  # values on the right of an unpacking that are looked at before it is judged a value
_MIN_LINKED = 6  # the shortest unquoted value that ends its clause after "is", "to" (is hunter2.)
_TRAILING = b",;.:)]}>"  # trimmed from a value so "set password=abc123xyz." leaves out the full stop

# What a value is: after up to eight spaces and an optional string prefix (f"...", b'...', C#'s
# verbatim @"..." and interpolated $"...", Objective-C's @"..."), either
# a quoted run (the quote may be escaped, as in JSON inside a string) or one bare run up to white
# space, a quote, a list separator, a query-string "&" or an escape sequence.
_VALUE = (
    rb"[ \t]{0,8}(?:[bBrRuUfF@$]{1,2}(?=\\{0,3}[\"'`]))?"
    rb"(?:\\{0,3}[\"'`](?P<quoted>(?:[^\"'`\\\r\n]|\\(?!\\{0,3}[\"'`nrt])){0,256})"
    rb"|(?P<bare>(?:[^\s\"'`,;&\\]|\\(?![\\\"'`nrt])){1,256}))"
)
# What may follow a value that ends its clause: the end, a line break (also escaped), a comment, a
# closing bracket or quote, a list or command separator, or a sentence end.
_CLAUSE_END = rb"[.!?:]?[ \t]*(?:\Z|[\r\n,;)}\]#|&\"'`]|\\[nrt\"'`\\])"
# A value that is followed by another command-line option ("--password x --host db").
_NEXT_FLAG = rb"[ \t]+-"

# Values that stand for a secret without being one: masks, YAML block markers (|, >-: the block's
# first line is judged instead, see block_value), words that
# say the value is missing or elsewhere, type names, and authorization scheme names given without a
# credential. "your-api-key-here" and "my_secret_key" are phrases, words joined by dashes or
# underscores; "My-Prod-Passw0rd!" has a digit and a symbol, and is a password.
# The credential words themselves are here too: "password=password" is how documentation writes a
# value it does not show, and "token: Token" is a type annotation.
_PLACEHOLDER_WORD = (
    rb"\*+|\.+|x+|X+|-+|_+|\?+|[|>][-+]?[0-9]?"
    rb"|(?i:(?:your|my|insert|replace|put|enter)(?:[-_][a-z]+)+|(?:[a-z]+[-_])+here"
    rb"|pass(?:word|wd|phrase)?s?|pwd|secrets?|tokens?|keys?|api[-_]?keys?|credentials?|creds|auth"
    rb"|changeme|changeit|change[-_]?me|changethis|redacted|removed|placeholder|hidden|masked|omitted"
    rb"|elided|sensitive|confidential|censored|none|null|nil|nothing|undefined|undef|unset|empty"
    rb"|blank|true|false|yes|no|on|off|required|optional|missing|invalid|expired|revoked|rotated"
    rb"|disabled|enabled|todo|tbd|tba|n/?a|see|same|ditto|default|auto|prompt|ask|stdin|env"
    rb"|str|string|bytes|bytearray|int|integer|bool|boolean|number|any|object|text|char|varchar"
    rb"|secretstr|secretbytes|basic|bearer|digest|negotiate|ntlm)"
    rb"|value|val"  # the variable code names a value by (api_key = value); VALUE is how a command stands one in
    rb"|(?i:basic|bearer|token|digest)[ \t]+"  # the scheme alone, the credential joined on after it
)
# Unquoted, a value that starts like a template, a reference, a command substitution or a comment
# (${API_KEY}, $API_KEY, %TOKEN%, <token>, {{ secret }}, [REDACTED], $(pass show db), # set later),
# or a YAML tag (!vault), stands for one: a shell or a YAML file would not take such a value bare.
# Inside quotes these characters are a password's own (see _QUOTED_STAND_IN).
_PLACEHOLDER = rb"[$%<{\[(#].*|!!?[A-Za-z]+|.*[>}]|" + _PLACEHOLDER_WORD

# A quoted value stands for one only when the whole of it is a template or a reference: ${API_KEY}
# (also with a default), ${{ secrets.X }}, $API_KEY, $(pass show db), %API_KEY%, %(password)s, %s,
# <your-token>, {password}, {{ secret }}, {% raw %}, #{password}, or a stand-in word in brackets
# ([REDACTED], (hidden)); several of them joined by punctuation ("${USER}:${PASS}", a format
# string such as "(%s)|(%s)") too: no letter or digit outside them. A dollar sign before a name
# with upper case, lower case and digits all mixed ("$Tr0ub4dor") is a password. No two
# alternatives match the same text, so a value that fails late is not tried two ways a template.
_TEMPLATE = (
    rb"\$\{\{[^{}]{0,128}\}\}|\$\{[^{}]{0,128}\}|\$\([^()]{0,128}\)"
    rb"|\$(?!(?=[A-Za-z0-9_]*[a-z])(?=[A-Za-z0-9_]*[A-Z])[A-Za-z0-9_]*[0-9])[A-Za-z_][A-Za-z0-9_]*"
    rb"(?:(?:->|\.)[A-Za-z_][A-Za-z0-9_]*)*"
    rb"|\$[a-z_][a-z0-9_]*(?:-[a-z0-9_]+)+"  # a style sheet's variable: $text-success
    rb"|%[A-Za-z_][A-Za-z0-9_]*%|%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]|%[-+ 0#]?[0-9]*(?:\.[0-9]+)?[sdvqrxf]"
    rb"|<[A-Za-z_][A-Za-z0-9 _.:/|-]{0,127}>|<%[=-]?[^<>]{0,128}%>"  # <password>, <your-token>, ERB
    rb"|\{\{[^{}]{0,128}\}\}|\{%[^{}]{0,128}%\}|\{#[^{}]{0,128}#\}|#\{[^{}]{0,128}\}#?"
    # the tokens a release pipeline replaces (#{DB_PASSWORD}#, @@DB_PASSWORD@@), a name in one case
    rb"|@@(?:[A-Z_][A-Z0-9_.]{0,127}|[a-z_][a-z0-9_.-]{0,127})@@"
    # A format field as Python, .NET and most template languages write one: {password}, {0},
    # {user.name}, {env[TOKEN]!r:>12}; not any text between braces, which random symbols hold.
    rb"|\{ ?[A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[A-Za-z0-9_]{1,32}\])*(?:![rsa])?"
    rb"(?::(?:[^{}]?[<>=^])?[-+ ]?#?0?[0-9]*[,_]?(?:\.[0-9]+)?[A-Za-z%]?)? ?\}"
    rb"|\[[A-Za-z][A-Za-z _.-]{0,63}\]|\([A-Za-z][A-Za-z _.-]{0,63}\)"
)
# A call or a subscript in code's own names, as the whole value: get_secret(), os.getenv(KEY),
# env[TOKEN], vault.read(path).data, and a type written as a string ("contextvars.Token[Span[Any]
# | None]"). The callee is a dotted name without a digit, as in code_name.
_SUBSCRIPT = rb"\[(?:[A-Za-z0-9_., :|-]|\[[A-Za-z0-9_., :|-]{0,64}\]){0,128}\]"
_CALL = (
    rb"[A-Za-z_]+(?:\.[A-Za-z_]+)*(?:\([A-Za-z0-9_., =:-]{0,128}\)|" + _SUBSCRIPT + rb")+"
    rb"(?:\.[A-Za-z_]+(?:\([A-Za-z0-9_., =:-]{0,128}\)|" + _SUBSCRIPT + rb")*)*"
)
# A colour, as style sheets and syntax themes write one (Token.String: "#AB0909").
_COLOUR = rb"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})"
_JOINER = rb"[-_.:/@,;|()\[\] ]{0,4}"
# An Azure App Service setting that reads its value from Key Vault.
_KEY_VAULT_REFERENCE = rb"@Microsoft\.KeyVault\([^()\"'`]{1,256}\)"
_QUOTED_STAND_IN = (
    _JOINER + rb"(?:" + _TEMPLATE + rb")(?:" + _JOINER + rb"(?:" + _TEMPLATE + rb"))*" + _JOINER
    + rb"|" + _CALL + rb"|" + _COLOUR + rb"|" + _KEY_VAULT_REFERENCE
)
# A token's published prefix with the rest left out (sk-..., sk_live_..., ghp_...), as notes and
# documentation show which kind of key goes where. The prefix ends at its separator: a value
# that goes on past it before the dots (hunter2...) is a value cut short, not a prefix.
_ELIDED_PREFIX = rb"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,2}[-_]"
# Quoted strings that are code whatever else they hold: a regular expression (a group such as
# (?:...), a class escape such as \w, or a character class with a range that a quantifier or
# another class follows: [0-9A-Fa-f]{1,4}, [a-zA-Z_][a-zA-Z0-9_-]*), and what lies between two
# string literals, which a value's parse sees from the first one's closing quote ("Basic " +
# b64encode(pair) + "). Random symbols hold such a shape about once in a thousand passwords.
_PATTERN_CONSTRUCT = rb"\(\?(?:[:=!#]|P?<)(?:[^()]{0,64}\)|\Z)|\\[wdsWDSbB]"
_PATTERN_CLASS = rb"\[\^?[^\]\s\[]{1,64}\](?=[*+?{(\[])"
_PATTERN_RANGE = rb"[A-Za-z0-9]-[A-Za-z0-9]"
_BETWEEN_STRINGS = rb"[ \t]+(?:[-+%*.&|]|(?:or|and|if|else|in|for)[ \t])"
# A terminal's escape sequence, as code writes the escape byte (\033, \x1b, \u001b, \e) or as
# captured output holds it: a colour or a cursor move ("\033[92m"), never part of a password.
_TERMINAL_ESCAPE = rb"(?:\x1b|\\(?:0?33|x1[bB]|u001[bB]|e))\["
# A quoted value cut short by a quote of the other kind, which opens a string inside it: what
# precedes that string is a template's or a call's opening (os.environ[, get_secret(, os.getenv(KEY,
# ${{ secrets[, {{ required , $(pass show , <%= ENV[, #{ENV[), not a password.
_OPEN_STAND_IN = (
    rb"(?:\$\{\{?|\{\{-?|\{%-?|<%[=-]?|#\{|\$\()[^\"'`]{0,128}"
    rb"|[A-Za-z_]+(?:\.[A-Za-z_]+)*(?:\([A-Za-z0-9_., =:-]{0,128}\)|\[[A-Za-z0-9_., :-]{0,128}\])*"
    rb"[(\[][A-Za-z0-9_., =:-]{0,128}"
)

# Values that name where a secret lives, or name something else, rather than containing a secret.
# People choose passwords with dots, dashes and underscores (hunter-2, Prod.Pass2024, summer.2024,
# postgres_dev_2024, super-secret-jwt-key), so a separator alone never makes a reference. What does:
# an attribute path that ends in a name as code writes one (settings.SECRET_KEY, config.api_key,
# ed25519.PrivateKey, self.password: an underscore, a capital or a credential word, never a digit);
# an upper-case environment name (OPENAI_API_KEY_V2); an algorithm's name (hmac-sha256,
# aes-256-gcm); an identifier that names a credential variable in code's own style, with a
# separator or a case step and no digit (dbPassword, confirm_password).
_ALGORITHM = (
    rb"(?i:hmac|sha[0-9]{0,3}|md5|aes[0-9]{0,3}|rsa|ecdsa|ecdh|ed25519|ed448|x25519|pbkdf2|bcrypt|scrypt|ssh|nistp[0-9]{3}"
    rb"|argon2(?:id|i|d)?|chacha20|poly1305|blake2[bs]?|gcm|cbc|ctr|ecb|p[0-9]{3}|hs[0-9]{3}|rs[0-9]{3}"
    rb"|es[0-9]{3}|ps[0-9]{3}|[0-9]{2,4})"
)
_REFERENCE = (
    rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\."
    rb"(?:[A-Za-z_]*[_A-Z][A-Za-z_]*|(?i:pass(?:word|wd|phrase)?|pwd|secrets?|tokens?|keys?|api_?key|credentials?"
    rb"|creds|auth))"  # settings.SECRET_KEY, ed25519.PrivateKey, self.password
    rb"|[A-Z]+[0-9]{0,2}(?:_[A-Z]+[0-9]{0,2})+"  # OPENAI_API_KEY_V2, but not a random RUN_OF_CAPS7X2
    rb"|" + _ALGORITHM + rb"(?:[-_]" + _ALGORITHM + rb")+"  # hmac-sha256, aes-256-gcm
    # dbPassword, confirm_password, DB_PASSWORD_FILE: the credential word in one of code's cases
    # (random letters hold "pWd" or "PAsS" by chance, and are a password)
    rb"|(?=[A-Za-z_]*(?:_|[a-z][A-Z]))[A-Za-z_]*"
    rb"(?:[Pp]ass(?:word|wd)?|PASS(?:WORD|WD)?|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Cc]redential|CREDENTIAL"
    rb"|[Aa]pi_?[Kk]ey|API_?KEY|[Pp]wd|PWD)[A-Za-z_]*"
    rb"|[a-z0-9_-]+(?:/[a-z0-9_.-]+)+"  # projects/123/secrets/db
    # a Terraform resource's attribute (random_password.db.result, aws_db_instance.main.password)
    rb"|(?:data\.|module\.)?(?:random|aws|azurerm|azuread|google|kubernetes|vault|tls|cloudflare|github"
    rb"|digitalocean|hcloud|null|terraform)_[a-z_]+(?:\.[a-z_]+){2,}"
    rb"|[A-Za-z][A-Za-z0-9+.-]*://.*"  # URLs; embedded passwords have their own rule
    rb"|(?i:arn|vault|op|env|file|ssm|sm|gsm|keyvault|secretsmanager|ref|fd|pass):.*"
    rb"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"  # email addresses
    rb"|(?:self|this|cls)\.[A-Za-z_][A-Za-z_.]*"  # an attribute of the object in code: self.current
    rb"|__[a-z]+(?:_[a-z]+)*__|_{1,2}[A-Za-z]+(?:_[A-Za-z]+)+|_{1,2}[A-Z][a-z]+(?:[A-Z][a-z]+)+"  # __root__,
    # _digest_auth, _BearerAuth: a private or special name, two words or more and no digit
    rb"|[Xx](?:-[A-Za-z]+){2,}"  # a header's name (X-API-Key, x-auth-token), not its value
)
# Unquoted: a file path, an option list such as id=npmrc,src=... (not base64 padding), and a value
# with a bracket in it, which is code: a call or a subscript (os.getenv("X"), env["X"]) that the
# value's end, at the first quote or space, cuts short.
_UNQUOTED_REFERENCE = (
    _REFERENCE + rb"|(?:~|\.{1,2})?/.*|[A-Za-z]:\\.*|[A-Za-z_][A-Za-z0-9_]*=[^=].*|.*[(\[].*"
)
# Quoted, a path or an option list (two pairs or more) is made of the characters paths and option
# values have; a quoted value with a bracket in it is a reference only as a whole call (_CALL). A
# generated password starts with a slash or has an equals sign after its first letters often
# enough ("/e.9M=haX(#@w*8Nk+7B", "x=4b%0p%)zcyc3e..."), and its symbols tell it from a path.
_QUOTED_REFERENCE = (
    _REFERENCE + rb"|(?:~|\.{1,2})?/[A-Za-z0-9_.~/@:+=,-]*|[A-Za-z]:\\[A-Za-z0-9_.~\\ :+=,-]*"
    rb"|[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.~/$:-]*(?:,[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.~/$:-]*)+"
)

# Keys their providers publish as safe to ship to a browser or an app, whatever name holds them:
# Stripe's publishable keys (pk_live_..., pk_test_...; Clerk and Paystack give theirs the same
# shape) and Mapbox's public tokens (pk. and a JWT-like body; its secret ones start with sk.). The
# prefix says what the key is, so STRIPE_KEY=pk_live_... is kept and STRIPE_KEY=sk_live_... is not.
_PUBLIC_VALUE = rb"pk_(?:live|test)_[A-Za-z0-9]{16,250}|pk\.eyJ[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{10,200}"

# Values their publishers print as stand-ins and never issue, as exact values (and one published
# suffix): AWS's documentation examples (an access key id whose last seven characters are EXAMPLE,
# as in AKIAIOSFODNN7EXAMPLE, and the two example secret access keys the AWS CLI's and IAM's
# guides pair with them), and the account key Azurite, Microsoft's storage emulator, ships to every
# developer for its devstoreaccount1. A key that differs from one of them by a character is a key.
_PUBLISHED_EXAMPLE = (
    rb"A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{9}EXAMPLE"
    rb"|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"
    rb"|Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

# A letter together with a digit or a symbol: "hunter2x", "pa$$word". Letters alone are too often
# type and variable names (credentials: OAuthCredentials); a header value may also qualify by a
# lower-to-upper step, as base64 of a short user:password pair ("dXNlcjpwYXNz") does.
_TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]).*"
_HEADER_TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]|[a-z][A-Z]).*"

# Words to the end of their line after a credential name and a spaced separator, up to eight and
# before a comment (password: correct horse battery staple, PASSWORD: Summer 2024!). A word does
# not start with "#", which starts a comment after a space.
_PHRASE = (
    rb"[^\s\"'`,;&\\#][^\s\"'`,;&\\]{0,63}(?:[ \t]{1,4}[^\s\"'`,;&\\#][^\s\"'`,;&\\]{0,63}){1,7}"
    rb"(?=[ \t]*(?:\Z|[\r\n]|\\[nr])|[ \t]+#)"
)
# Four words or more of letters alone, in one case (correct horse battery staple, Correct Horse
# Battery Staple): a passphrase. A sentence starts with a capital and goes on in lower case.
_PASSPHRASE = rb"[a-z]+(?:[ \t]+[a-z]+){3,}|[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){3,}"
# The words of a sentence's grammar (articles and determiners, pronouns, prepositions,
# conjunctions, auxiliary and modal verbs, adverbs of time and frequency) and of code's (await,
# lambda, return): words that hold one are a sentence (the one from the team vault, leave empty
# for none, synced nightly from prod) or code, not a password.
_GRAMMAR_WORD = (
    rb"(?i:a|an|the|this|that|these|those|each|every|all|some|not|nor|its|their|our|your|my|his|her"
    rb"|it|you|we|they|he|she|i|me|us|them|of|in|on|at|to|for|from|with|without|within|by|as|into"
    rb"|onto|under|over|after|before|via|per|than|about|between|through|until|and|or|but|if|so|then"
    rb"|else|when|where|while|unless|because|is|are|was|were|be|been|being|am|has|have|had|do|does"
    rb"|did|can|could|will|would|shall|should|may|might|must|there|here|how|what|which|who|why|only"
    rb"|also|just|e\.g|i\.e|etc|now|later|soon|again|already|still|never|always|often|once|yet|too"
    rb"|very|instead|anymore|hourly|daily|nightly|weekly|monthly|quarterly|yearly|annually"
    rb"|await|yield|lambda|return|import|elif|except|raise|del|global)"
)

# A credential's name followed by what it is for, up to four words, ending where a linking word
# follows (the password for the staging DB, the API key of the billing service).
_PURPOSE = rb"(?P<name>[A-Za-z][A-Za-z0-9_.-]{0,63})[ \t]+(?:for|of|on|in|at|to)(?:[ \t]+[A-Za-z0-9_.-]{1,32}){1,4}\Z"
# A description that prose gives after "is" or "to": a word or number joined by a hyphen to a
# lower-case word (HS256-signed, base64-encoded, 256-bit, sha1-only), never a generated value.
# The name of an algorithm or an encoding is described the same way (the secret is sha256).
_DESCRIPTION = (
    rb"[A-Za-z0-9]{1,16}(?:-[a-z]{2,16}){1,3}"
    rb"|(?i:(?:hmac-?)?sha-?(?:1|224|256|384|512)|md5|aes-?(?:128|192|256)(?:-[a-z]{3})?|[rhep]s(?:256|384|512)"
    rb"|ed25519|ed448|x25519|p-?(?:256|384|521)|argon2(?:id|i|d)?|pbkdf2|rsa-?(?:1024|2048|3072|4096)"
    rb"|utf-?(?:8|16|32)|base(?:16|32|58|64)(?:url)?|v[0-9]{1,3}(?:\.[0-9]{1,3}){0,2}"
    rb"|oauth-?[12](?:\.[0-9])?|saml-?2(?:\.0)?|http-?[123](?:\.[01])?|tls-?1(?:\.[0-3])?|ipv[46]|x\.?509"
    rb"|pkcs-?(?:1|7|8|11|12)|ecdsa-?p?(?:256|384|521)|uuid-?v?[1-8])"
)

# What prose names after a credential word that is no credential: a class or type name
# (ERC20Token, T5Tokenizer), an address (0x and 40 hex digits), a digest with its algorithm
# (sha256:..., sha512-...), a version with a suffix (v1.2.3-beta), a Windows path (C:/Users/...),
# words joined by slashes (MyApp/Prod/DbCreds names where a secret is kept), a time (ISO 8601), a
# host and port, an image reference and a model's name (org/Model-7B).
_NAMED_THING = (
    rb"(?:[A-Z][a-z]?[0-9]{1,6})?(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]{2,})+"
    rb"|0x[0-9A-Fa-f]{40}"
    rb"|(?i:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:-][A-Za-z0-9+/=]+"
    rb"|v?[0-9]{1,4}(?:\.[0-9]{1,4}){1,3}(?:-[A-Za-z0-9.]{1,32})?(?:\+[A-Za-z0-9.]{1,32})?"
    rb"|[A-Za-z]:[/\\].*"
    rb"|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*-?[0-9]{0,4}(?:/[A-Z]?[a-z]+(?:[A-Z][a-z]+)*-?[0-9]{0,4})+"  # KeyVault/Prod-2
    rb"|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2})?(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
    rb"|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*:[0-9]{1,5}"  # a host and port
    rb"|[a-z0-9-]+(?:\.[a-z0-9-]+)*(?:/[a-z0-9._-]+)+(?::[A-Za-z0-9._-]{1,64})?"  # an image: ghcr.io/acme/app:v1.2
    rb"|[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*/[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+"  # a model: Qwen/Qwen2.5-7B
)

# A class name with digits in it (Ed25519PrivateKey, PKCS7PrivateKeyTypes, OAuth2Token): blocks
# of an optional acronym, optional digits and a capitalised word of three letters or more, with at
# least two such words. Short base64 ("ZmFrZTpleGFt") steps between cases too often to pass.
_TYPE_NAME = rb"(?:[A-Z][a-z]?[0-9]{1,6})?(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]{2,})+"
_WORD = rb"[A-Z][a-z]{2,}"

# Pagination cursors, the names of existing secret objects, public values (.NET's publicKeyToken,
# Stripe's publishable key, which Stripe documents as safe to ship in a web page) and a tokenizer's
# special tokens (eos_token, pad_token) end in "token", "key" or "secret" too.
_NOT_CREDENTIAL_NAME = (
    rb"(?i:.*?(?:next|page|continuation|cursor|sync|existing|pad|eos|bos|unk|sep|cls|mask|special"
    rb"|start|end|stop)[_.-]?(?:token|secret).*|.*publi(?:c|shable).*"
    # A CAPTCHA's site key goes into the page it protects (reCAPTCHA, hCaptcha, Turnstile); its
    # secret key has the same shape and is told apart only by its name.
    rb"|.*(?:captcha|turnstile).*site[_.-]?key.*)"
)

# Names under which a Helm chart or an operator gives the name of a Secret object, or of a key
# inside one (External Secrets' secretKey, a passwordSecret, Keycloak's passwordSecretKey), written
# in YAML's camel case, after any dotted path (--set auth.passwordSecret=...).
_SECRET_REFERENCE_NAME = (
    rb"(?:--|[A-Za-z0-9_-]+\.)*(?:secret(?:Key)?"
    rb"|(?:[a-z]+(?:[A-Z][a-z]+)*?)?(?:[Pp]ass(?:word|wd)|[Cc]redentials?|[Cc]reds)Secret(?:Key)?)"
)
# gcloud's --set-secrets and --update-secrets take NAME=SECRET:VERSION pairs: each value names a
# Secret Manager object and its version, never a secret.
_SECRET_FLAG = (
    rb"--(?:set|update)-secrets[= \t]+[\"']?(?:[A-Za-z0-9_./-]{1,64}=[A-Za-z0-9_./:-]{1,256},){0,16}"
    rb"(?:[A-Za-z0-9_./-]{1,64}=)?\Z"
)
# What such a name holds when it names a key: lower-case words joined by dashes, underscores or
# dots that end in what the key holds (postgres-password, db-credentials, api-key), no digit, no
# capital. A password chosen from words ("correct-horse") does not end that way; one that does
# ("super-secret-password") is kept only under the names above, never after password: itself.
_KEY_NAME_VALUE = (
    rb"[a-z]{2,20}(?:[-_.][a-z]{2,20}){0,5}[-_.]"
    rb"(?:pass(?:word|wd|phrase)|pwd|token|credentials|creds|secrets|api[-_]?key)"
)

# Qualifiers that may follow a credential word and keep the name a credential name: digits and
# versions (JWT_SECRET_1, TOKEN_V2), deployment environments and roles (DB_PASSWORD_PROD,
# apiKeyStaging, ADMIN_PASSWORD_RO), and encodings of the same value (SECRET_B64). Any other
# ending says something about the credential instead (TOKEN_TTL_SECONDS, password_policy,
# token_url, token_count), so such a name holds a setting, not a credential.
_QUALIFIER = (
    rb"(?:(?:[_.-]|(?<=[a-z])(?=[A-Z]))?(?:[0-9]+|[vV][0-9]+)"
    rb"|(?:[_.-]|(?<=[a-z])(?=[A-Z]))(?i:prod|production|prd|dev|development|stage|staging|stg|test"
    rb"|testing|qa|uat|live|local|sandbox|preview|old|new|prev|previous|current|primary|secondary"
    rb"|backup|main|alt|default|temp|tmp|ci|admin|root|ro|rw|b64|base64|enc|encrypted|hex|raw|value"
    rb"|val|plain|plaintext|str|string))"
)
# Services whose bare "<name>_KEY" holds an API key (names as published by public secret-scanner
# rule sets). Upper-case environment names ending in "_KEY" are checked separately.
_KEY_SERVICE = (
    rb"stripe|twilio|sendgrid|mailgun|mailchimp|postmark|sparkpost|mandrill|openai|anthropic|cohere"
    rb"|mistral|groq|gemini|openrouter|replicate|huggingface|hf|pinecone|algolia|pusher|firebase"
    rb"|mapbox|heroku|shopify|square|paypal|braintree|plaid|okta|auth0|cloudflare|cf|digitalocean"
    rb"|linode|vultr|datadog|dd|newrelic|new[_.-]?relic|sentry|segment|mixpanel|amplitude|twitter"
    rb"|facebook|discord|telegram|dropbox|notion|airtable|atlassian|jira|bitbucket|snyk|circleci"
    rb"|netlify|vercel|supabase|fastly|contentful|hubspot|zendesk|intercom|asana|linear|figma"
    rb"|coinbase|binance|google|gcp|maps|azure|aws|github|gitlab|slack|npm|pypi|nuget|docker"
)
# A name ends in a credential word. Distinctive words may follow any prefix (dbpassword); short
# ones need a separator or a camel-case step before them (GITHUB_TOKEN, authToken, DB_PWD, db-pass).
_NAMED_CORE = (
    rb"[A-Za-z0-9_.-]*?(?:(?i:pass(?:word|wd|phrase)|secret|credentials?|creds"
    rb"|(?:auth|access|refresh|api|bot|oauth|session|bearer|identity|id|csrf|xsrf|personal[_.-]?access"
    rb"|service|app|client|deploy|registry)[_.-]?token"
    rb"|(?:api|access|secret|private|signing|encryption|master|account|app|client|consumer|license"
    rb"|auth|service|db|database|priv|webhook|shared[_.-]?access)[_.-]?key"
    rb"|secret[_.-]?key[_.-]?base)"
    rb"|(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))(?i:(?:" + _KEY_SERVICE + rb")[_.-]?key)"
    rb"|(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z])|(?<![A-Za-z0-9_.-]))(?i:token|pwd|pw|psk)"
    rb"|(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z]))(?i:pass|pat))"
)
_NAMED_CREDENTIAL = _NAMED_CORE + _QUALIFIER + rb"{0,3}"
# A name that goes on past its credential word with words the qualifiers do not list
# (DB_PASSWORD_ORDERS, GITHUB_TOKEN_BOTS, OPENAI_API_KEY_SUMMARIZER, AUTH_TOKEN_US_EAST). It may
# still hold the credential, or say something about it (TOKEN_TTL_SECONDS, PASSWORD_RESET_URL,
# API_KEY_HEADER): only a value that looks generated is refused under it (see generated_value).
_SUFFIXED_CREDENTIAL = _NAMED_CORE + rb"(?:[_.-]|(?<=[a-z])(?=[A-Z]))[A-Za-z0-9_.-]{1,63}"
# An upper-case environment name ending in _KEY, unless the word before says what kind of lookup
# key it is (SORT_KEY, CACHE_KEY, S3_OBJECT_KEY). Such a name says nothing of what it holds: the
# value decides (see _LOOKUP_VALUE).
_KEY_CONSTANT = (
    rb"(?:[A-Z0-9]+_)*(?!(?:SORT|PRIMARY|PARTITION|CACHE|ROUTING|IDEMPOTENCY|FOREIGN|OBJECT|S3|LOCK"
    rb"|QUEUE|PUBLIC|HASH|RANGE|SHARD|ROW|INDEX|DEDUP|DEDUPE|GROUP|MESSAGE|MAP|LOOKUP|UNIQUE|COMPOSITE"
    rb"|CURSOR|PAGE|REDIS|KMS|GPG|PGP|SSH|HOT|LANGUAGE|LOCALE|CONFIG|FEATURE|EVENT|TOPIC|BUCKET|PATH"
    rb"|FILE|KEY)_)[A-Z0-9]+_KEY" + _QUALIFIER + rb"{0,3}"
)
_CREDENTIAL_NAME = _NAMED_CREDENTIAL + rb"|" + _KEY_CONSTANT
# A word in a _KEY_CONSTANT that says the key is a credential all the same (JWT_KEY, SESSION_KEY,
# PASSWORD_KEY, HMAC_KEY): under such a name a value is judged as after any credential name.
_KEY_CONSTANT_SECRET = (
    rb"(?i:.*(?:secret|pass|pwd|token|api|priv|access|auth|cred|jwt|hmac|sign|crypt|cipher|master"
    rb"|session|license|webhook|psk|otp|mfa|salt|pepper|seed|nonce|login|wifi|wpa|wep|ssh|gpg|pgp"
    rb"|vault|kms|encrypt|decrypt|unlock|pin|paseto|oauth|bearer|client|service|admin|root|user).*)"
)
# What a _KEY_CONSTANT holds when it names what it looks up (SPAN_KEY = "current-span",
# CONFIGFILE_KEY = "pydantic-mypy"): two to six lower-case words joined by "-", "_" or ".", each
# of two to fifteen letters with a vowel, no digit, no capital. A generated key has a digit, a
# capital or a long run of letters; a passphrase of plain words after such a name is kept.
_LOOKUP_VALUE = rb"(?=[a-z]*[aeiouy])[a-z]{2,15}(?:[-_.](?=[a-z]*[aeiouy])[a-z]{2,15}){1,5}"
# "pass" alone names a password (PASS=hunter2, export PASS="..."), but as often a count (pass: 14)
# or a test's result (PASS = "PASS", PASS = 0, PASS = "passed"). A number after it is never one
# (0x01 and 1.5e-3 too); a value written as one (tight against its separator, quoted, or ending its
# clause) is refused when it is one run with a password's texture, a letter with a digit or a symbol.
_PASS_NAME = rb"(?i:pass)"
# Names whose value is often a plain word or a mode (auth: none, auth: oauth2, "Pass: 12 tests"):
# their value is refused only when it looks generated, as Docker's "auth" and npm's "_auth"
# base64 values do.
_WEAK_NAME = rb"(?:[A-Za-z0-9.-]*_|[A-Za-z0-9_.-]*[.-])?(?i:auth)|" + _PASS_NAME
_NUMBER = rb"[0-9][0-9_.]*(?:[eE][-+]?[0-9]+)?|0[xX][0-9A-Fa-f_]+|0[oObB][0-7_]+"
_NAME_BEFORE = rb"[A-Za-z0-9_.-]+\Z"
# Two words naming a key, as people write them in prose and in notes ("API key: ...", "Stripe secret
# key = ...", "storage key for proddata: ..."): the first word says what the key opens, so "primary
# key" or "sort key" are not names. An SSH or deploy key's public half (ssh-ed25519 AAAA...) starts
# with its algorithm's name, a reference (_ALGORITHM), and is kept.
_SPACED_KEY_NAME = (
    rb"(?i:(?:api|access|secret|private|signing|encryption|master|account|app|client|consumer|license"
    rb"|auth|service|webhook|storage|deploy|admin|root|ssh|" + _KEY_SERVICE + rb") key)"
)
# The words before a "-Key:" or "-Token:" ending that make the header carry a credential, after
# up to three words of vendor prefix (X-Api-Key, X-Auth-Token, Ocp-Apim-Subscription-Key).
_KEY_HEADER = (
    rb"(?i:(?:[a-z0-9]+-){0,3}"
    rb"(?:api|auth|access|security|session|vault|private|subscription|functions))"
)
# A credential name given as the name of a name/value pair, just before its "value" (an XML or
# HTML attribute pair, NuGet's <add key=... value=...>, a Kubernetes env entry on the line above).
_PAIR_NAME = (
    rb"(?<![A-Za-z0-9_-])(?i:key|name)[ \t]*[:=][ \t]*[\"']?(?P<name>[A-Za-z0-9_.-]{1,64})[\"']?"
    rb"(?:[ \t]+|[ \t]*\r?\n(?:[ \t]*-)?[ \t]*)\Z"
)
_PAIR_REACH = 160  # how far before "value" the name of its pair may start
_NAME_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_MAX_NAME = 64
# Cookie attributes name properties of a Set-Cookie header, not values.
_COOKIE_ATTRIBUTE = rb"(?i:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned)"
_COOKIE_PAIR = rb"[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64})=([^;\s\"'\\]{0,512})[ \t]*;?"
# Cookies whose name says they carry a session or a login, whatever their value looks like: a
# session id, an auth or remember-me cookie, a CSRF token, a signed ticket; a name of one or two
# letters (Slack's "d"), which says nothing; and the __Host- and __Secure- prefixes, which browsers
# reserve for the cookies a site protects.
_SESSION_COOKIE = (
    rb"(?i:__(?:host|secure)-.*|.{1,2}"
    rb"|.*(?:sess|auth|tok|jwt|login|logged|remember|ident|cred|secret|pass|pwd|csrf|xsrf|sso|saml|oidc"
    rb"|oauth|ticket|nonce|grant).*"
    rb"|.*(?<![a-z])(?:sid|sig|key|user|account|acct)(?![a-z]).*)"  # connect.sid, api_key; not sidebar
)
# The names web frameworks give their session cookie (Rails' and GitLab's _app_session, Django's
# sessionid, PHP's PHPSESSID, Java's JSESSIONID, ASP.NET_SessionId, Express's connect.sid, Laravel's
# laravel_session...), which a record may hold outside a Cookie header: a cookie jar, a requests
# cookies={...} dict, a browser's storage panel copied out. Only a generated value counts; a plain
# "session" or "session_id" names a tracing or a database session as often.
_SESSION_COOKIE_NAME = (
    rb"_(?:[A-Za-z0-9]+_)*session(?:_id)?|(?:laravel|ci|rack\.)_?session|sessionid|SESSIONID"
    rb"|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|[A-Za-z0-9_-]{1,32}\.sid"
)
_COOKIE_SEPARATOR = rb"(?P<end>)\\{0,3}[\"']?[ \t]*(?:=|:(?![:/]))[ \t]*"
# A Kubernetes Secret's data: a "data:" line (kubectl prints it before "kind: Secret"), then its
# entries, one to a line and indented past it, each a key and its value in base64 (on the next
# line after a block marker). Comment lines may stand between them.
_SECRET_DATA = rb"(?m:^)(?P<indent>[ \t]{0,64})data:[ \t]*\r?\n"
_SECRET_ENTRY = (
    rb"(?P<indent>[ \t]{1,64})(?:#[^\r\n]{0,1024}|[\"']?[A-Za-z0-9._-]{1,253}[\"']?:[ \t]*(?P<value>[^\s#][^\r\n]{0,2048})?)"
    rb"(?:\r?\n|\Z)"
)
_BASE64_DATA = rb"[\"']?[A-Za-z0-9+/]{10,}={0,2}[\"']?[ \t]*"
_MAX_ENTRIES = 64

# Tools whose short option carries the password, by the option that carries it. The same letter
# means something else to other tools (ssh -p 2222 and psql -p 5432 name a port, mysql -P 3306
# too, zip -r recurses), so an option counts only after a tool that reads a password there.
_PASSWORD_TOOL = (
    rb"(?<![A-Za-z0-9_-])(?:(?P<separate>sshpass|(?:docker|podman|oras|nerdctl) login|helm registry login"
    rb"|mongosh|mongo(?:dump|restore|export|import|stat|top|files)?)"
    rb"|(?P<attached>mysql(?:dump|admin|import|check|sh|pump)?|mariadb(?:-dump|-admin|dump)?|7z[arz]?)"
    rb"|(?P<redis>redis-cli)|(?P<ldap>ldap[a-z]{2,12})"
    rb"|(?P<mssql>sqlcmd|bcp|osql|isql)|(?P<archive>zip|unzip|zipcloak)|(?P<keygen>ssh-keygen)"
    rb"|(?P<samba>smbclient|rpcclient|smbcacls|smbget|smbtree|net(?= (?:ads|rpc)\b)))(?![A-Za-z0-9_-])"
)
_OPTION_TOOL = {
    ord("p"): ("separate", "attached"),
    ord("a"): ("redis",),
    ord("w"): ("ldap",),
    ord("P"): ("mssql", "archive", "keygen"),  # ssh-keygen -P: the old passphrase
    ord("N"): ("keygen",),  # the new passphrase
    ord("U"): ("samba",),  # -U user%password
}
_MAX_COMMAND = 256

_SEPARATOR = rb"=>|:=|=(?!=)|:(?![:/])"

_TOKEN_GAP = rb"[A-Za-z0-9_-]"
_E = rb"(?![A-Za-z0-9_-])"  # a token ends where its run of token characters ends
_TOKEN_RUN = rb"[A-Za-z0-9_.~+/%=-]{16}"  # what every token of :mod:`.providers` has somewhere
_URLSAFE_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
"""The characters of that run (base64url), as byte values."""


def _lead(lead: bytes, rest: bytes, gap: bytes = _TOKEN_GAP) -> bytes:
    """``lead`` then ``rest``, where ``lead`` (fixed width) must not continue a run of ``gap``.

    The look-behind follows the lead instead of preceding it, so the pattern still starts with a
    literal and the engine jumps between its occurrences instead of trying every position, which is
    what keeps a screen well under a millisecond.
    """
    return lead + rb"(?<!" + gap + lead + rb")" + rest


def _cased(word: bytes, rest: bytes, gap: bytes) -> tuple[bytes, bytes]:
    """Two patterns for a header word as it is written: ``Word``/``word``, and ``WORD``.

    A case-insensitive pattern has no literal prefix for the engine to jump to and is tried at
    every position, which costs as much as a dozen literal rules; the two literal spellings cover
    the ways headers and configuration keys are written.
    """
    tail = word[1:]
    first = b"[" + word[:1].upper() + word[:1] + b"]"
    title = tail + rb"(?<=" + first + tail + rb")(?<!" + gap + first + tail + rb")" + rest
    return title, _lead(word.upper(), rest, gap)


def _compiled(source: AnyStr) -> functools.cached_property[re.Pattern[AnyStr]]:
    """An attribute holding ``source`` compiled, compiled the first time it is read."""
    return functools.cached_property(lambda _screen: re.compile(source))


class _Screen:
    """The compiled rules and the shape checks that use them."""

    def __init__(self) -> None:
        import _thread  # threading.local is _thread._local; a cold process need not import threading

        self.rules: list[re.Pattern[bytes] | None] = [None] * len(_RULES)
        """Each rule compiled, once it has first had to run (its literal lead was in some content)."""
        self.calls = _thread._local()
        """What one screen has spent, per thread: ``named`` counts its sentence-name searches."""

    # The shape checks' own patterns, each compiled on its first use.
    ignorable = _compiled(_IGNORABLE)
    value = _compiled(_VALUE)
    clause_end = _compiled(_CLAUSE_END)
    next_flag = _compiled(_NEXT_FLAG)
    placeholder = _compiled(_PLACEHOLDER)
    reference = _compiled(_UNQUOTED_REFERENCE)
    placeholder_word = _compiled(_PLACEHOLDER_WORD)
    quoted_reference = _compiled(_QUOTED_REFERENCE)
    quoted_stand_in = _compiled(_QUOTED_STAND_IN)
    public_value = _compiled(_PUBLIC_VALUE)
    published_example = _compiled(_PUBLISHED_EXAMPLE)
    elided_prefix = _compiled(_ELIDED_PREFIX)
    open_stand_in = _compiled(_OPEN_STAND_IN)
    pattern_construct = _compiled(_PATTERN_CONSTRUCT)
    terminal_escape = _compiled(_TERMINAL_ESCAPE)
    pattern_class = _compiled(_PATTERN_CLASS)
    pattern_range = _compiled(_PATTERN_RANGE)
    between_strings = _compiled(_BETWEEN_STRINGS)
    texture = _compiled(_TEXTURE)
    header_texture = _compiled(_HEADER_TEXTURE)
    type_name = _compiled(_TYPE_NAME)
    word = _compiled(_WORD)
    credential_name = _compiled(_CREDENTIAL_NAME)
    named_credential = _compiled(_NAMED_CREDENTIAL)
    suffixed_credential = _compiled(_SUFFIXED_CREDENTIAL)
    key_constant = _compiled(_KEY_CONSTANT)
    key_constant_secret = _compiled(_KEY_CONSTANT_SECRET)
    lookup_value = _compiled(_LOOKUP_VALUE)
    weak_name = _compiled(_WEAK_NAME)
    pass_name = _compiled(_PASS_NAME)
    number = _compiled(_NUMBER)
    not_credential_name = _compiled(_NOT_CREDENTIAL_NAME)
    name_before = _compiled(_NAME_BEFORE)
    secret_reference_name = _compiled(_SECRET_REFERENCE_NAME)
    secret_flag = _compiled(_SECRET_FLAG)
    key_name_value = _compiled(_KEY_NAME_VALUE)
    spaced_key_name = _compiled(_SPACED_KEY_NAME)
    word_gap = _compiled(rb"\s")
    phrase = _compiled(_PHRASE)
    phrase_word = _compiled(rb"[^ \t]+")
    passphrase = _compiled(_PASSPHRASE)
    grammar_word = _compiled(_GRAMMAR_WORD)
    alnum = _compiled(rb"[A-Za-z0-9]")
    letters = _compiled(rb"[A-Za-z]+")
    token_run = _compiled(_TOKEN_RUN)
    path = _compiled(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
    ends_authorization = _compiled(rb"(?i:authorization)\Z")
    named_thing = _compiled(_NAMED_THING)
    lower = _compiled(rb"[a-z]")
    upper = _compiled(rb"[A-Z]")
    digit = _compiled(rb"[0-9]")
    joiner = _compiled(rb"[-_.]")
    symbol = _compiled(rb"[\x00-\x2c\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]")  # ASCII, not alnum, - . _ or /
    credential_word = _compiled(_CREDENTIAL_WORD)
    redacted = _compiled(
        rb".*<(?i:redacted|removed|hidden|masked|omitted|elided|snip|snipped|censored|truncated|secret|password|token|key)>"
    )
    template = _compiled(
        rb"(?:(?i:basic|bearer|token|digest|apikey|key)[ \t]+)?\{(?:await[ \t]+)?[A-Za-z_][A-Za-z0-9_]*"
        rb"(?:\.[A-Za-z_][A-Za-z0-9_]*|\([^(){}\"']{0,64}\)|\[[^\[\]{}]{1,64}\])*\}"
    )
    type_name_in_code = _compiled(rb"_{0,2}[A-Z][A-Za-z_]*(?:\.[A-Za-z_]+)*")
    annotation_rest = _compiled(
        rb"(?:[ \t]*\|[ \t]*(?:None|_{0,2}[A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|[a-z]+))+(?:[ \t]*=[ \t]*[^=\s]|[ \t]*[,)])"
        rb"|[ \t]+=[ \t]+[^=\s]"
    )
    description = _compiled(_DESCRIPTION)
    purpose = _compiled(_PURPOSE)
    key_header_name = _compiled(_KEY_HEADER)
    cookie_pair = _compiled(_COOKIE_PAIR)
    cookie_attribute = _compiled(_COOKIE_ATTRIBUTE)
    session_cookie = _compiled(_SESSION_COOKIE)
    password_tool = _compiled(_PASSWORD_TOOL)
    session_cookie_name = _compiled(_SESSION_COOKIE_NAME)
    secret_data = _compiled(_SECRET_DATA)
    secret_entry = _compiled(_SECRET_ENTRY)
    base64_data = _compiled(_BASE64_DATA)
    pair_name = _compiled(_PAIR_NAME)
    unjoined_part = _compiled(rb"[^-_./]{8,}")
    inner_digit = _compiled(rb"[A-Za-z][0-9]+[A-Za-z]")
    block_marker = _compiled(rb"[|>][-+]?[0-9]?")
    block_line = _compiled(rb"[|>][-+]?[0-9]?[ \t]*(?:#[^\r\n]{0,256})?\r?\n(?P<indent>)[ ]{0,64}(?P<line>[^\s#][^\r\n]{0,1024})")
    net_use = _compiled(rb"(?i:net[ \t]+use)[ \t]")

    def first_kind(self, buffer: bytearray) -> str | None:
        """The kind of the first rule, in priority order, with a match that passes its check.

        A rule whose literal lead is not in ``buffer`` cannot match, so it is neither compiled nor run.
        """
        runs: bool | None = None  # whether the content has a run a provider token needs, once asked
        self.calls.named = 0
        self.calls.words = None
        self.calls.stand_ins = None
        leads = _leads()
        for number, (kind, source, check) in enumerate(_RULES):
            if number in _PROVIDERS:
                if runs is None:
                    runs = self.token_run.search(buffer) is not None
                if not runs:
                    continue
            if leads[number] not in buffer:
                continue
            pattern = self.rules[number]
            if pattern is None:
                pattern = self.rules[number] = re.compile(source)
            for match in pattern.finditer(buffer):
                if check(self, buffer, match):
                    return kind
        return None

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
        (:data:`_PUBLIC_VALUE`: ``pk_live_...``).

        A quoted value is a string, whatever characters it holds: it stands for a value only as a
        whole template or reference (:data:`_QUOTED_STAND_IN`), and capitalised words in it are a
        passphrase (``"CorrectHorseBatteryStaple"``), not a type name as they are in code
        (``password: SecretStr``, ``token = OAuth2Token``).
        """
        if self.template.fullmatch(buffer, start, end) is not None or self.redacted.fullmatch(buffer, start, end):
            return False
        quoted = _opening_quote(buffer, start)
        if quoted and self.between_strings.match(buffer, start, end) is not None:
            quoted = 0  # not a string: code between two of them, judged as code
        if quoted and self.quoted_code(buffer, start, end, quoted):
            return False
        last = _trimmed(buffer, start, end)
        if last - start <= 1 or self.public_value.fullmatch(buffer, start, last) is not None:
            return False
        if self.token_stand_in(buffer, start, last):
            return False
        if buffer.startswith(b"...", last) and self.elided_prefix.fullmatch(buffer, start, last) is not None:
            return False
        if _distinct(buffer, start, last) <= 2 and last - start >= 4:  # a mask such as xxxx, 0000 or aaaa1111
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
        cut = _cut_by_other_quote(buffer, end, quote) or _cut_by_escaped_quote(buffer, start, end, quote)
        if cut and self.open_stand_in.fullmatch(buffer, start, end) is not None:
            return True
        prefix = _string_prefix(buffer, start - 1)
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

    def looks_secret(self, buffer: bytearray, start: int, end: int, *, header: bool = False, shortest: int = _MIN_VALUE) -> bool:
        """Whether ``buffer[start:end]``, met in prose, has the shape of a generated credential
        (``shortest`` bytes or more)."""
        end = _trimmed(buffer, start, end)
        texture = self.header_texture if header else self.texture
        return (
            end - start >= shortest
            and _distinct(buffer, start, end) >= _MIN_DISTINCT
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
        if certain and self.block_marker.fullmatch(buffer, start, end) is not None and not _opening_quote(buffer, start):
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
        end = _trimmed(buffer, start, phrase.end())
        lower = upper = digit = symbol = False
        for word in self.phrase_word.finditer(buffer, start, end):
            first, last = word.start(), _trimmed(buffer, *word.span())
            if not self.phrase_part(buffer, first, last):
                return False
            lower = lower or self.lower.search(buffer, first, last) is not None
            upper = upper or self.upper.search(buffer, first + 1, last) is not None
            digit = digit or self.digit.search(buffer, first, last) is not None
            symbol = symbol or self.symbol.search(buffer, first, last) is not None
        if self.passphrase.fullmatch(buffer, start, end) is not None:
            return True
        return end - start >= _MIN_VALUE and lower + upper + digit + symbol >= 3

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
        line = buffer.rfind(b"\n", max(0, match.start() - _MAX_COMMAND), match.start()) + 1
        tool = None
        for tool in self.password_tool.finditer(buffer, line, match.start()):
            pass
        if tool is None or tool.lastgroup not in _OPTION_TOOL[buffer[match.start() + 1]]:
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
        line = buffer.rfind(b"\n", max(0, match.start() - _MAX_COMMAND), match.start()) + 1
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
            first, last = value.start("bare"), _trimmed(buffer, *value.span("bare"))
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
        says the cookie carries a session or a login (:data:`_SESSION_COOKIE`) or the value looks
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
        ``cookies={"sessionid": "..."}``): a name frameworks give one (:data:`_SESSION_COOKIE_NAME`)
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
            for _ in range(_MAX_ENTRIES):
                entry = self.secret_entry.match(buffer, pos)
                if entry is None or entry.end() == pos or entry.end("indent") - entry.start("indent") <= indent:
                    break
                pos = entry.end()
                first, last = entry.span("value")
                if first < 0:
                    continue
                block = self.block_line.match(buffer, first)
                if block is not None and self.block_marker.fullmatch(buffer, first, _trimmed_line(buffer, first, last)):
                    first, last = block.span("line")
                    pos = block.end()
                if self.base64_data.fullmatch(buffer, first, last) is not None and _distinct(buffer, first, last) >= _MIN_DISTINCT:
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
        before = quoted or start == 0 or buffer[start - 1] in b"\r\n" or _escaped_newline(buffer, start - 2)
        after = end == len(buffer) or buffer[end] in b"\r\n" or _escaped_newline(buffer, end)
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
        if _same_bytes(buffer, match.span("user"), (start, end)):
            return False
        cut = min((i for i in (buffer.find(c, start, end) for c in b"/?#") if i >= 0), default=end)
        if cut < end and (cut == start or bytes(buffer[start:cut]).isdigit()):
            return False
        return (
            self.quoted_stand_in.fullmatch(buffer, start, end) is None
            and self.placeholder_word.fullmatch(buffer, start, end) is None
            and _distinct(buffer, start, end) > 1
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
        first, last = found[0], _trimmed(buffer, found[0], found[1])
        if _same_bytes(buffer, match.span("user"), (first, last)):
            return False
        return (
            _distinct(buffer, first, last) > 1
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
        return all(kinds) and _distinct(buffer, start, end) >= 10

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
            _distinct(buffer, start, end) >= _MIN_DISTINCT
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
        publisher prints as an example (:data:`_PUBLISHED_EXAMPLE`): a stand-in wherever it is given.

        The rules that find tokens run before every rule that judges a value (see :data:`_RULES`),
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
        while start and buffer[start - 1] in _URLSAFE_BYTES:
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
            variable_key = bool(end) and buffer[end - 1] in _NAME_CHARS  # meta[TOKEN_KEY] = stats
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
        line = buffer.rfind(b"\n", max(0, start - _MAX_COMMAND), start) + 1
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
        if _linking(buffer, start, end) and start >= 2 and buffer[start - 1] == ord(" "):
            end = start - 1
        return self.named_before(buffer, end)

    def generated_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos``, after a name that holds a credential word and goes on
        past it (:data:`_SUFFIXED_CREDENTIAL`), looks generated: eight bytes or more with a letter
        and a digit or a symbol that mix three of lower case, upper case, digits and symbols (or
        are an unbroken hex or base32 run of sixteen or more, :meth:`mixed`), and no reference,
        version, address or description. A number, a duration, a URL, a path or an identifier
        in one case is what such a name holds when it is a setting (``TOKEN_TTL_SECONDS=3600``,
        ``PASSWORD_RESET_URL=https://...``, ``TOKEN_ENCODING=cl100k_base``, ``token_id: <uuid>``)."""
        found = self.value_at(buffer, pos)
        if found is None:
            return False
        first, last = found[0], _trimmed(buffer, found[0], found[1])
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
        if buffer[start - 3] not in _NAME_CHARS:  # "(" opens a tuple, not a call's arguments
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
        if found is None or not _opening_quote(buffer, found[0]):
            return False
        first, last = found[0], found[1]
        return self.is_value(buffer, first, last) and (
            not texture or self.header_texture.fullmatch(buffer, first, _trimmed(buffer, first, last)) is not None
        )

    def pass_value(self, buffer: bytearray, start: int, end: int, *, certain: bool) -> bool:
        """Whether ``buffer[start:end]``, after ``pass`` alone, is a password: never a number
        (``pass: 14``, ``PASS = 0x01``); when ``certain``, one run with a letter and a digit or a
        symbol (``PASS=hunter2``; not ``PASS = "passed"``); else, or besides, a value that looks
        generated, as after any weak name."""
        last = _trimmed(buffer, start, end)
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
        first, last = value.start("bare"), _trimmed(buffer, *value.span("bare"))
        if _same_name(buffer, start, end, first, last):
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
        under (:data:`_SECRET_REFERENCE_NAME`: ``secretKey``, ``passwordSecret``) and the value at
        ``pos`` names a key (:data:`_KEY_NAME_VALUE`: ``secretKey: postgres-password``)."""
        if self.secret_reference_name.fullmatch(buffer, start, end) is None:
            return False
        found = self.value_at(buffer, pos)
        if found is None or not found[2]:
            return False
        return self.key_name_value.fullmatch(buffer, found[0], _trimmed(buffer, found[0], found[1])) is not None

    def names_lookup(self, buffer: bytearray, start: int, end: int, pos: int) -> bool:
        """Whether the name ``buffer[start:end]`` is a constant ending in ``_KEY`` that says
        nothing of a credential (:data:`_KEY_CONSTANT`: ``SPAN_KEY``, ``CONFIGFILE_KEY``; not
        ``API_KEY`` or ``JWT_KEY``) and the value at ``pos`` names what it looks up
        (:data:`_LOOKUP_VALUE`: ``SPAN_KEY = "current-span"``)."""
        if (
            self.key_constant.fullmatch(buffer, start, end) is None
            or self.named_credential.fullmatch(buffer, start, end) is not None
            or self.key_constant_secret.fullmatch(buffer, start, end) is not None
        ):
            return False
        found = self.value_at(buffer, pos)
        if found is None or not found[2]:
            return False
        return self.lookup_value.fullmatch(buffer, found[0], _trimmed(buffer, found[0], found[1])) is not None

    def code_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` reads as a name in code: a dotted identifier without a digit."""
        return self.path.fullmatch(buffer, start, end) is not None and self.digit.search(buffer, start, end) is None

    def unpacked(self, buffer: bytearray, start: int, last: int) -> bool:
        """Whether the name at ``start`` is one of several targets of one assignment (``user,
        password = ...``: names and commas back to the start of the statement, no other
        separator), and every value on the right after ``last`` is a name too."""
        at = start
        for _ in range(_MAX_UNPACKED + 1):
            while at and buffer[at - 1] in b" \t":
                at -= 1
            if not at or buffer[at - 1] != ord(","):
                break
            at -= 1
            while at and buffer[at - 1] in b" \t":
                at -= 1
            name_end = at
            while at and buffer[at - 1] in _NAME_CHARS:
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
        for _ in range(_MAX_UNPACKED + 1):
            if last >= len(buffer) or buffer[last] != ord(","):
                return True
            item = self.value.match(buffer, last + 1)
            if item is None or item.start("bare") < 0:
                return False
            first, last = item.start("bare"), _trimmed(buffer, *item.span("bare"))
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
        pair = self.pair_name.search(buffer, max(0, match.start() - _PAIR_REACH), match.start())
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
        if start is not None and start >= 2 and buffer[start - 1] == ord(" ") and _linking(buffer, start, end):
            end = start - 1  # the password is "hunter2": the name is before the verb
            start = self.name_ending_at(buffer, end)
        if start is None or self.not_credential_name.fullmatch(buffer, start, end) is not None:
            return False
        if not self.credential_named(buffer, start, end):
            return False
        first = match.end()
        close = buffer.find(buffer[match.start()], first, first + _MAX_QUOTED)
        if close < first + 4 or self.word_gap.search(buffer, first, close) is not None:
            return False  # no closing quote near, too short to be a password, or a phrase
        return (
            _distinct(buffer, first, close) >= 3
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
        return end - start >= 16 and unbroken and digit and lower != upper and _distinct(buffer, start, end) >= 8

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
        first, last = found[0], _trimmed(buffer, found[0], found[1])
        return (
            last - first >= _MIN_VALUE
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
        last = _trimmed(buffer, first, last)
        if not self.looks_secret(buffer, first, last, shortest=_MIN_LINKED if certain else _MIN_VALUE):
            return False
        return self.description.fullmatch(buffer, first, last) is None and self.named_before(buffer, match.start())

    def word_within_reach(self, buffer: bytearray, end: int) -> bool:
        """Whether a credential word (:data:`_CREDENTIAL_WORD`) starts within :data:`_MAX_PURPOSE`
        bytes before ``end``. The words' places are found in one pass per screen, then looked up."""
        starts = getattr(self.calls, "words", None)
        if starts is None:
            starts = self.calls.words = [found.start() for found in self.credential_word.finditer(buffer)]
        at = bisect.bisect_left(starts, max(0, end - _MAX_PURPOSE))
        return at < len(starts) and starts[at] < end

    def named_before(self, buffer: bytearray, end: int) -> bool:
        """Whether the words that end at ``end`` name a credential: the name itself (``the admin
        password``), or the name and what it is for (``the password for the staging DB``, ``the
        API key of the billing service``), in the sentence's own words.

        It is asked only after a value that could be a password, and searches only where a
        credential word stands within reach, so prose asks it rarely. Past :data:`_MAX_NAMED`
        times in one screen it answers no: that bounds the work a kilobyte can cause, and every
        rule that needs no sentence (a name with a separator, a provider's token) still runs.
        """
        if not self.word_within_reach(buffer, end):
            return False  # nothing to look for, and nothing spent
        self.calls.named = getattr(self.calls, "named", 0) + 1  # set to 0 by each first_kind
        if self.calls.named > _MAX_NAMED:
            return False
        start = self.name_ending_at(buffer, end)
        if start is not None and self.sentence_credential(buffer, start, end):
            return True
        at = max(0, end - _MAX_PURPOSE)
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
            and (start == 0 or buffer[start - 1] not in _NAME_CHARS)
            and self.not_credential_name.fullmatch(buffer, start, end) is None
            and (self.credential_named(buffer, start, end) or (end - start == 3 and buffer.startswith(b"PAT", start)))
        )

    def name_ending_at(self, buffer: bytearray, end: int) -> int | None:
        """Where the name that ends at ``end`` starts; ``None`` when no name ends there, or one
        longer than any credential name worth matching."""
        name = self.name_before.search(buffer, max(0, end - _MAX_NAME), end)
        if name is None or (name.start() and buffer[name.start() - 1] in _NAME_CHARS):
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


def _same_name(buffer: bytearray, start: int, end: int, first: int, last: int) -> bool:
    """Whether the name ``buffer[start:end]`` and the value ``buffer[first:last]`` end in one
    identifier, each without what comes before its last dot (``self.``, ``request.url.``) or its
    leading underscores."""
    start, first = _bare_name(buffer, start, end), _bare_name(buffer, first, last)
    if end - start != last - first or end == start:
        return False
    with memoryview(buffer) as view:  # compared in place: a slice of the buffer would be a copy
        return view[start:end] == view[first:last]


def _bare_name(buffer: bytearray, start: int, end: int) -> int:
    start = buffer.rfind(b".", start, end) + 1 or start  # the last attribute of a path
    while start < end and buffer[start] == ord("_"):
        start += 1
    return start


def _opening_quote(buffer: bytearray, start: int) -> int:
    """The quote that opens the value at ``start`` (a byte value), or 0 when it is not quoted."""
    return buffer[start - 1] if start and buffer[start - 1] in b"\"'`" else 0


def _string_prefix(buffer: bytearray, quote: int) -> frozenset[int]:
    """The string prefix (``f``, ``r``, ``rb``, ``fr``..., C#'s ``@`` and ``$``) before the quote
    at ``quote``, letters lower-cased; none when the letters before it end a longer name. C#'s
    ``$``, which interpolates as Python's ``f`` does, is read as ``f``."""
    at = quote
    while at > max(0, quote - 2) and buffer[at - 1] in b"bBrRuUfF@$":
        at -= 1
    if at == quote or (at and buffer[at - 1] in _NAME_CHARS):
        return frozenset()
    return frozenset(_PREFIX_READ[buffer[i]] for i in range(at, quote))


_PREFIX_READ = bytes.maketrans(b"BRUF$", b"bruff")
"""A string prefix's bytes as :func:`_string_prefix` reads them."""


def _cut_by_other_quote(buffer: bytearray, end: int, quote: int) -> bool:
    """Whether the quoted value that ends at ``end`` stops at a quote other than its own (escaped
    or not): a string inside it starts there, as in ``'os.environ["DB_PASSWORD"]'``."""
    while end < len(buffer) and buffer[end] == ord("\\"):
        end += 1
    return end < len(buffer) and buffer[end] in b"\"'`" and buffer[end] != quote


def _cut_by_escaped_quote(buffer: bytearray, start: int, end: int, quote: int) -> bool:
    """Whether the quoted value ``buffer[start:end]``, opened by an unescaped ``quote``, stops at
    an escaped one: a string inside it starts there, as in ``"{{ required \\"db.password\\" ... }}"``."""
    escaped_open = start >= 2 and buffer[start - 2] == ord("\\")
    return not escaped_open and end + 1 < len(buffer) and buffer[end] == ord("\\") and buffer[end + 1] == quote


def _trimmed(buffer: bytearray, start: int, end: int) -> int:
    """Where the value ``buffer[start:end]`` ends without the punctuation that closes its clause
    (``set password=abc123xyz.``, ``{password: hunter2}``)."""
    while end > start and buffer[end - 1] in _TRAILING:
        end -= 1
    return end


def _same_bytes(buffer: bytearray, one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether two spans of ``buffer`` hold the same bytes, compared in place (a slice would be a copy)."""
    if one[1] - one[0] != other[1] - other[0]:
        return False
    with memoryview(buffer) as view:
        return view[one[0] : one[1]] == view[other[0] : other[1]]


def _trimmed_line(buffer: bytearray, start: int, end: int) -> int:
    """Where ``buffer[start:end]`` ends without trailing spaces, tabs and carriage returns."""
    while end > start and buffer[end - 1] in b" \t\r":
        end -= 1
    return end


def _distinct(buffer: bytearray, start: int, end: int) -> int:
    # A memoryview slice reads the bytes in place; a bytearray slice would copy them.
    with memoryview(buffer) as view:
        return len(set(view[start:end]))


_LINKING = (b"is", b"was", b"are", b"were", b"be", b"becomes", b"became", b"to", b"as", b"remains", b"stays")
"""Verbs and prepositions that may stand between a credential's name and its quoted value."""


_ADVERB = rb"(?:(?:now|still|also|currently|simply|just|always)[ \t]+)?"
"""A word that may stand between a linking word and the value (the key is now ...)."""


def _linking(buffer: bytearray, start: int, end: int) -> bool:
    # Compared in place: a slice of the buffer would be a copy this module does not zero.
    return any(end - start == len(word) and buffer.startswith(word, start) for word in _LINKING)


def _escaped_newline(buffer: bytearray, pos: int) -> bool:
    # Compared byte by byte: a slice of the buffer would be a copy this module does not zero.
    return 0 <= pos < len(buffer) - 1 and buffer[pos] == ord("\\") and buffer[pos + 1] in b"nr"


_Check = Callable[[_Screen, bytearray, re.Match[bytes]], bool]


def _provider_rules() -> tuple[tuple[str, bytes, _Check], ...]:
    """Published prefixes and lengths of other providers' tokens, and tokens marked inside (:mod:`.providers`)."""
    return (
        *((kind, _lead(prefix, rb"(?P<body>" + shape + rb")" + _E), _Screen.body) for kind, prefix, shape in providers.PREFIXED),
        *((kind, pattern, _Screen.body) for kind, pattern in providers.MARKED),
    )


_ARMOUR_OPEN = rb"-? ?"  # after four dashes: a fifth (PEM), or a space (SSH2)
_ARMOUR_CLOSE = rb" ?-{4,5}"
_OPENVPN_KEY = rb"OpenVPN (?:Static key V1|tls-crypt-v2 (?:server|client) key)"

# In priority order: the most specific description of a credential wins.
_RULES: tuple[tuple[str, bytes, _Check], ...] = (
    # PEM and OpenSSH armour has five dashes; the SSH2 format (RFC 4716) has four and a space
    # (---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----).
    (
        "private_key",
        rb"----" + _ARMOUR_OPEN + rb"BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?" + _ARMOUR_CLOSE + rb"(?:\s|\\[nr])*"
        rb"(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]{2,32}:[ \t])",
        _Screen.body,
    ),
    # An armour line on its own is refused even without its body: the key was there, or is next.
    (
        "private_key",
        rb"----" + _ARMOUR_OPEN + rb"(?:BEGIN|END)[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?" + _ARMOUR_CLOSE,
        _Screen.armour_alone,
    ),
    # OpenVPN's shared keys (--secret, --tls-auth, --tls-crypt) and tls-crypt-v2 keys: hex or
    # base64 lines between armour lines of their own, after an optional comment line.
    (
        "openvpn_key",
        rb"-----BEGIN " + _OPENVPN_KEY + rb"-----(?:\s|\\[nr])*(?:#[^\r\n\\]{0,80}(?:\s|\\[nr])+)?[A-Za-z0-9+/=]{16}",
        _Screen.body,
    ),
    ("openvpn_key", rb"-----(?:BEGIN|END) " + _OPENVPN_KEY + rb"-----", _Screen.armour_alone),
    ("private_key", rb"Private-Lines:[ \t]*[0-9]+\s+[A-Za-z0-9+/=]{16}", _Screen.body),
    ("private_key", rb"AGE-SECRET-KEY-1(?P<body>[0-9A-Z]{58})", _Screen.body),
    ("github_token", _lead(rb"gh", rb"[pousr]_(?P<body>[A-Za-z0-9]{36,251})" + _E), _Screen.body),
    # A fine-grained token has 82 characters after its prefix; a shorter run with a digit in it is
    # still one (as the shipped version's own tests write it), in either case.
    *(
        ("github_token", _lead(lead, rb"(?P<body>[A-Za-z0-9_]{60,240}|(?=[A-Za-z_]{0,58}[0-9])[A-Za-z0-9_]{12,59})" + _E), _Screen.body)
        for lead in (rb"github_pat_", rb"GITHUB_PAT_")
    ),
    (
        "gitlab_token",
        _lead(rb"gl", rb"(?:pat|ptt|dt|rt|cbt|soat|ffct|imt|oas|ft|agent)-(?P<body>[A-Za-z0-9_.-]{20,255})"),
        _Screen.body,
    ),
    ("gitlab_token", _lead(rb"GR1348941", rb"(?P<body>[A-Za-z0-9_-]{20,64})" + _E), _Screen.body),  # runner registration
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
    # xoxc- is the token of Slack's own clients (a browser session), used with the "d" cookie,
    # xoxd- and URL-encoded base64 (%2F, %2B, %3D).
    ("slack_token", _lead(rb"x", rb"(?:ox[abposrec]|app)-(?P<body>[A-Za-z0-9-]{10,250})"), _Screen.body),
    ("slack_token", _lead(rb"xoxd-", rb"(?P<body>[A-Za-z0-9%/+=]{40,1000})(?![A-Za-z0-9%/+=_-])"), _Screen.body),
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
    # A bot token is the bot's id (a decimal snowflake) in base64, a 6-character timestamp and an
    # HMAC. The rule starts at the first dot (a literal) and looks back for the id, whose decoding
    # must be 17 to 20 digits, so dotted names in code are not taken for one.
    (
        "discord_bot_token",
        rb"\.(?=[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27})(?:" + rb"|".join(rb"(?<=[MNO][A-Za-z0-9_-]{%d}\.)" % n for n in range(22, 28)) + rb")"
        rb"(?P<body>[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})" + _E,
        _Screen.discord_bot,
    ),
    ("anthropic_key", _lead(rb"sk-ant-", rb"(?P<body>[A-Za-z0-9_-]{20,250})"), _Screen.body),
    ("openrouter_key", _lead(rb"sk-or-", rb"(?:v[0-9]{1,2}-)?(?P<body>[a-f0-9]{64})" + _E), _Screen.body),
    ("openai_key", _lead(rb"sk-", rb"(?:proj|svcacct|admin|None)-(?P<body>[A-Za-z0-9_-]{20,250})"), _Screen.body),
    # Keys have 48 characters after "sk-"; a shorter run with a digit in it is still one.
    ("openai_key", _lead(rb"sk-", rb"(?:[A-Za-z0-9]{32,200}|(?=[A-Za-z]{0,30}[0-9])[A-Za-z0-9]{12,31})" + _E), _Screen.body),
    # Every key OpenAI issues carries T3BlbkFJ (base64 of "OpenAI") in its body, whatever comes
    # between "sk-" and it (sk-proj-, sk-None-, a name the prefix list does not know yet).
    (
        "openai_key",
        _lead(rb"sk-", rb"(?P<body>(?=[A-Za-z0-9_-]{0,160}T3BlbkFJ)[A-Za-z0-9_-]{28,400})" + _E),
        _Screen.body,
    ),
    *(_PROVIDER_RULES := _provider_rules()),
    ("grafana_token", _lead(rb"glc_", rb"(?P<body>[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9+/=])"), _Screen.body),
    ("square_token", _lead(rb"sq0", rb"(?:atp-(?P<body>[A-Za-z0-9_-]{22})|csp-[A-Za-z0-9_-]{43})" + _E), _Screen.body),
    ("newrelic_key", _lead(rb"NR", rb"(?:AK|JS|II|AA)-(?P<body>[A-Za-z0-9]{20,40})" + _E), _Screen.body),
    ("sentry_token", _lead(rb"sntry", rb"(?:s_eyJ(?P<body>[A-Za-z0-9+/=_-]{40,400})|u_[a-f0-9]{64})" + _E), _Screen.body),
    ("doppler_token", _lead(rb"dp\.", rb"(?:pt|st|ct|sa|scim|audit)\.(?P<body>[A-Za-z0-9._-]{40,200})" + _E), _Screen.body),
    (
        "terraform_token",
        rb"\.atlasv1\.(?<=[A-Za-z0-9]{14}\.atlasv1\.)(?P<body>[A-Za-z0-9_=-]{60,100})" + _E,
        _Screen.body,
    ),
    ("google_api_key", _lead(rb"AIza", rb"(?P<body>[A-Za-z0-9_-]{35})" + _E), _Screen.body),
    ("google_oauth_token", _lead(rb"GOCSPX-", rb"(?P<body>[A-Za-z0-9_-]{24,64})"), _Screen.body),
    ("google_oauth_token", _lead(rb"ya29\.", rb"(?P<body>[A-Za-z0-9_-]{30,})"), _Screen.body),
    ("stripe_key", _lead(rb"[sr]k_", rb"(?:live|test|prod)_(?P<body>[A-Za-z0-9]{16,250})"), _Screen.body),
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
    # A JWT wrapped in base64 once more (a cookie or a Kubernetes Secret holds one so): "eyJ" reads
    # "ZXlK", and the ".eyJ" that starts its payload reads LmV5S, uZXlK or 5leU, by where it falls.
    (
        "jwt",
        _lead(
            rb"ZXlK",
            rb"(?P<body>(?=[A-Za-z0-9+/]{0,400}(?:LmV5S|uZXlK|5leU))[A-Za-z0-9+/]{40,2000}={0,2})(?![A-Za-z0-9+/=])",
            gap=rb"[A-Za-z0-9+/]",
        ),
        _Screen.body,
    ),
    # Only the part after the scheme matters, and "://" is a literal the engine can jump to. The
    # host may be empty, with a path, a query or a port after the "@" (a Unix socket: Cloud SQL's
    # postgresql+pg8000://app:PW@/app?unix_sock=..., mysql+pymysql://u:PW@/db), or percent-encoded
    # (postgres://u:PW@%2Fvar%2Frun%2Fpostgresql/db).
    (
        "credential_url",
        rb"://(?P<user>[^\s:/?#@\"'<>]{0,128}):(?P<body>[^\s@\"'<>]{1,128})@[A-Za-z0-9\[_.%/?:-]",
        _Screen.url_password,
    ),
    # A token given as the user of a URL (https://<token>@git.example.com/...): no password, but a
    # user part as random as a generated token.
    ("credential_url", rb"://(?P<body>[A-Za-z0-9_-]{20,128})@[A-Za-z0-9\[_.-]", _Screen.token_user),
    # Authorization and Proxy-Authorization, as a header line, a JSON or dict entry (also escaped
    # inside a string) or a subscript; the scheme word is skipped so "Basic abc" is judged by "abc".
    *(
        ("authorization_header", pattern, _Screen.header_value)
        for pattern in _cased(
            b"authorization",
            rb"\\{0,3}[\"']?\]?[ \t]*[:=][ \t]*\\{0,3}[\"']?"
            rb"(?:(?i:basic|bearer|token|digest|apikey|api-key|key|sso-key|bot|hmac|negotiate|ntlm|dpop|mac"
            rb"|oauth|aws4-hmac-sha256)[ \t]+)?",
            gap=rb"[A-Za-z0-9]",
        )
    ),
    # X-Api-Key, X-Auth-Token, Private-Token...: found by their "-key:" or "-token:" ending, the
    # one literal part, with the rest of the name checked before it.
    ("authorization_header", rb"-(?i:key|token)\\{0,3}[\"']?[ \t]*:[ \t]*\\{0,3}[\"']?", _Screen.key_header),
    *(
        ("cookie_header", pattern, _Screen.cookie)
        for pattern in _cased(
            b"cookie", rb"\\{0,3}[\"']?\]?[ \t]*[:=][ \t]*\\{0,3}[\"']?", gap=rb"[A-Za-z0-9]"
        )
    ),
    # A session cookie outside a Cookie header, found by the word its name ends in.
    *(
        ("session_cookie", lead + _COOKIE_SEPARATOR, _Screen.session_value)
        for lead in (rb"session(?:_id|id)?", rb"SESS(?:ION)?ID", rb"SessionId", rb"\.sid")
    ),
    *(
        ("bearer_token", pattern, _Screen.value_follows)
        for pattern in _cased(b"bearer", rb"[ \t]+", gap=rb"[A-Za-z0-9_-]")
    ),
    (
        "command_line_credential",
        rb"(?i)"
        + _lead(
            rb"-",
            rb"-?(?:[a-z0-9]+-){0,3}(?:password|passwd|passphrase|pass|pwd|token|secret|api-?key|access-key"
            rb"|secret-key|auth-token|(?:store|key|src|dest|srcstore|deststore|srckey|destkey)pass)[ \t]+",
            gap=rb"[a-z0-9_-]",
        ),
        _Screen.flag_value,
    ),
    # curl -u user:password, wget --user user:password, httpie --auth user:password: the password
    # follows the first colon; the user may be empty (-u ":password") or quoted apart ("u":"p").
    (
        "command_line_credential",
        rb"(?i)"
        + _lead(
            rb"-",
            rb"(?:u[ \t]+|-user(?:[ \t]+|=)|-auth(?:[ \t]+|=))(?P<open>[\"'])?(?P<user>[^\s:\"'=]{0,64})(?:[\"'](?=:))?:",
            gap=rb"[a-z0-9_-]",
        ),
        _Screen.user_password,
    ),
    # Tools whose short option takes the password itself: sshpass -p, docker login -p,
    # redis-cli -a, ldapsearch -w, mysql -pVALUE and -p'VALUE' (mysql's "-p VALUE" names a database
    # instead).
    # Found by the option, the one literal part; the tool is looked for earlier on the line.
    ("command_line_credential", rb"-[pawPNU](?<=[ \t]-[pawPNU])", _Screen.short_option),
    # htpasswd -b takes the password as its last argument: htpasswd -b .htpasswd user VALUE.
    (
        "command_line_credential",
        _lead(rb"htpasswd", rb"(?P<options>(?:[ \t]+-[A-Za-z]{1,8}){1,4})[ \t]+", gap=rb"[A-Za-z0-9_-]"),
        _Screen.htpasswd_value,
    ),
    # Windows-style options: xfreerdp /u:me /p:VALUE, net use \\host\share /user:me VALUE.
    ("command_line_credential", rb"/p:(?<=[ \t]/p:)", _Screen.windows_password),
    *(
        ("command_line_credential", lead + rb"(?<=[ \t]" + lead + rb")(?P<user>[^\s/\"']{1,64})[ \t]+", _Screen.windows_password)
        for lead in (rb"/user:", rb"/USER:", rb"/u:")
    ),
    # openssl's "-passin pass:VALUE" (env:, file: and fd: name where the password is instead).
    ("command_line_credential", rb"-pass(?:in|out|word)?[ \t]+pass:", _Screen.given_value),
    (
        "netrc_password",
        _lead(rb"machine", rb"\s+\S{1,253}\s+login\s+\S{1,253}\s+password[ \t]+"),
        _Screen.given_value,
    ),
    # A Kubernetes Secret's data under keys of any name: found by its kind, the data looked for.
    ("kubernetes_secret", rb"kind:[ \t]{0,8}[\"']?Secret[\"']?[ \t]*(?:#[^\r\n]{0,256})?(?:\r?\n|\Z)", _Screen.secret_object),
    ("credential_assignment", _SEPARATOR, _Screen.assignment),
    # A credential's name and its value as the first two arguments of a call: define('DB_PASSWORD',
    # '...'), os.Setenv("API_KEY", "..."). Found by the closing quote and the comma.
    *(
        ("credential_assignment", quote + rb",(?<=" + quote + rb",)[ \t]{0,8}(?=[bBrRuUfF@$]{0,2}[\"'`])", _Screen.call_pair)
        for quote in (b'"', b"'")
    ),
    # A user and a password as a pair of strings: requests' auth=("admin", "...").
    (
        "credential_assignment",
        _lead(rb"auth", rb"[ \t]*=[ \t]*\([ \t]*(?P<user>[\"'])[^\"'\r\n]{0,64}(?P=user)[ \t]*,", gap=rb"[A-Za-z0-9_]"),
        _Screen.auth_pair,
    ),
    # XML and HTML: an element named for a credential, or the value of a pair whose name is one.
    (
        "credential_assignment",
        rb"<(?P<name>[A-Za-z_][A-Za-z0-9_.:-]{0,63})>(?P<body>[^<>\r\n]{1,256})</(?P=name)>",
        _Screen.element,
    ),
    ("credential_assignment", _lead(rb"value", rb"[ \t]*(?:=|:(?![:/]))", gap=rb"[A-Za-z0-9_-]"), _Screen.pair_value),
    # A credential named in a sentence and given after a linking word, unquoted: the staging
    # password is Tr0ub4dor&3. Found by the linking word, the name checked before it.
    ("credential_assignment", rb" (?:" + b"|".join(_LINKING) + rb")[ \t]+" + _ADVERB, _Screen.linked_value),
    # A value right after a credential word, no verb: login with password Hunter2024. Found by
    # the word (each spelling a literal), the rest of the name checked before it.
    *(
        ("credential_assignment", pattern, _Screen.bare_after_name)
        for word in (b"password", b"passwd", b"passphrase", b"pwd", b"secret", b"token")
        for pattern in _cased(word, rb"[ \t]+", gap=rb"[A-Za-z0-9]")
    ),
    # A credential named in a sentence and given in quotes, without a separator: the password
    # "hunter2". Found by the opening quote after a space, the name checked before it.
    *(
        ("credential_assignment", quote + rb"(?<=[ \t]" + quote + rb")", _Screen.quoted_after_name)
        for quote in (b'"', b"'")
    ),
)


def literal_lead(source: bytes) -> bytes:
    """Bytes every match of the regular expression ``source`` starts with (``b""`` if none are sure).

    A cheap, conservative reading of the pattern's opening: literal bytes and escaped punctuation
    up to the first other construct, without a byte that a quantifier follows (it may be absent),
    and nothing at all when the pattern has a top-level alternative (``a|b``). Reading it costs
    microseconds, where compiling the pattern costs a quarter of a millisecond or more.
    """
    if b"|" in source and _top_level_alternative(source):  # the byte-by-byte walk, only where it can matter
        return b""
    lead = bytearray()
    i = 0
    while i < len(source):
        byte = source[i]
        if byte == 0x5C:  # a backslash: escaped punctuation is literal, a letter or digit is a class
            if i + 1 >= len(source) or chr(source[i + 1]).isalnum():
                break
            literal, width = source[i + 1], 2
        elif byte in _SPECIAL:
            break
        else:
            literal, width = byte, 1
        if source[i + width : i + width + 1] in (b"*", b"+", b"?", b"{"):
            break
        lead.append(literal)
        i += width
    return bytes(lead)


_SPECIAL = frozenset(b".^$*+?{}[]|()")


def _top_level_alternative(source: bytes) -> bool:
    """Whether ``source`` has a ``|`` outside every group and character class."""
    depth, i, in_class = 0, 0, False
    while i < len(source):
        byte = source[i]
        if byte == 0x5C:
            i += 2
            continue
        if in_class:
            in_class = byte != ord("]")
        elif byte == ord("["):
            in_class = True
            if source[i + 1 : i + 2] == b"^":
                i += 1
            if source[i + 1 : i + 2] == b"]":  # a ] first in a class is a literal
                i += 1
        elif byte == ord("("):
            depth += 1
        elif byte == ord(")"):
            depth -= 1
        elif byte == ord("|") and depth == 0:
            return True
        i += 1
    return False


@functools.cache
def _leads() -> tuple[bytes, ...]:
    """Each rule's literal lead, read on the first screen rather than on import (reading about
    150 patterns costs a millisecond or two that a process which never screens should not pay)."""
    return tuple(literal_lead(source) for _, source, _ in _RULES)


_FIRST_PROVIDER = _RULES.index(_PROVIDER_RULES[0])
_PROVIDERS = range(_FIRST_PROVIDER, _FIRST_PROVIDER + len(_PROVIDER_RULES))
"""Where :mod:`.providers`' rules sit in :data:`_RULES`. Each of their tokens has a run of at least
sixteen :data:`_TOKEN_RUN` characters; content without one (most prose) skips their lead checks,
each a pass over the content."""


@functools.cache
def _screen() -> _Screen:
    # Compiling every rule takes tens of milliseconds, so nothing is compiled on import, and a rule
    # is compiled only once content holds its literal lead: a process that never writes memory never
    # pays for it, and one that screens a few ordinary records pays for the few rules they reach.
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


def _as_read(content: str) -> str:
    """``content`` in NFKC form without default-ignorable code points, as a reader sees it."""
    if content.isascii():  # already in that form; the common case costs one scan
        return content
    import unicodedata

    ignorable = _screen().ignorable
    # Removed before and after: a joiner can block a composition, and NFKC turns the half-width
    # Hangul filler into the (ignorable) full-width one.
    return ignorable.sub("", unicodedata.normalize("NFKC", ignorable.sub("", content))).translate(_LOOK_ALIKE)


_LOOK_ALIKE = str.maketrans(
    {
        **dict.fromkeys("\u2236\ua789\u02d0\u02f8\u0589\u05c3\u16ec\u1803\u1809\ufe13\ufe55", ":"),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u02d7\u06d4\u2e3a\u2e3b\ufe58\ufe63", "-"),
        **dict.fromkeys("\u2e40\u30a0\ua78a\u1400", "="),
    }
)
"""Separators that NFKC leaves as they are but a reader takes for ``:``, ``-`` or ``=`` (the ratio
sign, the modifier-letter colon, the non-breaking hyphen, the minus sign...), read as those.
Letters of other scripts that look Latin are not mapped (see the module's limits)."""


def find_secret(content: str) -> str | None:
    """Find the first obvious credential in ``content``.

    Args:
        content: Candidate memory content.

    Returns:
        ``None`` when nothing looks like a credential, else a key of :data:`KINDS`. The result is one
        of those constant names and never contains any part of the matched value.
    """
    # surrogatepass: a lone surrogate from parsed JSON must be screened, not crash the screen.
    return _screen_and_zero(bytearray(_as_read(content), "utf-8", "surrogatepass"))

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
  read as them, as typographic quotes read as straight ones. Pure ASCII content is already in that
  form and skips the step. When the content as written holds nothing, a note in Markdown is read
  once more as rendered (:mod:`.markup`): emphasis markers removed (``**Password:** …``) and table
  rows read as their cells under their headings (``| Password | … |``). When neither holds
  anything, lines commented out (``# password: |`` over ``#   …``), indented as a code block or as
  a list item's text, numbered as a listing of a file, or a diff's are read once more without that
  margin (:mod:`.margins`), as written and as rendered; then a note that escapes its line breaks
  or quotes (``\\n`` and ``\\"`` in a JSON string) with its string literals written out
  (:mod:`.escapes`), in each of those readings.
- The screen is a table of rules (:mod:`.rules`), run in priority order by :class:`_Screen`. Each
  rule's check is a method of :class:`.checks.Checks`, which judges values with the patterns of
  :mod:`.vocabulary` (what a value is, and what stands for one) and :mod:`.names` (the names that
  make a value a credential), on the content's bytes in place (:mod:`.buffers`); a rule is compiled
  only once content holds its literal lead (:mod:`.leads`). Each module describes its part.

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
after: ``the password is hunter2 and it works``, ``password hunter2024 works``, or one of lower
case and digits right after ``token`` or ``secret`` with no user or verb that gives it: ``token
hunter2024``), a password with spaces after
``pass`` or ``auth`` alone, which head steps and modes far more often (``first pass: collect
imports``), or one of fewer than four plain words (``password: correct horse battery``), a key
with an unpublished shape that is not assigned to a credential-like name, a credential split across
lines, letters from other scripts that merely look like Latin ones, or any encoded, encrypted or obfuscated secret. Passing the screen is no
proof that content is free of secrets. The other way, four plain words in one case after a
credential name are taken for a passphrase even when they are a note (``password: reset last
friday morning``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from . import providers
from .checks import Checks
from .escapes import unescaped
from .leads import compiled, lead_finder, literal_lead
from .margins import unmargined
from .markup import rendered
from .rules import OTHER_SCRIPTS, PROVIDERS, RULES, rule_leads
from .vocabulary import TOKEN_RUN

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
        "pgpass_password": "a PostgreSQL password file entry with a password",
        "kubernetes_secret": "a Kubernetes Secret's encoded data",
        "login_password": "a password given to a login call or typed into a password field",
        "printed_secret": "a secret a command printed, as a terminal's transcript shows it",
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


_PROVIDER, _OTHER_SCRIPT = "provider", "other script"
_GATES = tuple(_PROVIDER if n in PROVIDERS else _OTHER_SCRIPT if n in OTHER_SCRIPTS else None for n in range(len(RULES)))
"""What each rule needs of the content before its lead is looked for: a provider's run of token
characters, or a byte outside ASCII; most rules need nothing (one look-up per rule, not two range
tests)."""


_FINDER_AFTER = 32
"""How many contents a screen checks by looking for each rule's lead in turn (about 0.15 ms for a
512-byte record) before it compiles one pattern that finds every lead in a single pass (about 3
ms to compile, then half that time a content): a process that screens a few cards never pays for
it, one that screens many does after a few dozen."""


class _Screen(Checks):
    """The rules, each compiled once content first holds its literal lead, run in priority order."""

    def __init__(self) -> None:
        super().__init__()
        self.rules: list[re.Pattern[bytes] | None] = [None] * len(RULES)
        """Each rule compiled, once it has first had to run (its literal lead was in some content)."""
        self.screened = 0
        """How many contents this screen has looked for leads in, up to :data:`_FINDER_AFTER`."""

    @functools.cached_property
    def finder(self) -> tuple[re.Pattern[bytes], dict[bytes, tuple[int, ...]], tuple[int, ...]]:
        """The pattern that finds every rule's lead in one pass (:func:`.leads.lead_finder`), the
        numbers of the rules each lead it finds reaches (its own and those whose lead is a prefix
        of it, found at the same place), and the rules with no lead, which every content reaches."""
        numbers: dict[bytes, list[int]] = {}
        for number, lead in enumerate(rule_leads()):
            numbers.setdefault(lead, []).append(number)
        always = tuple(numbers.pop(b"", ()))
        reached = {
            lead: tuple(sorted(n for size in range(1, len(lead) + 1) for n in numbers.get(lead[:size], ())))
            for lead in numbers
        }
        return re.compile(lead_finder(numbers)), reached, always

    def reached(self, buffer: bytearray) -> list[int] | None:
        """The numbers, in order, of the rules whose literal lead ``buffer`` holds; ``None`` while
        the screen still looks for each lead in turn (its first :data:`_FINDER_AFTER` contents)."""
        if self.screened < _FINDER_AFTER:
            self.screened += 1
            return None
        pattern, reached, always = self.finder
        numbers = set(always)
        for lead in set(pattern.findall(buffer)):
            numbers.update(reached[lead])
        return sorted(numbers)

    ignorable = compiled(_IGNORABLE)
    token_run = compiled(TOKEN_RUN)

    def first_kind(self, buffer: bytearray) -> str | None:
        """The kind of the first rule, in priority order, with a match that passes its check.

        A rule whose literal lead is not in ``buffer`` cannot match, so it is neither compiled nor run
        (:meth:`reached`).
        """
        runs: bool | None = None  # whether the content has a run a provider token needs, once asked
        ascii_only: bool | None = None  # whether the content is ASCII alone, once asked
        vars(self.calls).clear()  # every budget (spent) and every finding kept for this screen alone
        leads = rule_leads()
        numbers = self.reached(buffer)
        for number in range(len(RULES)) if numbers is None else numbers:
            kind, source, check = RULES[number]
            gate = _GATES[number]
            if gate is _PROVIDER:
                if runs is None:
                    runs = self.token_run.search(buffer) is not None
                if not runs:
                    continue
            elif gate is _OTHER_SCRIPT:
                if ascii_only is None:
                    ascii_only = buffer.isascii()
                if ascii_only:
                    continue
            if numbers is None and leads[number] not in buffer:
                continue
            pattern = self.rules[number]
            if pattern is None:
                pattern = self.rules[number] = re.compile(source)
            for match in pattern.finditer(buffer):
                if check(self, buffer, match):
                    return kind
        return None


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
    """``content`` in NFKC form without default-ignorable code points, its line breaks written
    ``\\n`` (Windows writes ``\\r\\n``), as a reader sees it."""
    if "\r\n" in content:
        content = content.replace("\r\n", "\n")
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
        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
        **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
    }
)
"""Separators that NFKC leaves as they are but a reader takes for ``:``, ``-`` or ``=`` (the ratio
sign, the modifier-letter colon, the non-breaking hyphen, the minus sign...), read as those, and
typographic quotes read as the straight ones a word processor or a chat client replaced as they
were typed (``password = “…”``, ``os.environ[“DB_PASSWORD”]``).
Letters of other scripts that look Latin are not mapped (see the module's limits)."""


def find_secret(content: str) -> str | None:
    """Find the first obvious credential in ``content``.

    Args:
        content: Candidate memory content.

    Returns:
        ``None`` when nothing looks like a credential, else a key of :data:`KINDS`. The result is one
        of those constant names and never contains any part of the matched value.
    """
    for reading in _readings(content):
        # surrogatepass: a lone surrogate from parsed JSON must be screened, not crash the screen.
        kind = _screen_and_zero(bytearray(reading, "utf-8", "surrogatepass"))
        if kind is not None:
            return kind
    return None


def _readings(content: str) -> Iterator[str]:
    """``content`` as the screen reads it, each reading made only once the ones before it hold
    nothing: as a reader sees it written (:func:`_as_read`), then as rendered (Markdown's emphasis,
    tables and headings, :mod:`.markup`), then without the margin its lines share (commented out,
    indented, numbered or a diff's, :mod:`.margins`) as written and as rendered; then all of those
    once more with its string literals' escapes written out (:mod:`.escapes`)."""
    read = _as_read(content)
    yield from _shown(read)
    written_out = unescaped(read)
    if written_out is not None:
        yield from _shown(_as_read(written_out))  # \u00a0 written out reads as a no-break space does


def _shown(text: str) -> Iterator[str]:
    """``text``, then as rendered, then without its margin as written and as rendered."""
    yield text
    shown = rendered(text)
    if shown is not None:
        yield shown
    bare = unmargined(text)
    if bare is not None:
        yield bare
        shown = rendered(bare)
        if shown is not None:
            yield shown

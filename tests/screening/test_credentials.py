"""The credential screen: the maintained fixture set, a prose corpus, generated shapes, buffer hygiene."""

from __future__ import annotations

import base64
import json
import re
import string
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.cli.bench_screen import hard_kilobytes
from tact_memory.screening import credentials as secrets
from tact_memory.screening.credentials import KINDS, find_secret
from tact_memory.screening.vocabulary import GRAMMAR_WORD, MAX_NAMED, PASSWORD_WORD

from ..conftest import fixture_path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


@dataclass(frozen=True)
class Case:
    kind: str
    text: str


def load_cases(name: str) -> list[Case]:
    with fixture_path("secrets", name).open("rb") as file:
        return [Case(kind=entry["kind"], text=entry["text"]) for entry in tomllib.load(file)["case"]]


def load_prose() -> list[str]:
    text = fixture_path("secrets", "prose.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


REJECT = load_cases("reject.toml")
KEEP = load_cases("keep.toml")
PROSE = load_prose()
FIXTURE_TEXTS = {"reject": [c.text for c in REJECT], "keep": [c.text for c in KEEP], "prose": PROSE}
"""Every maintained text, by set: what the screen must refuse, keep, and keep as prose."""


def case_id(case: Case) -> str:
    return f"{case.kind}:{case.text.strip()[:40]}"


# --- the maintained fixture set -----------------------------------------------------------------


@pytest.mark.release_gate
@pytest.mark.parametrize("case", REJECT, ids=case_id)
def test_reject_fixture_is_rejected_with_its_kind(case: Case) -> None:
    assert find_secret(case.text) == case.kind


@pytest.mark.parametrize("case", KEEP, ids=case_id)
def test_keep_fixture_is_kept(case: Case) -> None:
    assert find_secret(case.text) is None


def _cuts(text: str) -> list[str]:
    """``text`` cut after each character that is no letter or digit (where a rule's separator
    ends), and from each such place on (where a rule's match may start)."""
    places = sorted({i + 1 for i, char in enumerate(text) if not char.isalnum()} - {len(text)})
    return [text, *(text[:at] for at in places), *(text[at:] for at in places)]


@pytest.mark.parametrize("texts", FIXTURE_TEXTS.values(), ids=FIXTURE_TEXTS.keys())
def test_every_fixture_cut_at_a_separator_gets_the_same_verdict_with_a_line_break_around_it(texts: list[str]) -> None:
    """A rule's match may start where the content starts and end where it ends (``Staging
    login: ann/`` at its end raised once, reading past it). Each cut of each fixture is screened to
    a verdict rather than an error, and a line break before or after it changes nothing, which a
    check that read past either end (or wrapped to the other end, as a negative index does) would."""
    failures = []
    for fixture in texts:
        for text in _cuts(fixture.strip()):
            try:
                found = {find_secret(text), find_secret("\n" + text), find_secret(text + "\n")}
            except Exception as error:  # noqa: BLE001 - every error is the failure reported
                failures.append(f"{text!r}: {error!r}")
            else:
                if len(found) != 1 or not found <= {None, *KINDS}:
                    failures.append(f"{text!r}: {sorted(map(str, found))}")
    assert failures == []


SURROUNDINGS = {
    # A note written on Windows breaks its lines with \r\n: a Markdown table, a heading and the
    # fenced block under it, or a label and its value lines below read the same.
    "windows": lambda text: text.replace("\n", "\r\n"),
    "fenced": lambda text: "```\n" + text.strip("\n") + "\n```\n",
    "after_a_sentence": lambda text: "From the last session, for the record.\n\n" + text,
    "before_a_sentence": lambda text: text.rstrip("\n") + "\n\nThat is all for now.",
    # The note as a list item's text, the lines after its first under that text; in other blocks.
    "list_item": lambda text: hung(text, "- ", "  "),
    "numbered_item": lambda text: hung(text, "1. ", "   "),
    "yaml_block": lambda text: "notes: |\n" + hung(text, "  ", "  "),
    "pre": lambda text: "<pre>\n" + text.strip("\n") + "\n</pre>\n",
    "docstring": lambda text: '"""\n' + text.strip("\n") + '\n"""\n',
    "heredoc": lambda text: "cat > notes.md <<'EOF'\n" + text.strip("\n") + "\nEOF\n",
    "details": lambda text: "<details>\n<summary>Staging</summary>\n\n" + text.strip("\n") + "\n\n</details>\n",
    "tilde_fence": lambda text: "~~~\n" + text.strip("\n") + "\n~~~\n",
    "yaml_fence": lambda text: "```yaml\n" + text.strip("\n") + "\n```\n",
    "indented_fence": lambda text: "  ```\n" + hung(text, "  ", "  ") + "  ```\n",
    # Typed where a word processor or a chat client replaces quotes, or saved with spaces after
    # each line (Markdown's hard line break).
    "typographic_quotes": lambda text: typographic(text),
    "trailing_spaces": lambda text: "\n".join(line + "  " if line else line for line in text.split("\n")),
}


def typographic(text: str) -> str:
    """``text`` with its double quotes opening and closing in turn (“…”) and each single quote
    an apostrophe's (’)."""
    parts = text.split('"')
    quoted = "".join(part + ("\u201c" if number % 2 == 0 else "\u201d") for number, part in enumerate(parts[:-1])) + parts[-1]
    return quoted.replace("'", "\u2019")


def hung(text: str, first: str, rest: str) -> str:
    """``text`` with ``first`` before its first line and ``rest`` before each other line with text."""
    lines = text.strip("\n").split("\n")
    return "\n".join([first + lines[0]] + [rest + line if line else line for line in lines[1:]]) + "\n"


@pytest.mark.parametrize("surrounding", SURROUNDINGS)
@pytest.mark.parametrize("texts", FIXTURE_TEXTS.values(), ids=FIXTURE_TEXTS.keys())
def test_every_fixture_gets_the_same_verdict_in_other_surroundings(texts: list[str], surrounding: str) -> None:
    """Where a note comes from and what stands around it change nothing: its line breaks written
    as Windows writes them, the whole of it in a fenced block or another block (a list item, a
    YAML block scalar, HTML's pre, a docstring, a heredoc), a sentence before or after it."""
    unix = [text.replace("\r\n", "\n") for text in texts]
    changed = [text for text in unix if find_secret(SURROUNDINGS[surrounding](text)) != find_secret(text)]
    assert changed == []


MARGINS = ["# ", "// ", "-- ", "; ", " * ", "% ", "! ", "> ", "> > ", "# # ", "  ", "    ", "\t", "\t# ", "  // ", ">>> "]
MARGINS += ["/// ", "REM ", ":: ", "' ", "#: ", "#' "]
"""What a note's lines may all start with: a comment's marks (a block commented out, in the
languages notes quote), a quote's, both nested, a prompt's, and indentation (a Markdown code
block, a file pasted indented). Vim's ``" `` is left out: it changes which quotes pair up, and
one fixture of an ``expect`` script quoting a prompt reads as a password's label behind it."""


def numbered(text: str, number: str, *, blank: bool = True) -> str:
    """``text`` as a listing of a file shows it, each line after its number (with ``blank``, from
    2: line 1 is blank, so a note of one line is a listing of two; else from 41)."""
    lines = ["", *text.strip("\n").split("\n")] if blank else text.strip("\n").split("\n")
    return "\n".join(number % count + line for count, line in enumerate(lines, 1 if blank else 41)) + "\n"


LISTINGS = {
    "cat_n": lambda text: numbered(text, "%6d\t"),
    "arrow": lambda text: numbered(text, "%6d\u2192"),  # as a coding agent's file reader shows lines
    "arrow_alone": lambda text: numbered(text, "%6d\u2192", blank=False),  # a note of one line: one line of a file
    "cat_n_alone": lambda text: numbered(text, "%6d\t", blank=False),
    "colon": lambda text: numbered(text, "%d: "),
    "diff": lambda text: "--- a/notes.md\n+++ b/notes.md\n@@ -1,0 +1,9 @@\n" + "".join(f"+{line}\n" for line in text.strip("\n").split("\n")),
}
"""A note shown as a listing numbered line by line, or as the lines a diff adds."""


STRINGS = {
    "json": json.dumps,
    "json_unicode": lambda text: json.dumps(text, ensure_ascii=False),
    "json_field": lambda text: json.dumps({"note": text}),
    "python": repr,
    "notebook": lambda text: json.dumps({"source": [line + "\n" for line in text.split("\n")]}, indent=1),
}
"""A note as a program writes it in a string (a notebook's cell, in one a line): its line breaks
and quotes escaped."""


@pytest.mark.parametrize("string", STRINGS)
def test_every_reject_fixture_of_several_lines_is_refused_as_a_string_literal(string: str) -> None:
    """What spans lines (a YAML block scalar, a table, a label and the value under it, a key) is
    still found when its line breaks are escaped, as a JSON field or Python's ``repr`` holds it."""
    lines = [case.text.replace("\r\n", "\n").strip("\n") for case in REJECT if "\n" in case.text.strip("\n")]
    assert len(lines) >= 70
    kept = [text for text in lines if find_secret(STRINGS[string](text)) is None]
    assert kept == []


@pytest.mark.parametrize("margin", [*MARGINS, *LISTINGS], ids=repr)
@pytest.mark.parametrize("texts", FIXTURE_TEXTS.values(), ids=FIXTURE_TEXTS.keys())
def test_every_fixture_is_refused_or_kept_with_a_margin_before_each_line(texts: list[str], margin: str) -> None:
    """A note commented out, quoted, indented, numbered or in a diff is refused or kept as it is
    without: what spans lines (a YAML block scalar, a table, a label and the value under it, a
    Kubernetes Secret's data) is still found, and code that unpacks names into names is still
    code. The kind may differ (a ``.netrc`` entry commented out reads as an assignment)."""
    unix = [text.replace("\r\n", "\n") for text in texts]
    if margin in LISTINGS:
        margined = {text: LISTINGS[margin](text) for text in unix}
    else:
        margined = {text: "\n".join(margin + line if line else margin.rstrip() for line in text.split("\n")) for text in unix}
    changed = [text for text in unix if (find_secret(margined[text]) is None) != (find_secret(text) is None)]
    assert changed == []


def test_fixture_sets_are_large_enough() -> None:
    assert len(REJECT) >= 150 and len(KEEP) >= 100


def test_every_kind_has_a_reject_fixture() -> None:
    assert {case.kind for case in REJECT} == set(KINDS)


def test_reject_fixtures_are_marked_as_synthetic() -> None:
    unmarked = [case_id(c) for c in REJECT if "fake" not in c.text.lower() and "example" not in c.text.lower()]
    assert unmarked == []


def test_prose_corpus_has_no_false_rejections() -> None:
    assert len(PROSE) >= 300
    rejected = [(number, kind) for number, line in enumerate(PROSE, 1) if (kind := find_secret(line))]
    assert not rejected, f"{len(rejected)} of {len(PROSE)} prose lines rejected (line, kind): {rejected}"


def test_prose_stays_kept_when_lines_are_joined_into_records() -> None:
    # Records hold up to 1 KiB, so several lines together must not form a match across line ends.
    records: list[str] = []
    current = ""
    for line in PROSE:
        if len((current + "\n" + line).encode()) > 1024:
            records.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    records.append(current)
    rejected = [kind for record in records if (kind := find_secret(record))]
    assert rejected == [], f"{len(rejected)} of {len(records)} joined records rejected: {rejected}"


# --- generated shapes ---------------------------------------------------------------------------

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
PROSE_WORDS = ["the", "deploy", "uses", "key", "for", "staging", "see", "token", "note:", "value", "(", ")"]


PLACEHOLDER_START = re.compile(r"(?i)(?:your|my|insert|replace|put|enter)[-_]")


def body(alphabet: str, size: int, max_size: int | None = None) -> st.SearchStrategy[str]:
    # Real tokens are random; a body of one to three repeated characters, or one that starts like
    # "your-..." or "my_...", is a placeholder and is kept by design (see
    # test_repeated_character_placeholders_are_kept).
    return st.text(alphabet, min_size=size, max_size=max_size or size).filter(
        lambda s: len(set(s)) >= 4 and not PLACEHOLDER_START.match(s)
    )


def shaped(
    prefixes: list[str], alphabet: str, size: int, max_size: int | None = None
) -> st.SearchStrategy[Any]:
    return st.tuples(st.sampled_from(prefixes), body(alphabet, size, max_size), st.just(""))


SHAPES: dict[str, st.SearchStrategy[Any]] = {
    "github_token": shaped(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], ALNUM, 36, 60),
    "gitlab_token": shaped(["glpat-", "gldt-", "glrt-"], URLSAFE, 20, 50),
    "aws_access_key": shaped(["AKIA", "ASIA"], UPPER_DIGITS, 16),
    "aws_secret_key": st.tuples(
        st.sampled_from(["aws_secret_access_key = ", "AWS_SECRET_ACCESS_KEY=", '"awsSecretAccessKey": "']),
        body(ALNUM + "/+", 40),
        st.just(""),
    ),
    "slack_token": st.one_of(
        shaped(["xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxr-", "xapp-", "xoxc-"], ALNUM + "-", 20, 60),
        # Slack's "d" cookie: URL-encoded base64, which may start with an encoded "/" or "+".
        st.tuples(
            st.just("xoxd-"),
            st.tuples(st.sampled_from(["", "%2F", "%2B"]), body(ALNUM + "/+", 40, 200)).map(
                lambda parts: (parts[0] + parts[1]).replace("/", "%2F").replace("+", "%2B")
            ),
            st.sampled_from(["", "%3D", "%3D%3D"]),
        ),
    ),
    "anthropic_key": shaped(["sk-ant-api03-", "sk-ant-admin01-"], URLSAFE, 40, 100),
    "openai_key": st.one_of(
        shaped(["sk-proj-", "sk-svcacct-", "sk-None-"], URLSAFE, 40, 120),
        shaped(["sk-"], ALNUM, 48),
        # T3BlbkFJ (base64 of "OpenAI") marks every key, whatever its prefix says.
        st.tuples(
            st.sampled_from(["sk-", "sk-proj-", "sk-None-", "sk-admin-", "sk-svcacct-", "sk-ci_bot-"]),
            st.tuples(body(URLSAFE, 20, 74), body(URLSAFE, 20, 74)).map("T3BlbkFJ".join),
            st.just(""),
        ),
    ),
    "google_api_key": shaped(["AIza"], URLSAFE, 35),
    "google_oauth_token": st.one_of(shaped(["GOCSPX-"], URLSAFE, 28), shaped(["ya29."], URLSAFE, 40, 120)),
    "stripe_key": shaped(["sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"], ALNUM, 24, 99),
    "huggingface_token": shaped(["hf_"], ALNUM, 34),
    "npm_token": shaped(["npm_"], ALNUM, 36),
    "pypi_token": shaped(["pypi-AgEIcHlwaS5vcmc"], URLSAFE, 60, 160),
    "sendgrid_key": st.tuples(
        st.just("SG."), st.tuples(body(URLSAFE, 22), body(URLSAFE, 43)).map(".".join), st.just("")
    ),
    "digitalocean_token": shaped(["dop_v1_", "doo_v1_", "dor_v1_"], HEX, 64),
    "shopify_token": shaped(["shpat_", "shpca_", "shppa_", "shpss_"], HEX, 32),
    "databricks_token": shaped(["dapi"], HEX, 32),
    "telegram_bot_token": st.tuples(
        st.integers(10**8, 10**10 - 1).map(lambda n: f"{n}:AA"), body(URLSAFE, 33), st.just("")
    ),
    "vault_token": shaped(["hvs.", "hvb.", "hvr."], URLSAFE, 24, 90),
    # The bot's id (17 to 20 digits) in unpadded base64, then a timestamp and an HMAC.
    "discord_bot_token": st.tuples(
        st.integers(10**16, 10**20 - 1).map(lambda n: base64.urlsafe_b64encode(str(n).encode()).rstrip(b"=").decode() + "."),
        st.tuples(body(URLSAFE, 6), body(URLSAFE, 27, 38)).map(".".join),
        st.just(""),
    ),
    "jwt": st.tuples(
        st.just("eyJ"),
        st.tuples(body(URLSAFE, 8, 40), body(URLSAFE, 8, 80), body(URLSAFE, 8, 43)).map(
            lambda parts: f"{parts[0]}.eyJ{parts[1]}.{parts[2]}"
        ),
        st.just(""),
    ),
    "slack_webhook": st.tuples(
        st.just("https://hooks.slack.com/services/T"),
        st.tuples(body(UPPER_DIGITS, 8, 10), body(UPPER_DIGITS, 8, 10), body(ALNUM, 24)).map(
            lambda parts: f"{parts[0]}/B{parts[1]}/{parts[2]}"
        ),
        st.just(""),
    ),
    "azure_connection_string": st.tuples(
        st.just("DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey="),
        body(ALNUM + "+/", 86),
        st.just("==;EndpointSuffix=core.windows.net"),
    ),
}


def shares_a_run(kind: str, secret: str, size: int = 4) -> bool:
    """Whether ``kind`` or its description contains any ``size``-long substring of ``secret``."""
    said = kind + " " + KINDS[kind]
    return any(secret[i : i + size] in said for i in range(len(secret) - size + 1))


def coincides_with_a_kind_name(secret: str, size: int = 4) -> bool:
    constants = " ".join(f"{kind} {text}" for kind, text in KINDS.items())
    return any(secret[i : i + size] in constants for i in range(len(secret) - size + 1))


@pytest.mark.parametrize("kind", sorted(SHAPES))
@given(data=st.data())
def test_generated_provider_shape_is_rejected_without_echo(kind: str, data: st.DataObject) -> None:
    prefix, random_part, suffix = data.draw(SHAPES[kind])
    before = " ".join(data.draw(st.lists(st.sampled_from(PROSE_WORDS), max_size=4)))
    after = " ".join(data.draw(st.lists(st.sampled_from(PROSE_WORDS), max_size=4)))
    found = find_secret(f"{before} {prefix}{random_part}{suffix} {after}")
    assert found == kind
    # The result is one of a fixed set of names. Skip the rare body that happens to spell part
    # of one of those constant names; any other overlap could only be an echo of the value.
    assume(not coincides_with_a_kind_name(random_part))
    assert not shares_a_run(found, random_part)


@given(token=SHAPES["telegram_bot_token"].map("".join), method=st.sampled_from(["getMe", "sendMessage", "getUpdates?offset=1"]))
def test_a_telegram_bot_token_in_the_bot_apis_address_is_refused(token: str, method: str) -> None:
    """The Bot API takes the token in its path, right after "bot": the canonical way to call it."""
    assert find_secret(f"curl https://api.telegram.org/bot{token}/{method}") == "telegram_bot_token"


def test_every_shape_kind_is_a_known_kind() -> None:
    assert set(SHAPES) <= set(KINDS)


CREDENTIAL_NAMES = [
    "password", "passwd", "pwd", "secret", "api_key", "apikey", "access_key", "client_secret",
    "private_key", "auth_token", "access_token", "refresh_token", "secret_key", "encryption_key",
    "GITHUB_TOKEN", "DB_PASSWORD", "WEBHOOK_SECRET", "SENTRY_AUTH_TOKEN", "REDIS_PASS",
    "apiKey", "clientSecret", "authToken", "dbPassword", "config.api_key",
    "API key", "Secret key", "private key", "Stripe API key", "Stripe secret key", "webhook key",
    # a password's name in the plural names passwords (passwords: ..., the root passwords are ...)
    "passwords", "DB_PASSWORDS", "passphrases",
    # keys named for what they unseal, recover, encrypt or sign, also as .NET's "__" path joins them
    "unseal_key", "fernet_key", "jwtKey", "hmac_key", "PresharedKey", "Jwt__Key",
    "AIRFLOW__CORE__FERNET_KEY", "Unseal Key",
    # a one-time password's key, the shared secret an authenticator app is given
    "totp_key", "mfa_key", "otpKey", "HOTP_KEY",
    # SSSD's and PAM's authentication token; Redis's passwords as a chart's values name them
    "ldap_default_authtok", "authtok", "requirepass", "masterauth",
]  # fmt: skip
NOT_CREDENTIAL_NAMES = [
    "max_tokens", "tokens", "keyboard", "monkey", "primary_key",
    "sort_key", "next_page_token", "publicKeyToken", "STRIPE_PUBLISHABLE_KEY", "stripePublishableKey",
    "publishable_key", "bypass", "mytoken", "commit", "image_digest",
    "primary key", "sort key", "public key", "foreign key", "cache key", "the key", "API key id",
]  # fmt: skip
FORMS = [
    "{n}={v}", '{n} = "{v}"', "{n}: {v}", '"{n}": "{v}"', "export {n}={v}", "{n} => '{v}'",
    "{n}: '{v}'", '{n} := "{v}"', "set {n}={v} before running the job",
]  # fmt: skip
# A credential named in a sentence and given in quotes, with no separator between them.
QUOTED_FORMS = ['use the {n} "{v}" to log in', "{n} '{v}'", 'Set {n} "{v}" on the staging box.']

# Credential-shaped by construction: starts with a letter, ends with a digit, and has no separator
# that would make it read as an identifier, a path, a reference or a placeholder. `&` is left out:
# it ends a value as in a query string (`password=x&next=1` assigns `x`, a mask).
credential_values = st.builds(
    lambda first, middle, last: first + middle + last,
    st.sampled_from(string.ascii_letters),
    st.text(ALNUM + "!@^*+?~", min_size=6, max_size=40),
    st.sampled_from(string.digits),
).filter(lambda v: len(set(v)) >= 4)


@given(name=st.sampled_from(CREDENTIAL_NAMES), form=st.sampled_from(FORMS + QUOTED_FORMS), value=credential_values)
def test_value_assigned_to_a_credential_name_is_rejected(name: str, form: str, value: str) -> None:
    kind = find_secret(form.format(n=name, v=value))
    assert kind == "credential_assignment"
    assume(not coincides_with_a_kind_name(value))
    assert not shares_a_run(kind, value)


@pytest.mark.parametrize(
    "text",
    ["ldap_default_authtok_type = password", "ldap_default_authtok_type = obfuscated_password", "use_authtok = 1", "pam_authtok_check=yes"],
)
def test_settings_about_an_authentication_token_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(name=st.sampled_from(NOT_CREDENTIAL_NAMES), form=st.sampled_from(FORMS + QUOTED_FORMS), value=credential_values)
def test_same_value_under_an_ordinary_name_is_kept(name: str, form: str, value: str) -> None:
    assert find_secret(form.format(n=name, v=value)) is None


# Names that hold a credential word and go on past it with a word the qualifiers do not list: a
# setting about the credential, or the credential for a purpose the name goes on to give.
SUFFIXED_NAMES = [
    "TOKEN_TTL_SECONDS", "password_min_length", "token_url", "OAUTH_TOKEN_URL", "secret_name", "token_count",
    "DB_PASSWORD_ORDERS", "GITHUB_TOKEN_BOTS", "STRIPE_SECRET_KEY_EU", "OPENAI_API_KEY_SUMMARIZER",
    "AUTH_TOKEN_US_EAST", "apiKeyForBilling", "API_KEY_HEADER",
]  # fmt: skip
# What such a name holds as a setting: numbers, durations, URLs, paths, identifiers in one case.
SETTING_VALUES = [
    "3600", "12", "90d", "1h30m45s", "PT15M", "https://auth.example.com/reset?next=1", "/run/secrets/db",
    "X-Api-Key", "cl100k_base", "gpt-4o-mini-2024", "8f14e45f-ceea-467a-9575-f8e0a6b1c2d3", "v1.2.3-beta",
    "2024-01-01T10:00:00Z", "db-password", "argon2id", "HS256", "ORDERS_DB_PASSWORD",
    # the alphabet values are drawn from (TOKEN_CHARS, a base32 alphabet)
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789abcdefABCDEF",
]  # fmt: skip


def ascending(value: str, length: int) -> bool:
    """Whether ``value`` holds ``length`` letters or digits in a row, each the one after the one before."""
    run = 1
    for before, after in zip(value, value[1:]):
        run = run + 1 if ord(after) == ord(before) + 1 and after.isalnum() else 1
        if run >= length:
            return True
    return False


# Generated by construction: lower case, upper case and a digit, never a word.
mixed_values = st.builds(
    lambda lower, upper, digit, rest: lower + upper + digit + rest,
    st.sampled_from(string.ascii_lowercase),
    st.sampled_from(string.ascii_uppercase),
    st.sampled_from(string.digits),
    st.text(ALNUM + "!@^*+?~", min_size=5, max_size=30),
).filter(
    lambda v: len(set(v)) >= 4
    and len(re.findall(r"[A-Z][a-z]{2,}", v)) < 2
    and not ascending(v, 8)  # an alphabet written out (01234567) is no generated value's
)


@given(name=st.sampled_from(SUFFIXED_NAMES), form=st.sampled_from(FORMS), value=mixed_values)
def test_a_generated_value_under_a_name_that_goes_on_past_its_credential_word_is_refused(
    name: str, form: str, value: str
) -> None:
    kind = find_secret(form.format(n=name, v=value))
    assert kind == "credential_assignment"
    assume(not coincides_with_a_kind_name(value))
    assert not shares_a_run(kind, value)


@pytest.mark.parametrize("name", SUFFIXED_NAMES)
@pytest.mark.parametrize("value", SETTING_VALUES)
def test_a_setting_under_a_name_that_goes_on_past_its_credential_word_is_kept(name: str, value: str) -> None:
    assert find_secret(f"{name}={value}") is None
    assert find_secret(f'{name}: "{value}"') is None


PLACEHOLDERS = [
    "${API_TOKEN}", "$API_TOKEN", "<your-token>", "<redacted>", "%API_TOKEN%", "{{secrets.API_TOKEN}}",
    "********", "changeme", "REDACTED", "xxxxxxxxxxxx", "your-api-key-here", "settings.API_TOKEN",
    "OPENAI_API_KEY_V2", "/run/secrets/api_token", "~/.config/tool/token", "hmac-sha256",
    "true", "None", "null", "$(pass show db/prod)", "***", "", "str", "SecretStr", "required",
    "Added", "updated", "Deprecated", "renamed",  # what a changelog says happened to it
]  # fmt: skip
# Class names made of words stand for a type in code; in quotes they are a passphrase.
TYPE_NAMES = ["Ed25519PrivateKey", "OAuth2Token", "PasswordField", "BearerAuth"]
UNQUOTED_FORMS = [form for form in FORMS if "'" not in form and '"' not in form]


@given(
    name=st.sampled_from(CREDENTIAL_NAMES), form=st.sampled_from(FORMS), value=st.sampled_from(PLACEHOLDERS)
)
def test_placeholders_and_references_are_kept(name: str, form: str, value: str) -> None:
    assert find_secret(form.format(n=name, v=value)) is None


@given(name=st.sampled_from(CREDENTIAL_NAMES), form=st.sampled_from(UNQUOTED_FORMS), value=st.sampled_from(TYPE_NAMES))
def test_type_names_in_code_are_kept(name: str, form: str, value: str) -> None:
    assert find_secret(form.format(n=name, v=value)) is None


@pytest.mark.parametrize(
    "text",
    [
        "ghp_" + "x" * 36,
        "AKIA" + "X" * 16,
        "sk_live_" + "0" * 24,
        "hf_" + "a" * 34,
        "password=aaaa1111",
        "postgres://app:xxxx@db.example.com/app",
    ],
)
def test_repeated_character_placeholders_are_kept(text: str) -> None:
    assert find_secret(text) is None


# The forms that judge a value by where it is given: a name, a quoted name, a header, a URL's
# password, curl's user:password, an option, a cookie.
GIVEN = [
    "{}", "GITHUB_TOKEN={}", 'GITHUB_TOKEN="{}"', '{{"token": "{}"}}', "Authorization: token {}",
    "Authorization: Bearer {}", "https://x:{}@github.com/org/repo", "curl -u x:{}", "--token {}",
    "Cookie: session={}", "password: {}", "the token is {}",
]  # fmt: skip


@pytest.mark.parametrize("form", GIVEN)
@pytest.mark.parametrize("token", ["ghp_" + "a" * 36, "ghp_" + "ab" * 18, "ghp_" + "xyz" * 12, "npm_" + "0" * 36])
def test_a_token_whose_body_is_a_placeholder_is_kept_wherever_it_is_given(form: str, token: str) -> None:
    # Fewer than four distinct characters after the prefix: the token rule keeps it, and so does
    # every rule that judges the value by its place.
    assert find_secret(form.format(token)) is None


@pytest.mark.parametrize("form", GIVEN)
def test_a_token_with_a_real_body_is_refused_wherever_it_is_given(form: str) -> None:
    assert find_secret(form.format("ghp_" + "abcd" * 9)) is not None
    assert find_secret(form.format("ghp_" + "a" * 35 + "FAKE")) is not None


# Values their publishers print as examples: AWS's documentation key ids (the suffix EXAMPLE)
# and example secret access keys, and the account key of Azurite, Microsoft's storage emulator.
AWS_KEY_IDS = ["AKIAIOSFODNN7EXAMPLE", "AKIAI44QH8DHBEXAMPLE", "ASIAIOSFODNN7EXAMPLE"]
AWS_SECRETS = ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"]
AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
AZURITE = f"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AZURITE_KEY};BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;"
PUBLISHED = [
    *AWS_KEY_IDS,
    *(f"AWS_ACCESS_KEY_ID={key}" for key in AWS_KEY_IDS),
    *(f"aws_secret_access_key = {key}" for key in AWS_SECRETS),
    *(f'os.Setenv("AWS_SECRET_ACCESS_KEY", "{key}")' for key in AWS_SECRETS),
    *(f"export AWS_SECRET_ACCESS_KEY='{key}'" for key in AWS_SECRETS),
    AZURITE,
    f"AZURE_STORAGE_CONNECTION_STRING={AZURITE}",
    f"AccountKey={AZURITE_KEY}",
    f'{{"accountKey": "{AZURITE_KEY}"}}',
]


@pytest.mark.parametrize("text", PUBLISHED)
def test_published_examples_are_kept(text: str) -> None:
    assert find_secret(text) is None


def one_off(value: str, at: int) -> str:
    """``value`` with the character at ``at`` changed to another of the same kind."""
    at %= len(value)
    old = value[at]
    new = "Q" if old != "Q" and old.isupper() else "q" if old != "q" and old.islower() else "7" if old != "7" else "3"
    return value[:at] + new + value[at + 1 :]


@pytest.mark.parametrize("at", [-7, -4, -1])
def test_an_aws_key_id_whose_suffix_is_not_example_is_refused(at: int) -> None:
    for key in AWS_KEY_IDS:
        assert find_secret(one_off(key, at)) == "aws_access_key"
        assert find_secret(f"AWS_ACCESS_KEY_ID={one_off(key, at)}") == "aws_access_key"
    assert find_secret("AKIAEXAMPLEIOSFODNN7") == "aws_access_key"  # EXAMPLE, but not as the suffix


@pytest.mark.parametrize("at", [0, 9, 20, 33, 39])
def test_a_key_one_character_off_a_published_example_is_refused(at: int) -> None:
    for key in AWS_SECRETS:
        assert find_secret(f"aws_secret_access_key = {one_off(key, at)}") == "aws_secret_key"
        assert find_secret(f'os.Setenv("AWS_SECRET_ACCESS_KEY", "{one_off(key, at)}")') == "credential_assignment"
    at_key = AZURITE.index(AZURITE_KEY) + at * 2  # anywhere in the key but its padding
    assert find_secret(one_off(AZURITE, at_key)) == "azure_connection_string"
    assert find_secret(f'{{"accountKey": "{one_off(AZURITE_KEY, at * 2)}"}}') == "credential_assignment"


# A short password is still a password: names with prefixes, qualifiers and digits, in every case
# style, with any value that is not a stand-in, however short.
SHORT_CREDENTIAL_NAMES = [
    "password", "DATABASE_PASSWORD", "DB_PASSWORD_PROD", "JWT_SECRET_1", "STRIPE_KEY", "apiToken",
    "CLIENT_SECRET", "dbPasswordProd", "db-password", "SMTP2_PASSWORD", "GITLAB_PAT", "token",
    "session_secret", "webhookSecretStaging", "_authToken", "_password", "ADMIN_PASSWORD_2",
    "private_key_passphrase", "keystore_password", "OPENAI_KEY", "SIGNING_KEY",
]  # fmt: skip
TIGHT_FORMS = ["{n}={v}", "{n}:{v}", '{n}: "{v}"', "{n} = '{v}'", '"{n}": "{v}"', "{n}: {v}", "{n} := {v}",
               "{n} => {v},", 'export {n}="{v}"', '{{\\"{n}\\": \\"{v}\\"}}', "{n}={v} ./run.sh", "{n} = {v}  # prod"]
# Stand-ins the screen keeps by design (see the module docstring): words that mark a missing value,
# type names (two capitalised words, as in SecretStr), YAML tags (!Ref), and identifiers that name a credential
# variable (dbPassword).
STAND_INS = {
    "none", "null", "nil", "true", "false", "yes", "no", "on", "off", "str", "int", "any", "see", "ask", "env",
    "tbd", "tba", "todo", "key", "keys", "auth", "same", "char", "text", "creds", "unset", "empty", "blank",
    "bytes", "bool", "prompt", "stdin", "auto", "ditto", "basic", "digest", "ntlm", "string", "object", "number",
    "nothing", "undef", "missing", "invalid", "expired", "revoked", "rotated", "enabled", "default", "hidden",
    "masked", "omitted", "elided", "removed", "bearer", "integer", "boolean", "varchar", "changeme", "redacted",
    "value", "val", "added", "updated", "changed", "fixed", "renamed", "deleted", "moved", "reverted", "unused", "new",
    "file", "path", "eof", "plain", "login", "gssapi",
}  # fmt: skip
short_values = st.text(ALNUM + "!@^*+?~", min_size=1, max_size=7).filter(
    lambda v: len(set(v)) >= 3
    and v.lower() not in STAND_INS
    and re.fullmatch(GRAMMAR_WORD.decode(), v) is None  # "password: is" names no value
    and re.fullmatch(rb"(?i:" + PASSWORD_WORD + rb")", v.encode()) is None  # password=Passwort, as password=password
    and not re.search(r"(?i)pass|pwd|secret|token|credential|api_?key", v)
    and len(re.findall(r"[A-Z][a-z]{2,}", v)) < 2
    and not re.fullmatch(r"!+[A-Za-z]+", v)
    and not re.fullmatch(r"\*[A-Za-z0-9_-]+", v)  # a YAML alias (password: *db_password), kept as a reference
)


@given(name=st.sampled_from(SHORT_CREDENTIAL_NAMES), form=st.sampled_from(TIGHT_FORMS), value=short_values)
def test_short_value_assigned_to_a_credential_name_is_rejected(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


NAMES_ABOUT_CREDENTIALS = [
    "password_policy", "token_count", "max_tokens", "TOKENIZER", "PASSWORD_RESET_TOKEN_TTL", "token_type",
    "API_KEY_HEADER", "SORT_KEY", "CACHE_KEY", "password_hash", "SECRET_NAME", "AWS_ACCESS_KEY_ID",
    "pad_token", "eos_token", "tokens", "PASSWORD_MIN", "api_key_env", "bypass",
]  # fmt: skip


@given(name=st.sampled_from(NAMES_ABOUT_CREDENTIALS), form=st.sampled_from(TIGHT_FORMS), value=short_values)
def test_names_about_credentials_are_not_credential_names(name: str, form: str, value: str) -> None:
    # A name that goes on to say something about a credential holds a count, a length, a type or
    # a lookup key, never the credential (see _QUALIFIER in the module).
    assert find_secret(form.format(n=name, v=value)) is None


# A credential named in a sentence, its value after a linking word and unquoted: the way a model
# tends to write a conclusion down ("the staging password is Tr0ub4dor&3").
PROSE_NAMES = ["password", "DB password", "admin password", "API key", "Stripe API key", "deploy token",
               "client secret", "passphrase", "access token", "webhook secret", "DB_PASSWORD", "apiToken"]  # fmt: skip
LINKS = ["is", "was", "is now", "remains", "to", "became", "is still"]
generated_values = st.text(ALNUM + "!@$%^*+?~", min_size=8, max_size=24).filter(
    lambda v: len(set(v)) >= 4
    and v[0].isalnum()  # $X, %X%, !X and *X stand for a value (a reference, a YAML tag, a mask)
    and re.search(r"[A-Za-z]", v) is not None
    and re.search(r"[0-9!@$%^*+?~]", v) is not None
    and len(re.findall(r"[A-Z][a-z]{2,}", v)) < 2  # not a class name such as Ed25519PrivateKey
)


@given(name=st.sampled_from(PROSE_NAMES), link=st.sampled_from(LINKS), value=generated_values,
       tail=st.sampled_from(["", ".", " for staging", ", ask ops before rotating it", " until Monday."]))  # fmt: skip
def test_a_generated_value_after_a_credential_name_and_a_linking_word_is_rejected(name: str, link: str, value: str, tail: str) -> None:
    text = f"In the billing repo the {name} {link} {value}{tail}"
    assert find_secret(text) == "credential_assignment", text


@given(
    name=st.sampled_from(PROSE_NAMES),
    purpose=st.sampled_from(["for the staging DB", "of the billing service", "for prod", "on the CI runner", "for the release bot account"]),
    link=st.sampled_from(LINKS),
    value=generated_values,
)
def test_a_generated_value_after_a_credential_and_what_it_is_for_is_rejected(name: str, purpose: str, link: str, value: str) -> None:
    text = f"The {name} {purpose} {link} {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "The password policy for admin accounts is NIST-800-63b.", "The token for prod is in Vault at secret/prod/token.",
        "The cache key for user sessions is user:1234:profile.", "1Password for the team is 1Password8 Business.",
        "The token limit for gpt4o is 128k tokens.", "The signing key for release tags is ed25519.",
    ],
)  # fmt: skip
def test_what_a_credential_is_for_followed_by_a_description_is_kept(text: str) -> None:
    assert find_secret(text) is None


# Six bytes or more, four of them distinct, a letter with a digit or a symbol (the rule's own floor).
ending_values = short_values.filter(
    lambda v: len(v) >= 6
    and len(set(v)) >= 4
    and v[0].isalnum()
    and re.search(r"[A-Za-z]", v) is not None
    and re.search(r"[0-9!@^*+?~]", v) is not None
)


@given(name=st.sampled_from(PROSE_NAMES), link=st.sampled_from(LINKS), value=ending_values)
def test_a_short_value_that_ends_its_sentence_after_a_linking_word_is_rejected(name: str, link: str, value: str) -> None:
    # "the admin password is hunter2.": nothing follows, so it is the value, not a word of prose.
    text = f"The {name} {link} {value}."
    assert find_secret(text) == "credential_assignment", text


@given(
    name=st.sampled_from(PROSE_NAMES),
    link=st.sampled_from(LINKS),
    value=st.sampled_from(["HS256-signed", "base64-encoded", "256-bit", "sha256", "ed25519", "AES-256-gcm", "v2.1",
                           "expired", "rotated monthly", "stored in 1Password", "32 characters long", "RS256", "utf-8",
                           "OAuth2", "SAML2", "UUIDv4", "TLS1.3", "x509", "PKCS12", "rate-limited", "read-only"]),
    tail=st.sampled_from(["", ".", " and issued per tenant", ", see the runbook"]),
)  # fmt: skip
def test_a_description_after_a_credential_name_and_a_linking_word_is_kept(name: str, link: str, value: str, tail: str) -> None:
    text = f"The {name} {link} {value}{tail}"
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        'the "password" field', 'the "password" and "token" fields', 'password "is required"', 'the secret "sauce"',
        'Click the Password "Reset" button', 'the token "v2"', 'password "${DB_PASS}"', 'password "<redacted>"',
        'set the secret "MY_SECRET" in GitHub', "the token 'bearer'", 'password "xxxx1111"',
    ],
)  # fmt: skip
def test_quoted_words_after_a_credential_name_that_are_no_value_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(CREDENTIAL_NAMES),
    sep=st.sampled_from([": ", " = ", ": ", " => "]),
    words=st.lists(st.sampled_from(["must", "see", "the", "docs", "rotate", "every", "90", "days", "is", "stored", "in", "1Password"]), min_size=2, max_size=6),
)
def test_prose_after_a_credential_word_is_kept(name: str, sep: str, words: list[str]) -> None:
    # "token: see the docs": a plain word followed by more words is prose, not a value. Four plain
    # words or more with no word of grammar or stand-in among them ("docs rotate days stored") are
    # no sentence but a passphrase (see test_spaced_values.py).
    assume(words[0] not in {"90", "1Password"})
    assume(len(words) < 4 or not set(words) <= {"docs", "rotate", "days", "stored"})
    assert find_secret(f"{name}{sep}{' '.join(words)}") is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Authorization: Basic abc", "authorization_header"),
        ("Proxy-Authorization: Basic abc", "authorization_header"),
        ("authorization: Bearer a1", "authorization_header"),
        ('headers["Authorization"] = "Token abc"', "authorization_header"),
        ('{"Authorization":"Token abc"}', "authorization_header"),
        ("passwd: Xk9mQ2vLp7", "credential_assignment"),  # no source nsswitch.conf knows
        ("DNS_AUTHORIZATION: Basic abc", "authorization_header"),  # a scheme makes any name's value a header's
        ("HTTP_AUTHORIZATION=Token abc", "authorization_header"),
        ("password: --Xk9mQ2vLp7", "credential_assignment"),  # no option's name
        ("password: --a=0A!x9", "credential_assignment"),  # no option's value
        ('DB_PASSWORD="db-pass"', "credential_assignment"),  # not the name's words
        ("DB_PASSWORD=db", "credential_assignment"),
        ("Password= hunter2", "credential_assignment"),  # a value, not a manual's word
        ('print("password: ", "Xk9mQ2vLp7")', "credential_assignment"),  # a label and its value
        ("MY_PAT = 'Xk9mQ2vLp7Zr4Tn8Wb1Y'", "credential_assignment"),
        ('GITLAB_PAT="0000000A/*"', "credential_assignment"),  # a wildcard in a generated value (hypothesis drew it)
        ("Grafana - admin - Xk9mQ2vLp7", "credential_assignment"),
        ("password: fix Horse Battery 2024!", "credential_assignment"),  # a password's mix, whatever word starts it
        ("password: don'tXk9", "credential_assignment"),
        ("password: correct horse battery staple", "credential_assignment"),
        ("DB_PASSWORD=hunter.txt2", "credential_assignment"),
        ('JWT_KEY="super-secret-jwt-key"', "credential_assignment"),
        ("password: 10.0.0.256", "credential_assignment"),  # no IP address
        ("password = the1st", "credential_assignment"),
        ("Authorization:'Token abc'", "authorization_header"),
        ("X-Api-Key: abc1", "authorization_header"),
        ("Cookie: session=abc", "cookie_header"),
        ("Set-Cookie: id=a1; Path=/", "cookie_header"),
        ("mysql -u root -pVALUE app", "command_line_credential"),
        ("sshpass -p VALUE ssh host", "command_line_credential"),
        ("docker login -u ci -p VALUE registry", "command_line_credential"),
        ("redis-cli -a VALUE ping", "command_line_credential"),
        ("openssl rsa -passin pass:VALUE -in k.pem", "command_line_credential"),
        ("tool --password abc --host db", "command_line_credential"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "private_key"),
        ("  -----END RSA PRIVATE KEY-----  \n", "private_key"),
        ('{"auth": "dXNlcjpwYXNz"}', "credential_assignment"),
    ],
)
def test_headers_options_and_armour_lines_are_rejected_without_a_length_floor(text: str, kind: str) -> None:
    assert find_secret(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: required for every endpoint",
        "Authorization: Bearer",
        "Cookie: see the proxy docs",
        "Set-Cookie: SameSite=Lax; Secure",
        "mysql -u root -p app_db",
        "ssh -p 2222 host",
        "docker run -p 8080:80 nginx",
        "docker login --password-stdin",
        "openssl rsa -passin env:KEY_PASS -in k.pem",
        "tool --password-file /run/secrets/db",
        "use --token instead of the environment variable",
        "Keys begin with -----BEGIN OPENSSH PRIVATE KEY----- and must stay out of the repo.",
        '{"auth": "none"}',
        # a header's name quoted with its colon, as prose names it
        'the "Authorization:" header, the "Proxy-Authorization:" header and packfile URIs',
        "strip the 'Authorization:' line before logging",
        # any name quoted so; a word of grammar after the separator, as a manual names a setting
        'add "systemd" to the lines starting with "passwd:", "group:", "shadow:"', "the 'password:' label",
        "password: is", "see LoadCredential= above.", "the path in LoadCredential= is read once",
        # nsswitch.conf's passwd database and its sources
        "passwd:\t   compat", "passwd: files systemd [NOTFOUND=return] sss\ngroup: files",
        # an IP address, as systemd-networkd's IPv6 Token= takes one
        "token: 192.168.1.1", "Token=::1a:2b:3c:4d", "api_key=fe80::1ff:fe23:4567:890a", "TOKEN=10.0.0.5:8080",
        # a synopsis (gcloud's): the next long option after a name, another word joined before Authorization
        "gcloud beta secrets versions add SECRET  --data-file=PATH  [--location=LOCATION]",
        "gcloud secrets versions enable 123 --secret=my-secret --etag=123",
        "gcloud alloydb clusters create CLUSTER --password=PASSWORD --region=REGION",
        "(CREDENTIAL : --location=LOCATION)", "--project-key=PROJECT_KEY --repo-slug=REPO_SLUG",
        "[--binary-authorization=POLICY | --clear-binary-authorization]", "(DNS_AUTHORIZATION : --location=LOCATION)",
        # the name spelled again, or its first words, as a document writes a value it does not show
        "CLIENT_SECRET=client-secret", 'DB_PASSWORD="db-password"', '--client-secret-value="client-secret" \\',
        "STRIPE_SECRET_KEY=stripe-secret", "DB_PASSWORD: db.password",
        # a manual naming a setting; a key's, a certificate's or a settings file's name
        "LoadCredential= setting, see systemd.exec(5) for details.", "used literally in SetCredentialEncrypted= settings.",
        "private_key=key.pem", "api_key: secrets.json", "--private-key=tpm2-pcr-private.pem", "SSL_KEY_PASSWORD_FILE=pw.txt",
        # what CPython's own library showed: a prompt that leaves a space for the answer, a lexer's
        # end token, "pat" for a pattern with a wildcard, a SASL mechanism, subtraction in a call
        "def unix_getpass(prompt='Password: ', stream=None):", 'read -p "API key: " KEY', 'print("shlex: token=EOF")',
        "GROUP_PAT = 'fr.comp.lang.*'", "filePat = '*.py'", "capabilities = 'LOGINDISABLED AUTH=CRAM-MD5'",
        "auth: SCRAM-SHA-256", "fpin.seek(offset - sizeEndCentDir64Locator - sizeEndCentDir64, 2)",
        # a changelog's or a commit's line after its area's name: a verb first, or a contraction
        "refresh_token: fix race condition bug", "api_key: add rotation support docs",
        "_tls13_{derive,expand}_secret2: fix array parameter mismatch",
        "gnutls_x509_crq_set_challenge_password: don't accept null password",
        "ext master secret: don't enable when SSL 3.0 is the only protocol",
        # curl's -u with nothing after the colon prompts; prose after "-u options:" is none
        "curl -u admin: https://x.example.com", "* NEWS, src/passwd.c, man/passwd.1.xml: -l/-u options: edit the",
    ],
)
def test_mentions_of_headers_options_and_armour_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Other tools' password options beside the same letters where they mean a port, a directory or
# nothing secret, and the same options when they prompt or read a variable.
TOOL_OPTIONS: list[tuple[str, str | None]] = [
    ("mongosh mongodb://db -u admin -p S3cr3t!Pass", "command_line_credential"),
    ("mongodump -u backup -p S3cr3t!Pass --out /srv/dump", "command_line_credential"),
    ("bcp dbo.t out t.dat -S db -U sa -P S3cr3t!Pass", "command_line_credential"),
    ("unzip -P S3cr3t!Pass release.zip", "command_line_credential"),
    ("7za x -pS3cr3t!Pass backup.7z", "command_line_credential"),
    ("ssh-keygen -p -P 0ldPassphrase -N S3cr3t!Pass -f id_ed25519", "command_line_credential"),
    ("htpasswd -bc /etc/nginx/.htpasswd admin S3cr3t!Pass", "command_line_credential"),
    ("rpcclient -U 'CORP\\admin%S3cr3t!Pass' dc01", "command_line_credential"),
    ("sdl-freerdp /v:host /p:S3cr3t!Pass /u:me", "command_line_credential"),
    ("NET USE \\\\fs01\\share /USER:CORP\\me S3cr3t!Pass", "command_line_credential"),
    ("ssh -p 2222 host && psql -p 5432 -h db", None),
    ("mysql -P 3306 -u root -p", None),
    ("zip -r out.zip dir && 7z a -r out.7z dir", None),
    ("ssh-keygen -N '' -f key && ssh-keygen -p -f key", None),
    ("smbclient //h/s -U admin%${SMB_PASSWORD}", None),
    ("htpasswd -nB admin prompts twice", None),
    ("net use Z: \\\\h\\s /user:me /persistent:no", None),
    ("xfreerdp /v:host /u:me /p:%RDP_PASSWORD%", None),
    ("robocopy src dst /mir /p:S3cr3t!Pass", None),  # no FreeRDP on the line
    ("az login -u me@example.com -p S3cr3t!Pass", "command_line_credential"),
    ("openssl enc -aes-256-cbc -k S3cr3t!Pass -in f -out f.enc", "command_line_credential"),
    ("az login --service-principal -u app -p ./cert.pem --tenant t", None),  # a certificate's path
    ("openssl req -new -keyout key.pem -out req.pem", None),
    ("curl -k https://localhost:8443/health", None),  # curl's -k: no check of the certificate
    # A password echoed into a tool that reads it from its input, and what echoes none.
    ('echo "S3cr3t!Pass" | docker login -u me --password-stdin ghcr.io', "command_line_credential"),
    ("echo hunter2 | docker login --password-stdin", "command_line_credential"),
    ("printf 'S3cr3t!Pass\\n' | sudo -S apt update", "command_line_credential"),
    ("echo 'admin:hunter2' | chpasswd", "command_line_credential"),
    ('echo "hunter2" | passwd --stdin admin', "command_line_credential"),
    ("echo $CR_PAT | docker login ghcr.io -u me --password-stdin", None),
    ("cat ~/pw.txt | docker login --password-stdin", None),
    ('echo "$USER:$PASS" | sudo chpasswd', None),
    ('echo "hello" | grep h && sudo -S ls', None),
    ("sudo -S apt install foo", None),
]


@pytest.mark.parametrize(("text", "verdict"), TOOL_OPTIONS)
def test_password_options_of_other_tools(text: str, verdict: str | None) -> None:
    assert find_secret(text) == verdict


MYSQL_TOOLS = ["mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlsh", "mariadb", "mariadb-dump", "mariadb-admin", "mariadbdump"]


@pytest.mark.parametrize(
    "text",
    [
        "mysql -u root -p'FAKEk9n86TkVYCM' app",
        'mysql -u root -p"FAKEk9n86TkVYCM" app',
        "mysqldump -uroot -p'Tr0ub(4dor&3' --all-databases > dump.sql",
        "mariadb -u app -p'FAKE pass 2024' -h db.internal",
        "mysqladmin -u root -p\"$ecretPassw0rd\" status",
    ],
)
def test_a_quoted_mysql_password_is_refused(text: str) -> None:
    assert find_secret(text) == "command_line_credential"


@given(
    tool=st.sampled_from(MYSQL_TOOLS),
    quote=st.sampled_from(["'", '"']),
    value=credential_values,
    form=st.sampled_from(["{t} -u root -p{q}{v}{q} app", "{t} -uroot -p{q}{v}{q} --all-databases > dump.sql",
                          "{t} -h db.internal -p{q}{v}{q}", "docker exec db {t} -u app -p{q}{v}{q} -e 'select 1'"]),
)  # fmt: skip
def test_a_quoted_password_attached_to_mysql_p_is_refused(tool: str, quote: str, value: str, form: str) -> None:
    # The password may be quoted right after -p, as a shell needs it to be when it has symbols.
    text = form.format(t=tool, q=quote, v=value)
    assert find_secret(text) == "command_line_credential", text


@pytest.mark.parametrize("tool", MYSQL_TOOLS)
@pytest.mark.parametrize("rest", ["-p app_db", "-p 'app_db'", '-p "app db"', "-p''", '-p"$MYSQL_PWD" app', "-p'${DB_PASSWORD}' app", "-p"])
def test_mysql_p_without_an_attached_value_is_kept(tool: str, rest: str) -> None:
    # With a space, -p prompts for the password and what follows names the database.
    assert find_secret(f"{tool} -u root {rest}") is None


# --- text as a reader sees it -------------------------------------------------------------------

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\ufe0f", "\U000e0041"]
SINGLE_LINE_REJECTS = [c for c in REJECT if c.text.isascii() and "\n" not in c.text.strip()]


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@given(case=st.sampled_from(SINGLE_LINE_REJECTS), data=st.data())
def test_invisible_characters_do_not_hide_a_secret(case: Case, data: st.DataObject) -> None:
    text = case.text.strip()
    positions = data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=6))
    for position in sorted(positions, reverse=True):
        text = text[:position] + data.draw(st.sampled_from(INVISIBLE)) + text[position:]
    assert find_secret(text) == case.kind


@pytest.mark.parametrize("case", SINGLE_LINE_REJECTS, ids=case_id)
def test_full_width_and_no_break_spaces_do_not_hide_a_secret(case: Case) -> None:
    assert find_secret(full_width(case.text)) == case.kind
    assert find_secret(case.text.replace(" ", "\u00a0")) == case.kind


@given(text=st.text(st.characters(codec="ascii"), max_size=300), data=st.data())
def test_any_text_reads_the_same_with_invisible_characters(text: str, data: st.DataObject) -> None:
    positions = data.draw(st.lists(st.integers(0, len(text)), max_size=5))
    marked = text
    for position in sorted(positions, reverse=True):
        marked = marked[:position] + data.draw(st.sampled_from(INVISIBLE)) + marked[position:]
    assert find_secret(marked) == find_secret(text)


def test_keep_fixtures_stay_kept_in_full_width() -> None:
    refused = [case_id(c) for c in KEEP if c.text.isascii() and find_secret(full_width(c.text)) is not None]
    assert refused == []


# --- random-looking values that are not credentials ---------------------------------------------

commit_hashes = st.text(HEX, min_size=40, max_size=40)
short_hashes = st.text(HEX, min_size=7, max_size=12)
uuids = st.uuids().map(str)
digests = st.text(HEX, min_size=64, max_size=64).map(lambda h: f"sha256:{h}")
semvers = st.builds(
    lambda major, minor, patch, pre, build: f"{major}.{minor}.{patch}{pre}{build}",
    st.integers(0, 99),
    st.integers(0, 999),
    st.integers(0, 9999),
    st.sampled_from(["", "-rc.1", "-alpha", "-beta.3", "-dev0", "-0.3.7", "-x.7.z.92"]),
    st.sampled_from(["", "+build.5", "+20240601", "+sha.5114f85", "+exp.sha.5114f85"]),
)
TEMPLATES = [
    "In the platform repo, the fix landed in {x} on main.",
    "commit: {x}",
    "image_digest = {x}",
    '{{"version": "{x}", "id": "{x}"}}',
    "Pinned ghcr.io/example/api@{x} after the rollback.",
    "The tenant id {x} is the same in staging.",
    "version={x}",
    "see https://example.com/releases/{x}/notes",
    "Upgraded to {x}; the token refresh bug is gone.",
]


@given(
    value=st.one_of(commit_hashes, short_hashes, uuids, digests, semvers),
    template=st.sampled_from(TEMPLATES),
)
def test_hashes_uuids_digests_and_versions_in_prose_are_kept(value: str, template: str) -> None:
    assert find_secret(template.format(x=value)) is None


# --- buffer hygiene -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("nothing to see", None), ("password=FAKEpassw0rd!", "credential_assignment"), ("", None)]
    + [(REJECT[0].text, REJECT[0].kind)],
)
def test_screen_zeroes_the_buffer_it_is_given(text: str, expected: str | None) -> None:
    buffer = bytearray(text.encode())
    assert secrets._screen_and_zero(buffer) == expected
    assert buffer == bytearray(len(text.encode()))


@given(text=st.text(max_size=1024))
def test_screen_zeroes_any_buffer(text: str) -> None:
    buffer = bytearray(text.encode())
    secrets._screen_and_zero(buffer)
    assert not any(buffer)


def test_screen_zeroes_the_buffer_when_a_rule_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(self: object, buffer: bytearray) -> str | None:
        raise RuntimeError("rule failed")

    monkeypatch.setattr(secrets._Screen, "first_kind", explode)
    buffer = bytearray(b"password=FAKEpassw0rd!")
    with pytest.raises(RuntimeError):
        secrets._screen_and_zero(buffer)
    assert not any(buffer)


def test_find_secret_screens_only_a_buffer_it_then_zeroes(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bytearray] = []
    screen = secrets._screen_and_zero

    def spy(buffer: bytearray) -> str | None:
        seen.append(buffer)
        assert bytes(buffer) == "token=FAKEt0ken99 é".encode()
        return screen(buffer)

    monkeypatch.setattr(secrets, "_screen_and_zero", spy)
    assert find_secret("token=FAKEt0ken99 é") == "credential_assignment"
    assert len(seen) == 1 and len(seen[0]) == len("token=FAKEt0ken99 é".encode())
    assert not any(seen[0])


# --- robustness ---------------------------------------------------------------------------------

ADVERSARIAL: dict[str, str | None] = {
    # Each kilobyte is built to make a backtracking pattern explode; the verdicts were checked by hand.
    "a" * 1024: None,
    "password=" * 113: "credential_assignment",  # `password=password=…`: a value assigned to a name
    "a_token=" * 128: "credential_assignment",
    "eyJ" * 341: None,  # no dots: not a JWT
    "eyJaaaaaaaa." * 85: "jwt",
    "-----BEGIN " * 93: None,  # no armour label
    "-----BEGIN PRIVATE KEY-----" + " " * 997: "private_key",
    # Marks a quote or a comment puts before a key's lines, and none of its body (the second took
    # half a second before the comment line after an OpenVPN armour was read without them).
    ("-----BEGIN RSA PRIVATE KEY-----" + "> " * 497)[:1024]: None,
    ("-----BEGIN OpenVPN Static key V1-----" + "# " * 494)[:1024]: None,
    ("-----BEGIN OpenVPN Static key V1-----" + "#" * 988)[:1024]: None,
    "postgres://" + ":" * 1013: None,  # no user, password and host
    "https://u:" + "p" * 1014: None,  # no host after the password
    "x-" * 512: None,
    "Authorization: " * 68: None,  # the header's own name is no value (as in authorization=authorization)
    "machine a login b " * 56: None,  # a netrc line without a password
    "--password " * 93: None,  # an option with only more options after it
    "Bearer " * 146: None,
    "AKIA" * 256: None,  # far longer than an AWS key id, and no word boundary
    "ghp_" + "A" * 1020: None,
    "0123456789:AA" * 78: None,
    "=" * 1024: None,
    ":" * 1024: None,
    "password: " + "A1" * 507: None,  # two distinct characters: a mask, like `********`
    "token = " + "Ab" * 508: None,
    "AbcDef" * 170: None,
    # Values a sentence name is looked for before: past a few dozen searches, no sentence names one.
    "q: Ab1cdefg " * 85: None,
    "a for b c d: Xy12345z\n" * 46: None,
    "password " + "a" * 1013 + "1!": None,  # a run of letters (longer than any value) must not backtrack
    "password " + "a" * 200 + "1!": "credential_assignment",
    ("k,password=" + "a," * 507)[:1024]: None,  # more names on the right than an unpacking has
    "m[K]=1 " * 146: None,
    ("@h:" * 342)[:1024]: None,  # a colon after every word, none near a credential word
    ("x[1:2]y[3:4]" * 86)[:1024]: None,
    ("token@h:" * 128)[:1024]: None,
    'mysql -p"': None,  # an option whose quoted value never starts
    'curl --password "': None,
    "token " + "aB1" * 339: "credential_assignment",
    ("htpasswd" + " -b" * 4 + " ") * 50: None,  # options where a file, a user and a password would be
    ("sqlcmd -U a%b -P" + " -" * 8) * 40: None,
    (" /user:a /p:" * 100)[:1024]: None,  # no tool on the line
    # Indented further than a block is looked for as written; read as a code block's (margins),
    # that indentation is one space.
    "password: |\n" + " " * 1000 + "Tr0ub4dor&3": "credential_assignment",
    "password: |\n " + " " * 1000 + "Tr0ub4dor&3": "credential_assignment",
    ("    \n" * 256)[:1024]: None,  # blank lines of a block that never starts
    ("- a\n" + "  " * 510)[:1024]: None,  # an item's next line of spaces alone
    ("# \n" * 512)[:1024]: None,  # marks without text, read away
    (("# " * 10 + "x\n") * 47)[:1024]: None,  # marks deeper than read
    ("# a\n// b\n-- c\n; d\n> e\n" * 52)[:1024]: None,  # no two lines with one mark
    ("```\n    " * 128)[:1024]: None,
    ("1. a\n   " * 128)[:1024]: None,
    ("k:\n password: |\n  " + "a " * 8 + "\n") * 20: None,  # a block of one-letter words
    "kind: Secret\n" + "data:\n" * 170: None,  # a data line after every data line
    "kind: Secret\ndata:\n" + "  a: |\n" * 140: None,  # a block marker over every line
    # Markdown read as rendered: openers that never close, a label's emphasis on every word, tables.
    ("*a " * 342)[:1024]: None,
    ("**password:** x " * 64)[:1024]: None,
    ("| a | b | c |\n|---|---|---|\n" + "| password | token | secret |\n" * 40)[:1024]: None,
    ("|" + "a|" * 512)[:1024]: None,
    ("_a_ b " * 171)[:1024]: None,
    ("<span class='" * 80)[:1024]: None,  # tags that never close
    ("</td><td>" * 120)[:1024]: None,
    ("<b>password:</b> x " * 60)[:1024]: None,
    ("password:\n\n" * 100)[:1024]: None,  # a name below every blank line
    ("password:\n```\n" * 80)[:1024]: None,
}


def verdicts_in_time(texts: Iterable[str], seconds: float = 60) -> dict[str, str | None]:
    """Each text's verdict, screened on a daemon thread: a regression to catastrophic
    backtracking fails the caller after ``seconds`` instead of hanging the suite."""
    verdicts: dict[str, str | None] = {}
    worker = threading.Thread(target=lambda: verdicts.update({t: find_secret(t) for t in texts}), daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), "screening did not finish: catastrophic backtracking?"
    return verdicts


def test_adversarial_kilobytes_get_their_verdicts_without_hanging() -> None:
    """Screening is linear by construction; a regression to catastrophic backtracking would make
    one of these take minutes."""
    assert verdicts_in_time(ADVERSARIAL) == ADVERSARIAL


def test_the_benchmarks_hard_kilobytes_are_screened_without_hanging() -> None:
    """The kilobytes ``tact-memory bench`` times (how long is its figure, not a test's)."""
    verdicts = verdicts_in_time(text for _, text in hard_kilobytes())
    assert set(verdicts.values()) <= {None, *KINDS}


@given(text=st.text(max_size=1024))
def test_any_text_yields_none_or_a_known_kind(text: str) -> None:
    assert find_secret(text) in {None, *KINDS}


def test_lone_surrogates_are_screened_rather_than_crashing() -> None:
    token = "ghp_FAKE0EXAMPLE0Token07elszGNU18fmtAHOV"
    assert find_secret(f"broken \ud800 text then {token}") == "github_token"
    assert find_secret("just \udfff") is None


def test_kinds_read_as_the_object_of_a_sentence() -> None:
    for kind, description in KINDS.items():
        assert kind.isidentifier() and kind == kind.lower()
        assert description.startswith(("a ", "an ")) and not description.endswith(".")


# People choose passwords with dots, dashes and underscores (billing-staging-2024, summer.2024,
# postgres_dev_2024): a separator never makes a value a reference on its own. (A dotted path that
# ends in code's own style, such as config.db_password, is one; see the test after this.)
SEPARATED_WORDS = ["billing", "staging", "prod", "summer", "admin", "redis", "hunter", "blue", "river", "dev"]
separated_values = st.builds(
    lambda parts, sep: sep.join(parts),
    st.lists(st.sampled_from(SEPARATED_WORDS) | st.integers(0, 9999).map(str), min_size=2, max_size=4).filter(
        lambda parts: any(not p.isdigit() for p in parts)
    ),
    st.sampled_from(["-", ".", "_"]),  # one kind per value, as people write them
)


@given(name=st.sampled_from(SHORT_CREDENTIAL_NAMES), form=st.sampled_from(TIGHT_FORMS), value=separated_values)
def test_a_value_with_dots_dashes_or_underscores_is_still_a_value(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize("value", [
    "settings.DB_PASSWORD", "config.api_key", "ed25519.PrivateKey", "self.password", "process.env.API_TOKEN",
    "OPENAI_API_KEY_V2", "hmac-sha256", "aes-256-gcm", "dbPassword", "confirm_password",
])  # fmt: skip
@pytest.mark.parametrize("form", TIGHT_FORMS[:6])
def test_references_with_separators_are_kept(value: str, form: str) -> None:
    assert find_secret(form.format(n="DB_PASSWORD", v=value)) is None


@pytest.mark.parametrize("text", [
    "JWT_SECRET=super-secret-jwt-key", 'password = "my.secret.pw"', "JWT_SECRET=supersecretjwtkey",
    "SENDGRID_API_KEY: SG.abc", "password=mysecret",
])  # fmt: skip
def test_a_value_of_letters_and_separators_alone_is_refused(text: str) -> None:
    """No digit, so the leak test's fixtures cannot carry these; refused all the same."""
    assert find_secret(text) == "credential_assignment"


COLON_LIKE = "\u2236\ua789\u02d0\u0589\ufe13\ufe55"
HYPHEN_LIKE = "\u2010\u2011\u2012\u2013\u2212"


@pytest.mark.parametrize("colon", COLON_LIKE, ids=[f"U+{ord(c):04X}" for c in COLON_LIKE])
def test_a_separator_that_only_looks_like_a_colon_is_one(colon: str) -> None:
    assert find_secret(f"password{colon}Xk9v2LmQ7t") == "credential_assignment"
    assert find_secret(f"DB_PASSWORD {colon} Xk9v2LmQ7t") == "credential_assignment"


@pytest.mark.parametrize("hyphen", HYPHEN_LIKE, ids=[f"U+{ord(c):04X}" for c in HYPHEN_LIKE])
def test_a_hyphen_that_only_looks_like_one_is_one(hyphen: str) -> None:
    token = f"sk{hyphen}proj{hyphen}FAKEr3Lk9VbN2mX7tP4wYc6Hf1Jd5Ge0Sa8Rn3Ku2Tq"
    assert find_secret(token) == "openai_key"
    assert find_secret(f"mysql {hyphen}{hyphen}password Xk9v2LmQ7t {hyphen}{hyphen}host db") == "command_line_credential"


@pytest.mark.parametrize("text", ["curl --user=admin:Xk9v2LmQ7t https://api.internal/", "pw=Xk9v2LmQ7t", "psk=Xk9v2LmQ7t", "DB_PW: Xk9v2LmQ7t"])
def test_more_spellings_of_a_credential(text: str) -> None:
    assert find_secret(text) is not None


# The assignment forms of detect-secrets' keyword detector tests (Go's :=, Objective-C's @"...", a
# subscript, PHP's and Objective-C's name[] =, a name and a quoted value closed by ;), with a
# generated value; and the forms it keeps. Its own values with "fake" in them ("somefakekey") are
# refused here: a word inside a value does not make the value a stand-in.
DETECT_SECRETS_FORMS = [
    'apikey := "{v}"', "apikey := '{v}'", "apikey:='{v}'", "apikey := {v}", "apikey:={v}",
    "'theapikey': '{v}'", '"theapikey": "{v}"', 'apikey: "{v}"', "apikey: {v}", "apikey:{v}",
    'apikey = "{v}"', 'apikey = @"{v}"', 'apikey[]= "{v}"', 'apikey[]="{v}"', '$password[] = "{v}";',
    'some_dict["secret"] = "{v}"', "the_password='{v}'\n", "some_dict['secret'] = {v}", "my_password={v}",
    'apikey "{v}";', "private_key '{v}';",
]  # fmt: skip


@pytest.mark.parametrize("form", DETECT_SECRETS_FORMS)
def test_detect_secrets_keyword_forms_are_refused(form: str) -> None:
    assert find_secret(form.format(v="Xk9v2LmQ7tPq")) == "credential_assignment"


@pytest.mark.parametrize("text", ['theapikey := "somefakekey"', 'theapikey: "somefakekey"', 'my_password = "fakesecret"'])
def test_a_value_with_fake_in_it_is_still_refused(text: str) -> None:
    """detect-secrets keeps these; a word inside a value does not make the value a stand-in."""
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        'theapikey := ""', "theapikeyforfoo := hopenobodyfindsthisone", 'theapikey: ""', "password: ${link}",
        'theapikey[] = ""', 'my_password = ""', 'open(self, password = ""):', "my_password = foo(hey)you",
        "my_password = request.json_body['hey']", "my_password = True", "login(username=username, password=password)",
        'private_key "";', "apiKey: this.apiKey,", "apiKey: fs.readFileSync('foo',", "$password = $input;",
        "tokens[] = $token;", "passwords[] = $row['password'];",
    ],
)  # fmt: skip
def test_detect_secrets_keyword_negatives_are_kept(text: str) -> None:
    assert find_secret(text) is None


# "Password" in other languages, as names in code and configuration: the Latin-script words, with
# and without their accents (as code often writes them), and Java keytool's settings.
OTHER_LANGUAGE_NAMES = [
    "passwort", "DB_PASSWORT", "kennwort", "contrasena", "contraseña", "mi_contraseña", "mot_de_passe", "senha",
    "dbSenha", "wachtwoord", "lösenord", "losenord", "passord", "adgangskode", "salasana", "hasło", "haslo",
    "heslo", "jelszó", "storepass", "keypass", "applicationkey",
]  # fmt: skip


@pytest.mark.parametrize("name", OTHER_LANGUAGE_NAMES)
def test_a_password_named_in_another_language_is_refused(name: str) -> None:
    assert find_secret(f"{name}=Xk9v2LmQ7tPq") == "credential_assignment"
    assert find_secret(f'{name}: "Tr0ub4dor&3"') == "credential_assignment"


@pytest.mark.parametrize("name", OTHER_LANGUAGE_NAMES)
def test_a_stand_in_named_in_another_language_is_kept(name: str) -> None:
    assert find_secret(f"{name}=${{DB_PASSWORD}}") is None
    assert find_secret(f"{name}: <{name}>") is None


@pytest.mark.parametrize(
    "text",
    [
        'if password == "{v}":', 'if (password === "{v}")', 'if (apiKey !== "{v}") {{', 'assert token != "{v}"',
        'assert resp["token"] == "{v}"', '"{v}" == password', "if ('{v}' === this.apiKey)", 'my_password == "{v}"',
    ],
)  # fmt: skip
def test_a_credential_compared_with_a_generated_value_is_refused(text: str) -> None:
    """Code that checks a hard-coded credential holds it (detect-secrets' comparison forms)."""
    assert find_secret(text.format(v="Tr0ub4dor&3")) == "credential_assignment"
    assert find_secret(text.format(v="Xk9v2LmQ7tPq")) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        'if token == "":', 'if auth === "basic"', 'if password != "<unset>":', "if (token !== undefined)",
        'elif token == "#bygroup":', 'assert continuation_token == "stream_tok_hop_2"', 'if token == "endfor":',
        'if key == "Enter":', "if password == confirm:", 'if name == "Xk9v2LmQ7tPq":', 'if token_type == "bearer":',
        '"a" == "b"', 'if token == "{{%":',
    ],
)  # fmt: skip
def test_a_credential_compared_with_a_word_or_a_stand_in_is_kept(text: str) -> None:
    """A lexer's token, a page token and a type are compared with words and identifiers."""
    assert find_secret(text) is None


# Each budget of a sentence check (MAX_NAMED searches in one screen) is the screen's own: many
# earlier screens that spend it leave the next one its whole budget.
BUDGETED = [
    ("the password page is hunter22 wide", "the password for the demo is hunter22"),
    ("it is the password.", "hunter2 is the password"),
    ("user bob pass the flag", "user bob pass hunter2"),
    ("keystore pass the flag", "keystore pass Xk9v2LmQ7t"),
    ("login: ann, then log in", "Staging login: ann/Xk9v2LmQ7t"),
]


@pytest.mark.parametrize(("spending", "secret"), BUDGETED, ids=[secret for _, secret in BUDGETED])
def test_a_screen_starts_with_the_whole_budget_of_its_sentence_checks(spending: str, secret: str) -> None:
    assert find_secret(secret) == "credential_assignment"
    for _ in range(MAX_NAMED + 1):
        assert find_secret(f"{spending}; {spending}.") is None
    assert find_secret(secret) == "credential_assignment"


@given(
    words=st.lists(st.text(string.ascii_lowercase, min_size=2, max_size=8), min_size=1, max_size=3),
    credential=st.sampled_from(["password", "secret", "token", "api_key", "secret_key"]),
    joint=st.sampled_from(["_", "-", "."]),
    upper=st.booleans(),
)
def test_a_value_that_spells_its_name_again_is_kept(words: list[str], credential: str, joint: str, upper: bool) -> None:
    # DB_PASSWORD="db-password": the name's own words in another case and joint are no password
    name = "_".join([*words, credential]).upper()
    value = joint.join([*words, *credential.split("_")])
    assert find_secret(f'{name}="{value.upper() if upper else value}"') is None

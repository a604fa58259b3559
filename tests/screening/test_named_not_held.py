"""Content that names a credential or holds a public value, next to content that holds a secret.

A chart names the key inside a Secret object (``secretKey: postgres-password``), a cookie may hold a
preference (``theme=dark``), and some providers publish a key as safe to ship to every browser
(Stripe's ``pk_live_...``, Mapbox's ``pk.`` tokens, a CAPTCHA's site key). Those are kept. A real
value beside them, a session cookie and the same providers' secret keys are refused.
"""

from __future__ import annotations

import re
import string

from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

ALNUM = string.ascii_letters + string.digits

# --- the names of keys inside a Secret object ---------------------------------------------------

KEY_WORDS = st.from_regex(r"[a-z]{2,12}", fullmatch=True)
KEY_ENDINGS = ["password", "passwd", "passphrase", "pwd", "token", "credentials", "creds", "api-key", "apikey"]
key_names = st.builds(
    lambda words, sep, ending: sep.join([*words, ending]),
    st.lists(KEY_WORDS, min_size=1, max_size=4),
    st.sampled_from(["-", "_", "."]),
    st.sampled_from(KEY_ENDINGS),
)
KEY_NAME_FORMS = [
    "secretKey: {v}",
    'secretKey: "{v}"',
    "passwordKey: {v}",
    "existingSecretPasswordKey: {v}",
    "passwordSecret: {v}",
    "auth.secretKeys.adminPasswordKey={v}",
    "valueFrom:\n  secretKeyRef:\n    name: db\n    key: {v}",
    "valueFrom: {{secretKeyRef: {{name: db, key: {v}}}}}",
]


@given(value=key_names, form=st.sampled_from(KEY_NAME_FORMS))
def test_the_name_of_a_key_inside_a_secret_is_kept(value: str, form: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) is None, text


generated = st.text(ALNUM + "!@^*+~", min_size=20, max_size=48).filter(
    lambda v: len(set(v)) >= 10 and re.search(r"[0-9]", v) is not None and re.search(r"[A-Za-z]", v) is not None
)
VALUE_FORMS = ["password: {v}", 'password: "{v}"', "secretKey: {v}", "passwordSecret: '{v}'", "DB_PASSWORD={v}"]


@given(value=generated, form=st.sampled_from(VALUE_FORMS))
def test_a_generated_value_after_a_credential_or_secret_key_name_is_refused(value: str, form: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) is not None, text


@given(
    value=key_names.filter(lambda v: "_" not in v and "." not in v),
    name=st.sampled_from(["password", "DB_PASSWORD", "apiToken", "secret_key", "SECRET_KEY"]),
)
def test_a_key_name_shaped_value_is_still_a_password_under_a_password_name(value: str, name: str) -> None:
    # Only the names charts give keys under take a key's name; a password chosen from words that
    # ends the same way ("super-secret-password") is a password everywhere else. (With an
    # underscore or a dot it reads as code's own name, db_password or config.password, and is kept.)
    # Words joined by dashes that start as a stand-in does ("my-password", "your-api-key", "enter-
    # token") are what documentation writes in place of a value, and are kept as stand-ins.
    assume(value.split("-")[0] not in STAND_IN_LEADS)
    assert find_secret(f"{name}: {value}") == "credential_assignment"


STAND_IN_LEADS = ("your", "my", "insert", "replace", "put", "enter")
"""The first words of a dashed stand-in (``vocabulary.PLACEHOLDER_WORD``)."""


@given(
    lead=st.sampled_from(STAND_IN_LEADS),
    rest=st.lists(st.from_regex(r"[a-z]{2,12}", fullmatch=True), min_size=1, max_size=3),
    name=st.sampled_from(["password", "DB_PASSWORD", "apiToken"]),
)
def test_a_dashed_stand_in_under_a_password_name_is_kept(lead: str, rest: list[str], name: str) -> None:
    assert find_secret(f"{name}: {'-'.join([lead, *rest])}") is None


def test_a_secret_key_name_with_a_digit_or_a_capital_is_a_value() -> None:
    for value in ["postgres-password2", "Postgres-Password", "minio123", "dev-secret-key"]:
        assert find_secret(f"secretKey: {value}") == "credential_assignment", value


# --- cookies ------------------------------------------------------------------------------------

PREFERENCE_COOKIES = ["theme", "lang", "locale", "currency", "country", "sidebar_collapsed", "tz_name", "layout"]
PREFERENCE_VALUES = ["dark", "light", "en", "en-US", "de_DE", "EUR", "true", "false", "1", "compact", "solarized-dark"]
SESSION_COOKIES = [
    "session", "sessionid", "PHPSESSID", "JSESSIONID", "connect.sid", "_myapp_session", "auth", "remember_token",
    "csrftoken", "XSRF-TOKEN", "__Host-id", "__Secure-next-auth.session-token", "d", "jwt", "sso_ticket",
]  # fmt: skip
COOKIE_FORMS = ["Cookie: {p}", "Set-Cookie: {p}; Path=/; HttpOnly", '{{"Cookie": "{p}"}}', "curl -H 'Cookie: {p}' https://x"]


@given(
    pairs=st.lists(st.tuples(st.sampled_from(PREFERENCE_COOKIES), st.sampled_from(PREFERENCE_VALUES)), min_size=1, max_size=4),
    form=st.sampled_from(COOKIE_FORMS),
)
def test_a_cookie_of_preferences_is_kept(pairs: list[tuple[str, str]], form: str) -> None:
    text = form.format(p="; ".join(f"{name}={value}" for name, value in pairs))
    assert find_secret(text) is None, text


# Capitalised words with digits read as a type's name (Abc1Def), which the screen keeps by design.
TYPE_NAME = re.compile(r"(?:[A-Z][a-z]?[0-9]{1,6})?(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]{2,})+")
session_values = st.text(ALNUM, min_size=4, max_size=40).filter(
    lambda v: len(set(v)) >= 3 and re.search(r"[0-9]", v) is not None and not TYPE_NAME.fullmatch(v)
)


@given(
    name=st.sampled_from(SESSION_COOKIES),
    value=session_values,
    before=st.sampled_from(["", "theme=dark; ", "lang=en; theme=dark; "]),
    form=st.sampled_from(COOKIE_FORMS),
)
def test_a_session_cookie_is_refused_beside_preferences(name: str, value: str, before: str, form: str) -> None:
    text = form.format(p=f"{before}{name}={value}")
    assert find_secret(text) == "cookie_header", text


@given(name=st.sampled_from(PREFERENCE_COOKIES), value=generated.filter(lambda v: not set(v) & set("*+~")))
def test_a_generated_value_is_refused_under_any_cookie_name(name: str, value: str) -> None:
    assume("!" not in value[:1] and not TYPE_NAME.fullmatch(value))
    text = f"Cookie: {name}={value}"
    assert find_secret(text) == "cookie_header", text


# --- keys published as public -------------------------------------------------------------------

body = st.text(ALNUM, min_size=24, max_size=99).filter(lambda v: len(set(v)) >= 8)
KEY_NAMES = ["STRIPE_KEY", "stripeKey", "STRIPE_API_KEY", "api_key", "VITE_STRIPE_KEY", "password", "token"]


@given(name=st.sampled_from(KEY_NAMES), mode=st.sampled_from(["live", "test"]), value=body)
def test_a_publishable_key_is_kept_and_a_secret_key_refused_under_any_name(name: str, mode: str, value: str) -> None:
    assert find_secret(f"{name}=pk_{mode}_{value}") is None
    assert find_secret(f"{name}=sk_{mode}_{value}") == "stripe_key"
    assert find_secret(f"{name}=rk_{mode}_{value}") == "stripe_key"


def test_a_captcha_site_key_is_kept_and_its_secret_key_refused() -> None:
    value = "6LeFAKEAAAAAAexampleKey0123456789abcdefg"
    for service in ["RECAPTCHA", "HCAPTCHA", "TURNSTILE", "recaptcha"]:
        assert find_secret(f"{service}_SITE_KEY={value}") is None
        assert find_secret(f"{service}_SECRET_KEY={value}") == "credential_assignment"
    assert find_secret(f"SITE_KEY={value}") == "credential_assignment"  # a site key of what, is not said

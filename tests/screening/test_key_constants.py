"""Constants whose name ends in ``_KEY`` or ``Key`` without saying what kind of key they hold.

``SPAN_KEY = "current-span"`` and ``CONFIGFILE_KEY = 'pydantic-mypy'`` name what they look up,
as ``CACHE_KEY = "build-cache"`` does: lower-case words joined by ``-``, ``_`` or ``.`` are kept
after any such name. A generated value after the same names is refused, and a name that says it
holds a credential (``API_KEY``, ``JWT_KEY``, ``SESSION_KEY``) is judged as before.
"""

from __future__ import annotations

import random
import re
import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import TIGHT_FORMS, mixed_values

# Names the generic "<WORD>_KEY" rule takes as credential names until the value says otherwise.
KEY_CONSTANTS = [
    "SPAN_KEY", "CONFIGFILE_KEY", "TRACE_KEY", "WIDGET_KEY", "ROUTE_KEY", "STATE_KEY", "TENANT_KEY",
    "SETTINGS_KEY", "CONTEXT_KEY", "SPAN_KEY_PROD", "PLUGIN_NAME_KEY",
]  # fmt: skip
# Names that name a lookup key outright, in every case style.
LOOKUP_NAMES = ["CACHE_KEY", "LOCK_KEY", "FEATURE_KEY", "SORT_KEY", "sortKey", "partitionKey", "cache_key"]
# Names that say the key is a credential: a lookup-like value after them is still refused.
CREDENTIAL_KEY_NAMES = [
    "API_KEY", "SECRET_KEY", "ACCESS_KEY", "PRIVATE_KEY", "AUTH_KEY", "JWT_KEY", "SESSION_KEY", "PASSWORD_KEY",
    "HMAC_KEY", "ENCRYPTION_KEY", "SIGNING_KEY", "MASTER_KEY", "LICENSE_KEY", "STRIPE_KEY", "OPENAI_KEY",
    "apiKey", "secretKey", "DB_KEY", "API_TOKEN_KEY",
]  # fmt: skip
FORMS = ['{n} = "{v}"', "{n} = '{v}'", "{n}={v}", "{n}: {v}", '"{n}": "{v}"', 'export {n}="{v}"', "{n} = {v}  # x"]

# Two to four lower-case words of three to ten letters, each with a vowel, joined by "-".
lookup_words = st.text(string.ascii_lowercase, min_size=3, max_size=10).filter(lambda w: re.search("[aeiouy]", w))
lookup_values = st.lists(lookup_words, min_size=2, max_size=4).map("-".join)
# Twenty to forty letters and digits drawn at random, with upper case, lower case and a digit in
# them: what a generated key looks like. Hypothesis draws the seed; shrinking a string by hand
# would turn it into runs of one character, which the screen takes for a mask.
generated_values = st.builds(
    lambda seed, size: "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size)),
    st.integers(0, 2**32),
    st.integers(20, 40),
).filter(lambda v: re.search("[a-z]", v) is not None and re.search("[A-Z]", v) is not None and re.search("[0-9]", v) is not None)


@given(name=st.sampled_from(KEY_CONSTANTS + LOOKUP_NAMES), form=st.sampled_from(FORMS), value=lookup_values)
def test_words_joined_by_dashes_after_a_key_constant_are_kept(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) is None, text


@given(name=st.sampled_from(KEY_CONSTANTS), form=st.sampled_from(FORMS + TIGHT_FORMS), value=generated_values)
def test_a_generated_value_after_the_same_names_is_refused(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assume(not re.search(r"(?i)pass|pwd|secret|token|credential|api_?key", value))
    assert find_secret(text) == "credential_assignment", text


PLAIN_WORDS = ["current", "span", "build", "cache", "checkout", "orders", "created", "tenant", "widget", "sidebar"]


@given(
    name=st.sampled_from(CREDENTIAL_KEY_NAMES),
    form=st.sampled_from(FORMS),
    value=st.lists(st.sampled_from(PLAIN_WORDS), min_size=2, max_size=4).map("-".join),
)
def test_words_after_a_credential_key_name_are_refused(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "value",
    [
        "current-span-2",  # a digit
        "Current-Span",  # a capital
        "qwrtzplkjhgdsxcvbnm-span",  # a run of letters no word is
        "xkcd-qwrt",  # a word without a vowel
        "span",  # one word: a password as often as a name
        "a-b-c",  # letters, not words
        "one-two-three-four-five-six-seven",  # more words than a name has
    ],
)
@pytest.mark.parametrize("name", ["SPAN_KEY", "CONFIGFILE_KEY"])
def test_values_that_are_not_lookup_names_are_refused(name: str, value: str) -> None:
    assert find_secret(f'{name} = "{value}"') == "credential_assignment"


# Random letters and digits that read as a class name with a digit in it (blocks of an acronym,
# digits and capitalised runs), which hypothesis and a sampler of generated keys found kept: their
# "words" are not words (no vowel, or none of five letters).
TYPE_NAME_SHAPED = ["Kj7P0GyiXEyiYesKOroo", "F3CgqEoc", "Iuoi75Zkjg", "S0TbpOdq", "M45QqwZmp8Aswu", "1DodKIds"]
# Class names with a digit that code assigns to credential-like names.
CLASS_NAMES = ["OAuth2Token", "Ed25519PrivateKey", "PKCS7PrivateKeyTypes", "Http2Connection", "Aes256GcmCipher", "Sha256Hasher"]


@pytest.mark.parametrize("value", TYPE_NAME_SHAPED)
@pytest.mark.parametrize("name", ["SPAN_KEY", "API_KEY", "PASSWORD"])
def test_generated_values_shaped_like_a_class_name_are_refused(name: str, value: str) -> None:
    assert find_secret(f"{name}={value}") == "credential_assignment"


@pytest.mark.parametrize("value", CLASS_NAMES)
@pytest.mark.parametrize("form", ["token = {v}", "key: {v}", "TOKEN_CLASS = {v}", "password_hasher: {v} = {v}()"])
def test_a_class_name_with_a_digit_is_still_kept_in_code(form: str, value: str) -> None:
    assert find_secret(form.format(v=value)) is None


def test_random_keys_are_rarely_taken_for_class_names() -> None:
    """Of 3,000 random mixes of letters and digits of 8 to 20 characters after API_KEY=, at most one
    in a thousand is kept (before class names needed real words, about one in three hundred was)."""
    rng = random.Random(20261204)
    values = []
    while len(values) < 3000:
        value = "".join(rng.choices(string.ascii_letters + string.digits, k=rng.randint(8, 20)))
        if re.search("[a-z]", value) and re.search("[A-Z]", value) and re.search("[0-9]", value):
            values.append(value)
    kept = [value for value in values if find_secret(f"API_KEY={value}") is None]
    assert len(kept) <= 3, kept


# WordPress's four salts stand beside its four keys in wp-config.php and in Bedrock's .env; all
# eight sign its cookies and nonces.
WORDPRESS_SALTS = ["AUTH_SALT", "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT"]
WORDPRESS_FORMS = ["define( '{n}', '{v}' );", "define('{n}', '{v}');", "{n}='{v}'", '{n}="{v}"', "{n}={v}", "    '{n}' => '{v}',"]


@given(name=st.sampled_from(WORDPRESS_SALTS), form=st.sampled_from(WORDPRESS_FORMS), value=mixed_values)
def test_a_wordpress_salt_is_refused(name: str, form: str, value: str) -> None:
    assume("'" not in value)
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


WORDPRESS_STAND_INS = [
    # wp-config-sample.php's and Bedrock's .env.example's placeholders, and the command that makes new ones
    "define( 'NONCE_SALT',       'put your unique phrase here' );",
    "# Generate your keys here: https://roots.io/salts.html\n"
    + "\n".join(f"{n}='generateme'" for n in ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", *WORDPRESS_SALTS]),
    "AUTH_SALT=$(wp config shuffle-salts)", "API_KEY='generate-me'",
    # a salt that is no secret: a hash's salt in code, a count of rounds
    'salt = "Xk9-vQ2mN5p+r4"', "PASSWORD_SALT_ROUNDS = 12", "BCRYPT_SALT_ROUNDS=10",
]  # fmt: skip


@pytest.mark.parametrize("text", WORDPRESS_STAND_INS)
def test_wordpress_placeholders_and_other_salts_are_kept(text: str) -> None:
    assert find_secret(text) is None, text

"""Credentials written into sentences the way notes are written: right after the name with no verb,
or after a colon that follows what the name is for or its linking word."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

REFUSED = [
    "login as admin with password Hunter2024",
    "TOTP secret JBSWY3DPEHPK3PXP for the staging admin",
    "The SMTP credentials are user smtp@example.com and password Sm7pP@ss",
    "pwd Hunter2024",
    "the deploy token Zx8Qw2Lm9Rt4 is pinned in CI",
    "the Wi-Fi passphrase CoffeeShop2024! is on the fridge",
    "password for the intern account: Summer2024!",
    "The master password for the vault is: Correct-Horse-9",
    "the token for the billing API: 9f8e7d6c5b4a3f2e1d0c",
    "the admin password was: Tr0ub4dor&3",
]

KEPT = [
    "the password reset link expires after an hour",
    "we count every token cl100k_base produces",
    "the secret us-east-1 replica is read only",
    "password Argon2id hashing replaced bcrypt",
    "the token HS256 header is checked first",
    "the secret AES256GCM envelope wraps each field",
    "password policy v2 requires twelve characters",
    "token bucket4j limits the API to 20 requests",
    "every token in a :class:`Token` and converts the value.",  # jinja2
    '"""The password of the connection. See :pq:`PQpass()`."""',  # psycopg
    "the password for the staging DB: see the vault",
    "the token for prod: rotate it every 90 days",
    # Still kept, as the module's limits say: letters and digits of one case, or a short value.
    "the password hunter2024 works for the staging box",
    "the password hunter2 for staging",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_credential_written_into_a_sentence_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize("text", KEPT)
def test_words_after_a_credential_name_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Three of lower case, upper case, digits and symbols: a password's texture, not a word's.
mixed = st.tuples(
    st.sampled_from(string.ascii_uppercase),
    st.text(string.ascii_lowercase, min_size=3, max_size=12),
    st.text(string.digits, min_size=1, max_size=4),
    st.sampled_from(["", "!", "#", "@", "%", "*"]),
).map("".join).filter(lambda v: len(v) >= 8 and len(set(v)) >= 4)

# Lower case, digits and joiners: names of regions, encodings, models and versions.
named = st.lists(
    st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=8), min_size=2, max_size=4
).flatmap(lambda parts: st.sampled_from(["-", "_", "."]).map(lambda joiner: joiner.join(parts)))

WORDS = ["password", "Password", "PASSWORD", "passwd", "passphrase", "pwd", "secret", "token", "TOKEN"]
BEFORE = ["", "the ", "login with ", "the staging ", "use the deploy "]
AFTER = ["", " for the staging box", " (rotate monthly)", "."]


@given(word=st.sampled_from(WORDS), before=st.sampled_from(BEFORE), after=st.sampled_from(AFTER), value=mixed)
def test_a_mixed_value_right_after_the_name_is_refused(word: str, before: str, after: str, value: str) -> None:
    assert find_secret(f"{before}{word} {value}{after}") == "credential_assignment"


@given(word=st.sampled_from(WORDS), before=st.sampled_from(BEFORE), after=st.sampled_from(AFTER[1:]), value=named)
def test_a_joined_lower_case_name_after_the_name_is_kept(word: str, before: str, after: str, value: str) -> None:
    assert find_secret(f"{before}{word} {value}{after}") is None

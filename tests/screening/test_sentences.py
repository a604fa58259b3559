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
    "TOTP seed JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    "the 2FA seed JBSWY3DPEHPK3PXP for the staging admin",
    "The SMTP credentials are user smtp@example.com and password Sm7pP@ss",
    "pwd Hunter2024",
    "the deploy token Zx8Qw2Lm9Rt4 is pinned in CI",
    "the Wi-Fi passphrase CoffeeShop2024! is on the fridge",
    "password for the intern account: Summer2024!",
    # French sets a colon off with spaces; so does a note now and then.
    "le mot de passe du serveur : Summer2024!",
    "Passwort für den Server : Summer2024!",
    "the token for the billing API : 9f8e7d6c5b4a3f2e1d0c",
    "the token for the billing API :9f8e7d6c5b4a3f2e1d0c",
    "The master password for the vault is: Correct-Horse-9",
    "the token for the billing API: 9f8e7d6c5b4a3f2e1d0c",
    "the admin password was: Tr0ub4dor&3",
    # A password's name in the plural: the passwords it gives are as secret.
    "The root passwords are Tr0ub4dor&3 and Summer2024!",
    "passwords: Tr0ub4dor&3, Summer2024!",
    "passphrases: correct horse battery staple",
    # A credential among many colons that name nothing: they cost no search, so it is still found.
    "The admin password is Tr0ub4dor&3.\n" + "".join(f"  db{i}: db{i}.internal:5432\n" for i in range(23)),
    "".join(f"- at: 2024-07-01T10:{i:02d}:00Z\n" for i in range(25)) + "the staging password is Hunter2024!",
]

KEPT = [
    "the password reset link expires after an hour",
    "we count every token cl100k_base produces",
    "the secret us-east-1 replica is read only",
    "password Argon2id hashing replaced bcrypt",
    "the token HS256 header is checked first",
    "the secret AES256GCM envelope wraps each field",
    "password policy v2 requires twelve characters",
    "passwords are hashed with Argon2id",
    "passwords: never stored, only their hashes",
    "the passwords for 12 accounts expired",
    "token bucket4j limits the API to 20 requests",
    "every token in a :class:`Token` and converts the value.",  # jinja2
    "the token for the docs :class:`Token` and more",  # a colon that starts markup: no value
    "the password for the docs :pq:`PQpass()` and more",
    "le mot de passe du serveur : voir le coffre",
    "the token for CI : repo, workflow scopes",
    '"""The password of the connection. See :pq:`PQpass()`."""',  # psycopg
    "the password for the staging DB: see the vault",
    # Bullets that say what a credential is for, and names written right after the word.
    "- GitHub token for CI: repo, workflow scopes",
    "Token for the API: JWT",
    "The token is: opaque",
    "JWT secret for signing: HS256",
    "The JWT secret is: 256-bit",
    "- Token for PyPI uploads: project-scoped",
    "Webhook secret for GitHub: configured",
    "K8s secret for TLS: tls-cert-2024",
    "Secret in AWS: MyApp/Prod/DbCreds",
    "the secret MyApp/Prod2/Database holds creds",
    "USDC token 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 on mainnet",
    "The token ERC20Token contract",
    "the token T5Tokenizer is slow",
    "token sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "npm token sha512-abcDEF123+/xyz==",
    "secret v1.2.3-Beta added",
    "pwd C:/Users/Admin2/proj",
    "Password Zurücksetzen button",
    "per token Qwen2.5-7B costs less",
    "HF token meta-llama/Llama-3.1-8B is gated",
    "random seed 1234 for numpy",
    "the torch seed Xk9mQ2vLp8 reproduces the run",
    "the database seed script seeds 3 users",
    "token mistralai/Mistral-7B-v0.1 loads in 8 bit",
    "JWT secret HS256/RS256 both supported",
    "secret v2.1.0-beta+build5",
    "the refresh token for Google: ya29.<redacted>",
    "password for prod: Hunter<REDACTED>",
    # What a rotation or deployment note says after "<credential> for ...:".
    "Token for GitHub expires: 2024-09-01T00:00:00Z",
    "Password for admin changed at: 2024-07-01T10:00:00Z",
    "- Slack token for alerts created: 2024-06-01T09:00:00+02:00",
    "Token for the registry: ghcr.io/acme/app:v1.2",
    "Pull secret for the image: docker.io/library/postgres:16",
    "Password for postgres at: db1.internal:5432",
    "Secret for signing lives in: KeyVault/Prod-2",
    "token for model download: Qwen/Qwen2.5-7B-Instruct",
    # A list of hosts, times and digests after colons: each asks for a name, none is a credential.
    "".join(f"  db{i}: db{i}.internal:5432\n" for i in range(25)),
    "".join(f"- run {i}: started 2024-07-01T10:{i:02d}Z\n" for i in range(25)),
    "the token for prod: rotate it every 90 days",
    # Still kept, as the module's limits say: letters and digits of one case that the sentence
    # goes on after, or a short value.
    "the password hunter2024 works for the staging box",
    "the token hunter2 for staging",
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

# Generated: a password's texture that no camel-case name with a number after it has (a symbol
# after the digits, or the classes interleaved), for rules that are given names as often.
generated = mixed.filter(lambda v: not v[-1].isdigit()) | st.sampled_from(
    ["Xk9v2LmQ7t", "q8Wv2Lm9ZtR4", "Tr0ub4dor3x!", "zP4kQ9mW2vXc", "Tr0ub4dor&3"]
)
# What may follow a value that ends its clause.
ends = st.sampled_from(["", ".", "\n", " (rotate monthly)"])

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

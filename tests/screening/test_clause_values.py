"""A short password that ends its clause after a colon, an arrow, a dash or a login pair is judged
as one after "is": ``the password for prod: hunter2`` is as secret as ``the password is hunter2.``.

Before, these forms counted only a value that mixes three kinds of character, so a password of
lower-case letters and digits, the commonest kind people write, passed after the very separators
notes use most."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

# Where a note gives the value: a name and what it is for or how it changed, then a colon; an aside
# in brackets before the colon; an arrow or a dash in its place; a user and the password as a pair.
FORMS = [
    "the password for prod: {}",
    "ssh password for the build box: {}",
    "The vault password is: {}",
    "Password updated: {}",
    "the root password was changed to: {}",
    "root password (staging): {}",
    "db password -> {}",
    "Staging DB password - {}",
    "new password → {}",
    "password ⇒ {}",
    "the staging password ⟶ {}",
    "root password ➜ {}",
    "the API key for billing: {}",
    "Grafana login admin:{}",
    "credentials root:{}",
    "DB creds: app / {}",
    "sign in with ann@example.com / {}",
    # an aside set off by commas before "is", what the name is shared between or held with
    "The password, for the record, is {}", "the admin password, as of today, is {}",
    "the shared secret between the two services is {}", "the password with the symbols is {}",
]

# Where the clause ends: the line, a full stop, a comma, a bracket, a comment, or what the value is
# for (as after "is": the password is hunter2 for staging).
ENDS = [
    "", ".", "\n", ", then restart the service", " (rotated monthly)", "; ask ops for the new one", "  # staging",
    " for staging", " until Friday", " on the build box",
]  # fmt: skip

# Common words with digits after them, the shape of most weak passwords; and the same with digits
# between letters. None is the name of an algorithm, an encoding or a model.
weak = st.one_of(
    st.tuples(
        st.sampled_from(["hunter", "dragon", "summer", "monkey", "letmein", "sunshine", "qwerty", "shadow", "trustno"]),
        st.text(string.digits, min_size=1, max_size=4),
    ).map("".join),
    st.tuples(
        st.text("bcdfghjkmnpqrtvwxz", min_size=2, max_size=5),
        st.text(string.digits, min_size=1, max_size=3),
        st.text("bcdfghjkmnpqrtvwxz", min_size=1, max_size=4),
    ).map("".join),
).filter(lambda v: len(v) >= 6 and len(set(v)) >= 4)


@given(form=st.sampled_from(FORMS), value=weak, end=st.sampled_from(ENDS))
def test_a_weak_password_that_ends_its_clause_is_refused(form: str, value: str, end: str) -> None:
    assert find_secret(form.format(value) + end) == "credential_assignment"


@pytest.mark.parametrize("form", FORMS)
def test_each_form_refuses_hunter2(form: str) -> None:
    assert find_secret(form.format("hunter2")) == "credential_assignment"


@given(value=weak, end=st.sampled_from(ENDS))
def test_after_is_the_same_value_is_refused(value: str, end: str) -> None:
    assert find_secret(f"the staging password is {value}{end}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password is hunter2 and it works",
        "the token is valid for 24 hours",
        "the secret is base64 for transport",
        "the key is ed25519 on all hosts",
        # A tokenizer's encoding, a quantity and its unit.
        "the token is cl100k for GPT-4",
        "the password is 8chars in length",
        "the token for CI: 30days until it expires",
    ],
)
def test_a_value_the_sentence_goes_on_after_or_a_description_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # The value does not end its clause: the sentence goes on after a word (as after "is").
        "the password for prod: hunter2 works until Friday",
        "Grafana login admin:hunter2 is the default for the demo",
        "db password -> hunter2 works on staging only",
        # Joined into a name by -, _, . or /: a model, an architecture, a version, a path.
        "token for the model: x86_64",
        "API key for OpenAI: gpt-4o",
        "K8s secret for TLS: tls-cert-2024",
        "the token for the release: v2.1",
        "secret for the bucket: logs/2024",
        # Descriptions, algorithms and encodings.
        "token for CI: base64",
        "password hashing: argon2id",
        "JWT secret for signing: HS256",
        "the signing key for prod: sha256",
        # Too short, too few distinct characters, no digit or symbol, a plain word, no value at all.
        "the token for CI: v2",
        "the password for prod: aaa111",
        "Password updated: yesterday",
        "the password for prod: see the vault",
        "Password for prod: <password>",
        # A date, a number, an address.
        "Password updated: 2024-01-03",
        "the token for prod: 12345678",
        "credentials ann@example.com:db1.internal",
        # No credential named before the colon.
        "the dashboard for prod: panel42",
        "login page for staging: signin3",
        "chown -R user:staff2 /srv",
        # A list of names before "is", an aside over a description, a word of the sentence after "with".
        "user, host, password, is hunter22", "The token, however, is base64-encoded", "the password, as usual, is in Vault",
        "the token with the most scopes is gho_placeholder", "the password with symbols is stronger",
    ],
)
def test_what_ends_a_clause_but_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["password", "wifi password", "vault passphrase", "API key", "token", "staging secret", "root pw"]),
    value=st.one_of(
        st.text(alphabet=string.ascii_letters + string.digits + "-_.!#%&*+@", min_size=1, max_size=24),
        st.lists(st.sampled_from(["sunflower", "42", "river", "Tr0ub4dor", "v1", "2", "beta", "gpt", "4o", "x86"]), min_size=1, max_size=5).map("-".join),
    ),
    end=st.sampled_from(["", ".", " (rotated monthly)", " for staging"]),
)  # fmt: skip
def test_a_colon_after_the_linking_word_keeps_what_is_would_refuse(name: str, value: str, end: str) -> None:
    # "the wifi password is: ..." gives what "the wifi password is ..." gives; the colon only
    # sets the value off, so a value refused after "is" is refused after "is:" too.
    if find_secret(f"the {name} is {value}{end}") is not None:
        assert find_secret(f"the {name} is: {value}{end}") is not None, (name, value, end)

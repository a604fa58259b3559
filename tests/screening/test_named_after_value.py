"""A value that its sentence names only after it: ``hunter2 is the password``, ``use Tr0ub4dor&3 as
the admin password``. The name comes last, so the rules that read a name and then its value never
saw these; the value is judged as one that ends its clause after "is"."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed

# The sentence around the value: "is" or "was" at a clause's start, or "as" after a verb that gives it.
FORMS = [
    "{} is the password",
    "{} is the staging db password.",
    "Note: {} was the admin password",
    "- {} is the root password",
    "# {} is the Wi-Fi key",
    "the old one expired; {} is the new token",
    "({} is the password for the demo)",
    "use {} as the password",
    "Use `{}` as the password for the staging box.",
    "enter {} as the API key",
    "log in with {} as the passphrase",
    "use admin as the user and {} as the password",
    "Set '{}' as your secret, then restart",
    # the name as an aside in brackets right after the value
    "{} (the staging db password)",
    "- {} (admin password)",
    "Wi-Fi: {} (the guest Wi-Fi key).",
    # the name after a comma or a dash and "that's"
    "{} \u2014 that's the wifi password", "{}, that's the staging db password.", "- {} - that is the root password",
    "{}, That was the admin password",
]


@given(form=st.sampled_from(FORMS), value=st.one_of(weak, mixed))
def test_a_value_named_after_it_is_refused(form: str, value: str) -> None:
    assert find_secret(form.format(value)) == "credential_assignment"


@pytest.mark.parametrize("form", FORMS)
def test_each_form_refuses_hunter2(form: str) -> None:
    assert find_secret(form.format("hunter2")) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # A negation, or no verb that gives the value.
        "hunter2 is not the password",
        "I tried it, that's the password prompt", "ed25519 - that's the key type", "The build failed, that's the token refresh bug",
        "v2.0.1 - that's the token version", "Xk9mQ2vLp7, that's not the password",
        "hunter2 is never the password",
        "the value in row2 is the password",
        "we use bcrypt. hunter22 as the password is bad",
        # The name goes on into another thing, or is no credential.
        "bcrypt12 is the password hash",
        "Argon2id is the password hashing algorithm",
        "PBKDF2 is the password-based key derivation",
        "gpt2 is the tokenizer",
        "Ctrl+Shift+P is the key",
        "x86_64 is the key",
        # Names, descriptions, markup, references and words.
        "ed25519 is the key",
        "use sha256 as the password",
        "cl100k_base is the token encoding",
        "v2.1.3 is the token",
        "<|endoftext|> is the special token",
        "[CLS] is the first token",
        "</s> is the end-of-sequence token",
        "<code>nextToken</code> is a unique pagination token for each page",
        "$DB_PASSWORD is the password",
        "${{ secrets.NPM_TOKEN }} is the token",
        'os.environ["TOKEN"] is the token',
        "DB_PASSWORD is the secret",
        "id_ed25519 is the private key",
        "it is the password",
        "this is the password",
        # an aside in brackets: a negation, a word, code, a name that goes on, a value in mid-clause
        "abc123 (not the password)", "gpt-4o (the model token)", "See README2 (the password section)", "f(x2) (the secret)",
        "token_2024 (the token)", "bcrypt12 (the password hash)",
    ],
)  # fmt: skip
def test_what_stands_before_a_name_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# Lower-case words and digits joined by -, _ or .: names of files, models and versions.
joined = st.lists(st.text(string.ascii_lowercase + string.digits, min_size=2, max_size=6), min_size=2, max_size=3).flatmap(
    lambda parts: st.sampled_from(["-", "_", "."]).map(lambda joiner: joiner.join(parts))
)


@given(value=joined, name=st.sampled_from(["password", "token", "secret", "API key"]))
def test_a_joined_name_before_is_the_is_kept(value: str, name: str) -> None:
    assert find_secret(f"{value} is the {name}") is None


@pytest.mark.parametrize("margin", ["% ", "REM ", "' ", ":: ", ";; ", "  1. ", "> > "])
@pytest.mark.parametrize("form", ["{}hunter22 is the password", "{}Tr0ub4dor&3 (the staging db password)"])
def test_a_value_after_a_comments_or_a_quotes_marks_starts_its_clause(margin: str, form: str) -> None:
    """A note commented out in TeX, a batch file or Visual Basic, or quoted twice, starts its
    clauses after those marks as after ``# ``."""
    assert find_secret(form.format(margin)) == "credential_assignment"

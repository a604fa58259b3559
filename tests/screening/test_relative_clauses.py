"""A credential's name followed by a clause that says which one it is (``the password we agreed on
is hunter2``, ``the token that works is ...``), where it came from or since when (``the password
from the seed script is ...``, ``new password after the reset: ...``), or that it is given again,
names it as surely as one followed by what it is for (``the password for prod is hunter2``); and a value named after it may be followed by when it is
asked for (``use hunter2 as the password when prompted``). The value is judged as it is after
those forms: descriptions, names of things and words are kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed

RELATIVE = [
    "the password we agreed on is {}",
    "The password that works is {}",
    "the password I set is {}.",
    "the password you need is {}",
    "the root password which the vendor gave us is {}",
    "the passphrase they chose is {}, ask before changing it",
    # a longer clause, up to seven words, before "is" or a colon
    "the password we use for all the staging boxes: {}",
    "The password that the vendor gave us for the portal is {}",
    "the API key I generated yesterday for the CI job: {}",
    # where it came from, since or until when, or that it is given once more
    "the password from the seed script is {}",
    "New password after the reset: {}",
    "the DB password since Monday is {}",
    "tmp admin password until Friday: {}",
    "the token during the migration is {}",
    "Here is the staging password again: {}",
    "the admin password now: {}",
]

ASKED = [
    "use {} as the password when prompted",
    "enter {} as the passphrase if asked",
    "type {} as the password whenever sudo asks",
    "give {} as the admin password unless told otherwise",
]


@given(form=st.sampled_from(RELATIVE + ASKED), value=st.one_of(weak, mixed))
def test_a_password_after_a_relative_clause_or_before_when_it_is_asked_is_refused(form: str, value: str) -> None:
    assert find_secret(form.format(value)) == "credential_assignment"


@pytest.mark.parametrize("form", RELATIVE + ASKED)
def test_each_form_refuses_hunter2(form: str) -> None:
    assert find_secret(form.format("hunter2")) == "credential_assignment"


@given(value=mixed)
def test_a_token_after_a_relative_clause_is_refused(value: str) -> None:
    assert find_secret(f"the token that CI uses is {value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # what the credential is like, where it is, or what names it
        "the key that expired is 4 days old", "The token you get is short-lived.", "the password you choose is case-sensitive",
        "the key we use is ed25519", "the token they issue is a JWT", "the password I set is in 1Password",
        "the secret that leaked is rotated now", "the key that we use is RSA-4096", "the token that the API returns is opaque",
        "the password you enter is hashed with bcrypt", "the key that matters is KEY_ID", "the token you need is GITHUB_TOKEN",
        "the password that works is in the vault",
        "the password that we use for everything is in the vault", "the token that the CI job uses for the deploy is expired",
        "the key that the vendor gave us for the portal is RSA-4096",
        "the token from the request is validated", "The key after rotation is stored in KMS", "The secret since v2 is base64-encoded",
        "password from env: DB_PASSWORD", "token from header: X-Auth-Token", "Token now: expired", "password again: same as before",
        "token after refresh: short-lived, 15 min", "Token since last deploy: v2.3.1-rc4", "secret from k8s: db-credentials-v2",
        # no value before the name, or one that is a word
        "use the default as the password when prompted", "press enter as the password when prompted",
        "use it as the password if asked",
    ],
)  # fmt: skip
def test_what_such_sentences_say_of_a_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# The account or the place a credential is for, written as an address, a user at a host or a URL.
@given(
    form=st.sampled_from(
        [
            "Password for {} : {{}}",
            "password for {}: {{}}",
            "the password for {} is {{}}",
            "API key for {} = {{}}",
            "the password for the {} box: {{}}",
            "Password for {}:\n{{}}",
        ]
    ),
    account=st.sampled_from(["ann@example.com", "deploy@10.0.0.5", "admin@staging", "ops+ci@example.org", "https://ci.example.com"]),
    value=mixed,
)
def test_a_credential_for_an_address_or_a_url_names_its_value(form: str, account: str, value: str) -> None:
    assert find_secret(form.format(account).format(value)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Password for ann@example.com: Xk9#mQ2vLp7",
        "the password for ann@example.com is Xk9#mQ2vLp7",
        "password for deploy@10.0.0.5 = Xk9#mQ2vLp7",
        "password for https://ci.example.com is Xk9#mQ2vLp7",
        "the password for the https://ci.example.com box: Xk9#mQ2vLp7",
        "password for https://ci.example.com: Xk9#mQ2vLp7",  # the scheme's own colon is no separator
        "Password for https://ci.example.com/login: Xk9#mQ2vLp7",
    ],
)
def test_passwords_for_an_account_s_address_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password for ann@example.com is required",
        "reset the password for ann@example.com: done",
        "password for ann@example.com: see 1Password",
        "token for https://api.example.com: expired",
        "the password for ann@example.com is in the vault",
        "see https://docs.example.com/password: Xk9#mQ2vLp7",  # no credential's name before the URL
    ],
)
def test_what_a_credential_for_an_address_is_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None

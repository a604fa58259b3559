"""A passphrase of words joined by dashes, as diceware and password managers make them
(``correct-horse-battery-staple``), after a password's or a passphrase's name and a linking word.
A description joined the same way holds a word of grammar or a stand-in (``auto-generated-on-first-boot``),
is shorter (``case-sensitive``, ``read-only``), or follows another credential's name, whose such
value is its name (``the token is github-actions-deploy-bot``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

# Words of a diceware list's kind: plain nouns and adjectives, none a word of grammar.
WORDS = ["plume", "orbit", "canyon", "velvet", "maple", "granite", "otter", "lantern", "cobalt", "meadow", "falcon", "quartz",
         "ember", "willow", "saddle", "pepper", "correct", "horse", "battery", "staple", "brisk", "hollow"]  # fmt: skip
phrases = st.lists(st.sampled_from(WORDS), min_size=4, max_size=8).map("-".join)

FORMS = [
    "my password is {}",
    "the wifi password is {}.",
    "The vault passphrase was changed to {}",
    "the password for the NAS is {} (rotated yearly)",
    "the password we agreed on is {}",
]


@given(form=st.sampled_from(FORMS), phrase=phrases, title=st.booleans())
def test_a_passphrase_of_joined_words_after_a_password_name_is_refused(form: str, phrase: str, title: bool) -> None:
    if title:
        phrase = "-".join(word.capitalize() for word in phrase.split("-"))
    assert find_secret(form.format(phrase)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password is auto-generated-on-first-boot", "the password is case-sensitive-and-long", "the password is write-only",
        "the password field is read-only", "the password is user-defined-per-environment",
        "the password reset flow is self-service-portal-based", "our password manager is one-password-team-edition",
        "the token is github-actions-deploy-bot", "the API key is prod-billing-service-key", "the secret is kept-in-the-vault",
        "the password is correct-horse-battery",
    ],
)  # fmt: skip
def test_descriptions_and_names_joined_by_dashes_are_kept(text: str) -> None:
    assert find_secret(text) is None, text



# The same passphrase where a note gives it with a colon after the linking word, an arrow or a dash.
OTHER_FORMS = [
    "the wifi password is: {}",
    "ssh key passphrase is: {}",
    "Wifi password -> {}",
    "vault passphrase - {}",
    "the NAS password (rotated yearly) -> {}",
]


@given(form=st.sampled_from(OTHER_FORMS), phrase=phrases)
def test_a_passphrase_after_a_colon_an_arrow_or_a_dash_is_refused(form: str, phrase: str) -> None:
    assert find_secret(form.format(phrase)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password is: auto-generated-on-first-boot", "the password field is: read-only",
        "the token is: github-actions-deploy-bot", "the API key is: prod-billing-service-key",
        "the password is: correct-horse-battery", "password reset flow -> self-service-portal-based",
        "password manager - one-password-team-edition", "the token -> github-actions-deploy-bot",
        # right after the name with no mark between, joined words are as often another thing's name
        "the password self-service-reset-portal is down", "password rate-limit-retry-budget for the staging box",
        "wifi password velvet-otter-granite-lantern.",
    ],
)  # fmt: skip
def test_descriptions_after_a_colon_an_arrow_or_a_dash_and_joined_words_after_the_name_alone_are_kept(text: str) -> None:
    assert find_secret(text) is None, text

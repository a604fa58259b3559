"""A user and a password in base64, as a Basic Authorization header and a Docker config's ``auth``
hold them, given after a word of authentication or credentials where no header or key says what
the value is (``the docker auth is dXNlcjo...``, ``use Basic dXNlcjo...``). The value is read back
and judged as a pair; base64 of anything else is kept."""

from __future__ import annotations

import base64
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import mixed

CONTEXTS = [
    "the docker auth is {b}", "the basic auth value is {b}", "use Basic {b} for the registry",
    "registry auth ({b}) expires Friday", "basic {b}", "Credentials {b} (ci only)",
]  # fmt: skip
# After a name and a separator the value is a setting's too, refused under that name's kind
# when the setting's rule judges it so, else as a pair.
NAMED = ["Auth for ghcr: {b}", "AUTH={b} in the CI variables", "the registry creds in base64: {b}"]
users = st.sampled_from(["ann", "ci-bot", "ann@example.com", "svc.deploy", "AWS", "_json_key"])


@given(context=st.sampled_from(CONTEXTS + NAMED), user=users, password=mixed, padded=st.booleans())
def test_a_pair_in_base64_after_a_word_of_authentication_is_refused(context: str, user: str, password: str, padded: bool) -> None:
    encoded = base64.b64encode(f"{user}:{password}".encode()).decode()
    text = context.format(b=encoded if padded else encoded.rstrip("="))
    kinds = ("authorization_header",) if context in CONTEXTS else ("credential_assignment", "authorization_header")
    assert find_secret(text) in kinds, text


@given(
    # (a value after AUTH= or "Auth for ghcr:" is judged as any value after a name and a separator)
    context=st.sampled_from(["the docker auth is {b}", "use Basic {b} for the registry", "registry auth ({b}) expires Friday"]),
    text=st.text(string.ascii_letters + string.digits + " .,/-_", min_size=9, max_size=120).filter(lambda t: ":" not in t),
)
def test_base64_of_text_without_a_pair_is_kept(context: str, text: str) -> None:
    # No colon, so no user and password, whatever else it reads as.
    encoded = base64.b64encode(text.encode()).decode()
    assert find_secret(context.format(b=encoded)) is None


@pytest.mark.parametrize(
    "text",
    [
        # a pair without a password's texture, a URL, JSON, and a run of one byte
        "the docker auth is " + base64.b64encode(b"user:password").decode(),
        "the docker auth is " + base64.b64encode(b"admin:admin").decode(),
        "auth callback at " + base64.b64encode(b"https://example.com/cb2").decode(),
        "the auth header is eyJhbGciOiJIUzI1NiJ9", "auth failed for AAAAAAAAAAAAAAAAAAAA",
        # the same pair's base64 with no word of authentication before it
        "the build id is " + base64.b64encode(b"ann:Hunter22x").decode(),
    ],
)  # fmt: skip
def test_what_is_no_pair_or_no_authentication_is_kept(text: str) -> None:
    assert find_secret(text) is None, text

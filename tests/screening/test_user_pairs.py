"""A user and a password written as a pair in a note about logging in: ``admin:…`` right after the
colon, or ``admin / …`` around a spaced slash, after a word that introduces a login."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import mixed

CONTEXTS = ["Grafana login", "the staging login is", "DB creds:", "credentials", "the admin account is", "sign in with", "Username and password:", "basic auth"]
USERS = ["admin", "app", "root", "ann@example.com", "svc-deploy", "j.doe"]


@given(context=st.sampled_from(CONTEXTS), user=st.sampled_from(USERS), separator=st.sampled_from([":", " / "]), value=mixed, after=st.sampled_from(["", ".", " (rotate monthly)", "\n"]))
def test_a_pair_after_a_login_word_is_refused(context: str, user: str, separator: str, value: str, after: str) -> None:
    assert find_secret(f"{context} {user}{separator}{value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # No word of a login before the pair.
        "chown -R user:Staff2 /srv",
        "Use admin / Tr0ub4dor&3 to log in",
        "read / Write2Access for the user",
        # A login word inside another word, a label's colon followed by a space.
        "User-callable method: `~.Axes.clabel`",
        "user method: Xk9v2LmQ7t",
        # What a colon after a user-like word joins that is no password: a number of an account, a
        # key's path, a URL, an IAM member, a port, an image's tag.
        "the account 123456789012:role/DeployRole2",
        "The cache key for user sessions is user:1234:profile.",
        "credentials supplied. See http:\\/\\/go\\/rpcsp",
        "a Google service account). Example: https://www.googleapis.com/auth",
        "--grantees='user:user1@google.com,group:group1@google.com'",
        "the login service at db2:5432 is slow",
        "the user image python:3.11-slim is pulled",
        # A short password of one or two kinds of character, as after a name with no verb.
        "login admin:hunter2 is the default for the demo",
    ],
)
def test_what_such_a_colon_or_slash_joins_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None

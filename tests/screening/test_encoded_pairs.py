"""A user and a password in base64, as a Basic Authorization header and a Docker config's ``auth``
hold them, given after a word of authentication or credentials where no header or key says what
the value is (``the docker auth is dXNlcjo...``, ``use Basic dXNlcjo...``). The value is read back
and judged as a pair; base64 of anything else is kept."""

from __future__ import annotations

import base64
import json
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


# A Docker config in base64, as a Kubernetes Secret of type dockerconfigjson holds it.
def _docker_config(entry: dict[str, str]) -> str:
    config = {"auths": {"registry.example.com": entry}} if entry else {"auths": {}}
    return base64.b64encode(json.dumps(config, separators=(",", ":")).encode()).decode()


DOCKER_FORMS = [
    ".dockerconfigjson: {c}", "data:\n  .dockerconfigjson: {c}\ntype: kubernetes.io/dockerconfigjson", "echo '{c}' | base64 -d",
    '"data": {{".dockerconfigjson": "{c}"}}',
]  # fmt: skip


@given(
    form=st.sampled_from(DOCKER_FORMS),
    field=st.sampled_from(["password", "auth", "identitytoken"]),
    user=users,
    secret=mixed.filter(lambda v: '"' not in v and "\\" not in v),
)
def test_a_docker_config_in_base64_with_a_credential_is_refused(form: str, field: str, user: str, secret: str) -> None:
    value = base64.b64encode(f"{user}:{secret}".encode()).decode() if field == "auth" else secret
    text = form.format(c=_docker_config({"username": user, field: value}))
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "entry", [{}, {"auth": "${REGISTRY_AUTH}"}, {"username": "deploy"}, {"password": "xxx"}, {"auth": ""}], ids=repr
)
def test_a_docker_config_in_base64_without_a_credential_is_kept(entry: dict[str, str]) -> None:
    assert find_secret(f".dockerconfigjson: {_docker_config(entry)}") is None

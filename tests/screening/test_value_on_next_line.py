"""A credential's name and a colon that end their line, and its value alone on the line below, as
notes write it (``Admin password:`` then ``Tr0ub4dor&3``) and as YAML reads an indented plain
scalar under its key."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import mixed

NAMES = ["password", "Admin password", "DB_PASSWORD", "api_key", "API key", "client_secret", "passwords", "root pwd"]


@given(
    name=st.sampled_from(NAMES),
    gap=st.sampled_from(["", " ", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    indent=st.sampled_from(["", "  ", "    ", "\t"]),
    quote=st.sampled_from(["", '"', "'", "`"]),
    value=mixed,
    after=st.sampled_from(["", "\n", "\nnext line", "  \n"]),
)
def test_a_value_alone_below_its_name_is_refused(
    name: str, gap: str, newline: str, indent: str, quote: str, value: str, after: str
) -> None:
    text = f"{name}:{gap}{newline}{indent}{quote}{value}{quote}{after}"
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Admin password:\nhunter2",
        "password:\n  Tr0ub4dor&3\n",
        "API key:\r\n  'Xk9v2LmQ7tZp4Rw8'",
        # A blank line between (a note's label and its paragraph; YAML reads an indented scalar
        # after it as the key's value too), and a Markdown code block that opens below the name.
        "password:\n\nTr0ub4dor&3",
        "Password:\n\n    Tr0ub4dor&3",
        "**Password:**\n```\nTr0ub4dor&3\n```",
        "API key:\n```text\n3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c\n```",
        "the password for the intern account:\nSummer2024!",
        "The password is:\n`Tr0ub4dor&3`",
    ],
)
def test_examples_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # A description, a word, a stand-in or a reference below the name.
        "Password:\n    The password to use.",
        "Password:\n    required",
        "password:\n  secret",
        "token:\n  ${{ secrets.TOKEN }}",
        "password:\n  $DB_PASSWORD",
        "api_key:\n  <your-api-key>",
        "Args:\n    token:\n        HfFolder.get_token()",
        "Password:\n```\nrequired\n```",
        "Token for CI:\n```yaml\nscopes: repo\n```",
        "Set the token:\n\n```\nexport TOKEN=$(cat token.txt)\n```",
        # YAML: a mapping, a list or a comment below the key.
        "password:\n  secretKeyRef:\n    name: db",
        "password:\n- Tr0ub4dor&3",
        "password:\n# Tr0ub4dor&3",
        # Only a colon ends the name's line so; `=` with nothing after it is an empty value.
        "DB_PASSWORD=\nTr0ub4dor&3",
        # A name that holds no credential.
        "max_tokens:\n  4096x2",
        "sort key:\n  Xk9v2LmQ7tZp4Rw8",
    ],
)
def test_what_is_no_value_below_a_name_is_kept(text: str) -> None:
    assert find_secret(text) is None

"""A bare ``key`` under a section that says what it opens (``"Jwt": { "Key": ... }``, ``jwt:`` then
``key: ...``, ``[jwt]`` then ``key = ...``) is that credential's name: a generated value under it
is refused, as under ``jwt_key``; under ``cache:`` or ``[sort]`` the same value is kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.buffers import digits_only, is_word
from tact_memory.screening.credentials import find_secret
from tact_memory.screening.sections import MAX_SECTION, section_before

from .test_changed_and_key_names import hex_key
from .test_sentences import mixed

FORMS = [
    '{{\n  "{s}": {{\n    "Issuer": "app",\n    "Key": "{v}"\n  }}\n}}',
    '"{s}": {{ "Key": "{v}", "Issuer": "app" }}',
    '{{"{s}": {{"Audience": {{"x": 1}}, "Key": "{v}"}}}}',
    "const config = {{\n  {s}: {{\n    key: '{v}',\n  }},\n}};",
    "{s}:\n  issuer: app\n  # signs the session cookies\n  key: {v}\n",
    '{s}:\n  key: "{v}"  # rotate monthly\n',
    "{s}:\n  - key: {v}\n",
    '[{s}]\nissuer = "app"\nkey = "{v}"\n',
    "[app.{s}]\r\nkey={v}\r\n",
    '[[{s}]]\nkey = "{v}"\n',
]  # fmt: skip
OPENERS = ["Jwt", "JWT", "jwt", "JwtSettings", "jwt_options", "Hmac", "stripe", "Stripe", "api", "Api", "signing", "encryption", "fernet", "webhook"]
OTHERS = ["cache", "Cache", "CacheSettings", "sort", "partition", "routing", "idempotency", "lookup", "primary"]
values = st.one_of(mixed, hex_key)


@given(form=st.sampled_from(FORMS), section=st.sampled_from(OPENERS), value=values)
def test_a_generated_value_of_a_key_under_a_section_that_says_what_it_opens_is_refused(form: str, section: str, value: str) -> None:
    assert find_secret(form.format(s=section, v=value)) == "credential_assignment"


@given(form=st.sampled_from(FORMS), section=st.sampled_from(OTHERS), value=values)
def test_the_same_value_under_a_section_of_another_kind_is_kept(form: str, section: str, value: str) -> None:
    assert find_secret(form.format(s=section, v=value)) is None


@pytest.mark.parametrize(
    "text",
    [
        # Not generated: a description, a reference, a template, a name, a path.
        '{\n  "Jwt": {\n    "Key": "use-a-long-random-string-here"\n  }\n}',
        '{\n  "Jwt": {\n    "Key": "${JWT_KEY}"\n  }\n}',
        'jwt:\n  key: "{{ .Values.jwtKey }}"',
        "jwt:\n  key: jwt-signing-key",
        "jwt:\n  key: /etc/app/jwt.pem",
        # The section that holds the key is another one, closed or opened after the credential's.
        "jwt:\n  issuer: app\nother:\n  key: Xk8mKq2Lz9Ab3Cd5Ef7Gh9Ij1",
        '[jwt]\nissuer = "x"\n[cache]\nkey = "Xk8mKq2Lz9Ab3Cd5Ef7Gh9Ij1"',
        '{"Jwt": {"Issuer": "x"}, "Cache": {"Key": "Xk8mKq2Lz9Ab3Cd5Ef7Gh9Ij1"}}',
        # A key's id or name is no key; a Kubernetes secretKeyRef names a key inside a Secret.
        "api:\n  key_id: Xk8mKq2Lz9Ab3Cd5Ef7Gh9Ij1",
        "secretKeyRef:\n  name: db\n  key: password",
        # A section's name too far above the entry.
        "jwt:\n" + "  padding: 1\n" * (MAX_SECTION // 11 + 1) + "  key: Xk8mKq2Lz9Ab3Cd5Ef7Gh9Ij1",
    ],
)
def test_keys_under_such_sections_that_hold_no_generated_value_are_kept(text: str) -> None:
    assert find_secret(text) is None


names = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_", min_size=2, max_size=12).filter(
    lambda n: not n.lower().endswith(("settings", "options", "config", "configuration", "opts", "section"))
)
siblings = st.lists(st.sampled_from(["a", "bb", "issuer"]), max_size=3)


@given(name=names, before=siblings, depth=st.integers(0, 3))
def test_the_section_found_is_the_innermost_open_one(name: str, before: list[str], depth: int) -> None:
    """Built in each way of nesting, with closed siblings before the entry: the name found is the
    section that holds it, whatever lies before."""
    closed = "".join(f'"{s}": {{"x": {{"y": 1}}}}, ' for s in before)
    json = "{" * depth + f'"{name}": {{ {closed}"Key": 1'
    yaml = "".join(f"{s}:\n  x: 1\n" for s in before) + f"{name}:\n" + "".join(f"  {s}: 2\n" for s in before) + "  key: 1"
    toml = "".join(f"[{s}]\nx = 1\n" for s in before) + f"[{name}]\n" + "".join(f"{s} = 2\n" for s in before) + "key = 1"
    array = "".join(f"[[{s}]]\nx = 1\n" for s in before) + f"[[{name}]]\n" + "key = 1"
    for text in (json, yaml, toml, array):
        buffer = bytearray(text.encode())
        start = buffer.rindex(b"ey") - 1
        found = section_before(buffer, start)
        assert found is not None and buffer[found[0] : found[1]].decode() == name, text


@pytest.mark.parametrize(
    ("text", "name"),
    [("{\n  \"JwtSettings\": {\n    \"Key\": 1", "Jwt"), ("jwt_options:\n  key: 1", "jwt"), ("[app.HmacConfig]\nkey = 1", "Hmac")],
)
def test_a_word_for_settings_at_the_end_of_a_sections_name_is_left_out(text: str, name: str) -> None:
    buffer = bytearray(text.encode())
    found = section_before(buffer, buffer.rindex(b"ey") - 1)
    assert found is not None and buffer[found[0] : found[1]].decode() == name


@given(text=st.binary(max_size=16), word=st.sampled_from([b"key", b"value", b"settings", b"config"]))
def test_the_in_place_comparisons_agree_with_a_copy(text: bytes, word: bytes) -> None:
    """The section and name checks compare the screen's buffer in place (a slice would be a copy
    the screen does not zero); they must answer as the copied comparison would."""
    buffer = bytearray(text)
    assert is_word(buffer, 0, len(buffer), word) == (bytes(buffer).lower() == word and bytes(buffer).isascii())
    assert digits_only(buffer, 0, len(buffer)) == (bytes(buffer).isdigit())
    upper = bytearray(word.upper())
    assert is_word(upper, 0, len(upper), word)

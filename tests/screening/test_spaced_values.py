"""Unquoted words after a credential name and a spaced separator: a value with spaces in it, or prose.

Words to the end of their line after ``password:``, ``PASSWORD =``, ``password =>`` or a pair's
``value:`` are a password when they mix three of lower case, upper case inside a word, digits and
symbols (``Summer 2024!``), and a passphrase when they are four plain words or more in one case
(``correct horse battery staple``). A word of grammar, a stand-in or a reference among them makes
them prose (``see the vault entry``, ``ask Alice``, ``the one from the team vault``) or code
(``Optional[str] = None``), and they are kept.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import SHORT_CREDENTIAL_NAMES, coincides_with_a_kind_name, shares_a_run, verdicts_in_time

SPACED_FORMS = [
    "{n}: {v}", "{n} = {v}", "{n} => {v}", "{n} := {v}", "- {n}: {v}", "  {n}: {v}\n  host: db",
    "{n}: {v}  # rotated in May", "{n} = {v}\r\n", '{{"note": "{n}: {v}\\n"}}', "- name: {n}\n  value: {v}",
    # A note wrapped whole in quotes or backticks.
    '"{n}: {v}"', "'{n}: {v}'", "`{n}: {v}`", '  "{n} = {v}" \n',
]  # fmt: skip

# Words no passphrase generator leaves out and no stand-in or grammar list holds.
PLAIN_WORDS = [
    "correct", "horse", "battery", "staple", "purple", "monkey", "dishwasher", "river", "candle", "orbit",
    "velvet", "granite", "lantern", "falcon", "meadow", "pepper", "walrus", "tundra", "cobalt", "ember",
]  # fmt: skip
passphrases = st.lists(st.sampled_from(PLAIN_WORDS), min_size=4, max_size=8).flatmap(
    lambda words: st.sampled_from([" ".join(words), " ".join(w.capitalize() for w in words)])
)
# A capitalised word, then digits with a symbol: the way a password with a space is chosen. (`&`
# ends a bare value, as in a query string; two distinct characters in four or more, 9999!, are a
# mask, as xxxx is.)
spaced_passwords = st.builds(
    lambda word, number, symbol, rest: f"{word.capitalize()} {number}{symbol}{rest}",
    st.sampled_from(PLAIN_WORDS),
    st.integers(0, 99999).map(str).filter(lambda n: len(n) < 3 or len(set(n)) >= 2),
    st.sampled_from("!?*+@^~%$"),
    st.sampled_from(["", " Falcon", " river"]),
)


@pytest.mark.parametrize(
    "text",
    [
        "password: correct horse battery staple", "passphrase: correct horse battery staple",
        "PASSWORD: Summer 2024!", "DB_PASSWORD = correct horse battery staple", "password => Correct Horse Battery Staple",
        "wifi_passphrase: purple monkey dishwasher river", "password: Tr0ub4dor &3", "password: P@ss w0rd",
        "password: Tr0ub 4 dor!",
        "- name: DB_PASSWORD\n  value: correct horse battery staple",
    ],
)  # fmt: skip
def test_words_that_are_a_password_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@given(name=st.sampled_from(SHORT_CREDENTIAL_NAMES), form=st.sampled_from(SPACED_FORMS), value=passphrases | spaced_passwords)
def test_any_passphrase_or_password_with_spaces_is_refused_without_echo(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    kind = find_secret(text)
    assert kind == "credential_assignment", text
    for word in value.split():
        assume(not coincides_with_a_kind_name(word))
        assert not shares_a_run(kind, word)


# Prose that names where a password is, or what it is; and code.
KEPT = [
    "password: see the vault entry", "password: ask Alice", "password: same as staging", "password: changeme",
    "password: changeme later", "password: the one from the team vault", "password: leave empty for none",
    "password: required", "password: optional, default none", "password: must be at least 12 characters",
    "PWD=/home/me", "password: Summer 2024", "token: Release Train 2024", "password: Min 8 chars",
    "token: Expires 2025-01-01", "password: check 1Password", "token: Unique request identifier",
    "password: correct horse battery", "password: Reset last Friday morning", "password: rotated weekly by cron",
    "password: synced nightly from vault", "api_key: Optional[str] = None", "token: str | None = None",
    "secret: str = Field(min_length=1)", "token = text[start : self.pos_]", "password: The password part of the URL.",
    "api_key: API key for the LangSmith API.", "token = next(t for t in tokens", "password: Optional[HiddenText] = None",
    "token = self.handler.set(handler) if handler is not None else None", "password = part1 + part2",
    "secret = key2 ^ mask3", "password: hunter2 staging",
    "token: see the docs", "Secret: rotate it every 90 days and never paste it into a ticket.",
    'log.info("password: reset link sent again today")', "print('secret: rotated keys stored fine')",
]  # fmt: skip


@pytest.mark.parametrize("text", KEPT)
def test_prose_and_code_after_a_credential_name_are_kept(text: str) -> None:
    assert find_secret(text) is None


GRAMMAR = ["the", "a", "for", "from", "in", "is", "not", "and", "or", "if", "with", "must", "your", "now", "never"]
STAND_INS = ["see", "ask", "same", "none", "required", "optional", "default", "changeme", "env", "prompt"]


@given(
    name=st.sampled_from(SHORT_CREDENTIAL_NAMES),
    words=st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=6),
    grammar=st.sampled_from(GRAMMAR),
    separator=st.sampled_from([":", "=", "\uff1a"]),
)
def test_a_sentence_that_starts_right_after_the_separator_is_kept(name: str, words: list[str], grammar: str, separator: str) -> None:
    # password:must be rotated ..., as NFKC reads a full-width colon's password：must be rotated ...
    text = f"{name}{separator}{grammar} {' '.join(words)}"
    assert find_secret(text) is None, text


@given(
    name=st.sampled_from(SHORT_CREDENTIAL_NAMES),
    form=st.sampled_from(SPACED_FORMS),
    words=st.lists(st.sampled_from(PLAIN_WORDS), min_size=3, max_size=6),
    grammar=st.sampled_from(GRAMMAR),
    at=st.integers(0, 6),
)
def test_words_with_a_word_of_grammar_among_them_are_kept(name: str, form: str, words: list[str], grammar: str, at: int) -> None:
    words.insert(min(at, len(words)), grammar)
    text = form.format(n=name, v=" ".join(words))
    assert find_secret(text) is None, text


@given(
    name=st.sampled_from(SHORT_CREDENTIAL_NAMES),
    form=st.sampled_from(SPACED_FORMS),
    first=st.sampled_from(STAND_INS),
    words=st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=6),
)
def test_words_after_a_stand_in_are_kept(name: str, form: str, first: str, words: list[str]) -> None:
    text = form.format(n=name, v=" ".join([first, *words]))
    assert find_secret(text) is None, text


@given(
    name=st.sampled_from(SHORT_CREDENTIAL_NAMES),
    form=st.sampled_from(SPACED_FORMS),
    words=st.lists(st.sampled_from(PLAIN_WORDS), min_size=2, max_size=3),
    case=st.sampled_from([str.lower, str.capitalize]),
)
def test_fewer_than_four_plain_words_are_kept(name: str, form: str, words: list[str], case: Callable[[str], str]) -> None:
    text = form.format(n=name, v=" ".join(case(w) for w in words))
    assert find_secret(text) is None, text


@given(
    name=st.sampled_from(SHORT_CREDENTIAL_NAMES),
    form=st.sampled_from(SPACED_FORMS),
    words=st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=5),
)
def test_a_sentence_that_starts_with_a_capital_is_kept(name: str, form: str, words: list[str]) -> None:
    # Sentence case: a capital, then lower case.
    text = form.format(n=name, v=" ".join(["Generated", *words]))
    assert find_secret(text) is None, text


@pytest.mark.parametrize("name", ["auth", "AUTH", "pass", "PASS"])
@pytest.mark.parametrize("value", ["correct horse battery staple", "Summer 2024!"])
def test_words_after_a_weak_name_are_not_looked_at(name: str, value: str) -> None:
    # auth: and pass: head modes and steps far more often than they hold a password with spaces
    # ("first pass: collect imports, then ..."), so only a value that looks generated counts there.
    assert find_secret(f"{name}: {value}") is None


ADVERSARIAL: dict[str, str | None] = {
    ("password: " + "ab " * 400)[:1024]: None,  # more words than a value has
    ("password: " + "ab  " * 300)[:1024]: None,
    ("token: " + "x" * 63 + " ") * 14: None,
    "password: a b c d e f g h\n" * 37: None,
    ("password: horse battery staple\n" * 40)[:1024]: None,
    ("token: " + "Ab1! " * 250)[:1024]: None,
}


def test_adversarial_words_get_their_verdicts_without_hanging() -> None:
    assert verdicts_in_time(ADVERSARIAL) == ADVERSARIAL

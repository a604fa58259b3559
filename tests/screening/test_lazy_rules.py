"""Rules are compiled only once content holds their literal lead; that never changes a verdict.

The lead is read from each pattern's text without compiling it. These tests hold it against what
does not depend on that reading: the regex engine's own literal prefix for every rule, strings the
engine itself matches, and a screen that compiles and runs every rule on every text.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening import credentials as secrets
from tact_memory.screening import lead_table, rules
from tact_memory.screening.credentials import find_secret
from tact_memory.screening.leads import literal_lead
from tact_memory.screening.names import CREDENTIAL_NAME, SPACED_KEY_END, SPACED_KEY_NAME, SUFFIXED_CREDENTIAL
from tact_memory.screening.rules import PROVIDERS, RULES, rule_leads, rules_digest
from tact_memory.screening.vocabulary import TOKEN_RUN

from .test_credentials import KEEP, PROSE, REJECT

if sys.version_info >= (3, 11):
    from re import _compiler as sre_compile
    from re import _parser as sre_parse
else:  # pragma: no cover - the same modules under their older names
    import sre_compile
    import sre_parse


def engine_prefix(source: bytes) -> bytes:
    """The literal prefix the regex engine itself finds (the one it uses to skip ahead)."""
    parsed = sre_parse.parse(source, 0)
    prefix, _, _ = sre_compile._get_literal_prefix(parsed, parsed.state.flags)
    return bytes(prefix)


@functools.cache
def _every_rule() -> list[tuple[str, re.Pattern[bytes], Any]]:
    """Every rule compiled once: there are more than :mod:`re`'s cache holds, so compiling each
    in turn on every screen would compile them all again each time."""
    return [(kind, re.compile(source), check) for kind, source, check in RULES]


def eager_kind(text: str) -> str | None:
    """The verdict with every rule compiled and run, whatever the text holds, on each of the
    readings :func:`find_secret` makes (as read, as rendered, without its margin)."""
    for version in secrets._readings(text):
        buffer = bytearray(version, "utf-8", "surrogatepass")
        screen = secrets._Screen()
        for kind, pattern, check in _every_rule():
            for match in pattern.finditer(buffer):
                if check(screen, buffer, match):
                    return kind
    return None


@pytest.mark.parametrize("number", range(len(RULES)))
def test_each_rules_lead_is_a_prefix_the_engine_requires(number: int) -> None:
    _, source, _ = RULES[number]
    assert engine_prefix(source).startswith(rule_leads()[number])


def test_most_rules_have_a_lead() -> None:
    # The saving comes from rules a text cannot reach; a reading that gave up everywhere would be sound and useless.
    assert sum(1 for lead in rule_leads() if lead) >= len(rule_leads()) * 3 // 4


# Pieces of patterns: literals, escapes, classes, groups, look-arounds, quantifiers and alternatives.
PIECES = [
    b"a", b"b", b"k", b"-", b"_", b"\\.", b"\\-", b"\\|", b"\\[", b"\\d", b"\\w", b"[ab]", b"[]a]", b"[^|]",
    b"[|]", b"(?:a|b)", b"(a)", b"(?=a)", b"(?<!b)", b"(?i:k)", b".", b"|", b"*", b"+", b"?", b"{2}", b"{1,3}",
]  # fmt: skip


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8))
def test_a_lead_is_always_sound_and_every_match_starts_with_it(pieces: list[bytes]) -> None:
    source = b"".join(pieces)
    try:
        pattern = re.compile(source)
    except re.error:
        return  # not a pattern (a quantifier with nothing to repeat, ...)
    lead = literal_lead(source)
    assert engine_prefix(source).startswith(lead)
    for haystack in (b"ab-k_.|[ab", b"kk-a.b|", b"_-.|[]ba", lead + b"a" + lead):
        for match in pattern.finditer(haystack):
            assert haystack.startswith(lead, match.start())


@pytest.mark.release_gate
@pytest.mark.parametrize("text", [case.text for case in REJECT + KEEP] + PROSE[:200])
def test_fixtures_get_the_same_verdict_as_a_screen_that_runs_every_rule(text: str) -> None:
    assert find_secret(text) == eager_kind(text)


TEXTS = st.lists(
    st.sampled_from([case.text for case in REJECT + KEEP] + PROSE[:50])
    | st.text(alphabet="abkAK-_=:.|/ \n\"'0123456789", max_size=40),
    min_size=1,
    max_size=3,
).map(" ".join)


@given(TEXTS)
def test_joined_and_random_texts_get_the_same_verdict_as_a_screen_that_runs_every_rule(text: str) -> None:
    assert find_secret(text) == eager_kind(text)


def test_a_fresh_screen_of_ordinary_text_compiles_only_the_rules_it_reaches() -> None:
    screen = secrets._Screen()
    buffer = bytearray(b"The deploy of billing-api runs from the release branch on Fridays.")
    assert screen.first_kind(buffer) is None
    compiled = {number for number, pattern in enumerate(screen.rules) if pattern is not None}
    reached = {number for number, lead in enumerate(rule_leads()) if lead in buffer}
    # A provider's token has a run of sixteen token characters; text without one skips those rules
    # whatever leads it holds ("s." in "Fridays." is a Vault token's).
    assert re.search(TOKEN_RUN, bytes(buffer)) is None
    assert compiled == reached - set(PROVIDERS)
    assert len(compiled) < len(RULES) // 2
    assert "value" not in vars(screen)  # no check ran, so no check's pattern was compiled


# Words most notes or most code hold: a rule led by one alone would be compiled for nearly every
# card a cold process serves. Rules that look for a call or a phrase start with more of it
# ("str(", "app password", "in as").
COMMON_WORDS = [b"as", b"in", b"with", b"using", b"app", b"App", b"str", b"bytes", b"String", b"Secret", b"Output", b"connect", b"Connection"]


def test_no_rule_is_led_by_a_word_most_notes_hold() -> None:
    assert set(rule_leads()) & set(COMMON_WORDS) == set()


# Words most notes or most code hold: a rule led by one alone would be compiled for nearly every
# card a cold process serves. Rules that look for a call or a phrase start with more of it
# ("str(", "Secret(", "app password", "in as"); a credential's own word leads its rules.
COMMON_WORDS = [b"as", b"in", b"with", b"using", b"app", b"App", b"str", b"bytes", b"String", b"Output", b"connect", b"Connection"]


def test_no_rule_is_led_by_a_word_most_notes_hold() -> None:
    assert set(rule_leads()) & set(COMMON_WORDS) == set()


def screen_with_finder() -> secrets._Screen:
    """A fresh screen past its first contents, which looks for every lead in one pass."""
    screen = secrets._Screen()
    screen.screened = secrets._FINDER_AFTER
    return screen


LEAD_PIECES = sorted({lead for lead in rule_leads() if lead})

# Texts made of leads (whole, cut short, run together, overlapping) and bytes between them.
LEADED = st.lists(
    st.sampled_from(LEAD_PIECES).flatmap(lambda lead: st.integers(1, len(lead)).map(lambda cut: lead[:cut]))
    | st.binary(max_size=6)
    | st.sampled_from([case.text.encode() for case in REJECT[:40] + KEEP[:40]]),
    max_size=12,
).map(b"".join)


@given(LEADED)
def test_the_one_pass_finder_reaches_exactly_the_rules_whose_lead_a_text_holds(text: bytes) -> None:
    buffer = bytearray(text)
    expected = [number for number, lead in enumerate(rule_leads()) if lead in buffer]
    assert screen_with_finder().reached(buffer) == expected


def test_a_lead_that_is_a_prefix_of_another_found_at_the_same_place_is_reached() -> None:
    leads = rule_leads()
    nested = [(short, long) for short in LEAD_PIECES for long in LEAD_PIECES if long != short and long.startswith(short)]
    assert nested, "no lead is a prefix of another: the case this test is for does not arise"
    for short, long in nested:
        reached = screen_with_finder().reached(bytearray(long))
        assert reached is not None
        assert {n for n, lead in enumerate(leads) if lead == short} <= set(reached), (short, long)


@pytest.mark.release_gate
def test_fixtures_get_the_same_verdict_from_both_ways_of_finding_leads() -> None:
    texts = [case.text for case in REJECT + KEEP] + PROSE
    by_turn, by_finder = secrets._Screen(), screen_with_finder()
    for text in texts:
        by_turn.screened = 0  # each content looked for lead by lead
        read = bytearray(secrets._as_read(text), "utf-8", "surrogatepass")
        assert by_turn.first_kind(bytearray(read)) == by_finder.first_kind(bytearray(read)), text


def test_a_screen_compiles_the_one_pass_finder_only_after_its_first_contents() -> None:
    screen = secrets._Screen()
    for _ in range(secrets._FINDER_AFTER):
        screen.first_kind(bytearray(b"the deploy runs on Fridays; the token is expired"))
    assert "finder" not in vars(screen)  # a process that screens a few cards never compiles it
    screen.first_kind(bytearray(b"the deploy runs on Fridays; the token is expired"))
    assert "finder" in vars(screen)


# Names as checks meet them: names the long pattern takes (drawn from the pattern itself, and one
# of each family written out), and words and identifiers that are no credential's name.
NAMES = (
    st.from_regex(re.compile(CREDENTIAL_NAME), fullmatch=True)
    | st.sampled_from(
        [b"sonar.login", b"SONAR_LOGIN", b"STRIPE_KEY", b"DB_PWD", b"authToken", b"otp_seed", b"contrase\xc3\xb1a",
         b"mot_de_passe", b"JWT_SECRET_1", b"the", b"repository", b"billing-api", b"monkey", b"login", b"LOGIN_URL"]
    )  # fmt: skip
    | st.text(alphabet="abcdeiklnopstwyAEKLOPSTY_.-0123456789", min_size=1, max_size=24).map(str.encode)
)


@given(NAMES | st.from_regex(re.compile(SUFFIXED_CREDENTIAL), fullmatch=True))
def test_a_name_is_turned_down_early_only_when_the_long_patterns_would_turn_it_down(name: bytes) -> None:
    # The early answer looks for a word every such name holds; when it finds none, the long
    # patterns must find no name either, or a credential's name would go unrecognised.
    buffer = bytearray(b" " + name + b" ")
    screen = secrets._Screen()
    assert screen.names_credential(buffer, 1, len(buffer) - 1) is (re.fullmatch(CREDENTIAL_NAME, name) is not None)
    if re.fullmatch(SUFFIXED_CREDENTIAL, name) is not None:
        assert screen.holds_name_word(buffer, 1, len(buffer) - 1)


@given(st.from_regex(re.compile(SPACED_KEY_NAME), fullmatch=True))
def test_every_spaced_key_name_ends_in_the_word_looked_for_first(name: bytes) -> None:
    last = name.rsplit(b" ", 1)[-1]
    assert re.fullmatch(SPACED_KEY_END, last) is not None


def test_quoted_words_after_ordinary_names_compile_none_of_the_long_name_patterns() -> None:
    # A note with code in backquotes, or a colon, asks whether the word before it names a
    # credential; a cold process serving it should not compile the name patterns of kilobytes.
    screen = secrets._Screen()
    note = b"In the `billing-api` repository, run `make release` from the release branch: then tag it."
    assert screen.first_kind(bytearray(note)) is None
    assert not {"credential_name", "suffixed_credential", "spaced_key_name"} & set(vars(screen))
    assert screen.first_kind(bytearray(b"In the repository, the password `Xk9mQ2vLp!` opens the admin page.")) is not None
    assert "credential_name" in vars(screen)


def test_the_kept_lead_table_names_these_rules_and_holds_the_leads_read_from_them() -> None:
    # When this fails, a rule changed: write the table again (python -m tact_memory.screening.rules).
    assert lead_table.DIGEST == rules_digest()
    assert lead_table.LEADS == tuple(literal_lead(source) for _, source, _ in RULES)
    rule_leads.cache_clear()
    assert rule_leads() is lead_table.LEADS  # a cold process reads none of the patterns


@pytest.mark.parametrize("stale", ["digest", "length"])
def test_a_table_left_behind_by_a_change_to_the_rules_is_not_used(stale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = tuple(b"\x00never" for _ in lead_table.LEADS)  # leads no content holds: every rule skipped
    monkeypatch.setattr(lead_table, "LEADS", wrong if stale == "digest" else wrong[:-1])
    if stale == "digest":
        monkeypatch.setattr(lead_table, "DIGEST", "0" * 32)
    rule_leads.cache_clear()
    try:
        assert rule_leads() == tuple(literal_lead(source) for _, source, _ in RULES)
        assert secrets._Screen().first_kind(bytearray(b"export GITHUB_TOKEN=ghp_" + b"a1B2" * 9)) == "github_token"
    finally:
        rule_leads.cache_clear()


def test_the_digest_changes_with_any_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    before = rules_digest()
    kind, source, check = RULES[0]
    assert rules_digest() == before  # the same rules, the same digest
    for changed in (source + b"x", source[:-1], b""):
        monkeypatch.setattr(rules, "RULES", ((kind, changed, check), *RULES[1:]))
        assert rules_digest() != before
    (kind, first, check), (next_kind, second, next_check) = RULES[:2]
    moved = ((kind, first[:-1], check), (next_kind, first[-1:] + second, next_check))
    monkeypatch.setattr(rules, "RULES", (*moved, *RULES[2:]))
    assert rules_digest() != before  # a byte moved from one rule into the next

"""What counts as imitating the review checkpoint (I5), and the look-alike folding behind it."""

from __future__ import annotations

import functools
import json
import re
import sys
import unicodedata
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tact_memory.eval.scenarios import load_background, load_scenarios
from tact_memory.screening import lookalike
from tact_memory.screening.checkpoint import (
    CHECKPOINT_MARKER,
    CHECKPOINT_TEXT,
    IMITATION_RUN,
    imitates_checkpoint,
)

from ..conftest import fixture_path

MARKER = tomllib.loads(fixture_path("injection", "marker.toml").read_text(encoding="utf-8"))
BODY = CHECKPOINT_TEXT.split("\n", 1)[1]
SENTENCES = re.split(r"(?<=\.) ", BODY)
LONG_SENTENCES = [s for s in SENTENCES if len(lookalike.letters_only(lookalike.fold(s))) >= IMITATION_RUN]

# Every code point Unicode lists as Default_Ignorable_Code_Point that the specification names.
NAMED_IGNORABLES = (
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFEFF, 0xFFA0]
    + [*range(0x180B, 0x1810), *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2070)]
    + [*range(0xFE00, 0xFE10), *range(0xFFF0, 0xFFF9), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B)]
    + [0xE0000, 0xE0001, 0xE0020, 0xE007F, 0xE0100, 0xE01EF, 0xE0FFF]
)
IGNORABLE = st.sampled_from([chr(cp) for cp in NAMED_IGNORABLES])


CONFUSABLES = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_bytes())


def _confusables_of(ch: str) -> list[str]:
    """Characters TS #39 files with ``ch`` (or its capital), per the data package."""
    table = CONFUSABLES
    found = []
    for target in {ch, ch.upper()}:
        for entry in table.get(target, []):
            other = entry["c"].replace("\u200e", "").replace("\u200f", "")
            if len(other) == 1 and unicodedata.category(other)[0] in "LNS":
                found.append(other)
    return sorted(set(found))


def _compatibility_forms(ch: str) -> list[str]:
    """Characters whose NFKC form is ``ch``: full-width, mathematical and circled letters."""
    if not ch.isascii() or not ch.isalnum():
        return [f for f in ("\uff0d", "\ufe63") if ch == "-"]
    forms = [chr(ord(ch) + 0xFEE0)]  # full-width
    if ch.isalpha():
        forms.append(unicodedata.lookup(f"MATHEMATICAL BOLD {'CAPITAL' if ch.isupper() else 'SMALL'} {ch.upper()}"))
        forms.append(unicodedata.lookup(f"CIRCLED LATIN {'CAPITAL' if ch.isupper() else 'SMALL'} LETTER {ch.upper()}"))
    return forms


VARIANTS = {ch: [ch, ch.upper(), *_compatibility_forms(ch), *_confusables_of(ch)] for ch in set(CHECKPOINT_TEXT)}
SPACES = ["\u00a0", "\u2002", "\u2009", "\u202f", "\u3000", "\u2800", "\u3164", "\u1680", "\n", " \t "]
BRACKETS = [("(", ")"), ("{", "}"), ("<", ">"), ("\u27e6", "\u27e7"), ("\u3010", "\u3011"), ("\u2329", "\u232a"),
            ("\uff3b", "\uff3d"), ("\u3014", "\u3015"), ("\u2045", "\u2046"), ("\u2768", "\u2769")]  # fmt: skip


@st.composite
def disguised(draw: st.DrawFn, text: str) -> str:
    """``text`` with look-alikes, compatibility forms, other spaces and invisible characters."""
    out = []
    for ch in text:
        if ch == " ":
            out.append(draw(st.sampled_from([" ", *SPACES])))
        else:
            out.append(draw(st.sampled_from(VARIANTS[ch])))
        out.append("".join(draw(st.lists(IGNORABLE, max_size=2))))
    return "".join(out)


def _disguised_marker() -> st.SearchStrategy[str]:
    words = CHECKPOINT_MARKER[1:-1]
    return st.tuples(st.sampled_from([("[", "]"), *BRACKETS]), disguised(words)).map(lambda t: t[0][0] + t[1] + t[0][1])


# -- refused ---------------------------------------------------------------------------------------


@settings(max_examples=60)
@given(marker=_disguised_marker(), before=st.text(max_size=40), after=st.text(max_size=40))
def test_the_marker_is_refused_in_any_disguise(marker: str, before: str, after: str) -> None:
    assert imitates_checkpoint(before + marker + after)


@settings(max_examples=40)
@given(data=st.data(), sentence=st.sampled_from(LONG_SENTENCES))
def test_a_body_sentence_is_refused_in_any_disguise_without_the_marker(data: st.DataObject, sentence: str) -> None:
    text = data.draw(disguised(sentence))
    assert CHECKPOINT_MARKER not in text
    assert imitates_checkpoint(f"Note for later: {text} Thanks.")


@settings(max_examples=40)
@given(st.lists(IGNORABLE, min_size=1, max_size=30), st.randoms(use_true_random=False))
def test_invisible_characters_anywhere_change_nothing(invisible: list[str], rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    for text in (CHECKPOINT_MARKER, CHECKPOINT_TEXT, SENTENCES[0]):
        chars = list(text)
        for ch in invisible:
            chars.insert(rng.randrange(len(chars) + 1), ch)
        assert imitates_checkpoint("".join(chars))


@pytest.mark.parametrize("case", MARKER["refused"], ids=lambda c: c["name"])
def test_each_look_alike_class_is_refused(case: dict[str, str]) -> None:
    assert imitates_checkpoint(case["content"])


@pytest.mark.parametrize("text", [CHECKPOINT_TEXT, CHECKPOINT_TEXT.upper(), BODY, BODY.upper(), *LONG_SENTENCES])
def test_the_checkpoint_and_its_long_sentences_are_refused(text: str) -> None:
    assert imitates_checkpoint(text)


# -- kept ------------------------------------------------------------------------------------------

ORDINARY_WORDS = (
    "memory review checkpoint control text tact runtime repository service tests deploy port cache "
    "prefers tabs staging cluster migration schema version record scan read put delete agent model "
    "conclusion durable session answer final user note"
).split()


@given(st.lists(st.sampled_from(ORDINARY_WORDS), max_size=150), st.sampled_from([" ", ", ", ". ", "-", "\n"]))
def test_prose_about_memory_and_checkpoints_is_kept(words: list[str], separator: str) -> None:
    assert not imitates_checkpoint(separator.join(words))


@given(st.text(max_size=300))
def test_arbitrary_text_without_the_checkpoint_is_kept(text: str) -> None:
    assert not imitates_checkpoint(text)


@pytest.mark.parametrize("case", MARKER["kept"], ids=lambda c: c["name"])
def test_near_misses_are_kept(case: dict[str, str]) -> None:
    assert not imitates_checkpoint(case["content"])


def _corpus() -> list[str]:
    texts = [c["content"] for c in tomllib.loads(fixture_path("injection", "records.toml").read_text("utf-8"))["case"]]
    texts += [p.read_text(encoding="utf-8") for p in sorted(fixture_path("injection", "repository").iterdir())]
    texts += [m["content"] for m in tomllib.loads(fixture_path("retrieval", "memories.toml").read_text("utf-8"))["memory"]]
    texts += [c["text"] for c in tomllib.loads(fixture_path("secrets", "keep.toml").read_text("utf-8"))["case"]]
    texts += [f.content for s in load_scenarios() for f in s.facts if f.store]
    background = [record.content for record in load_background()]
    assert background, "the eval background corpus was not found"
    return texts + background


def test_every_corpus_text_is_kept() -> None:
    """The injection corpus, the retrieval and secret keep sets, and every memory the eval scenarios
    expect to be stored are ordinary content."""
    corpus = _corpus()
    assert len(corpus) > 150
    assert [t[:60] for t in corpus if imitates_checkpoint(t)] == []


# -- the folding -----------------------------------------------------------------------------------


@pytest.mark.parametrize("cp", NAMED_IGNORABLES, ids=hex)
def test_named_default_ignorables_are_recognised_and_folded_away(cp: int) -> None:
    assert lookalike.is_default_ignorable(chr(cp))
    assert lookalike.fold(f"a{chr(cp)}b") == "ab"


@pytest.mark.parametrize("ch", [" ", "a", "\u0600", "\u06dd", "\ufff9", "\U00013430", "\u2028", "\u00a0", "\u200a"])
def test_visible_and_white_space_characters_are_not_default_ignorable(ch: str) -> None:
    assert not lookalike.is_default_ignorable(ch)


def test_every_format_character_but_the_listed_exceptions_is_default_ignorable() -> None:
    exceptions = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
                  *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440)}  # fmt: skip
    for cp in range(0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) == "Cf":
            assert lookalike.is_default_ignorable(ch) is (cp not in exceptions), hex(cp)


@pytest.mark.parametrize(
    ("look_alike", "plain"),
    [
        ("\u0430", "a"),  # Cyrillic a
        ("\u03bf", "o"),  # Greek omicron
        ("\u0455", "s"),  # Cyrillic dze
        ("1", "l"),
        ("|", "l"),
        ("I", "l"),
        ("rn", "m"),
        ("\u2212", "-"),  # minus sign
        ("\u2014", "-"),  # em dash
        ("\u3014", "["),
        ("\u2768", "("),
        ("\uff54", "t"),  # full-width
        ("\U0001d42d", "t"),  # mathematical bold
        ("\u1d1b", "t"),  # small capital
        ("\u2800", " "),
        ("\u3164", " "),
    ],
)
def test_look_alikes_fold_to_the_same_skeleton(look_alike: str, plain: str) -> None:
    assert lookalike.fold(f"x{look_alike}y") == lookalike.fold(f"x{plain}y")


def test_ascii_and_general_paths_agree() -> None:
    """ASCII text takes a bytes shortcut; it must fold exactly like the per-character table."""
    sample = "".join(chr(cp) for cp in range(32, 127)) + " Memory MIDDLE 10% [x] <y>"
    folding = lookalike._Folding()
    assert folding.fold(sample) == "".join(folding[ord(ch)] for ch in sample)


def test_loading_the_confusable_data_is_deferred() -> None:
    import subprocess

    code = "import json, sys, tact_memory.store.sqlite, tact_memory.screening.checkpoint; print(json.dumps(sorted(sys.modules)))"
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
    assert "confusable_homoglyphs" not in loaded and "tact_memory.screening.lookalike" not in loaded


def test_the_kept_ascii_skeletons_are_what_the_confusable_data_says() -> None:
    derived = lookalike._Folding()
    for cp in range(128):
        ch = chr(cp)
        expected = "" if cp in lookalike.ASCII_DROPPED else lookalike.ASCII_SKELETONS.get(ch, ch)
        assert derived[cp] == expected, repr(ch)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_folds_alike_with_and_without_the_data(text: str) -> None:
    assert lookalike.fold(text) == _folding().fold(text)


@functools.cache
def _folding() -> lookalike._Folding:
    return lookalike._Folding()

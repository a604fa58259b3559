"""Tests for tact_memory.screening.display: stored text shown escaped, never acted on by a terminal."""

from __future__ import annotations

import codecs
import json
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.display import json_safe, one_line, terminal_safe


def acts_on_a_terminal(ch: str) -> bool:
    """The characters a terminal may act on rather than show, defined apart from the code."""
    category = unicodedata.category(ch)
    return (
        (category == "Cc" and ch not in "\t\n")
        or category in ("Zl", "Zp", "Cs")
        or unicodedata.bidirectional(ch) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
        or ch in "\u200e\u200f\u061c"  # LRM, RLM, ALM
    )


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("plain text, kept", "plain text, kept"),
        ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),
        ("red \x1b[31malert\x1b[0m", "red \\x1b[31malert\\x1b[0m"),
        ("title \x1b]0;owned\x07", "title \\x1b]0;owned\\x07"),
        ("safe\rEVIL", "safe\\rEVIL"),
        ("csi \x9b2J nul \x00 del \x7f", "csi \\x9b2J nul \\x00 del \\x7f"),
        ("run \u202etxt.exe\u202c now", "run \\u202etxt.exe\\u202c now"),
        ("\u2067isolate\u2069 \u200emark\u200f \u061c", "\\u2067isolate\\u2069 \\u200emark\\u200f \\u061c"),
        ("line\u2028sep\u2029", "line\\u2028sep\\u2029"),
        ("lone \ud800 surrogate", "lone \\ud800 surrogate"),
        ("C:\\Users\\me and café 日本", "C:\\Users\\me and café 日本"),
    ],
)
def test_examples(stored: str, shown: str) -> None:
    assert terminal_safe(stored) == shown


@given(st.text())
def test_nothing_a_terminal_acts_on_survives(text: str) -> None:
    shown = terminal_safe(text)
    assert not any(acts_on_a_terminal(ch) for ch in shown)
    shown.encode("utf-8")  # printable: no lone surrogate left


@given(st.text())
def test_safe_text_is_unchanged_and_escaping_is_idempotent(text: str) -> None:
    shown = terminal_safe(text)
    assert terminal_safe(shown) == shown
    if not any(acts_on_a_terminal(ch) for ch in text):
        assert shown == text


@given(st.text())
def test_each_unsafe_character_becomes_its_python_escape(text: str) -> None:
    assert terminal_safe(text) == "".join(terminal_safe(ch) for ch in text)
    for ch in set(text):
        if acts_on_a_terminal(ch):
            escape = terminal_safe(ch)
            assert re.fullmatch(r"\\(r|x[0-9a-f]{2}|u[0-9a-f]{4})", escape), escape
            assert codecs.decode(escape, "unicode_escape") == ch


@given(st.text())
def test_one_line_is_one_safe_line(text: str) -> None:
    line = one_line(text)
    assert "\n" not in line and "\t" not in line
    assert line == line.strip()
    assert "  " not in line
    assert not any(acts_on_a_terminal(ch) for ch in line)


def test_one_line_keeps_a_carriage_return_visible() -> None:
    assert one_line("first\r\n  second\x1b[2K") == "first\\r second\\x1b[2K"


@given(st.recursive(st.text() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=6))
def test_json_made_safe_reads_back_the_same_and_holds_nothing_a_terminal_acts_on(value: object) -> None:
    text = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value
    assert not any(acts_on_a_terminal(ch) for ch in text)
    text.encode("utf-8")  # printable: no lone surrogate left


def test_json_keeps_other_text_as_it_is() -> None:
    assert json_safe('{"a": "caf\u00e9 \u65e5\u672c", "b": "run \u202etxt"}') == '{"a": "café 日本", "b": "run \\u202etxt"}'

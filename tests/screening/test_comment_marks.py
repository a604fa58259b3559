"""Every mark of :mod:`tact_memory.screening.comment_marks` is known to each reading that looks
for a comment's or a quote's marks: a run of lines loses it as its margin, a line's start is found
behind it, and a key's armour line reaches its body over it as written. A mark that one reading
knows and another does not is how a key behind ``-- `` was once kept."""

from __future__ import annotations

import pytest

from tact_memory.screening.assignments import item_start
from tact_memory.screening.comment_marks import SPACED, SYMBOLS, WORDS
from tact_memory.screening.credentials import _as_read, _screen, find_secret
from tact_memory.screening.margins import unmargined

from .test_credentials import REJECT

MARKS = [*SYMBOLS, *SPACED, *WORDS, *(word.lower() for word in WORDS), *("@" + word for word in WORDS)]
KEY_FIXTURES = [case for case in REJECT if case.kind in ("private_key", "openvpn_key")]


def test_the_marks_are_those_of_the_languages_notes_quote() -> None:
    # Written out here, so a mark dropped from the module is a failure, not a smaller test.
    assert set(MARKS) >= {"#", "//", "///", "--", ";", "%", "!", "*", ">", "::", "'", '"', ":", "REM", "rem", "@REM"}


@pytest.mark.parametrize("mark", MARKS)
def test_a_run_of_lines_loses_the_mark_as_its_margin(mark: str) -> None:
    assert unmargined(f"{mark} db:\n{mark}   password: |\n{mark}     value") == "db:\n  password: |\n    value"


@pytest.mark.parametrize("mark", MARKS)
def test_a_statement_behind_the_mark_starts_its_line(mark: str) -> None:
    for text in (f"{mark} user, password = a, b", f"x\n{mark} user, password = a, b"):
        buffer = bytearray(text.encode())
        assert item_start(buffer, text.index("user"), code=True) == text.index(mark), text


@pytest.mark.parametrize("mark", MARKS)
def test_a_key_behind_the_mark_on_each_line_is_found_as_written(mark: str) -> None:
    """Read once, as a reader sees it written: not without its margin (which would find it too)."""
    missed = []
    for case in KEY_FIXTURES:
        marked = "\n".join(f"{mark} {line}" if line else line for line in case.text.split("\n"))
        if _screen().first_kind(bytearray(_as_read(marked).encode())) != case.kind:
            missed.append(marked)
    assert missed == []


@pytest.mark.parametrize("mark", ["REMOVE", "remark", "x:", "'s", '"a'])
def test_a_word_or_a_quote_that_starts_text_is_no_mark(mark: str) -> None:
    assert unmargined(f"{mark} one\n{mark} two") is None


@pytest.mark.parametrize("mark", MARKS)
def test_a_line_a_quote_wraps_behind_the_mark_is_read_whole(mark: str) -> None:
    assert find_secret(f'{mark} "password: correct horse battery fakestaple"') == "credential_assignment"

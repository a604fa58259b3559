"""The record filter that the browser's filter line and ``list --grep`` share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tact_memory.records import MemoryRecord, RecordKey, matches


def record(content: str, id_: int = 7) -> MemoryRecord:
    return MemoryRecord(
        key=RecordKey(id_, 1),
        content=content,
        created_at_ms=0,
        updated_at_ms=0,
        scan_count=0,
        last_scanned_at_ms=None,
        read_count=0,
        last_read_at_ms=None,
        probation_until_ms=None,
    )


WORDS = st.lists(st.text(alphabet="abcXYZ#7", min_size=1, max_size=4), max_size=4)


def test_every_word_in_any_order_and_any_case() -> None:
    note = record("In commonware, release tags use vX.Y.Z.")
    assert matches(note, "TAGS release") and matches(note, "release   tags") and matches(note, "")
    assert not matches(note, "tags push")
    assert matches(note, "#7 tags") and matches(note, "7") and not matches(note, "#8")
    assert not matches(note, "##7")


@given(content=st.text(max_size=30), words=WORDS, id_=st.integers(1, 99))
def test_a_query_matches_exactly_when_each_of_its_words_does(content: str, words: list[str], id_: int) -> None:
    note = record(content, id_)
    together = matches(note, " ".join(words))
    assert together == all(matches(note, word) for word in words)
    assert together == matches(note, " ".join(reversed(words)))
    assert together == matches(note, " ".join(words).upper()) == matches(note, " ".join(words).lower())

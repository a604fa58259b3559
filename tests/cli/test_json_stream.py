"""Splitting stdin into JSON values for ``tact-memory tool``: several lines, several values, bad input."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tact_memory.cli.json_stream import split_values

SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8
)


def lines_of(text: str) -> list[bytes]:
    return text.encode("utf-8").splitlines(keepends=True)


@given(st.lists(st.tuples(VALUES, st.sampled_from([None, 2, 4]), st.sampled_from(["\n", "\n\n", " "]))))
def test_every_value_comes_back_whole_however_it_is_printed(items: list[tuple[Any, int | None, str]]) -> None:
    text = "".join(json.dumps(value, indent=indent) + sep for value, indent, sep in items)
    found = list(split_values(lines_of(text)))
    assert [json.loads(piece) for piece in found] == [value for value, _, _ in items]


def test_a_value_is_handed_on_as_soon_as_its_last_line_arrives() -> None:
    seen: list[str | bytes] = []
    feed = iter([b'{"operation": "scan",\n', b' "query": "x"}\n', b'{"operation"'])
    for value in split_values(feed):
        seen.append(value)
        break  # the third line has not been read yet
    assert seen == ['{"operation": "scan",\n "query": "x"}']
    assert next(feed) == b'{"operation"'


def test_bad_input_is_one_piece_and_the_stream_goes_on() -> None:
    text = 'not json\n{"a": 1} trailing\n{"b": 1,\n "c": 2\n{"d": 3}\n"unfinished\n'
    pieces = ["not json", '{"a": 1}', "trailing", '{"b": 1,\n "c": 2', '{"d": 3}', '"unfinished']
    assert list(split_values(lines_of(text))) == pieces  # a lost closing brace costs only its own call


def test_a_line_that_is_not_utf8_is_handed_on_as_bytes() -> None:
    assert list(split_values([b'{"a": 1}\n', b"\xff\xfe\n", b'{"b": 2}\n'])) == ['{"a": 1}', b"\xff\xfe", '{"b": 2}']


def test_an_unfinished_value_at_the_end_is_handed_on() -> None:
    assert list(split_values(lines_of('{"a":\n  [1, 2'))) == ['{"a":\n  [1, 2']

"""Splitting stdin into JSON values for ``tact-memory tool``: several lines, several values, bad input,
values the decoder cannot take, and work that grows with the input, not its square."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.cli import json_stream
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


# --- hostile values, and the work done ----------------------------------------------------------


def test_a_value_the_decoder_cannot_take_is_one_piece_and_the_stream_goes_on() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    digits = '{"operation": "read", "ids": [1' + "0" * 5_000 + "]}"
    text = "\n".join(
        ["1", deep, "2", digits, "3", "[" * 3_000, "]" * 3_000, "4", "[" * 3_000 + "x", "5", "{" + '"a": ' * 2, "6", ""]
    )
    pieces = list(split_values(lines_of(text)))
    assert pieces == ["1", deep, "2", digits, "3", "[" * 3_000 + "\n" + "]" * 3_000, "4", "[" * 3_000 + "x", "5", '{"a": "a":', "6"]


class CountingDecoder:
    """The module's decoder, counting the calls and the characters each was given to read."""

    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0

    def raw_decode(self, s: str, idx: int = 0) -> tuple[Any, int]:
        self.calls += 1
        self.chars += len(s) - idx
        return json.JSONDecoder().raw_decode(s, idx)


def work(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """(decoder calls, characters decoded, characters scanned) to split ``text``."""
    decoder = CountingDecoder()
    scanned = 0
    feed = json_stream._Scanner.feed

    def counting_feed(self: json_stream._Scanner, chunk: str, start: int = 0) -> bool:
        nonlocal scanned
        scanned += len(chunk) - start
        return feed(self, chunk, start)

    with monkeypatch.context() as patch:
        patch.setattr(json_stream, "_DECODER", decoder)
        patch.setattr(json_stream._Scanner, "feed", counting_feed)
        assert [json.loads(piece) for piece in split_values(lines_of(text))] == [json.loads(text)]
    return decoder.calls, decoder.chars, scanned


@pytest.mark.parametrize("shape", ["flat", "nested"])
def test_a_value_over_many_lines_is_read_a_bounded_number_of_times(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-reading the unfinished value on each new line would make the work grow with the square
    of its lines: here four times the lines must cost at most about four times the work."""

    def call(n: int) -> str:
        items: list[Any] = list(range(n)) if shape == "flat" else [{"a": [i, {"b": "c"}]} for i in range(n)]
        return json.dumps({"operation": "read", "ids": items}, indent=2)

    small, large = call(500), call(2_000)
    calls_small, decoded_small, scanned_small = work(small, monkeypatch)
    calls_large, decoded_large, scanned_large = work(large, monkeypatch)
    assert calls_small == calls_large == 2  # its first line, then the line that completes it
    assert decoded_small <= 2 * len(small) and decoded_large <= 2 * len(large)
    assert scanned_small <= 2 * len(small) and scanned_large <= 2 * len(large)
    assert len(large) > 3.5 * len(small)


# --- properties ---------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=16,
)
INDENTS = st.sampled_from([None, 0, 1, 2, "\t"])
SEPARATORS = st.sampled_from(["\n", " ", "\t", "\r\n", "\n\n", " \n  "])
PRINTED = st.tuples(JSON_VALUES, INDENTS, st.booleans(), SEPARATORS)


@given(st.lists(PRINTED, max_size=8))
def test_any_concatenation_of_values_comes_back_value_by_value(items: list[tuple[Any, int | str | None, bool, str]]) -> None:
    text = "".join(json.dumps(value, indent=indent, ensure_ascii=ascii_) + sep for value, indent, ascii_, sep in items)
    found = list(split_values(io.BytesIO(text.encode("utf-8"))))  # lines as a binary file gives them
    assert [json.loads(piece) for piece in found] == [value for value, _, _, _ in items]


_REFERENCE_DECODER = json.JSONDecoder()


def reference_split(lines: Iterable[bytes]) -> Iterator[str | bytes]:
    """What the splitter did before it read each line once: decode the whole unfinished value again
    on every line. Slow, but plainly right; the splitter must hand on exactly the same pieces."""
    pending = ""
    for raw in lines:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield (pending.strip().encode("utf-8") + b"\n" + raw.strip()).strip()
            pending = ""
            continue
        pending += line
        while pending.strip():
            text = pending.lstrip()
            try:
                _, end = _REFERENCE_DECODER.raw_decode(text)
            except json.JSONDecodeError as exc:
                if exc.pos >= len(text.rstrip()):
                    pending = text
                    break
                line_start = text.rfind("\n", 0, exc.pos) + 1
                if line_start > 0 and not text[line_start : exc.pos].strip():
                    end = line_start
                else:
                    line_end = text.find("\n", exc.pos)
                    end = len(text) if line_end < 0 else line_end + 1
            yield text[:end].strip()
            pending = text[end:]
        else:
            pending = ""
    if pending.strip():
        yield pending.strip()


FRAGMENTS = st.one_of(
    st.builds(lambda value, indent: json.dumps(value, indent=indent), JSON_VALUES, st.sampled_from([None, 2])),
    st.sampled_from(
        ["{", "}", "[", "]", ",", ":", '"', "\\", "\n", " ", "\t", "\r", "\x0c", "\x1f", "\x00", "\xa0", "\u2028",
         "tru", "true", "nul", "NaN", "-Infinity", "-", "1.", "1e+", "01", ".5", '"a\\q"', '"\\u12"', '"x', '{"a"',
         '{"a":', '{"a": 1', "[1,", "[1,]", '{"a": 1,}', "\x0c\n", " \n", "é"]
    ),  # fmt: skip
    st.text(max_size=4),
)


@given(st.lists(FRAGMENTS, max_size=20), st.booleans())
def test_any_stream_is_split_as_decoding_it_all_again_on_every_line_would(fragments: list[str], by_line: bool) -> None:
    data = "".join(fragments).encode("utf-8", "surrogatepass")
    # As a binary file gives the lines, or in pieces that end anywhere (as any iterable may).
    lines = list(io.BytesIO(data)) if by_line else [data[i : i + 7] for i in range(0, len(data), 7)]
    assert list(split_values(lines)) == list(reference_split(lines))

"""One way to write numbers in every evaluation output: summary, report, charts and ``--tune``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tact_memory.eval.formatting import number, p_value, text_table


def test_numbers_are_written_one_way() -> None:
    assert [number(v) for v in (361, 4_194_304, 361.0, 361.226, 1234.5, 0.875, 1.0, 0.0, None, True, "scan")] == [
        "361", "4,194,304", "361", "361", "1,234", "0.875", "1.000", "0.000", "n/a", "yes", "scan",
    ]  # fmt: skip
    assert number(float("nan")) == "n/a"


def test_p_values_have_one_format() -> None:
    assert [p_value(v) for v in (0.0000153, 0.001, 0.0042, 0.5, 1.0, None)] == [
        "p < 0.001", "p = 0.001", "p = 0.004", "p = 0.500", "p = 1.000", "p n/a",
    ]  # fmt: skip


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_integers_keep_every_digit_with_separators(value: int) -> None:
    written = number(value)
    assert int(written.replace(",", "")) == value and "." not in written
    assert all(len(group) == 3 for group in written.lstrip("-").split(",")[1:])


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_floats_are_whole_from_100_and_three_decimals_below(value: float) -> None:
    written = number(value)
    if abs(value) >= 100:
        assert "." not in written and abs(float(written.replace(",", "")) - value) <= 0.5
    else:
        assert len(written.split(".")[1]) == 3


def test_a_text_table_aligns_text_left_and_numbers_right() -> None:
    lines = text_table(("name", "count", "share"), [("scan", 1024, 0.5), ("delete", 7, None)])
    assert lines == [
        "name    count  share",
        "------  -----  -----",
        "scan    1,024  0.500",
        "delete      7    n/a",
    ]

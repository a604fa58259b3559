"""The list's content cell is bounded in cells and in code points whatever the content holds, and
plain text is shown as it is (cut with an ellipsis when it does not fit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rich.cells import cell_len

from tact_memory.browser.app import RecordTable
from tact_memory.browser.preview import CODE_POINTS_PER_CELL, preview
from tact_memory.screening.display import one_line, terminal_safe
from tact_memory.store.sqlite import MemoryStore

from .test_app import SIZE, anyio_backend, db_of, home_config, make_app, settled  # noqa: F401  (fixtures)

TROUBLE = [
    "e", " ", "\u0301", "\u0336", "\u200d", "\u200b", "\ufe0f", "\u20e3", "中", "ｱ", "👨", "🏽", "🏴",
    "\U000e0067", "\U000e007f", "\U0001f1fa", "\u202e", "\u2066", "\x1b", "\r", "\x00", "\x9b", "\u2028",
    "\ud800", "\u0e33", "\u1100", "\u1161", "\ufeff",
]  # fmt: skip
"""Characters that take no cell, two cells, join, reorder or control: drawn in long runs."""

texts = st.one_of(
    st.text(st.characters(exclude_categories=[]), max_size=400),
    st.lists(st.sampled_from(TROUBLE), max_size=1200).map("".join),
)


@given(texts, st.integers(min_value=1, max_value=200))
@example("e" + "\u0301" * 1023, 12)
@example("\u200d" * 1024, 1)
@example("👨\u200d👩\u200d👧\u200d👦" * 100, 2)
def test_a_preview_is_bounded_in_cells_and_code_points_and_safe(text: str, width: int) -> None:
    shown = preview(text, width)
    assert cell_len(shown) <= width
    assert len(shown) <= CODE_POINTS_PER_CELL * width
    assert terminal_safe(shown) == shown  # no control, bidirectional or lone surrogate left


@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=300), st.integers(min_value=1, max_value=120))
def test_plain_text_is_shown_as_it_is_or_cut_with_an_ellipsis(text: str, width: int) -> None:
    line = one_line(text)
    shown = preview(text, width)
    if len(line) <= width:
        assert shown == line
    else:
        assert shown == line[: width - 1] + "…"


def test_a_character_under_a_thousand_marks_is_one_replacement_cell() -> None:
    assert preview("e" + "\u0301" * 1000 + " then words", 40) == "\ufffd then words"
    assert preview("cafe\u0301 \u4e2d\u6587 👩\u200d💻", 40) == "cafe\u0301 \u4e2d\u6587 👩\u200d💻"  # real text is kept whole


def test_a_joined_sequence_too_long_to_draw_is_one_replacement_cell_however_long() -> None:
    assert preview("👨\u200d" * 146 + "👧 then words", 40) == "\ufffd then words"


def test_a_cluster_that_starts_without_a_cell_is_a_replacement_cell() -> None:
    assert preview("\u200d\u200d0 then words", 40) == "\ufffd then words"


@pytest.mark.anyio
async def test_the_list_cell_of_a_kibibyte_of_combining_marks_is_small(home_config: Path) -> None:
    with MemoryStore(db_of(home_config)) as store:
        store.put("e" + "\u0301" * 511)  # 1,023 bytes: within the record bound
        store.put("中" * 341)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        table = app.query_one(RecordTable)
        width = list(table.columns.values())[-1].content_width
        for row in range(table.row_count):
            cell = str(table.get_row_at(row)[-1])
            assert cell_len(cell) <= width and len(cell) <= CODE_POINTS_PER_CELL * width
        assert {str(table.get_row_at(row)[-1]) for row in range(2)} >= {"\ufffd"}

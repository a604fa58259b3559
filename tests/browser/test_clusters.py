"""A record shown in full (the detail view and the delete confirmation) keeps all of its text and
its lines, shows controls as escapes, and stacks no more than one short cluster on a cell, however
the content was written; laid out by Textual, it still wraps to the width."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rich.cells import get_character_cell_size
from rich.text import Text
from textual.content import Content

from tact_memory.browser.clusters import MAX_CLUSTER, REPLACEMENT, in_full
from tact_memory.browser.screens import ConfirmDeleteScreen, DetailScreen
from tact_memory.retrieval.lexer import utf8_size
from tact_memory.screening.display import terminal_safe

from .test_app import SIZE, anyio_backend, db_of, home_config, make_app, press, seed, settled, text  # noqa: F401  (fixtures)
from .test_preview import TROUBLE, texts

HOSTILE = "\n".join([
    "stacked: e" + "\u0301" * 150 + " end",
    "family: " + "👨\u200d" * 12 + "👧, kept: 👩\u200d💻",
    "selectors: ✓" + "\ufe0f" * 30,
    "bidi: \u202eexe.txt\u202c and \x1b[31mred\x1b[0m\rover",
    "\u200b" * 20 + "zero width first",
    "tags: 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f and 🏴" + "\U000e0061" * 20 + "\U000e007f",
    "wraps: " + "word " * 30,
])  # fmt: skip
"""One record the store can hold (at most 1,024 bytes) with every kind of trouble on its own line."""

_BREAKS = re.compile(r"[\t\n]")
ZWJ = "\u200d"


def stacked(shown: str) -> list[str]:
    """The lines or tab stops of ``shown`` that pile more than a cluster's worth of code points on
    one place: they start with a character that takes no cell, or hold a run of more than
    :data:`MAX_CLUSTER` code points each of which (after the first) takes no cell or follows a
    zero-width joiner."""
    found = []
    for segment in _BREAKS.split(shown):
        run = 1
        for before, ch in zip(segment, segment[1:]):
            run = run + 1 if before == ZWJ or get_character_cell_size(ch) == 0 else 1
            if run > MAX_CLUSTER:
                break
        if run > MAX_CLUSTER or (segment and get_character_cell_size(segment[0]) == 0):
            found.append(segment)
    return found


def plant(config: Path, content: str) -> None:
    """Record 1 holds ``content``, written around the store (which refuses controls at ``put``)."""
    seed(config)
    with closing(sqlite3.connect(db_of(config))) as conn, conn:
        conn.execute("UPDATE memories SET content = ? WHERE id = 1", (content,))


# -- the text ----------------------------------------------------------------------------------------


@given(texts)
@example("e" + "\u0301" * 1023)
@example("\u200d" * 1024)
@example("👨\u200d" * 146)
@example("a" + "\ufe0f" * 340 + "\n\u202e\x1b[2J\r")
def test_shown_in_full_no_cell_stacks_and_every_line_stays(content: str) -> None:
    shown = in_full(content)
    assert stacked(shown) == []
    assert terminal_safe(shown) == shown  # no control, bidirectional or lone surrogate left
    assert shown.count("\n") == content.count("\n") and shown.count("\t") == content.count("\t")
    assert len(shown) <= len(terminal_safe(content))  # a cluster is kept or becomes one character


@given(st.lists(st.sampled_from(TROUBLE), max_size=1200).map("".join), st.integers(min_value=2, max_value=120))
@example("e" + "\u0301" * 1023, 40)
@example("wide 中文 " * 100, 7)
def test_laid_out_by_textual_it_wraps_and_no_line_stacks(content: str, width: int) -> None:
    lines = Content.from_rich_text(Text(in_full(content))).wrap(width)
    assert len(lines) > content.count("\n")
    for line in lines:
        assert line.cell_length <= width
        assert len(line.plain) <= MAX_CLUSTER * (line.cell_length + 1)  # a cluster folded may start a line


@given(
    st.lists(
        st.one_of(
            st.sampled_from("\t\n"),
            st.characters(exclude_categories=["Cc", "Cf", "Cs", "Zl", "Zp"]).filter(lambda ch: get_character_cell_size(ch) > 0),
        ),
        max_size=300,
    ).map("".join)
)
def test_text_whose_every_character_takes_a_cell_is_shown_as_it_is(content: str) -> None:
    assert in_full(content) == content


def test_over_long_clusters_become_one_replacement_and_real_text_is_kept() -> None:
    assert in_full("cafe\u0301 \u4e2d\u6587 👩\u200d💻\n\tnext") == "cafe\u0301 \u4e2d\u6587 👩\u200d💻\n\tnext"
    assert in_full("e" + "\u0301" * 1000 + " then\n\u0301 alone") == f"{REPLACEMENT} then\n{REPLACEMENT} alone"
    assert in_full("\u0301\u200dx\t\u200d\u200d0") == f"{REPLACEMENT}\t{REPLACEMENT}"
    assert in_full("red \x1b[31m\r") == "red \\x1b[31m\\r"


# -- the views ---------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_detail_and_the_confirmation_show_hostile_content_whole_and_drawable(home_config: Path) -> None:
    assert utf8_size(HOSTILE) <= 1024
    plant(home_config, HOSTILE)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailScreen)
        shown = text(app, "#detail-content")
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        assert text(app, "#confirm-content") == shown
    assert stacked(shown) == [] and shown.count("\n") == HOSTILE.count("\n")
    lines = shown.split("\n")
    assert lines[0] == f"stacked: {REPLACEMENT} end"
    assert lines[1] == f"family: {REPLACEMENT}, kept: 👩\u200d💻"
    assert lines[3] == "bidi: \\u202eexe.txt\\u202c and \\x1b[31mred\\x1b[0m\\rover"
    assert lines[4] == f"{REPLACEMENT}zero width first"
    assert lines[6] == "wraps: " + "word " * 30


def test_snapshot_detail_of_hostile_content(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    plant(home_config, HOSTILE)
    assert snap_compare(make_app(home_config), run_before=settled, press=["enter"], terminal_size=SIZE)


def test_snapshot_confirmation_of_hostile_content(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    plant(home_config, HOSTILE)
    assert snap_compare(make_app(home_config), run_before=settled, press=["d"], terminal_size=SIZE)

"""The browser on small terminals: in every state a row of the list (or the record, or the question
and its answer keys) is on screen, whole words only; the text shown instead of the list scrolls with
the keys; below the minimum size it says what it needs.

The assertions read the screen as drawn (:func:`screen_lines`), not the widgets' state, except for
where a panel is scrolled to and which view has the keys (focus).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widget import Widget

from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import MIN_SIZE, RecordTable
from tact_memory.browser.screens import ConfirmDeleteScreen, DetailScreen, TooSmallScreen
from tact_memory.config.loading import ConfigSource, read_config
from tact_memory.config.reload import reload
from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config
from .test_app import (  # noqa: F401  (fixtures)
    CONTENTS,
    SIZE,
    T0,
    anyio_backend,
    content_fills_the_row,
    db_of,
    home_config,
    ids,
    make_app,
    other_store,
    press,
    seed,
    settled,
    wait_for,
)

SMALL_SIZES = [(40, 10), (60, 12), (80, 8), (30, 20), (MIN_SIZE.width, MIN_SIZE.height)]
"""Sizes at or above the minimum that a review found hard to use."""


def screen_lines(app: MemoryBrowser) -> list[str]:
    """The text of every line of the screen as it is drawn now (the top screen only)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen(app: MemoryBrowser) -> str:
    return "\n".join(screen_lines(app))


def words(app: MemoryBrowser) -> str:
    """The words on the screen as a person reads them: lines joined, scrollbars left out."""
    lines = (line.translate({code: " " for code in range(0x2580, 0x25A0)}) for line in screen_lines(app))
    return " ".join(" ".join(lines).split())


def first_words(content: str, width: int) -> str:
    """The start of ``content`` that any content cell of ``width`` cells shows whole."""
    return content[: width - 1]


async def open_list(pilot: Pilot[None]) -> None:
    await settled(pilot)
    await pilot.pause()  # the columns are cut once the table is laid out


@asynccontextmanager
async def browsing(config: Path, size: tuple[int, int]) -> AsyncIterator[tuple[MemoryBrowser, Pilot[None]]]:
    """The browser on :func:`seed`'s records at ``size``, its list laid out."""
    seed(config)
    app = make_app(config)
    async with app.run_test(size=size) as pilot:
        await open_list(pilot)
        yield app, pilot


def assert_a_row_shows_its_content(app: MemoryBrowser) -> None:
    """The heading and the highlighted row are on screen, the row with its id and its content's start."""
    table = app.query_one(RecordTable)
    lines = screen_lines(app)
    assert any("CONTENT" in line for line in lines), lines
    record = app.shown[table.cursor_row]
    row = next((line for line in lines if line.lstrip().startswith(f"{record.key.id} ")), None)
    assert row is not None, lines
    assert first_words(record.content, 8) in row, lines
    assert content_fills_the_row(app)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SMALL_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_list_shows_a_row_with_its_content_with_the_filter_open(home_config: Path, size: tuple[int, int]) -> None:
    async with browsing(home_config, size) as (app, pilot):
        assert_a_row_shows_its_content(app)
        await press(pilot, "slash", "r", "e")
        await pilot.pause()
        assert ids(app) == [1, 2, 4]
        assert_a_row_shows_its_content(app)
        assert any(line.strip() == "re" or "▊  re" in line for line in screen_lines(app))  # the filter line
        app.say(f"Deleting memory 1... If another program is writing to the database, this waits for it (up to {5} s).")
        await pilot.pause()
        assert_a_row_shows_its_content(app)  # a notice of two lines does not push the row away
        assert any("Deleting memory 1" in line for line in screen_lines(app))


@pytest.mark.anyio
async def test_at_40_columns_the_counts_and_dates_go_before_the_content(home_config: Path) -> None:
    async with browsing(home_config, (40, 10)) as (app, pilot):
        labels = [column.label.plain for column in app.query_one(RecordTable).ordered_columns]
        assert labels == ["ID", "VER", "NOTE", "CONTENT"]
        assert "probation" in screen(app)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SMALL_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_record_in_full_is_reachable_to_its_last_field(home_config: Path, size: tuple[int, int]) -> None:
    async with browsing(home_config, size) as (app, pilot):
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailScreen)
        await pilot.pause()
        shown = screen(app)
        assert "Memory 1, version 1" in shown and "In the `commonware`" in shown
        await press(pilot, "end")  # the record scrolls with the keys
        await pilot.pause()
        assert "visible to agents (scan and read)" in " ".join(" ".join(screen_lines(app)).split())
        await press(pilot, "escape")
        assert len(app.screen_stack) == 1


@pytest.mark.anyio
@pytest.mark.parametrize("size", SMALL_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_confirmation_shows_the_question_the_record_and_both_answers_whole(
    home_config: Path, size: tuple[int, int]
) -> None:
    async with browsing(home_config, size) as (app, pilot):
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        await pilot.pause()
        lines = screen_lines(app)
        shown = " ".join(" ".join(line.strip(" █▌▐").split()) for line in lines)  # the words, as read
        assert "Delete memory 1 (version 1)?" in shown, lines
        assert "In the `commonware`" in shown, lines
        assert any("y delete" in line for line in lines), lines
        assert any("any other key keep it" in line for line in lines), lines  # an answer is never split
        dialog = app.screen.query_one("#confirm").region
        assert app.screen.region.contains_region(dialog)
        for part in ("#confirm-title", "#confirm-keys"):
            assert dialog.contains_region(app.screen.query_one(part).region), part
        await press(pilot, "n")
        assert ids(app) == [1, 2, 4, 3] and app.message == "Kept memory 1."


@pytest.mark.anyio
async def test_the_problem_view_names_the_problem_on_a_small_terminal(home_config: Path) -> None:
    db = db_of(home_config)
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    app = make_app(home_config)
    async with app.run_test(size=(MIN_SIZE.width, MIN_SIZE.height)) as pilot:
        await settled(pilot)
        assert app.view == "problem"
        words = " ".join(" ".join(screen_lines(app)).split())
        assert "The memory database cannot be used" in words


# -- the panels shown instead of the list ------------------------------------------------------------


PANEL_TEXT = {
    "empty": ("No memories yet.", "browsing creates nothing."),
    "disabled": ("Memory is disabled.", "new and restored sessions use the new one."),
    "problem": ("The memory database cannot be used", "`tact-memory status` shows the same diagnosis."),
}
"""The first and the last words of each panel's text."""


def panel_config(home_config: Path, panel: str) -> Path:
    """A configuration whose browser shows ``panel``: its text, on a small terminal, taller than the body."""
    if panel == "disabled":
        return write_config(home_config.parent, enabled=False)
    if panel == "problem":
        db = db_of(home_config)
        db.parent.mkdir(parents=True, exist_ok=True)
        db.write_bytes(b"this is not a database" * 100)
        return home_config
    # A database never created, in a folder whose long name makes the text longer than the body.
    folder = "a-folder-whose-name-is-longer-than-a-small-terminal-is-wide"
    return write_config(home_config.parent.parent / "projects" / folder / "tact")


def panel_of(app: MemoryBrowser) -> Widget:
    return app.query_one(f"#{app.view}")


async def scrolled_to(pilot: Pilot[None], panel: Widget, y: int) -> None:
    await wait_for(pilot, lambda: round(panel.scroll_y) == y)
    await pilot.pause()


@pytest.mark.anyio
@pytest.mark.parametrize("panel", list(PANEL_TEXT))
@pytest.mark.parametrize("size", [(MIN_SIZE.width, MIN_SIZE.height), (40, 10)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_a_panel_taller_than_the_terminal_scrolls_to_its_last_line_with_the_keys(
    home_config: Path, panel: str, size: tuple[int, int]
) -> None:
    first, last = PANEL_TEXT[panel]
    app = make_app(panel_config(home_config, panel))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        shown = panel_of(app)
        assert app.view == panel and first in words(app) and last not in words(app)
        await press(pilot, "end")
        await scrolled_to(pilot, shown, shown.max_scroll_y)
        assert last in words(app) and first not in words(app) and shown.scroll_y > 0
        await press(pilot, "home")
        await scrolled_to(pilot, shown, 0)
        assert first in words(app)
        await press(pilot, "down")
        await scrolled_to(pilot, shown, 1)
        await press(pilot, "pagedown")
        await wait_for(pilot, lambda: shown.scroll_y > 1)
        paged = shown.scroll_y
        await press(pilot, "pageup")
        await wait_for(pilot, lambda: shown.scroll_y < paged)
        assert shown.has_focus


@pytest.mark.anyio
async def test_the_app_keys_work_while_a_panel_has_the_keys(home_config: Path) -> None:
    app = make_app(panel_config(home_config, "disabled"))
    async with app.run_test(size=(MIN_SIZE.width, MIN_SIZE.height)) as pilot:
        await settled(pilot)
        shown = panel_of(app)
        await press(pilot, "down", "down")
        await scrolled_to(pilot, shown, 2)
        await press(pilot, "f", "slash", "d")  # list keys: not offered here, and nothing happens
        assert app.order == "most_useful" and not app.query_one("#filter").display and len(app.screen_stack) == 1
        assert shown.has_focus
        await press(pilot, "r")  # read again: the same text keeps the place it was scrolled to
        await pilot.pause()
        assert app.message == "Reloaded config.toml and the database." and app.view == "disabled"
        assert round(shown.scroll_y) == 2 and shown.has_focus
        await press(pilot, "escape")  # offered everywhere; the panel keeps the keys
        assert shown.has_focus
        await press(pilot, "down")
        await scrolled_to(pilot, shown, 3)
        await press(pilot, "q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.anyio
async def test_the_view_showing_has_the_keys_also_when_it_changed_under_a_dialog(
    home_config: Path, tmp_path: Path
) -> None:
    seed(home_config)
    work = tmp_path / "work"
    source = ConfigSource(home_config, "--config")
    app = MemoryBrowser(
        source, config=read_config(source), store_factory=lambda path: MemoryStore(path, clock=lambda: T0),
        workspace=work, watch=False,
    )  # fmt: skip
    team = (
        f'[memory.team]\nendpoint = "http://127.0.0.1:9"\ntoken_env = "TACT_TEST_NO_TOKEN"\nworkspace_roots = ["{work}"]\n'
    )  # the browser has no way to read a token: the team store cannot be used

    async def edited(extra: str) -> None:  # as the watcher does when config.toml is saved
        write_config(home_config.parent, extra=extra)
        app.apply_reload(reload(app.config, app.source))
        await settled(pilot)

    async with app.run_test(size=(40, 10)) as pilot:
        await open_list(pilot)
        table = app.query_one(RecordTable)
        await press(pilot, "enter")
        await edited(team)  # the problem is shown under the record
        await edited("")  # and the list again: local memory
        assert isinstance(app.screen, DetailScreen)
        await press(pilot, "escape")
        assert app.view == "records" and table.has_focus
        await press(pilot, "down")
        assert table.cursor_row == 1

        await press(pilot, "enter")
        await edited(team)
        assert isinstance(app.screen, DetailScreen) and app.view == "problem"
        await press(pilot, "escape")
        shown = panel_of(app)
        assert shown.has_focus and shown.max_scroll_y > 0
        await press(pilot, "end")
        await scrolled_to(pilot, shown, shown.max_scroll_y)
        assert "`tact-memory status` shows the same diagnosis." in words(app)
        await edited("")  # the list is back, with the keys
        assert app.view == "records" and table.has_focus
        await edited(team)  # and the problem again, from the top of its text
        assert app.view == "problem" and shown.has_focus and shown.scroll_y == 0


# -- below the minimum -------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(20, 6), (MIN_SIZE.width - 1, 40), (120, MIN_SIZE.height - 1)])
async def test_a_terminal_under_the_minimum_says_what_size_is_needed(home_config: Path, size: tuple[int, int]) -> None:
    async with browsing(home_config, size) as (app, pilot):
        assert isinstance(app.screen, TooSmallScreen)
        words = " ".join(" ".join(screen_lines(app)).split())
        needed = f"{MIN_SIZE.width}\u00d7{MIN_SIZE.height}"
        assert f"Too small: {size[0]}\u00d7{size[1]}" in words and f"The browser needs {needed}" in words
        await press(pilot, "d", "f", "slash", "enter")  # nothing reaches the list behind
        assert isinstance(app.screen, TooSmallScreen) and app.order == "most_useful" and app.is_running
        await press(pilot, "q")
        assert not app.is_running


@pytest.mark.anyio
async def test_resizing_from_large_to_small_and_back_lays_the_list_out_again(home_config: Path) -> None:
    async with browsing(home_config, SIZE) as (app, pilot):
        wide = [column.label.plain for column in app.query_one(RecordTable).ordered_columns]
        assert wide == ["ID", "VER", "READS", "UPDATED (UTC)", "NOTE", "CONTENT"]
        for size in ((40, 10), (20, 6), (MIN_SIZE.width, MIN_SIZE.height), SIZE):
            await pilot.resize_terminal(*size)
            await open_list(pilot)
            if size == (20, 6):
                assert isinstance(app.screen, TooSmallScreen)
                assert "Too small: 20\u00d76" in screen(app)
            else:
                assert len(app.screen_stack) == 1
                assert_a_row_shows_its_content(app)
        assert [column.label.plain for column in app.query_one(RecordTable).ordered_columns] == wide
        assert "tact-memory" in screen_lines(app)[0]  # the title bar is back


@pytest.mark.anyio
@pytest.mark.parametrize("answer", ["n", "y"])
@pytest.mark.parametrize("size", [(40, 10), (MIN_SIZE.width, MIN_SIZE.height)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_confirmation_scrolls_its_record_by_keyboard_and_answers_after(
    home_config: Path, size: tuple[int, int], answer: str
) -> None:
    """Where the record and the note under it do not fit, the arrow, page, home and end keys scroll
    them into view and answer nothing; the next other key answers as it would have at once."""
    async with browsing(home_config, size) as (app, pilot):
        await press(pilot, "d")
        dialog = app.screen.query_one("#confirm", VerticalScroll)
        assert dialog.max_scroll_y > 0
        assert "provider logs" not in words(app)
        end = dialog.max_scroll_y
        for key, at in (("down", {1}), ("up", {0}), ("pagedown", range(2, end + 1)), ("pageup", {0}), ("end", {end}), ("home", {0}), ("end", {end})):
            await press(pilot, key)
            assert isinstance(app.screen, ConfirmDeleteScreen), key
            assert dialog.scroll_y in at, key
        assert "provider logs." in words(app)  # the note's end, read by keyboard alone
        assert any("Delete memory 1" in line for line in screen_lines(app))  # the question stays in view
        await press(pilot, answer)
        assert len(app.screen_stack) == 1
        assert ids(app) == ([1, 2, 4, 3] if answer == "n" else [2, 4, 3])
    with other_store(home_config) as store:
        assert (store.get(1) is None) == (answer == "y")


LONGEST = " ".join(f"w{i:03d}" for i in range(205))[:1020].rsplit(" ", 1)[0]
"""A record near the 1 KiB bound: numbered words, so each one seen on the screen can be counted."""


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 12)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_confirmation_shows_every_word_of_the_longest_record(home_config: Path, size: tuple[int, int]) -> None:
    """The record asked about is read whole before it is answered for: at the top and after each
    scroll key, the words on screen together are every word of a 1 KiB record (it was cut at
    twelve lines, a third of it out of reach on an 80x24 terminal)."""
    with other_store(home_config) as store:
        store.put(LONGEST)
    app = make_app(home_config)
    async with app.run_test(size=size) as pilot:
        await open_list(pilot)
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        dialog = app.screen.query_one("#confirm", VerticalScroll)
        seen = set(words(app).split())
        while dialog.scroll_y < dialog.max_scroll_y:
            await press(pilot, "down")
            seen |= set(words(app).split())
        assert set(LONGEST.split()) <= seen, sorted(set(LONGEST.split()) - seen)
        await press(pilot, "n")
        assert app.message == "Kept memory 1."


@pytest.mark.anyio
async def test_a_confirmation_covered_by_a_too_small_terminal_deletes_nothing_unseen(home_config: Path) -> None:
    async with browsing(home_config, SIZE) as (app, pilot):
        await press(pilot, "d")
        await pilot.resize_terminal(20, 6)
        await settled(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        await press(pilot, "y")  # not seen, so not an answer
        await pilot.resize_terminal(*SIZE)
        await settled(pilot)
        assert isinstance(app.screen, ConfirmDeleteScreen)
        await press(pilot, "n")
        assert app.message == "Kept memory 1." and ids(app) == [1, 2, 4, 3]
    with other_store(home_config) as store:
        assert store.get(1) is not None


LIST_KEYS = ["⏎ Details", "f Order", "/ Filter", "d Delete", "r Reload", "q Quit"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("size", "shown"),
    [
        ((30, 8), ["⏎ Details", "f Order", "q Quit"]),
        ((40, 10), ["⏎ Details", "f Order", "/ Filter", "q Quit"]),
        ((60, 12), LIST_KEYS),
        ((80, 24), LIST_KEYS),
    ],
    ids=lambda value: f"{value[0]}x{value[1]}" if isinstance(value, tuple) else None,
)
async def test_the_keys_line_shows_whole_keys_in_order_and_always_how_to_quit(
    home_config: Path, size: tuple[int, int], shown: list[str]
) -> None:
    async with browsing(home_config, size) as (app, pilot):
        await pilot.pause()
        keys = screen_lines(app)[-1].split()
        assert [" ".join(keys[i : i + 2]) for i in range(0, len(keys), 2)] == shown
        # Back to a wide terminal, every key is there again.
        await pilot.resize_terminal(100, 24)
        await pilot.pause()
        await pilot.pause()
        keys = screen_lines(app)[-1].split()
        assert [" ".join(keys[i : i + 2]) for i in range(0, len(keys), 2)] == LIST_KEYS


# -- snapshots -----------------------------------------------------------------------------------------


def test_snapshot_list_40_by_10_filtering(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, press=["slash", "r", "e"], terminal_size=(40, 10))


def test_snapshot_confirmation_at_the_minimum(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    size = (MIN_SIZE.width, MIN_SIZE.height)
    assert snap_compare(make_app(home_config), run_before=settled, press=["d"], terminal_size=size)


def test_snapshot_detail_at_the_minimum(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    size = (MIN_SIZE.width, MIN_SIZE.height)
    assert snap_compare(make_app(home_config), run_before=settled, press=["enter"], terminal_size=size)


def test_snapshot_list_80_by_8(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, terminal_size=(80, 8))


def test_snapshot_disabled_at_the_minimum(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    size = (MIN_SIZE.width, MIN_SIZE.height)
    assert snap_compare(make_app(panel_config(home_config, "disabled")), run_before=settled, terminal_size=size)


def test_snapshot_too_small(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, terminal_size=(20, 6))


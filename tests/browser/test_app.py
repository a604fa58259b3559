"""The memory browser: every binding and state, no telemetry, live config, and its snapshots."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import FilterInput, RecordTable
from tact_memory.browser.screens import ConfirmDeleteScreen, DetailScreen, hidden_note
from tact_memory.cli.app import cli
from tact_memory.config.loading import ConfigSource, read_config
from tact_memory.config.reload import reload
from tact_memory.records import RecordKey
from tact_memory.screening.checkpoint import IMITATION_KIND
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock, write_config

T0 = 1_800_000_000_000  # 2027-01-15 08:00 UTC
HOUR = 3_600_000
SIZE = (100, 28)
SMALL = (60, 15)

CONTENTS = (
    "In the `commonware` repository, release tags use vX.Y.Z and are signed with the release key.",
    "The user prefers pytest parametrize over hand-written loops in tests.",
    "Short note with [memory] brackets, shown literally.",
    "CI for tact runs on GitHub Actions; rerun the macOS job once before investigating a failure.",
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def home_config(tmp_path: Path) -> Path:
    """``~/tact/config.toml`` with memory enabled (conftest points HOME at ``tmp_path/home``)."""
    return write_config(tmp_path / "home" / "tact", enabled=True)


def db_of(config: Path) -> Path:
    return config.parent / "memory" / "v1.sqlite3"


def seed(config: Path) -> None:
    """Four records an hour apart; reads make record 1 the most useful, then 2; 3 and 4 tie at 0."""
    clock = FakeClock(T0)
    with MemoryStore(db_of(config), clock=clock) as store:
        for content in CONTENTS:
            store.put(content)
            clock.advance(HOUR)
        store.read([1])
        store.read([1, 2])


def seed_many(config: Path, count: int) -> None:
    """``count`` long records after the four of :func:`seed`."""
    with MemoryStore(db_of(config), clock=FakeClock(T0 + 5 * HOUR)) as store:
        for n in range(count):
            store.put(f"Extra note {n}: a long line about a build step that does not fit in one row of the list.")


def other_store(config: Path) -> MemoryStore:
    """A second process's view of the same corpus."""
    return MemoryStore(db_of(config), clock=FakeClock(T0 + 10 * HOUR))


def make_app(config: Path, *, watch: bool = False, origin: str = "--config") -> MemoryBrowser:
    source = ConfigSource(config, origin)
    return MemoryBrowser(
        source,
        config=read_config(source),
        store_factory=lambda path: MemoryStore(path, clock=lambda: T0),
        watch=watch,
        clock=lambda: T0 + 5 * HOUR,
    )


def text(app: MemoryBrowser, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def ids(app: MemoryBrowser) -> list[int]:
    return [r.key.id for r in app.shown]


async def wait_for(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Let the app run until ``condition`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the browser did not change in time"
        await pilot.pause(0.05)


async def settled(pilot: Pilot[None]) -> None:
    """Let the browser run until every store call it made has ended and its result is shown."""
    app = pilot.app
    assert isinstance(app, MemoryBrowser)
    await wait_for(pilot, lambda: app.idle)
    await pilot.pause()


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Press ``keys``, then let the store calls they started end (:func:`settled`)."""
    await pilot.press(*keys)
    await settled(pilot)


# -- the list, its order and its filter ---------------------------------------------------------------


@pytest.mark.anyio
async def test_most_useful_first_and_f_cycles_the_orders(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        expected = [
            ("most useful (reads)", [1, 2, 4, 3]),  # 2 reads, 1 read, then ties newest first
            ("newest", [4, 3, 2, 1]),
            ("oldest", [1, 2, 3, 4]),
            ("least useful (reads)", [3, 4, 2, 1]),  # ties oldest first
            ("most useful (reads)", [1, 2, 4, 3]),
        ]
        await pilot.pause()  # the content column is cut to the width once the table is laid out
        table = app.query_one(RecordTable)
        assert table.row_count == 4
        assert [str(cell) for cell in table.get_row_at(0)][:4] == ["1", "1", "2", "2027-01-15 08:00"]
        assert "Short note with [memory] brackets" in str(table.get_row_at(3)[-1])  # not parsed as markup
        for label, order in expected:
            assert ids(app) == order
            assert f"order: {label}" in text(app, "#status")
            await press(pilot, "f")


@pytest.mark.anyio
async def test_typing_in_the_filter_triggers_no_binding(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "slash")
        field = app.query_one(FilterInput)
        assert field.has_focus
        await press(pilot, *"fdqr/")  # every list key, typed as text
        assert field.value == "fdqr/"
        assert app.is_running and app.order == "most_useful" and len(app.screen_stack) == 1
        assert ids(app) == []
        await press(pilot, "escape")  # closes the filter line and clears the filter
        assert not field.display and field.value == "" and ids(app) == [1, 2, 4, 3]
        assert app.query_one(RecordTable).has_focus


@pytest.mark.anyio
async def test_the_filter_matches_content_words_and_ids(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "slash", *"TAGS release")
        assert ids(app) == [1]
        assert 'filter "TAGS release": 1 shown' in text(app, "#status")
        await press(pilot, "enter")  # keeps the filter, back to the list
        assert not app.query_one(FilterInput).display and app.query_one(RecordTable).has_focus
        assert ids(app) == [1]
        await press(pilot, "f")  # the order changes under the filter
        assert ids(app) == [1] and app.order == "newest"
        await press(pilot, "escape")
        assert ids(app) == [4, 3, 2, 1]
        await press(pilot, "slash", *"#3")
        assert ids(app) == [3]
        await press(pilot, "backspace", "backspace", "4")
        assert ids(app) == [4]


@pytest.mark.anyio
async def test_a_filter_that_matches_nothing_says_so_and_how_to_clear_it(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert not app.query_one("#no-match").display
        await press(pilot, "slash", *"release nowhere", "enter")
        assert ids(app) == [] and app.view == "records"
        assert app.query_one("#no-match").display
        assert text(app, "#no-match") == 'No record matches the filter "release nowhere". Press escape to clear it.'
        await press(pilot, "escape")
        assert ids(app) == [1, 2, 4, 3] and not app.query_one("#no-match").display


def content_fills_the_row(app: MemoryBrowser) -> bool:
    """Every column fits the table's width exactly, so the content column takes what is left."""
    table = app.query_one(RecordTable)
    used = sum(column.get_render_width(table) for column in table.columns.values())
    return used == table.scrollable_content_region.width and not table.show_horizontal_scrollbar


@pytest.mark.anyio
async def test_the_content_column_takes_the_remaining_width_after_a_config_switch(home_config: Path) -> None:
    seed(home_config)
    seed_many(home_config, 19)  # 23 rows: they fit until the notice line takes two rows
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()
        assert content_fills_the_row(app) and not app.query_one(RecordTable).show_vertical_scrollbar
        write_config(home_config.parent, enabled=False)
        await press(pilot, "r")
        write_config(home_config.parent, enabled=True)
        await press(pilot, "r")
        await pilot.pause()
        assert app.view == "records" and app.query_one(RecordTable).show_vertical_scrollbar
        assert content_fills_the_row(app)
        last = str(app.query_one(RecordTable).get_row_at(0)[-1])
        assert last.endswith("…") and len(last) == list(app.query_one(RecordTable).columns.values())[-1].content_width


@pytest.mark.anyio
async def test_a_watched_switch_off_and_on_lays_the_list_out_at_full_width(home_config: Path) -> None:
    """The table had no width while hidden; shown again by a reload (no key pressed) it must not
    keep the compact columns it was cut to then."""
    from tact_memory.config.loading import locate_config
    from tact_memory.config.watcher import reload

    seed(home_config)
    app = make_app(home_config)
    source = locate_config(str(home_config))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()
        labels = [column.label.plain for column in app.query_one(RecordTable).ordered_columns]
        for enabled in (False, True):
            write_config(home_config.parent, enabled=enabled)
            app.apply_reload(reload(app.config, source))
            await settled(pilot)
        await pilot.pause()
        assert app.view == "records"
        assert [column.label.plain for column in app.query_one(RecordTable).ordered_columns] == labels
        assert content_fills_the_row(app)


@pytest.mark.anyio
async def test_short_content_still_gets_the_whole_row(home_config: Path) -> None:
    with MemoryStore(db_of(home_config), clock=FakeClock(T0)) as store:
        store.put("The linter is ruff.")
    write_config(home_config.parent, enabled=False)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        write_config(home_config.parent, enabled=True)
        await press(pilot, "r")
        await pilot.pause()
        assert app.view == "records" and content_fills_the_row(app)


# -- detail ----------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_enter_shows_the_full_record_with_all_metadata(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "down", "enter")  # record 2
        assert isinstance(app.screen, DetailScreen) and app.screen.record.key == RecordKey(2, 1)
        fields = text(app, "#detail-fields")
        assert text(app, "#detail-content") == CONTENTS[1]
        assert "reads      1 (last 2027-01-15 12:00 UTC)" in fields
        assert "scans      0 (never)" in fields
        assert "probation  none: this version has been read" in fields
        assert "created    2027-01-15 09:00 UTC" in fields
        await press(pilot, "f", "slash")  # list keys do nothing here
        assert isinstance(app.screen, DetailScreen) and app.order == "most_useful"
        await press(pilot, "escape")
        assert len(app.screen_stack) == 1 and app.shown[app.query_one(RecordTable).cursor_row].key.id == 2

        await press(pilot, "down", "down", "enter")  # record 3: unread, probation until day 7
        fields = text(app, "#detail-fields")
        assert "probation  until 2027-01-22 10:00 UTC: unread so far; a read ends it, a scan does not" in fields
        assert "visible to agents" in fields


@pytest.mark.anyio
async def test_a_record_that_looks_like_a_secret_is_flagged(home_config: Path) -> None:
    seed(home_config)
    with closing(sqlite3.connect(db_of(home_config))) as conn, conn:  # an older pattern set let it in
        conn.execute("UPDATE memories SET content = 'deploy key AKIAABCDEFGHIJKLMNOP' WHERE id = 4")
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        table = app.query_one(RecordTable)
        assert str(table.get_row_at(2)[4]) == "hidden"
        await press(pilot, "down", "down", "enter")
        assert "hidden from agents: it looks like an AWS access key ID; delete it" in text(app, "#detail-fields")


# -- delete ------------------------------------------------------------------------------------------


@pytest.mark.release_gate
@pytest.mark.anyio
async def test_d_shows_the_record_and_y_deletes_the_displayed_version(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        assert text(app, "#confirm-content") == CONTENTS[0]
        note = text(app, "#confirm-note")
        assert "removes the record from the memory database and from retrieval" in note and "not proof of erasure" in note
        await press(pilot, "y")
        await pilot.pause()
        assert len(app.screen_stack) == 1 and ids(app) == [2, 4, 3]
        assert "Memory 1 removed from the database and from retrieval" in app.message
    with other_store(home_config) as store:
        assert store.get(1) is None


@pytest.mark.release_gate
@pytest.mark.anyio
async def test_any_other_key_keeps_the_record(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        for key in ("n", "q", "d", "Y", "escape", "enter", "space"):
            app.say("")
            await press(pilot, "d")
            assert isinstance(app.screen, ConfirmDeleteScreen)
            await press(pilot, key)
            await pilot.pause()
            assert app.is_running and len(app.screen_stack) == 1, key
            assert ids(app) == [1, 2, 4, 3] and app.message == "Kept memory 1.", key


@pytest.mark.release_gate
@pytest.mark.anyio
async def test_a_record_changed_during_confirmation_is_not_deleted(home_config: Path) -> None:
    """Specification: the browser submits the displayed version; a newer value is never deleted."""
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen) and app.screen.record.key == RecordKey(1, 1)
        with other_store(home_config) as store:
            store.put("In `commonware`, release tags use vX.Y.Z, signed.", replace=RecordKey(1, 1))
        await press(pilot, "y")
        await pilot.pause()
        assert "Not deleted: memory 1 changed while you were confirming" in app.message
        assert "version 1 was shown, it is now version 2" in app.message
        assert "reloaded" in app.message
        shown = {r.key.id: r for r in app.shown}
        assert shown[1].key == RecordKey(1, 2) and shown[1].content.startswith("In `commonware`, release")
    with other_store(home_config) as store:
        current = store.get(1)
        assert current is not None and current.key == RecordKey(1, 2)


@pytest.mark.anyio
async def test_a_record_deleted_elsewhere_during_confirmation(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "d")
        with other_store(home_config) as store:
            store.delete(RecordKey(1, 1))
        await press(pilot, "y")
        await pilot.pause()
        assert "Not deleted: memory 1 no longer exists" in app.message
        assert ids(app) == [2, 4, 3]


@pytest.mark.anyio
async def test_after_a_delete_the_cursor_stays_on_the_same_row(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        table = app.query_one(RecordTable)
        await press(pilot, "down", "d", "y")  # row 1 is record 2
        await pilot.pause()
        assert ids(app) == [1, 4, 3] and table.cursor_row == 1 and app.highlighted is not None
        assert app.highlighted.key.id == 4
        await press(pilot, "down", "d", "y")  # the last row: the cursor moves up to the new last row
        await pilot.pause()
        assert ids(app) == [1, 4] and table.cursor_row == 1


@pytest.mark.anyio
async def test_delete_from_the_detail_view_returns_to_the_list(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "enter", "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        await press(pilot, "y")
        await pilot.pause()
        assert len(app.screen_stack) == 1 and ids(app) == [2, 4, 3]


# -- states: disabled, missing, empty, corrupt, newer ------------------------------------------------


@pytest.mark.anyio
async def test_disabled_memory_says_how_to_enable_it_and_opens_nothing(home_config: Path) -> None:
    write_config(home_config.parent, enabled=False)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "disabled"
        body = text(app, "#disabled-text")
        assert "Memory is disabled." in body
        assert "To enable it, set enabled = true under [memory] in ~/tact/config.toml." in body
        await press(pilot, "f", "d", "slash", "enter")
        assert app.order == "most_useful" and len(app.screen_stack) == 1 and app.view == "disabled"
        assert not app.store.opened
    assert not db_of(home_config).parent.exists()


@pytest.mark.anyio
async def test_a_config_file_without_a_memory_table_gets_the_lines_to_add(home_config: Path) -> None:
    home_config.parent.mkdir(parents=True, exist_ok=True)
    home_config.write_text("# nothing yet\n", encoding="utf-8")
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "disabled"
        body = text(app, "#disabled-text")
        assert "To enable it, add these lines to ~/tact/config.toml:" in body
        assert "    [memory]\n    enabled = true" in body


@pytest.mark.anyio
async def test_a_missing_config_file_says_to_create_it(tmp_path: Path) -> None:
    config = tmp_path / "home" / "none" / "config.toml"
    app = make_app(config, origin="TACT_HOME")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "disabled"
        assert "~/none/config.toml does not exist (defaults are in force)" in text(app, "#disabled-text")


@pytest.mark.anyio
async def test_a_database_never_created_is_an_empty_list_and_stays_uncreated(home_config: Path) -> None:
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "empty"
        body = text(app, "#empty-text")
        assert "No memories yet." in body and "~/tact/memory/v1.sqlite3 has not been created" in body
        await press(pilot, "f", "d", "enter", "r")
    assert not db_of(home_config).exists() and not db_of(home_config).parent.exists()


@pytest.mark.anyio
async def test_an_empty_database(home_config: Path) -> None:
    seed(home_config)
    with other_store(home_config) as store:
        for record in store.list_records():
            store.delete(record.key)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "empty" and "No memories stored." in text(app, "#empty-text")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda path: path.write_bytes(b"this is not a database" * 100), "not_a_database"),
        (lambda path: sqlite3.connect(path).execute("PRAGMA user_version = 99").connection.close(), "newer_schema"),
    ],
)
@pytest.mark.anyio
async def test_a_corrupt_or_newer_database_is_named_and_left_alone(
    home_config: Path, make: Callable[[Path], None], reason: str
) -> None:
    db = db_of(home_config)
    db.parent.mkdir()
    make(db)
    before = db.read_bytes()
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "problem"
        body = text(app, "#problem-text")
        assert f"The memory database cannot be used ({reason})." in body and "left untouched" in body
        await press(pilot, "f", "d", "enter", "r")
        assert app.view == "problem" and app.is_running
    assert db.read_bytes() == before


# -- browsing is invisible to telemetry --------------------------------------------------------------


@pytest.mark.anyio
async def test_browsing_changes_no_telemetry_and_no_byte(home_config: Path) -> None:
    """I10: the browser bumps no scan or read counts and clears no probation."""
    seed(home_config)
    db = db_of(home_config)
    with other_store(home_config) as store:
        before = store.list_records(order="id")
    raw = db.read_bytes()
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        for _ in CONTENTS:  # open every record in full
            await press(pilot, "enter", "escape", "down")
        await press(pilot, "f", "f", "f", "slash", *"tags", "enter", "d", "n", "r")
    assert db.read_bytes() == raw
    with other_store(home_config) as store:
        assert store.list_records(order="id") == before


# -- configuration reloads ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_r_rereads_the_config_and_disabling_hides_every_screen(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailScreen)
        write_config(home_config.parent, enabled=False)
        app.action_reload()
        await settled(pilot)
        assert len(app.screen_stack) == 1 and app.view == "disabled" and app.shown == []
        assert app.message.startswith("memory disabled in config.toml: the browser hides it now;")
        assert "running agent sessions keep their current memory setting" in app.message
        assert not app.store.opened

        home_config.write_text("[memory]\nenabled = maybe\n", encoding="utf-8")
        await press(pilot, "r")
        assert app.view == "disabled" and "not reloaded" in app.message and ":2" in app.message

        write_config(home_config.parent, enabled=True)
        await press(pilot, "r")
        assert app.view == "records" and ids(app) == [1, 2, 4, 3]
        assert app.message.startswith("memory enabled in config.toml: the browser shows it now;")
        assert app.query_one(RecordTable).has_focus


@pytest.mark.anyio
async def test_the_real_watcher_switches_the_browser_without_a_restart(home_config: Path) -> None:
    seed(home_config)
    write_config(home_config.parent, enabled=False)
    app = make_app(home_config, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.view == "disabled" and app.watcher is not None
        assert app.watcher.wait_ready(5)
        write_config(home_config.parent, enabled=True)
        await wait_for(pilot, lambda: app.view == "records")
        assert ids(app) == [1, 2, 4, 3] and "the browser shows it now" in app.message

        home_config.write_text("[memory]\nenabled = true\nextra = 1\n", encoding="utf-8")
        await wait_for(pilot, lambda: "not reloaded" in app.message)
        assert app.view == "records" and "[memory.extra]" in app.message

        write_config(home_config.parent, enabled=False)
        await wait_for(pilot, lambda: app.view == "disabled")
        assert "the browser hides it now" in app.message
        watcher = app.watcher
    assert not watcher.running  # stopped with the app


# -- quitting, the docstring, the command ------------------------------------------------------------


@pytest.mark.anyio
async def test_q_quits(home_config: Path) -> None:
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "q")
        await pilot.pause()
        assert not app.is_running


def test_every_binding_is_listed_with_its_key_in_the_app_docstring() -> None:
    doc = MemoryBrowser.__doc__ or ""
    screens = (MemoryBrowser, RecordTable, FilterInput, DetailScreen, ConfirmDeleteScreen)
    for owner in screens:
        for binding in owner.BINDINGS:
            key = binding.key_display if binding.key_display else binding.key  # type: ignore[union-attr]
            assert f"`{key}`" in doc, (owner.__name__, key)


def test_browse_without_textual_says_how_to_install_it(home_config: Path) -> None:
    code = (
        "import sys; sys.modules['textual'] = None\n"
        "from tact_memory.cli.app import main\n"
        f"sys.argv = ['tact-memory', '--config', {str(home_config)!r}, 'browse']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pip install 'tact-memory[browser]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_browse_with_a_bad_config_exits_1_with_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[memory]\nenabled = 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--config", str(config), "browse"])
    assert result.exit_code == 1
    assert "[memory.enabled]" in result.output and "Traceback" not in result.output


def test_browse_help_has_an_example() -> None:
    result = CliRunner().invoke(cli, ["browse", "--help"])
    assert result.exit_code == 0 and "Example:" in result.output and "tact-memory[browser]" in result.output


def test_importing_the_library_loads_neither_the_browser_nor_the_watcher() -> None:
    code = "import json, sys, tact_memory; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    loaded = set(json.loads(done.stdout))
    assert not {"tact_memory.browser", "tact_memory.config.watcher", "textual"} & loaded


# -- a small terminal ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_at_60_by_15_the_header_and_the_confirmation_fit(home_config: Path) -> None:
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert text(app, "#status").count("\n") == 0  # one line where there is room
    app = make_app(home_config)
    async with app.run_test(size=SMALL) as pilot:
        await settled(pilot)
        await pilot.pause()
        status = text(app, "#status")
        assert "order: most useful (reads)" in status and "~/tact/config.toml" in status
        assert all(len(line) <= SMALL[0] - 2 for line in status.splitlines())  # wrapped between parts
        assert content_fills_the_row(app)
        assert [str(column.label) for column in app.query_one(RecordTable).columns.values()][3] == "UPDATED"
        await press(pilot, "d")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConfirmDeleteScreen)
        dialog = screen.query_one("#confirm").region
        assert dialog.bottom <= SMALL[1] - 1 and dialog.right <= SMALL[0]  # above the footer
        for part in ("#confirm-title", "#confirm-keys", "#confirm-content"):
            assert dialog.contains_region(screen.query_one(part).region), part
    app = make_app(home_config)
    async with app.run_test(size=(60, 11)) as pilot:  # smaller still: the note scrolls, the keys stay
        await settled(pilot)
        await press(pilot, "d")
        await pilot.pause()
        dialog = app.screen.query_one("#confirm").region
        assert dialog.contains_region(app.screen.query_one("#confirm-keys").region)
        assert dialog.contains_region(app.screen.query_one("#confirm-title").region)


# -- snapshots -----------------------------------------------------------------------------------------


def test_snapshot_list(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, terminal_size=SIZE)


def test_snapshot_detail(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, press=["down", "down", "enter"], terminal_size=SIZE)


def test_snapshot_confirmation(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, press=["d"], terminal_size=SIZE)


def test_snapshot_list_small(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, terminal_size=SMALL)


def test_snapshot_confirmation_small(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, press=["d"], terminal_size=SMALL)


def test_snapshot_no_match(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    assert snap_compare(make_app(home_config), run_before=settled, press=["slash", *"nowhere"], terminal_size=SIZE)


def test_snapshot_disabled(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    write_config(home_config.parent, enabled=False)
    assert snap_compare(make_app(home_config), run_before=settled, terminal_size=SIZE)


def test_a_hidden_imitation_of_the_checkpoint_is_named_as_such() -> None:
    assert hidden_note(IMITATION_KIND) == "hidden from agents: it imitates the runtime's control text; delete it"
    assert "GitHub token" in hidden_note("github_token")


@pytest.mark.anyio
async def test_planted_controls_are_shown_escaped_everywhere(home_config: Path) -> None:
    seed(home_config)
    hostile = "red \x1b[31mALERT\x1b[0m\rfake \u202etxt.exe\u202c"
    shown = "red \\x1b[31mALERT\\x1b[0m\\rfake \\u202etxt.exe\\u202c"
    with closing(sqlite3.connect(db_of(home_config))) as conn, conn:  # written around the store
        conn.execute("UPDATE memories SET content = ? WHERE id = 1", (hostile + "\nnext",))
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()  # the content column is cut to the width once the table is laid out
        cell = str(app.query_one(RecordTable).get_row_at(0)[5])
        assert cell.startswith("red \\x1b[31mALERT") and not {"\x1b", "\r"} & set(cell)
        await press(pilot, "enter")
        assert text(app, "#detail-content") == shown + "\nnext"
        await press(pilot, "d")
        assert text(app, "#confirm-content") == shown + "\nnext"


@pytest.mark.anyio
@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_r_shows_the_database_at_the_path_after_it_was_deleted_or_replaced(
    home_config: Path, tmp_path: Path, how: str
) -> None:
    """The browser's open connection still reads a database deleted or renamed over meanwhile;
    a refresh must show the file there now, not records that are no longer anywhere."""
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert ids(app) == [1, 2, 4, 3]
        for path in db_of(home_config).parent.iterdir():
            path.unlink()
        if how == "replaced":
            with MemoryStore(tmp_path / "other.sqlite3", clock=FakeClock(T0)) as other:
                other.put("The replacement corpus holds only this record.")
            (tmp_path / "other.sqlite3").rename(db_of(home_config))
        await press(pilot, "r")
        if how == "deleted":
            assert app.view == "empty" and app.shown == [] and "has not been created" in text(app, "#empty-text")
            assert not db_of(home_config).exists()
        else:
            assert app.view == "records" and [r.content for r in app.shown] == [
                "The replacement corpus holds only this record."
            ]


@pytest.mark.anyio
async def test_a_time_past_the_calendar_is_shown_not_raised(home_config: Path) -> None:
    """A row written around the store may hold any 64-bit time; it is listed and opened like any."""
    seed(home_config)
    huge = 2**63 - 1
    with closing(sqlite3.connect(db_of(home_config))) as conn, conn:
        conn.execute("UPDATE memories SET created_at_ms = ?, updated_at_ms = ? WHERE id = 2", (huge, huge))
        conn.execute("UPDATE telemetry SET last_read_at_ms = ? WHERE memory_id = 2", (huge,))
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()
        assert app.view == "records" and sorted(ids(app)) == [1, 2, 3, 4]
        row = ids(app).index(2)
        assert str(app.query_one(RecordTable).get_row_at(row)[3]).startswith("not a date (")
        await press(pilot, *["down"] * row, "enter")
        assert isinstance(app.screen, DetailScreen) and app.screen.record.key.id == 2
        fields = text(app, "#detail-fields")
        assert f"created    not a date ({huge})" in fields and f"last not a date ({huge})" in fields


@pytest.mark.anyio
async def test_a_database_replaced_during_confirmation_loses_no_record_of_the_new_one(
    home_config: Path, tmp_path: Path
) -> None:
    """A version names a record only within one database: when the file is replaced while the
    confirmation is open (and the list reloads behind it), the same id and version in the new file
    is another record, and ``y`` must not delete it."""
    seed(home_config)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen) and app.screen.record.key == RecordKey(1, 1)
        for path in db_of(home_config).parent.iterdir():
            path.unlink()
        with MemoryStore(tmp_path / "other.sqlite3", clock=FakeClock(T0)) as other:
            other.put("An unrelated record the person never saw.")
        (tmp_path / "other.sqlite3").rename(db_of(home_config))
        write_config(home_config.parent, enabled=True, extra="# touched\n")  # any edit reloads the list
        app.apply_reload(reload(app.config, app.source))
        await settled(pilot)
        await press(pilot, "y")
        assert "no longer the record you saw" in app.message and "replaced" in app.message
        assert [r.content for r in app.shown] == ["An unrelated record the person never saw."]
    with other_store(home_config) as store:
        assert [r.content for r in store.list_records()] == ["An unrelated record the person never saw."]


@pytest.mark.anyio
async def test_a_store_switched_during_confirmation_loses_no_record_of_the_new_one(
    home_config: Path, tmp_path: Path
) -> None:
    """``[memory.team]`` added while the confirmation is open switches the browser to the team store;
    its record with the same id and version is not the one shown, and ``y`` must not delete it."""
    seed(home_config)
    work = tmp_path / "work"
    work.mkdir()
    team_db = tmp_path / "team.sqlite3"
    with MemoryStore(team_db, clock=FakeClock(T0)) as team:
        team.put("A team record the person never saw.")
    source = ConfigSource(home_config, "--config")
    app = MemoryBrowser(
        source,
        config=read_config(source),
        store_factory=lambda path: MemoryStore(path, clock=lambda: T0),
        team_store_factory=lambda settings: MemoryStore(team_db, clock=lambda: T0),
        workspace=work,
        watch=False,
        clock=lambda: T0 + 5 * HOUR,
    )
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen) and app.screen.record.key == RecordKey(1, 1)
        table = f'[memory.team]\nendpoint = "https://team.invalid"\ntoken_env = "T"\nworkspace_roots = ["{work}"]\n'
        write_config(home_config.parent, enabled=True, extra=table)
        app.apply_reload(reload(app.config, app.source))
        await settled(pilot)
        assert app.team is not None
        await press(pilot, "y")
        assert "switched to another store" in app.message
    with MemoryStore(team_db) as team:
        assert [r.content for r in team.list_records()] == ["A team record the person never saw."]
    with other_store(home_config) as store:
        assert len(store.list_records()) == len(CONTENTS)

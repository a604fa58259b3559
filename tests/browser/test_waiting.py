"""The browser while another process holds the database's lock: the screen keeps answering keys,
a delete says that it waits, no second delete starts meanwhile, and the outcome is shown when the
lock is released or the busy timeout passes. The lock is a real one, held by a second process."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import RecordTable
from tact_memory.browser.screens import ConfirmDeleteScreen, DetailScreen
from tact_memory.records import RecordKey

from ..conftest import write_config
from .test_app import SIZE, anyio_backend, db_of, home_config, ids, make_app, other_store, seed, settled, wait_for  # noqa: F401

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute(sys.argv[2])
conn.execute("SELECT count(*) FROM memories").fetchall()
for statement in sys.argv[3:]:
    conn.execute(statement)
print("held", flush=True)
sys.stdin.readline()
conn.execute("COMMIT" if sys.argv[3:] else "ROLLBACK")
"""


@contextmanager
def lock_held(db: Path, statement: str = "BEGIN IMMEDIATE", *writes: str) -> Iterator[Callable[[], None]]:
    """Another process holding ``db``'s lock (``statement`` run) until the returned release is called;
    it commits ``writes`` then, if any, and else writes nothing."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db), statement, *writes], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "held"

        def release() -> None:
            if holder.poll() is None:
                assert holder.stdin is not None
                holder.stdin.write("\n")
                holder.stdin.flush()
                assert holder.wait(timeout=30) == 0

        yield release
        release()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        holder.stdin.close()
        holder.stdout.close()


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy timeout far longer than any test waits, so only the release ends a wait."""
    monkeypatch.setattr("tact_memory.store.sqlite.BUSY_TIMEOUT_S", 120.0)


def note(app: MemoryBrowser, row: int) -> str:
    """The NOTE cell of ``row``."""
    return str(app.query_one(RecordTable).get_row_at(row)[4])


def still_stored(config: Path, id_: int) -> bool:
    with other_store(config) as store:
        return store.get(id_) is not None


@asynccontextmanager
async def delete_waiting(config: Path, *writes: str) -> AsyncIterator[tuple[MemoryBrowser, Pilot[None], Callable[[], None]]]:
    """The browser on :func:`seed`'s records, its delete of record 1 confirmed and waiting for the
    write lock another process holds, and the release of that lock (which commits ``writes``)."""
    seed(config)
    app = make_app(config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        with lock_held(db_of(config), "BEGIN IMMEDIATE", *writes) as release:
            await pilot.press("d")
            assert isinstance(app.screen, ConfirmDeleteScreen)
            await pilot.press("y")
            await pilot.pause()
            yield app, pilot, release


@pytest.mark.anyio
async def test_a_delete_waiting_for_the_write_lock_leaves_the_screen_usable_and_lands_after(
    home_config: Path, patient: None
) -> None:
    async with delete_waiting(home_config) as (app, pilot, release):
        assert not app.idle and "Deleting memory 1" in app.message and "waits" in app.message
        assert note(app, 0) == "deleting" and still_stored(home_config, 1)

        await pilot.press("slash", *"macOS")  # the screen answers keys: the filter applies
        assert ids(app) == [4]
        await pilot.press("escape", "slash", *"commonware", "enter", "enter")  # a record opens (no store call)
        assert isinstance(app.screen, DetailScreen) and app.screen.record.key == RecordKey(1, 1)
        await pilot.press("d")  # no second delete of it
        assert isinstance(app.screen, DetailScreen) and "is being deleted" in app.message
        await pilot.press("escape", "d")  # nor from the list
        assert len(app.screen_stack) == 1 and not app.check_action("delete", ())
        await pilot.press("escape", "f")  # the order changes; its read waits behind the delete
        assert app.order == "newest" and not app.idle
        assert still_stored(home_config, 1) and 1 in ids(app)
        release()
        await settled(pilot)
        assert "Memory 1 removed from the database and from retrieval" in app.message
        assert ids(app) == [4, 3, 2] and app.check_action("delete", ())
    assert not still_stored(home_config, 1)


@pytest.mark.anyio
async def test_a_delete_still_locked_out_after_the_busy_timeout_says_so_and_keeps_the_record(
    home_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tact_memory.store.sqlite.BUSY_TIMEOUT_S", 0.2)
    async with delete_waiting(home_config) as (app, pilot, _):
        await settled(pilot)  # the delete gave up while the lock is still held
        assert app.message.startswith("Not deleted: memory database ")
        assert app.message.endswith(": another process held the write lock for more than 0.2 s; try again")
        assert ids(app) == [1, 2, 4, 3] and note(app, 0) == "" and app.check_action("delete", ())
    assert still_stored(home_config, 1)


@pytest.mark.anyio
async def test_a_record_the_lock_holder_changed_is_refused_after_the_wait(home_config: Path, patient: None) -> None:
    replace = "UPDATE memories SET version = 2, content = 'Release tags are signed.' WHERE id = 1"
    async with delete_waiting(home_config, replace) as (app, pilot, release):
        assert not app.idle and note(app, 0) == "deleting"
        release()
        await settled(pilot)
        assert app.message.startswith("Not deleted: memory 1 changed while you were confirming (version 1 was shown")
        assert {r.key.id: r.key.version for r in app.shown}[1] == 2
    with other_store(home_config) as store:
        current = store.get(1)
        assert current is not None and current.key == RecordKey(1, 2)


@pytest.mark.anyio
async def test_quitting_while_a_delete_waits_lets_it_end_first(home_config: Path, patient: None) -> None:
    async with delete_waiting(home_config) as (app, pilot, release):
        await pilot.press("q")
        assert app.is_running and "Quitting once the delete under way ends" in app.message
        assert still_stored(home_config, 1)
        release()
        await wait_for(pilot, lambda: app.idle)
    assert app.return_code == 0 and not still_stored(home_config, 1)


@pytest.mark.anyio
async def test_disabling_memory_while_a_delete_waits_hides_the_list_at_once(home_config: Path, patient: None) -> None:
    async with delete_waiting(home_config) as (app, pilot, release):
        write_config(home_config.parent, enabled=False)
        await pilot.press("r")
        assert app.view == "disabled" and app.shown == [] and not app.idle
        release()
        await settled(pilot)
        assert app.view == "disabled" and "Memory 1 removed" in app.message and not app.store.opened
    assert not still_stored(home_config, 1)


@pytest.mark.anyio
async def test_a_read_waiting_for_a_lock_leaves_the_screen_usable(home_config: Path, patient: None) -> None:
    """A file an older version left in rollback-journal mode cannot be read while another process
    holds it exclusively; the list waits for it off the screen's thread."""
    seed(home_config)
    with closing(sqlite3.connect(db_of(home_config))) as conn:
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
    with lock_held(db_of(home_config), "BEGIN EXCLUSIVE") as release:
        app = make_app(home_config)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert not app.idle and ids(app) == []
            await pilot.press("f", "slash", *"CI")
            assert app.order == "newest" and 'filter "CI"' in str(app.query_one("#status").render())
            await pilot.press("escape")
            release()
            await settled(pilot)
            assert app.view == "records" and ids(app) == [4, 3, 2, 1]

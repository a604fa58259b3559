"""The browser while another process holds the database's lock: the screen keeps answering keys,
a delete says that it waits, no second delete starts meanwhile, and the outcome is shown when the
lock is released or the busy timeout passes; quitting waits for a delete, never for a read. The
lock is a real one, held by a second process."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot

import tact_memory
import tact_memory.browser.app
from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import RecordTable
from tact_memory.browser.listing import fetch
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
if conn.in_transaction:
    conn.execute("COMMIT" if sys.argv[3:] else "ROLLBACK")
"""

READS_LOCKED = {
    "rollback journal, BEGIN EXCLUSIVE": ("delete", "BEGIN EXCLUSIVE"),
    "WAL, locking_mode EXCLUSIVE": ("wal", "PRAGMA locking_mode = EXCLUSIVE"),
}
"""Two ways another process keeps everyone from reading the file: a journal mode and the statement
it holds it with (an older file left in rollback-journal mode, a process in exclusive locking mode)."""

BROWSER = """
import asyncio, sys
from pathlib import Path

import tact_memory.store.sqlite
from tact_memory.browser import MemoryBrowser
from tact_memory.browser.listing import fetch
from tact_memory.config.loading import ConfigSource

tact_memory.store.sqlite.BUSY_TIMEOUT_S = 3600.0

def reading() -> bool:
    for frame in sys._current_frames().values():
        while frame is not None and frame.f_code is not fetch.__code__:
            frame = frame.f_back
        if frame is not None:
            return True
    return False

async def main() -> None:
    app = MemoryBrowser(ConfigSource(Path(sys.argv[1]), "--config"), watch=False)
    async with app.run_test() as pilot:
        while not reading():
            await pilot.pause(0.05)
        print("reading", flush=True)
        await pilot.press("q")
    print("closed", flush=True)

asyncio.run(main())
"""
"""A browser process that quits while its first read waits, saying when the read is under way and
when the browser has closed."""


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


@contextmanager
def reads_locked(config: Path, journal_mode: str, statement: str) -> Iterator[Callable[[], None]]:
    """:func:`seed`'s records in a file in ``journal_mode`` that another process, holding it with
    ``statement``, keeps everyone from reading until the returned release is called."""
    seed(config)
    journal(config, journal_mode)
    with lock_held(db_of(config), statement) as release:
        yield release


def journal(config: Path, mode: str) -> None:
    """Put the database in journal ``mode`` (``delete`` is the mode of files older versions left)."""
    with closing(sqlite3.connect(db_of(config))) as conn:
        assert conn.execute(f"PRAGMA journal_mode = {mode}").fetchone()[0] == mode


def reading(threads: list[threading.Thread]) -> bool:
    """Whether one of ``threads`` is inside a read for the list (:func:`fetch`) now."""
    frames = sys._current_frames()
    for thread in threads:
        frame = frames.get(thread.ident or 0)
        while frame is not None and frame.f_code is not fetch.__code__:
            frame = frame.f_back
        if frame is not None:
            return True
    return False


def store_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    """The browser's store threads started since ``before`` was taken."""
    return [t for t in threading.enumerate() if t not in before and t.name.startswith("tact-memory-store")]


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
    with reads_locked(home_config, *READS_LOCKED["rollback journal, BEGIN EXCLUSIVE"]) as release:
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


@pytest.mark.anyio
@pytest.mark.parametrize("locked", READS_LOCKED.values(), ids=READS_LOCKED)
async def test_quitting_while_a_read_waits_closes_at_once_and_the_store_after_the_read(
    home_config: Path, patient: None, locked: tuple[str, str]
) -> None:
    """Nothing depends on a read, so ``q`` does not wait for one: the browser closes while the read
    still waits for the lock, on a thread that keeps no process alive. The store is closed on that
    thread once the read has ended, never under it, and nothing of the browser's holds the file."""
    before = set(threading.enumerate())
    with reads_locked(home_config, *locked) as release:
        app = make_app(home_config)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: reading(store_threads(before)))
            assert ids(app) == []
            await pilot.press("q")
        threads = store_threads(before)
        assert app.return_code == 0 and reading(threads)  # closed, and the read still waits
        assert all(thread.daemon for thread in threads)
        release()
        for thread in threads:
            thread.join(timeout=30)
        assert not any(thread.is_alive() for thread in threads) and not app.store.opened
    with other_store(home_config) as store:
        store.delete(RecordKey(1, 1))


@pytest.mark.parametrize("locked", READS_LOCKED.values(), ids=READS_LOCKED)
def test_a_browser_process_quit_while_its_read_waits_exits_before_the_lock_is_released(
    home_config: Path, locked: tuple[str, str]
) -> None:
    """The process itself ends: no thread of the browser's keeps the interpreter from exiting while
    the read waits (for up to an hour here), and the lock is released only after it has exited."""
    root = Path(tact_memory.__file__).resolve().parent.parent
    with reads_locked(home_config, *locked):
        browser = subprocess.Popen(
            [sys.executable, "-c", BROWSER, str(home_config)], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            out, err = browser.communicate(timeout=60)  # a bound for a broken browser, not a measure
        finally:
            if browser.poll() is None:
                browser.kill()
                browser.communicate()
        assert (browser.returncode, out.split()) == (0, ["reading", "closed"]), err


@pytest.mark.anyio
async def test_quitting_waits_for_a_delete_asked_behind_a_waiting_read(home_config: Path, patient: None) -> None:
    """A read waits for the lock, and the delete asked after it waits behind it: ``q`` still waits
    for the delete, which lands once the lock is released."""
    seed(home_config)
    journal(home_config, "delete")
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        with lock_held(db_of(home_config), "BEGIN EXCLUSIVE") as release:
            await pilot.press("f", "d")  # a read for the new order, waiting; the list shows the old one
            assert isinstance(app.screen, ConfirmDeleteScreen) and app.screen.record.key == RecordKey(1, 1)
            await pilot.press("y", "q")
            assert app.is_running and "Quitting once the delete under way ends" in app.message
            release()
            await wait_for(pilot, lambda: app.idle)
    assert app.return_code == 0 and not still_stored(home_config, 1)


@pytest.mark.anyio
async def test_a_read_that_waits_says_so_and_a_reload_is_said_once_it_has_read(home_config: Path, patient: None) -> None:
    """Nothing is shown as "no record matches" while the first read waits for a lock, the status
    says a read is under way, and ``r`` says "Reloaded" only when its read has ended."""
    with reads_locked(home_config, *READS_LOCKED["rollback journal, BEGIN EXCLUSIVE"]) as release:
        app = make_app(home_config)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert not app.idle
            waiting = str(app.query_one("#no-match").render())
            assert "Reading the database" in waiting and "No record matches" not in waiting
            assert "reading..." in str(app.query_one("#status").render())
            release()
            await settled(pilot)
            assert sorted(ids(app)) == [1, 2, 3, 4] and "reading..." not in str(app.query_one("#status").render())
            with lock_held(db_of(home_config), "BEGIN EXCLUSIVE") as release_again:
                await pilot.press("r")
                await pilot.pause()
                assert app.message.startswith("Reading config.toml and the database again")
                release_again()
                await settled(pilot)
            assert app.message == "Reloaded config.toml and the database."


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every read the browser makes for its list, counted."""
    made: list[object] = []
    fetching = tact_memory.browser.app.fetch

    def counting(*args: object, **kwargs: object) -> object:
        made.append(args)
        return fetching(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("tact_memory.browser.app.fetch", counting)
    return made


@pytest.mark.anyio
async def test_a_read_locked_out_past_the_busy_timeout_is_tried_again_by_itself_until_it_reads(
    home_config: Path, monkeypatch: pytest.MonkeyPatch, reads: list[object]
) -> None:
    """The ``busy`` problem view does not stay once the lock is released: the browser reads again
    every ``RETRY_S`` while the cause lasts, and shows the records after the release, no key pressed."""
    monkeypatch.setattr("tact_memory.store.sqlite.BUSY_TIMEOUT_S", 0.2)
    monkeypatch.setattr("tact_memory.browser.app.RETRY_S", 0.1)
    with reads_locked(home_config, *READS_LOCKED["rollback journal, BEGIN EXCLUSIVE"]) as release:
        app = make_app(home_config)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.view == "problem")
            shown = str(app.query_one("#problem-text").render())
            assert "(busy)" in shown and "reads it again every 0.1 s until this passes" in shown
            await wait_for(pilot, lambda: len(reads) >= 3)  # refused again, and tried again
            assert app.view == "problem" and ids(app) == []
            release()
            await wait_for(pilot, lambda: app.view == "records")
            assert sorted(ids(app)) == [1, 2, 3, 4]
            done = len(reads)
            await pilot.pause(0.4)
            assert len(reads) == done  # read: no more tries


@pytest.mark.anyio
async def test_a_problem_that_does_not_pass_by_itself_is_not_read_again_until_asked(
    home_config: Path, monkeypatch: pytest.MonkeyPatch, reads: list[object]
) -> None:
    monkeypatch.setattr("tact_memory.browser.app.RETRY_S", 0.05)
    db = db_of(home_config)
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    app = make_app(home_config)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.view == "problem")
        shown = str(app.query_one("#problem-text").render())
        assert "reads it again" not in shown
        await pilot.pause(0.4)
        assert len(reads) == 1
        await pilot.press("r")
        await settled(pilot)
        assert len(reads) == 2 and app.view == "problem"

"""The config watcher: pure reloads, notices, and a real folder watch on real files."""

from __future__ import annotations

import os
import queue
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tact_memory.config.loading import Config, ConfigSource, MemorySettings, read_config
from tact_memory.config.watcher import ConfigWatcher, ReloadEvent, reload

from ..conftest import write_config

DEBOUNCE_MS = 120
TICK_MS = 20
WAIT_S = 5.0  # upper bound only; events normally arrive within a few hundred milliseconds


def source_for(path: Path, origin: str = "--config") -> ConfigSource:
    return ConfigSource(path, origin)


# -- reload() and the notice ---------------------------------------------------------------------


def test_reload_reads_the_new_setting_and_keeps_the_database_path(config_path: Path) -> None:
    source = source_for(config_path)
    before = read_config(source)
    write_config(config_path.parent, enabled=False)
    event = reload(before, source)
    assert event.error is None
    assert event.previous == before
    assert event.config.memory.enabled is False
    assert event.memory_changed
    assert event.config.database_path == before.database_path == config_path.parent / "memory" / "v1.sqlite3"


@pytest.mark.parametrize(
    ("text", "where"),
    [("[memory]\nenabled = tru\n", ":2"), ("[memory]\nenabeld = true\n", "[memory.enabeld]")],
)
def test_a_bad_edit_keeps_the_last_good_config_and_names_the_line_or_key(
    config_path: Path, text: str, where: str
) -> None:
    source = source_for(config_path)
    good = read_config(source)
    config_path.write_text(text, encoding="utf-8")
    event = reload(good, source)
    assert event.config is good and event.previous is good
    assert event.error is not None and where in event.error.message
    assert not event.memory_changed
    assert event.notice.startswith("config.toml not reloaded: ")
    assert where in event.notice
    assert event.notice.endswith("The last good configuration stays in force (memory enabled).")


def test_a_missing_explicit_file_is_an_error_and_a_missing_fallback_means_defaults(config_path: Path) -> None:
    good = read_config(source_for(config_path))
    config_path.unlink()
    assert reload(good, source_for(config_path)).error is not None
    event = reload(good, source_for(config_path, "TACT_HOME"))
    assert event.error is None and event.config.exists is False and event.config.memory.enabled is False
    assert event.notice.startswith("memory disabled (config.toml is missing: defaults in force): the browser hides it now;")


def _config(path: Path, enabled: bool) -> Config:
    return Config(path=path, memory=MemorySettings(enabled=enabled))


@pytest.mark.parametrize(
    ("before", "after", "notice"),
    [
        (
            False,
            True,
            "memory enabled in config.toml: the browser shows it now; running agent sessions keep their "
            "current memory setting; new and restored sessions get the new one.",
        ),
        (
            True,
            False,
            "memory disabled in config.toml: the browser hides it now; running agent sessions keep their "
            "current memory setting; new and restored sessions get the new one.",
        ),
        (
            True,
            True,
            "config.toml reloaded: memory is still enabled; nothing changes for the browser or sessions.",
        ),
    ],
)
def test_the_notice_states_the_browser_and_session_split(tmp_path: Path, before: bool, after: bool, notice: str) -> None:
    """I14: the browser switches now; running sessions keep theirs; new and restored ones switch."""
    path = tmp_path / "config.toml"
    event = ReloadEvent(config=_config(path, after), previous=_config(path, before))
    assert event.notice == notice


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [(None, "http://a.example", "added to"), ("http://a.example", None, "removed from"),
     ("http://a.example", "http://b.example", "changed in")],
)  # fmt: skip
def test_a_memory_team_edit_says_the_browser_switches_store(tmp_path: Path, before: str | None, after: str | None, change: str) -> None:
    from tact_memory.config.loading import TeamSettings

    path = tmp_path / "config.toml"

    def config(endpoint: str | None) -> Config:
        team = None if endpoint is None else TeamSettings(endpoint=endpoint, token_env="TOKEN", workspace_roots=(tmp_path,))
        return Config(path=path, memory=MemorySettings(enabled=True, team=team))

    event = ReloadEvent(config=config(after), previous=config(before))
    assert event.notice == (
        f"[memory.team] {change} config.toml: the browser switches to the store it gives its workspace now (the team "
        "store inside a workspace root, local memory elsewhere); running agent sessions keep their current memory "
        "setting; new and restored sessions get the new one."
    )


# -- the real watcher ----------------------------------------------------------------------------


class Collector:
    """Receives events on the watcher thread; the test waits on them with a bound."""

    def __init__(self) -> None:
        self.events: queue.Queue[ReloadEvent] = queue.Queue()

    def __call__(self, event: ReloadEvent) -> None:
        self.events.put(event)

    def next(self) -> ReloadEvent:
        return self.events.get(timeout=WAIT_S)

    def assert_quiet(self, seconds: float = 4 * DEBOUNCE_MS / 1000) -> None:
        time.sleep(seconds)
        assert self.events.empty(), [e.notice for e in list(self.events.queue)]


@pytest.fixture
def collector() -> Collector:
    return Collector()


@pytest.fixture
def watcher(config_path: Path, collector: Collector) -> Iterator[ConfigWatcher]:
    with ConfigWatcher(
        source_for(config_path), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS
    ) as w:
        yield w


def test_an_in_place_write_is_reloaded(config_path: Path, watcher: ConfigWatcher, collector: Collector) -> None:
    with config_path.open("w", encoding="utf-8") as f:  # truncate and write the same inode
        f.write("[memory]\nenabled = false\n")
    event = collector.next()
    assert event.error is None and event.config.memory.enabled is False and event.previous.memory.enabled is True
    assert watcher.config == event.config
    assert event.config.database_path == config_path.parent / "memory" / "v1.sqlite3"
    collector.assert_quiet()


def test_an_atomic_rename_is_reloaded(config_path: Path, watcher: ConfigWatcher, collector: Collector) -> None:
    temp = config_path.parent / ".config.toml.swp"
    temp.write_text("[memory]\nenabled = false\n", encoding="utf-8")
    os.replace(temp, config_path)
    event = collector.next()
    assert event.error is None and event.config.memory.enabled is False
    collector.assert_quiet()


def test_a_burst_of_writes_gives_one_event(config_path: Path, watcher: ConfigWatcher, collector: Collector) -> None:
    for i in range(9):  # flip the setting every tick, ending disabled: only the end state counts
        write_config(config_path.parent, enabled=i % 2 == 1)
        time.sleep(TICK_MS / 1000)
    event = collector.next()
    assert event.config.memory.enabled is False and event.previous.memory.enabled is True
    collector.assert_quiet()


def test_a_broken_edit_then_a_fix(config_path: Path, watcher: ConfigWatcher, collector: Collector) -> None:
    config_path.write_text("[memory]\nenabled = tru\n", encoding="utf-8")
    broken = collector.next()
    assert broken.error is not None and broken.error.line == 2
    assert broken.config.memory.enabled is True  # the last good config stays in force
    assert watcher.config.memory.enabled is True

    config_path.write_text("[memory]\nenabeld = false\n", encoding="utf-8")
    misspelt = collector.next()
    assert misspelt.error is not None and misspelt.error.key == "memory.enabeld"

    write_config(config_path.parent, enabled=False)
    fixed = collector.next()
    assert fixed.error is None and fixed.config.memory.enabled is False and fixed.memory_changed


def test_a_fix_back_to_the_same_settings_still_clears_the_error(
    config_path: Path, watcher: ConfigWatcher, collector: Collector
) -> None:
    config_path.write_text("[memory\n", encoding="utf-8")
    assert collector.next().error is not None
    write_config(config_path.parent, enabled=True)
    fixed = collector.next()
    assert fixed.error is None and not fixed.memory_changed
    assert "still enabled" in fixed.notice


def test_other_files_and_identical_rewrites_are_silent(
    config_path: Path, watcher: ConfigWatcher, collector: Collector
) -> None:
    (config_path.parent / "notes.txt").write_text("unrelated", encoding="utf-8")
    (config_path.parent / "config.toml.bak").write_text("[memory\n", encoding="utf-8")
    write_config(config_path.parent, enabled=True)  # same settings as before
    collector.assert_quiet()
    # The silence above means something only if the watcher was listening all along.
    write_config(config_path.parent, enabled=False)
    event = collector.next()
    assert event.error is None and event.config.memory.enabled is False and event.memory_changed
    collector.assert_quiet()


def test_a_failing_subscriber_does_not_stop_the_watcher(config_path: Path) -> None:
    seen: queue.Queue[ReloadEvent] = queue.Queue()

    def flaky(event: ReloadEvent) -> None:
        seen.put(event)
        raise RuntimeError("subscriber bug")

    with ConfigWatcher(source_for(config_path), on_reload=flaky, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        write_config(config_path.parent, enabled=False)
        assert seen.get(timeout=WAIT_S).config.memory.enabled is False
        write_config(config_path.parent, enabled=True)
        assert seen.get(timeout=WAIT_S).config.memory.enabled is True
        assert w.running


def test_stop_is_prompt_and_idempotent(config_path: Path, collector: Collector) -> None:
    w = ConfigWatcher(source_for(config_path), on_reload=collector, tick_ms=TICK_MS)
    w.start()
    assert w.wait_ready(WAIT_S)
    started = time.monotonic()
    w.stop()
    assert time.monotonic() - started < 1.0
    assert not w.running
    assert not any(t.name == "tact-memory-config-watcher" for t in threading.enumerate())
    w.stop()


def test_a_folder_created_later_is_picked_up(tmp_path: Path, collector: Collector) -> None:
    path = tmp_path / "later" / "config.toml"
    source = source_for(path, "TACT_HOME")
    with ConfigWatcher(source, on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        assert w.config.exists is False
        write_config(path.parent, enabled=True)
        event = collector.next()
        assert event.config.memory.enabled is True and event.config.exists


def test_an_invalid_start_without_an_initial_config_raises(config_path: Path, collector: Collector) -> None:
    from tact_memory.errors import ConfigError

    config_path.write_text("nonsense = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        ConfigWatcher(source_for(config_path), on_reload=collector)


# -- broken files are reported once, and the watcher waits ------------------------------------------------


def _plant(config_path: Path, kind: str) -> None:
    """Turn ``config.toml`` into a broken file of ``kind``, replacing it in one rename."""
    temp = config_path.parent / ".config.toml.new"
    if kind == "syntax":
        temp.write_text("[memory]\nenabled = tru\n", encoding="utf-8")
    elif kind == "deep":
        temp.write_text("x = " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    elif kind == "huge":
        temp.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    elif kind == "fifo":
        os.mkfifo(temp)
    elif kind == "device":
        temp.symlink_to("/dev/zero")
    os.replace(temp, config_path)


BROKEN = ["syntax", "deep", "huge", "fifo", "device"]


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_file_is_reported_once_then_the_watcher_waits(
    config_path: Path, collector: Collector, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[float] = []

    def counting(source: ConfigSource) -> Config:
        reads.append(time.monotonic())
        return read_config(source)

    monkeypatch.setattr("tact_memory.config.reload.read_config", counting)
    with ConfigWatcher(source_for(config_path), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        _plant(config_path, kind)
        event = collector.next()
        assert event.error is not None and event.config.memory.enabled is True
        settled = len(reads)
        # A watcher that re-read in a loop would read about every 5 ticks (100 ms) here.
        collector.assert_quiet(1.5)
        assert len(reads) <= settled + 1, f"{len(reads) - settled} reads after the error was reported"
        assert w.running
        started = time.monotonic()
    assert time.monotonic() - started < 2.0  # stop was prompt: no read is stuck in the file


def test_the_same_error_again_is_not_repeated_but_a_fix_is_reported(
    config_path: Path, watcher: ConfigWatcher, collector: Collector
) -> None:
    config_path.write_text("[memory]\nenabled = tru\n", encoding="utf-8")
    assert collector.next().error is not None
    config_path.write_text("[memory]\nenabled = tru\n", encoding="utf-8")  # saved again, same error
    collector.assert_quiet()
    config_path.write_text("[memory]\nenabeld = true\n", encoding="utf-8")  # a different error
    assert collector.next().error.key == "memory.enabeld"  # type: ignore[union-attr]
    write_config(config_path.parent, enabled=True)
    fixed = collector.next()
    assert fixed.error is None and "still enabled" in fixed.notice


def test_an_unforeseen_read_failure_is_one_error_not_a_restart_loop(
    config_path: Path, collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[float] = []

    def failing(source: ConfigSource) -> Config:
        reads.append(time.monotonic())
        raise RuntimeError("a parser bug")

    with ConfigWatcher(source_for(config_path), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        monkeypatch.setattr("tact_memory.config.reload.read_config", failing)
        write_config(config_path.parent, enabled=False)
        event = collector.next()
        assert event.error is not None and "RuntimeError" in event.notice and "a parser bug" not in event.notice
        assert event.config.memory.enabled is True
        settled = len(reads)
        collector.assert_quiet(1.5)
        assert len(reads) <= settled + 1 and w.running


# -- a re-pointed symlink, and a busy folder ----------------------------------------------------


def _repoint(link: Path, target: Path) -> None:
    """Point ``link`` at ``target`` in one rename, as ``ln -sfn``, GNU stow and chezmoi do."""
    temp = link.parent / f".{link.name}.new-link"
    temp.symlink_to(target)
    os.replace(temp, link)


def test_a_symlink_pointed_at_another_folder_is_followed_there(tmp_path: Path, collector: Collector) -> None:
    link = tmp_path / "conf" / "config.toml"
    first = write_config(tmp_path / "dotfiles-a", enabled=True)
    second = write_config(tmp_path / "dotfiles-b", enabled=False)
    link.parent.mkdir()
    link.symlink_to(first)
    with ConfigWatcher(source_for(link), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        _repoint(link, second)
        moved = collector.next()
        assert moved.error is None and moved.config.memory.enabled is False
        # The new target's folder is watched now; an edit made there (not through the link) is seen.
        write_config(second.parent, enabled=True)
        edited = collector.next()
        assert edited.error is None and edited.config.memory.enabled is True
        assert w.config.path == link  # the selected path, and so the database beside it, stay the same
        # ... and the old target no longer counts.
        write_config(first.parent, enabled=False)
        collector.assert_quiet()


def test_a_busy_neighbour_file_does_not_hold_up_a_reload(config_path: Path, collector: Collector) -> None:
    """Another file in the folder written more often than the watcher ticks (a swap file, a log)."""
    stop = threading.Event()

    def churn() -> None:
        swap = config_path.parent / ".config.toml.swp"
        count = 0
        while not stop.wait(0.01):
            swap.write_text(str(count), encoding="utf-8")
            count += 1

    writer = threading.Thread(target=churn, daemon=True)
    with ConfigWatcher(source_for(config_path), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=100):
        writer.start()
        try:
            time.sleep(0.3)
            write_config(config_path.parent, enabled=False)
            event = collector.next()  # while the neighbour is still being written
        finally:
            stop.set()
            writer.join()
    assert event.error is None and event.config.memory.enabled is False


def test_a_folder_removed_and_made_again_at_once_is_watched_again(tmp_path: Path, collector: Collector) -> None:
    """The OS watch is on the folder, not its name: once the folder is gone it hears nothing from
    one made in its place (often with the same inode number), so the watcher must watch that anew."""
    config = write_config(tmp_path / "home" / "tact", enabled=True)
    with ConfigWatcher(source_for(config, "default"), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS):
        for _ in range(3):
            shutil.rmtree(config.parent)
            removed = collector.next()  # a missing default file means defaults: memory off
            assert removed.error is None and removed.config.memory.enabled is False
            write_config(config.parent, enabled=True)  # made again right after the notice
            assert collector.next().config.memory.enabled is True
            write_config(config.parent, enabled=False)  # and edits there are seen
            assert collector.next().config.memory.enabled is False
            write_config(config.parent, enabled=True)
            assert collector.next().config.memory.enabled is True


def test_a_symlink_target_folder_removed_and_restored_is_watched_again(tmp_path: Path, collector: Collector) -> None:
    link = tmp_path / "conf" / "config.toml"
    target = write_config(tmp_path / "dotfiles", enabled=True)
    link.parent.mkdir()
    link.symlink_to(target)
    with ConfigWatcher(source_for(link), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        shutil.rmtree(target.parent)
        dangling = collector.next()
        assert dangling.error is not None and "does not exist" in str(dangling.error)
        assert w.config.memory.enabled is True  # the last good configuration stays in force
        write_config(target.parent, enabled=False)  # restored, as a checkout would
        restored = collector.next()
        assert restored.error is None and restored.config.memory.enabled is False
        write_config(target.parent, enabled=True)
        assert collector.next().config.memory.enabled is True


@pytest.mark.parametrize("how", ["in place", "by rename"])
def test_a_symlink_to_another_name_in_the_same_folder_is_followed(tmp_path: Path, collector: Collector, how: str) -> None:
    """``config.toml -> work.toml`` beside it: an edit of ``work.toml`` (``vim config.toml`` writes
    through the link into it) is an edit of the configuration."""
    target = tmp_path / "work.toml"
    target.write_text("[memory]\nenabled = false\n", encoding="utf-8")
    link = tmp_path / "config.toml"
    link.symlink_to("work.toml")
    with ConfigWatcher(source_for(link), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        assert w.wait_ready(WAIT_S)
        if how == "in place":
            target.write_text("[memory]\nenabled = true\n", encoding="utf-8")
        else:
            temp = tmp_path / ".work.toml.tmp"
            temp.write_text("[memory]\nenabled = true\n", encoding="utf-8")
            os.replace(temp, target)
        event = collector.next()
        assert event.error is None and event.config.memory.enabled is True and w.config.path == link


def test_a_second_save_within_the_same_second_is_seen_when_the_watch_polls(
    config_path: Path, collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A polling watch (watchfiles' choice on WSL2) compares modification times in whole seconds,
    so it raises no event for a save made within the second of the one before; the watcher's own
    look at the file at every tick sees it."""
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "1")
    old = time.time() - 3600
    os.utime(config_path, (old, old))
    with ConfigWatcher(source_for(config_path), on_reload=collector, debounce_ms=DEBOUNCE_MS, tick_ms=TICK_MS) as w:
        assert w.wait_ready(WAIT_S)
        time.sleep(1.02 - time.time() % 1)  # the start of a second, so both saves land in it
        config_path.write_text("[memory]\nenabled = false\n", encoding="utf-8")
        first = int(config_path.stat().st_mtime)
        assert collector.next().config.memory.enabled is False
        config_path.write_text("[memory]\nenabled = true\n", encoding="utf-8")
        if int(config_path.stat().st_mtime) != first:
            pytest.skip("the machine was too slow to save twice within one second")
        event = collector.next()
        assert event.error is None and event.config.memory.enabled is True and w.config.memory.enabled is True

"""Following ``config.toml`` while a process runs: re-read, validate, report.

Design
------
The watcher observes the *folder* of the selected file, not the file itself. Most editors save by
writing a temporary file and renaming it over the original, which replaces the inode a file watch
would be attached to; a folder watch sees the rename as one more change to ``config.toml``. Changes
to any other name in the folder are ignored, but only after they reached the watcher's loop: a
neighbour written all the time (a swap file, a log) must not keep the debounce clock below from
running. If ``config.toml`` is a symlink, the folder of its target is watched too, so edits made
through a dotfiles checkout are seen; the link is resolved again at every tick, and when it has
been re-pointed to another folder (``ln -sfn``, GNU stow, chezmoi) the watch moves there; a target
in the same folder under another name (``config.toml -> work.toml``) counts as the file too. At each
tick the file is also looked at (one ``stat``), because a polling watch (watchfiles polls on WSL2)
compares modification times in whole seconds and misses a second save within the same second. An OS
watch is attached to the folder, not its name, so a watched folder that is removed (or replaced by
another of the same name: ``rm -r`` and a restore, a checkout) is watched afresh once it is back,
and the file is read when the folder goes, so its loss is reported even while the folder is absent.

Edits arrive in bursts (truncate, write, rename, editor backup files), and ``watchfiles`` groups a
burst by the number of distinct changed paths, so repeated writes to the same file can still come
out as several batches. The watcher therefore debounces itself: it re-reads the file only once no
change has been seen for ``debounce_ms``. ``watchfiles`` is asked to wake up every ``tick_ms`` even
when nothing happens, which gives the debounce its clock, makes :meth:`ConfigWatcher.stop` prompt
(the ``stop_event`` is checked at every tick), and tells :meth:`ConfigWatcher.start` when the folder
watch is registered.

A re-read goes through :func:`tact_memory.config.loading.read_config`, so a reload is validated exactly like
a start. A bad edit never replaces the configuration in force: the event carries the error (file,
line or key) and the last good configuration, and nothing raises. A broken file is reported once:
reading it again (after a watch restart, or a save that left the same error) is silent, and since
a failed read changes nothing on disk, the watcher then sleeps until the next edit. Reading cannot
block or run away either: :func:`~tact_memory.config.loading.read_config` refuses FIFOs, devices and
oversized files before reading them. The database path depends only on the selected file's path,
which a reload never changes, so the corpus stays the same file.

What a reload changes is deliberately split (specification, "Human browser"; invariant I14): the
browser switches at once, agent sessions that are already running keep the memory setting they were
created with, and sessions started or restored afterwards get the new one. :attr:`ReloadEvent.notice`
says so in one line.

Subscribers are called on the watcher's thread. A Textual app forwards the event with
``App.post_message``, which is safe from other threads.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import watchfiles

from ..errors import ConfigError
from .loading import Config, ConfigSource, read_config
from .reload import ReloadEvent, reload

__all__ = ["ConfigWatcher", "ReloadEvent", "reload"]

logger = logging.getLogger(__name__)

def _version(path: Path) -> tuple[int, ...] | None:
    """What tells one version of the file at ``path`` (through links) from another: device, inode,
    size, and modification and change times in nanoseconds; ``None`` when it cannot be looked at."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _identities(folders: list[Path]) -> list[tuple[int, int] | None]:
    """The (device, inode) of each folder, ``None`` for one that cannot be looked at."""
    found: list[tuple[int, int] | None] = []
    for folder in folders:
        try:
            st = os.stat(folder)
        except OSError:
            found.append(None)
        else:
            found.append((st.st_dev, st.st_ino))
    return found


class ConfigWatcher:
    """Watch the selected ``config.toml`` on a background thread and report reloads.

    A subscriber hears about every new failure (a failed reload whose error differs from the last
    one reported), every reload that changed the configuration, and the first good reload after a
    failure (so an error shown to a person can be cleared). Rewriting the file with the same
    settings, or reading the same broken file again, is silent: a broken file is reported once and
    the watcher waits for the next edit.

    Usable as a context manager::

        with ConfigWatcher(source, on_reload=lambda event: print(event.notice)):
            ...

    Args:
        source: The selected configuration file.
        on_reload: Called on the watcher thread with each :class:`ReloadEvent`.
        initial: The configuration in force now; read from ``source`` when omitted.
        debounce_ms: Quiet time after the last change before the file is re-read.
        tick_ms: How often the watcher thread wakes up; bounds how long :meth:`stop` takes.

    Raises:
        ConfigError: ``initial`` is omitted and the file cannot be used.
    """

    def __init__(
        self,
        source: ConfigSource,
        *,
        on_reload: Callable[[ReloadEvent], None],
        initial: Config | None = None,
        debounce_ms: int = 200,
        tick_ms: int = 50,
    ) -> None:
        self.source = source
        self._on_reload = on_reload
        self._config = read_config(source) if initial is None else initial
        self._failing = False
        self._reported: str | None = None
        self._seen = _version(source.path)  # the file as last read (an edit since is read anew)
        self._debounce_ms = max(0, debounce_ms)
        self._debounce_s = self._debounce_ms / 1000
        self._tick_ms = max(1, tick_ms)
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def config(self) -> Config:
        """The configuration in force: the last one that was read successfully."""
        return self._config

    @property
    def running(self) -> bool:
        """Whether the watcher thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the watcher thread; returns at once (see :meth:`wait_ready`)."""
        if self.running:
            return
        self._stop.clear()
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="tact-memory-config-watcher", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float = 5.0) -> bool:
        """Block until the folder watch is registered (or the folder is known to be missing)."""
        return self._ready.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching and wait for the thread to end (within about one tick)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def __enter__(self) -> ConfigWatcher:
        self.start()
        self.wait_ready()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- the thread ----------------------------------------------------------------------------

    def _names(self) -> dict[Path, frozenset[str]]:
        """Folder -> the file names to follow in it: the selected path and, for a symlink, its
        target (which may sit in the same folder under another name)."""
        path = self.source.path
        watched: dict[Path, set[str]] = {}
        for name in (path, Path(os.path.realpath(path))):
            watched.setdefault(name.parent, set()).add(name.name)
        return {folder: frozenset(names) for folder, names in watched.items()}

    def _run(self) -> None:
        while not self._stop.is_set():
            names = self._names()
            if not any(folder.is_dir() for folder in names):
                # Nothing to watch until the folder exists. Read once now: the folder may have been
                # removed with the file before the watch delivered that change, and the file's loss
                # must still be reported (a read that finds nothing new is silent). Then look again
                # every few ticks, and check the file once the folder is back, because it may have
                # been written together with its folder.
                self._reload()
                self._ready.set()
                if self._stop.wait(self._tick_ms * 5 / 1000):
                    return
                if any(folder.is_dir() for folder in self._names()):
                    self._reload()
                continue
            try:
                self._follow(names)
            except Exception:  # the folder vanished or the OS watch failed: wait, then start again
                logger.debug("config watch interrupted; restarting", exc_info=True)
                if self._stop.wait(self._tick_ms * 5 / 1000):
                    return

    def _follow(self, names: dict[Path, frozenset[str]]) -> None:
        """Watch the folders of ``names`` until stopped, re-reading after each quiet burst of relevant
        changes; return when the folders to watch are no longer these (a symlink was re-pointed).

        The symlink is resolved again at every tick rather than on its own events: a link is
        re-pointed by renaming a new one over it, and any folder link on the way may change too.

        The file itself is looked at (one ``stat``) at every tick as well: a watch that polls
        (watchfiles does on WSL2, and with ``WATCHFILES_FORCE_POLLING``) compares modification
        times in whole seconds, so a second save within the second of the first raises no event,
        and a file written from another host on a network folder raises none either.
        """
        folders = [folder for folder in names if folder.is_dir()]
        identities = _identities(folders)
        wanted = {str(folder / name) for folder, files in names.items() for name in files}
        watched = {str(folder) for folder in folders}
        gone = False  # a watched folder itself was removed or moved: its OS watch hears nothing more
        last_change: float | None = None
        first = True
        # No watch_filter: watchfiles drops a batch its filter empties instead of yielding it, so a
        # neighbour written more often than once a tick would hide every tick from the debounce below.
        # Filtering here lets every batch reach the deadline check. ``debounce`` caps how long the
        # Rust side keeps collecting a stream of new names before it hands them over.
        for changes in watchfiles.watch(
            *folders,
            watch_filter=None,
            debounce=max(self._debounce_ms, 4 * self._tick_ms),
            step=self._tick_ms,
            rust_timeout=self._tick_ms,
            yield_on_timeout=True,
            stop_event=self._stop,
            recursive=False,
            raise_interrupt=False,
        ):
            if first:
                first = False
                # An edit made before the watch was registered would be missed otherwise. Read before
                # announcing readiness, so this read never races an edit made right after start.
                self._reload()
                self._ready.set()
            now = time.monotonic()
            gone = gone or any(path in watched for _change, path in changes)
            if any(path in wanted for _change, path in changes) or (
                last_change is None and _version(self.source.path) != self._seen
            ):
                last_change = now
            elif last_change is not None and now - last_change >= self._debounce_s:
                last_change = None
                self._reload()
            elif last_change is None and (gone or self._moved(names, folders, identities)):
                # Between bursts only, so a re-pointing is read once, debounced, before the new
                # watch starts (which reads once more, to catch edits made while it was set up).
                return

    def _moved(
        self, names: dict[Path, frozenset[str]], folders: list[Path], identities: list[tuple[int, int] | None]
    ) -> bool:
        """Whether the folders to watch changed: the symlink points elsewhere, a folder came or went,
        or a folder was replaced by another of the same name (removed and made again, renamed over).

        The OS watch is on the folder itself, not its name: once the folder it was set on is gone,
        it hears nothing from the one made in its place, so that one must be watched afresh.
        """
        now = self._names()
        present = [folder for folder in now if folder.is_dir()]
        return now != names or present != folders or _identities(present) != identities

    def _reload(self) -> None:
        self._seen = _version(self.source.path)  # before the read: an edit during it is read again
        try:
            event = reload(self._config, self.source)
        except Exception as exc:  # reading must not raise; if it does, it is one more failed reload
            logger.debug("config reload raised", exc_info=True)
            error = ConfigError(f"cannot be read: {type(exc).__name__}", path=str(self.source.path))
            event = ReloadEvent(config=self._config, previous=self._config, error=error)
        reported = None if event.error is None else str(event.error)
        # A failure already reported stays quiet when it is read again (a watch restart, a save
        # that changed nothing), so a broken file is reported once and then waits for an edit.
        notify = (reported is not None and reported != self._reported) or event.config != event.previous or (
            self._failing and reported is None
        )
        self._config = event.config
        self._failing = event.error is not None
        self._reported = reported
        if not notify:
            return
        try:
            self._on_reload(event)
        except Exception:  # a subscriber's bug must not stop the watching
            logger.exception("config reload subscriber failed")

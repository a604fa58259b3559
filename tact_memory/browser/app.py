"""The browser application: the record list, its states, deletion and live configuration.

The app reads the store with ``list_records`` only. That call bumps no telemetry, clears no
probation and creates no file, so browsing is invisible to ranking and to the model (invariant I10).
The one write is a confirmed delete, which goes through the same version-checked
``MemoryStore.delete`` the tool uses: the version submitted is the one the person saw, so a record
that changed while the confirmation was open is refused rather than deleted. A version names a
record only within one database, so nothing is deleted either when the browser switched stores, or
the database file was replaced, while the confirmation was open.

No store call runs on the thread that draws the screen: a delete waits for another process's write
lock (up to the store's busy timeout), and a read can wait too (an older file in rollback-journal
mode, a team store over the network). Each call runs on the store thread (:mod:`.calls`) inside a
Textual worker, and its result is shown when it ends. Meanwhile the keys work; a delete under way
marks its row ``deleting``, says that it waits, and no second delete starts until it has ended.
Quitting then waits for it to end (it commits or changes nothing) and prints its outcome. Quitting
never waits for a read: nothing depends on one, and the store thread closes the store once it ends.

The body shows exactly one of four views, and :attr:`MemoryBrowser.view` names it:

- ``records``: the table (possibly empty under a filter);
- ``empty``: memory is enabled but nothing is stored, or the database was never created;
- ``disabled``: memory is off, with the lines that turn it on;
- ``problem``: the database is corrupt, newer or unreadable, named on screen. A cause that passes
  by itself (another process's lock held past the busy timeout, a team service down for the
  moment) is read again every :data:`RETRY_S`, so the records come back without a key pressed.

The view showing has the keys (focus): the list's, or in the other three, the arrow, page, home and
end keys, which scroll a text taller than the terminal leaves room for, so all of it can be read
without a mouse.

A :class:`~tact_memory.config.watcher.ConfigWatcher` follows ``config.toml`` on its own thread and posts each
reload to the app as a message, so enabling or disabling memory switches the view without a restart.
The store follows the file too: when ``[memory.team]`` is added, removed or changed so that the
browser's workspace enters or leaves a workspace root (or the service changes), the browser closes
the store it had and shows the one the file now gives, the team store or local memory, at once. A
team store's list has a ``NAMESPACE`` column: who wrote each record, cut like the content to at
most :data:`NAMESPACE_WIDTH` cells, since the team service names it.
Tests construct the app with ``watch=False`` and drive reloads with :meth:`MemoryBrowser.apply_reload`.

Why this module is longer than ~300 lines: it is one Textual app: the list, its states and their
bindings share one state machine; the dialogs live in :mod:`.screens`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widgets import ContentSwitcher, DataTable, Header, Input, Static
from textual.worker import Worker

from ..backend import MemoryBackend, RecordOrder
from ..clock import now_ms
from ..config.loading import Config, ConfigSource, TeamSettings, declares_table, read_config
from ..config.watcher import ConfigWatcher, ReloadEvent, reload
from ..errors import StoreUnavailable
from ..records import BROWSABLE_ORDERS, MemoryRecord, RecordKey, matches
from ..store.remote import RemoteStore
from ..store.sqlite import BUSY_TIMEOUT_S, MemoryStore
from .calls import StoreCalls
from .deletion import Outcome, delete_shown
from .listing import Listing, fetch
from .preview import preview
from .screens import CRAMPED, SHORT, TALL, WIDE, ConfirmDeleteScreen, DetailScreen, KeysFooter, TooSmallScreen, display_path, when

__all__ = ["ORDERS", "MemoryBrowser"]

T = TypeVar("T")

RETRY_S = 2.0
"""How long after a read that failed for a passing cause (:data:`PASSING`) the browser reads again
by itself, for as long as the cause lasts."""

PANELS = ("empty", "disabled", "problem")
"""The views shown instead of the list: a text each, in a panel of its own."""

PASSING = frozenset({"busy", "timeout", "unreachable", "server_error"})
"""The ``StoreUnavailable`` reasons that pass by themselves: another process's lock held past the
busy timeout, and a team service that is slow, down or failing for the moment. A corrupt, newer or
foreign file, a refused token and the like are not read again until ``r`` or a config change."""

ORDERS: tuple[RecordOrder, ...] = BROWSABLE_ORDERS
"""The orders ``f`` cycles through, first one the default."""

ORDER_LABELS: dict[str, str] = {
    "most_useful": "most useful (reads)",
    "newest": "newest",
    "oldest": "oldest",
    "least_useful": "least useful (reads)",
}

COLUMNS = ("ID", "VER", "READS", "UPDATED (UTC)", "NOTE", "CONTENT")
COMPACT_COLUMNS = ("ID", "VER", "READS", "UPDATED", "NOTE", "CONTENT")
"""The headings when the terminal is narrow: the update time shows its date only."""
NAMESPACE_COLUMN = "NAMESPACE"
"""The heading before the content on a team store's list: the author of each record."""
NAMESPACE_WIDTH = 16
"""The most cells a namespace takes in the list; a longer one is cut like the content
(:func:`.preview.preview`), since the names come from the team service and are not trusted."""
ROOMY_CONTENT_WIDTH = 30
"""Below this many content cells the list switches to :data:`COMPACT_COLUMNS`."""
MIN_CONTENT_WIDTH = 12
"""Columns are dropped (:data:`DROPPED_FIRST`) until the content gets this many cells; should it still
not, the table scrolls sideways rather than give the content fewer."""
DROPPED_FIRST = ("READS", "UPDATED", "VER", NAMESPACE_COLUMN, "NOTE")
"""The columns a narrow list leaves out, first to last, to keep :data:`MIN_CONTENT_WIDTH` for the
content; the record shown in full (``enter``) still says all of it. The id and content always stay."""
RIGHT_ALIGNED = frozenset({"ID", "VER", "READS"})
MIN_SIZE = Size(30, 8)
"""The smallest terminal the browser draws in: at 30 columns the delete question and its answer keys
take two lines each, and 8 rows leave a line of the record between them; in the list, a row under
the headings with the filter line and a notice open. A smaller terminal gets
:class:`~.screens.TooSmallScreen` until it grows."""
STATUS_LINES_TINY = 2
"""The most lines the status takes on a terminal under :data:`~.screens.SHORT` rows."""


def status_lines(parts: Sequence[Text], width: int, *, most: int | None = None) -> Text:
    """``parts`` joined by two spaces, starting a new line rather than splitting a part.

    With ``most``, the parts that would need more lines than that are left out, whole, in order.
    """
    if most is not None:
        kept: list[Text] = []
        for part in parts:
            if status_lines([*kept, part], width).plain.count("\n") < most:
                kept.append(part)
        parts = kept
    text = Text()
    used = 0
    for part in parts:
        if used and used + 2 + part.cell_len > width:
            text.append("\n")
            used = 0
        elif used:
            text.append("  ")
            used += 2
        text.append_text(part)
        used += part.cell_len
    return text


class ConfigReloaded(Message):
    """Posted from the watcher thread when the configuration was re-read."""

    def __init__(self, event: ReloadEvent) -> None:
        super().__init__()
        self.event = event


class FilterInput(Input):
    """The filter line; printable keys are text here, never commands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Keep filter"),
        Binding("escape", "app.clear_filter", "Clear filter"),
    ]


class RecordTable(DataTable[Text]):
    """The record list; ``enter`` opens the highlighted record."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Details")]

    class Resized(Message):
        """The width left for rows changed, so the content column must be cut again."""

    _width = -1

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:  # height alone matters only through the scrollbar, below
            self._width = event.size.width
            self.post_message(self.Resized())

    def watch_show_vertical_scrollbar(self) -> None:
        # The scrollbar appears or goes when rows or height change (a new record, a notice line
        # under the list); it takes cells from the content column without resizing the table.
        self.post_message(self.Resized())


class MemoryBrowser(App[None]):
    """Browse, filter and delete the records of one memory corpus, without touching telemetry.

    Bindings:

    | Key | Where | Action |
    | :- | :- | :- |
    | `up` / `down` | list | Move through the records. |
    | `up` / `down`, `pageup` / `pagedown`, `home` / `end` | empty, disabled, problem | Scroll the text. |
    | `↑↓` (and `pageup` / `pagedown`, `home` / `end`) | confirmation | Scroll the record and the note. |
    | `enter` | list | Open the highlighted record: full content and all metadata. |
    | `f` | list | Cycle the order: most useful, newest, oldest, least useful. |
    | `/` | list | Filter by content or id; typing there triggers nothing else. |
    | `enter` | filter | Keep the filter and return to the list. |
    | `escape` | filter, list | Close and clear the filter. |
    | `d` | list, detail | Delete the record, after a confirmation that shows it. |
    | `y` | confirmation | Delete; any other key but the scroll keys keeps the record. |
    | `escape` | detail | Back to the list. |
    | `r` | list | Re-read config.toml and the database now. |
    | `q` | anywhere but the filter and confirmation | Quit (once a delete under way has ended). |

    Args:
        source: The selected ``config.toml``.
        config: The configuration read from it; read now when omitted.
        store_factory: Builds the local store for the database path (tests pass a fake clock).
        team_store_factory: Builds the team store for ``[memory.team]`` (``tact-memory browse``
            passes one that reads the token); without it a team store answers ``unavailable``,
            saying so. Local memory is never shown in its place.
        workspace: The folder whose store to show (default: the current folder); inside a
            ``[memory.team]`` workspace root it is the team store.
        watch: Follow ``config.toml`` for changes on a background thread.
        clock: Milliseconds since the epoch, used only to say whether probation has expired.
        debounce_ms: Quiet time after an edit before the watcher re-reads the file.
    """

    TITLE = "tact-memory"
    SUB_TITLE = "memory browser"
    CSS_PATH = "browser.tcss"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # focus follows the view (:meth:`_show`)
    # Screen classes for small terminals; browser.tcss drops spacing, the title bar and borders under them.
    HORIZONTAL_BREAKPOINTS = [(0, "-cramped"), (CRAMPED, "-narrow"), (WIDE, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (SHORT, "-short"), (TALL, "-tall")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "cycle_order", "Order"),
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("d", "delete", "Delete"),
        Binding("r", "reload", "Reload"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        source: ConfigSource,
        *,
        config: Config | None = None,
        store_factory: Callable[[Path], MemoryBackend] = MemoryStore,
        team_store_factory: Callable[[TeamSettings], MemoryBackend] | None = None,
        workspace: str | os.PathLike[str] | None = None,
        watch: bool = True,
        clock: Callable[[], int] = now_ms,
        debounce_ms: int = 200,
    ) -> None:
        super().__init__()
        self.source = source
        self.config = read_config(source) if config is None else config
        self._store_factory = store_factory
        self._team_store_factory = team_store_factory
        self.workspace = workspace
        """The workspace folder given, or ``None`` for the current folder."""
        self.team = self._team_of(self.config)
        """The ``[memory.team]`` settings whose store is shown, or ``None`` for local memory."""
        self.store = self._new_store()
        self._calls = StoreCalls()
        self._pending: set[Worker[Any]] = set()
        self._loading: Worker[Listing] | None = None
        self._retry: Timer | None = None
        self._reload_said = False
        """``r`` was pressed and its read has not ended: the end says "Reloaded"."""
        self._deleting: Worker[Outcome] | None = None
        self._deleting_key: RecordKey | None = None
        self._quit_when_deleted = False
        self.watcher: ConfigWatcher | None = None
        self._watch = watch
        self._debounce_ms = debounce_ms
        self._clock = clock
        self._order_index = 0
        self._records: list[MemoryRecord] = []
        self._hidden: Mapping[RecordKey, str] = {}
        self._shown: list[MemoryRecord] = []
        self._config_error = False
        self.filter_text = ""
        self.message = ""
        """The last notice shown to the person (reloads, deletions, refusals)."""

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(id="status")
        with ContentSwitcher(initial="records", id="body"):
            yield RecordTable(id="records", cursor_type="row", zebra_stripes=True)
            for panel in PANELS:  # focusable, so a text longer than the body scrolls with the keys
                with VerticalScroll(id=panel, classes="panel"):
                    yield Static(id=f"{panel}-text")
        yield Static(id="no-match")
        yield FilterInput(placeholder="filter by content or id; enter keeps it, escape clears it", id="filter")
        yield Static(id="message")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._fit_screen()
        self._load()  # focuses the table if it is showing
        if self._watch:
            self.watcher = ConfigWatcher(
                self.source, on_reload=self._from_watcher, initial=self.config, debounce_ms=self._debounce_ms
            )
            self.watcher.start()

    def on_unmount(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        # A delete under way ends first: it commits or changes nothing. A read is left to end on
        # its own; the store is closed after it, on the store thread.
        self._calls.close(self.store.close, wait=self._deleting is not None)

    # -- store calls, off the screen's thread -----------------------------------------------------

    @property
    def idle(self) -> bool:
        """Whether no store call is waiting, under way, or ended without its result shown yet."""
        return not self._pending

    def _call(self, call: Callable[[], T], *, group: str) -> Worker[T]:
        """Run ``call`` on the store thread (:mod:`.calls`) in a worker; a ``load`` replaces the last.

        A read (``load``) not yet started is dropped when its worker is cancelled; any other call
        (a delete, closing a store) is kept.
        """
        read = group == "load"
        worker: Worker[T] = self.run_worker(partial(self._calls.run, call, keep=not read), group=group, exclusive=read)
        self._pending.add(worker)
        return worker

    @on(Worker.StateChanged)
    def _call_ended(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker not in self._pending or not worker.is_finished:
            return
        self._pending.discard(worker)
        try:
            self.query_one(ContentSwitcher)
        except NoMatches:  # ended while the app closes: there is nothing left to show it on
            return
        if worker is self._loading:
            self._loading = None
            if isinstance(worker.result, Listing):  # else cancelled by a newer read, or failed
                self._loaded(worker.result)
            else:
                self._update_status()
        elif worker is self._deleting:
            self._deleting = None
            self._deleting_key = None
            if isinstance(worker.result, Outcome):
                self._deleted(worker.result)

    # -- which store ----------------------------------------------------------------------------

    def _team_of(self, config: Config) -> TeamSettings | None:
        """The team settings when ``config`` gives the workspace the team store, else ``None``."""
        team = config.memory.team
        where = os.getcwd() if self.workspace is None else self.workspace
        return team if team is not None and team.covers(where) else None

    def _new_store(self) -> MemoryBackend:
        """The store for :attr:`team` (the team store) or for the database path (local memory)."""
        if self.team is None:
            # The database path depends only on the selected file, so one local store serves every reload.
            return self._store_factory(self.config.database_path)
        if self._team_store_factory is not None:
            return self._team_store_factory(self.team)
        return RemoteStore(
            self.team.endpoint, None, namespace=self.team.namespace,
            token_problem="no token: this browser was started without a way to read the team token",
        )  # fmt: skip

    def _follow_store(self) -> None:
        """Switch to the store the configuration now gives, closing the old one, if it changed.

        The old one is closed on the store thread, after the calls asked of it (a delete under way).
        """
        team = self._team_of(self.config)
        if team != self.team:
            self._call(self.store.close, group="close")
            self.team = team
            self.store = self._new_store()

    # -- state ---------------------------------------------------------------------------------

    @property
    def order(self) -> RecordOrder:
        """The order the list is in."""
        return ORDERS[self._order_index]

    @property
    def view(self) -> str:
        """Which body view is showing: ``records``, ``empty``, ``disabled`` or ``problem``."""
        return self.query_one(ContentSwitcher).current or "records"

    @property
    def shown(self) -> list[MemoryRecord]:
        """The records in the table, in display order, after the filter."""
        return list(self._shown)

    def _show(self, view: str, text: Text | None = None) -> None:
        """Show ``view`` (with ``text``, for a panel) and give it the keys, unless the filter line has them.

        A panel shown anew starts at the top of its text; one shown again (a retry that failed the
        same way, ``r``) keeps the place it was scrolled to, so reading it is not interrupted.
        """
        if text is not None:
            self.query_one(f"#{view}-text", Static).update(text)
        switcher = self.query_one(ContentSwitcher)
        if view != switcher.current and view in PANELS:
            self.query_one(f"#{view}", VerticalScroll).scroll_home(animate=False)
        shown_again = view == "records" and switcher.current != "records"
        switcher.current = view
        if shown_again:
            # While hidden the table had no width, and showing it again may bring no resize (its
            # width is what it was before): lay the rows out once it has its width back.
            self.call_after_refresh(self._fill)
        if not self.query_one(FilterInput).has_focus:
            self._focus_view()

    def _focus_view(self) -> None:
        """Give the keys to the view showing, also while a dialog covers it: the screen gives them back
        to it when the dialog closes, so a hidden table never keeps them (nor offers them in the footer)."""
        self.query_one(f"#{self.view}").focus()

    def say(self, text: str) -> None:
        """Show ``text`` on the message line until the next message."""
        self.message = text
        line = self.query_one("#message", Static)
        line.update(Text(text))
        line.display = bool(text)

    def _load(self) -> None:
        """Fetch the records again (telemetry untouched) on the store thread; :meth:`_loaded` shows them.

        Until then the list shows what it showed; a read asked before is dropped if not started,
        and so is a retry not yet due.
        """
        if self._retry is not None:
            self._retry.stop()
            self._retry = None
        if not self.config.memory.enabled:
            self._loading = None  # a read still under way is not shown
            self._records, self._hidden = [], {}
            self._call(self.store.close, group="close")  # disabled means no open database (I1)
            self._show("disabled", self._disabled_text())
            self._fill()
            return
        self._loading = self._call(partial(fetch, self.store, self.order), group="load")
        with contextlib.suppress(NoMatches):  # not mounted yet: the first status comes with the first fill
            self._update_status()

    def _loaded(self, listing: Listing) -> None:
        """Show what a read found, in the view that fits."""
        if self._reload_said:
            self._reload_said = False
            if listing.error is None:
                self.say(f"Reloaded {self.config.path.name} and the database.")
            else:  # the problem view says what went wrong; press r to try again
                self.say(f"Read {self.config.path.name} again; the database could not be read (press r to try again).")
        self._records, self._hidden = list(listing.records), listing.hidden
        error = listing.error
        if error is not None:
            reason = error.reason if isinstance(error, StoreUnavailable) else error.code
            passing = reason in PASSING
            self._show("problem", self._problem_text(reason, error.message, retrying=passing))
            if passing:
                self._retry = self.set_timer(RETRY_S, self._read_again)
        elif self._records:
            self._show("records")
        else:
            self._show("empty", self._empty_text())
        self._fill()

    def _fill(self) -> None:
        """Apply the filter and rebuild the table, cut to its width.

        The cursor stays on the record it was on; if that record is gone (deleted), it stays at the
        same row, or on the last row if the list got shorter.
        """
        table = self.query_one(RecordTable)
        current, place = self.highlighted, table.cursor_row
        self._shown = [r for r in self._records if matches(r, self.filter_text)]
        labels, widths, rows, content_width = self._layout()
        table.clear(columns=True)
        for label, width in zip(labels, widths):
            table.add_column(label, width=width)
        table.add_column(labels[-1], width=content_width)
        for record, cells in zip(self._shown, rows):
            table.add_row(
                *(Text(cell, justify="right" if label in RIGHT_ALIGNED else "left") for label, cell in zip(labels, cells)),
                Text(preview(record.content, content_width)),
                key=str(record.key.id),
            )
        ids = [r.key.id for r in self._shown]
        if current is not None and current.key.id in ids:
            table.move_cursor(row=ids.index(current.key.id), animate=False)
        elif current is not None and self._shown:
            table.move_cursor(row=min(place, len(self._shown) - 1), animate=False)
        no_match = self.query_one("#no-match", Static)
        no_match.display = self.view == "records" and not self._shown
        if no_match.display and self._loading is not None and not self._records:
            no_match.update(Text(
                f"Reading the database... another program may hold its lock; this waits up to {BUSY_TIMEOUT_S:g} s."
            ))  # fmt: skip
        elif no_match.display:
            no_match.update(Text(f'No record matches the filter "{self.filter_text}". Press escape to clear it.'))
        self._update_status()
        self.refresh_bindings()

    def _layout(self) -> tuple[tuple[str, ...], list[int], list[tuple[str, ...]], int]:
        """The headings, the widths and cells of every column but the content, and the content's width.

        The full columns while the content keeps :data:`ROOMY_CONTENT_WIDTH` cells, then the update
        date without its time, then fewer columns (:data:`DROPPED_FIRST`) down to the id.
        """
        team = any(record.key.namespace is not None for record in self._records)  # a team store's list
        labels, rows = self._labels(COLUMNS, team), self._cells(compact=False, team=team)
        widths, content_width = self._widths(labels, rows)
        if content_width < ROOMY_CONTENT_WIDTH:
            labels, rows = self._labels(COMPACT_COLUMNS, team), self._cells(compact=True, team=team)
            widths, content_width = self._widths(labels, rows)
        for dropped in DROPPED_FIRST:
            if content_width >= MIN_CONTENT_WIDTH:
                break
            if dropped in labels:
                keep = [i for i, label in enumerate(labels[:-1]) if label != dropped]
                labels = (*(labels[i] for i in keep), labels[-1])
                rows = [tuple(cells[i] for i in keep) for cells in rows]
                widths, content_width = self._widths(labels, rows)
        return labels, widths, rows, max(MIN_CONTENT_WIDTH, content_width)

    @staticmethod
    def _labels(labels: tuple[str, ...], team: bool) -> tuple[str, ...]:
        """The headings, with the namespace column before the content on a team store's list."""
        return (*labels[:-1], NAMESPACE_COLUMN, labels[-1]) if team else labels

    def _cells(self, *, compact: bool, team: bool = False) -> list[tuple[str, ...]]:
        """The text of every column but the content, for each shown record."""
        return [
            (
                str(record.key.id),
                str(record.key.version),
                str(record.read_count),
                when(record.updated_at_ms)[: 10 if compact else 16],
                self._note(record),
                *((preview(record.key.namespace or "", NAMESPACE_WIDTH),) if team else ()),
            )
            for record in self._shown
        ]

    def _note(self, record: MemoryRecord) -> str:
        """The NOTE cell: a delete under way, hidden from agents, or on probation."""
        if record.key == self._deleting_key:
            return "deleting"
        return "hidden" if record.key in self._hidden else "probation" if record.probation_until_ms else ""

    def _widths(self, labels: Sequence[str], rows: Sequence[tuple[str, ...]]) -> tuple[list[int], int]:
        """The width of each column but the content, and the cells left for the content (maybe none)."""
        table = self.query_one(RecordTable)
        widths = [cell_len(label) for label in labels[:-1]]
        for cells in rows:
            widths = [max(w, cell_len(cell)) for w, cell in zip(widths, cells)]
        padding = 2 * table.cell_padding * len(labels)
        return widths, table.scrollable_content_region.width - sum(widths) - padding

    @on(RecordTable.Resized)
    def _table_resized(self) -> None:
        self._fill()

    def on_resize(self, event: events.Resize) -> None:
        # Runs before Textual's own handler: ``self.size`` is still the old size here.
        self._fit_screen(event.size)
        self.call_after_refresh(self._resized)

    def _resized(self) -> None:
        try:
            self._update_status()
        except NoMatches:  # resized before the widgets exist
            pass

    def _fit_screen(self, size: Size | None = None) -> None:
        """Cover every screen with :class:`~.screens.TooSmallScreen` while the terminal is under
        :data:`MIN_SIZE`, and take it away once it has grown."""
        width, height = self.size if size is None else size
        small = width < MIN_SIZE.width or height < MIN_SIZE.height
        covered = isinstance(self.screen, TooSmallScreen)
        if small and not covered:
            self.push_screen(TooSmallScreen(MIN_SIZE))
        elif covered and not small:
            self.pop_screen()

    def _update_status(self) -> None:
        """The status line, wrapped between its parts when the terminal is narrow.

        Under :data:`~.screens.SHORT` rows it takes at most :data:`STATUS_LINES_TINY` lines: the
        parts about the list come first there, and the others are left out whole if they do not fit.
        """
        about_memory = [
            Text(f"memory {'enabled' if self.config.memory.enabled else 'disabled'}", style="bold"),
            Text(display_path(self.config.path)),
        ]
        if self.team is not None and self.config.memory.enabled:
            about_memory.append(Text(f"team store {self.team.endpoint}", style="bold"))
        about_list = []
        if self.view in ("records", "empty"):
            about_list.append(Text(f"{len(self._records)} record{'s' if len(self._records) != 1 else ''}"))
            about_list.append(Text(f"order: {ORDER_LABELS[self.order]}", style="bold"))
            if self.filter_text:
                about_list.append(Text(f'filter "{self.filter_text}": {len(self._shown)} shown'))
        if self._loading is not None:  # the rows shown are the last read's until this one ends
            about_list.append(Text("reading...", style="italic"))
        status = self.query_one("#status", Static)
        width = self.size.width - status.styles.gutter.width
        if self.size.height < SHORT:
            status.update(status_lines([*about_list, *about_memory], width, most=STATUS_LINES_TINY))
        else:
            status.update(status_lines([*about_memory, *about_list], width))

    @property
    def highlighted(self) -> MemoryRecord | None:
        """The record under the cursor, if the list is showing one."""
        table = self.query_one(RecordTable)
        if self.view != "records" or not self._shown or not 0 <= table.cursor_row < len(self._shown):
            return None
        return self._shown[table.cursor_row]

    # -- text of the non-list views ------------------------------------------------------------

    def _disabled_text(self) -> Text:
        path = display_path(self.config.path)
        text = Text.assemble(("Memory is disabled.\n\n", "bold"))
        if self.config.exists and declares_table(self.config.path, "memory"):
            text.append("To enable it, set ")
            text.append("enabled = true", style="bold")
            text.append(f" under [memory] in {path}.\n\n")
        else:
            if self.config.exists:
                text.append(f"To enable it, add these lines to {path}:\n\n")
            else:
                text.append(f"{path} does not exist (defaults are in force). To enable memory, create it with:\n\n")
            text.append("    [memory]\n    enabled = true\n\n", style="bold")
        text.append(
            "This browser shows the records as soon as the file is saved. Running agent sessions keep "
            "the memory setting they started with; new and restored sessions use the new one."
        )
        return text

    def _empty_text(self) -> Text:
        if self.team is not None:
            return Text.assemble(
                ("No memories stored.\n\n", "bold"), f"The team service {self.team.endpoint} holds no record you may read."
            )
        path = display_path(self.config.database_path)
        if not self.config.database_path.exists():
            text = Text.assemble(("No memories yet.\n\n", "bold"))
            text.append(
                f"The database {path} has not been created. The first memory an agent stores creates it; "
                "browsing creates nothing."
            )
            return text
        return Text.assemble(("No memories stored.\n\n", "bold"), f"The database {path} holds no records.")

    def _read_again(self) -> None:
        """The retry of a read that failed for a passing cause, unless something read since."""
        self._retry = None
        if self._loading is None and self.view == "problem" and self.config.memory.enabled:
            self._load()

    def _problem_text(self, reason: str, message: str, *, retrying: bool = False) -> Text:
        what = "Team memory" if self.team is not None else "The memory database"
        text = Text.assemble((f"{what} cannot be used ({reason}).\n\n", "bold"))
        text.append(f"{message}\n\n")
        if retrying:
            text.append(f"The browser reads it again every {RETRY_S:g} s until this passes; r reads it now.\n\n")
        text.append("The browser changed nothing. `tact-memory status` shows the same diagnosis.")
        return text

    # -- configuration reloads -----------------------------------------------------------------

    def _from_watcher(self, event: ReloadEvent) -> None:
        # Runs on the watcher thread; post_message is the thread-safe way into the app.
        self.post_message(ConfigReloaded(event))

    @on(ConfigReloaded)
    def _on_config_reloaded(self, message: ConfigReloaded) -> None:
        self.apply_reload(message.event)

    def apply_reload(self, event: ReloadEvent) -> None:
        """Switch to the configuration in ``event`` and say what happened.

        The browser follows the new memory setting at once; the notice explains that running agent
        sessions do not. A failed reload keeps the configuration in force and shows the error.
        """
        self.config = event.config
        self._follow_store()
        if event.error is not None or event.config != event.previous or self._config_error:
            self.say(event.notice)
        self._config_error = event.error is not None
        if not self.config.memory.enabled:
            while len(self.screen_stack) > 1:  # the records are hidden everywhere, at once
                self.pop_screen()
            self._fit_screen()  # a terminal still too small is covered again
        self._load()

    # -- actions -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer list actions only on the list, and only where they can do something."""
        if action in ("cycle_order", "filter", "delete", "clear_filter", "reload"):
            if len(self.screen_stack) > 1:
                return False
            try:
                view, filtering = self.view, self.query_one(FilterInput).has_focus
            except NoMatches:  # asked before the widgets exist
                return True
            if action in ("cycle_order", "filter", "delete") and view != "records":
                return False
            if action == "delete" and (not self._shown or self._deleting is not None):
                return False  # nothing to delete, or one delete is under way
            if action == "filter" and filtering:
                return False  # "/" is text in the filter line
        return True

    def action_cycle_order(self) -> None:
        """Next order: most useful, newest, oldest, least useful, and round again."""
        self._order_index = (self._order_index + 1) % len(ORDERS)
        self._load()

    def action_filter(self) -> None:
        """Open the filter line."""
        field = self.query_one("#filter", Input)
        field.add_class("-open")
        field.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self._fill()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.query_one("#filter", Input).remove_class("-open")
        self._focus_view()

    def action_clear_filter(self) -> None:
        """Close the filter line and show every record again."""
        field = self.query_one("#filter", Input)
        field.remove_class("-open")
        if field.value:
            field.value = ""  # posts Input.Changed, which refills the table
        self.filter_text = ""
        self._fill()
        self._focus_view()  # a panel's keys too: escape is offered in every view

    def action_reload(self) -> None:
        """Re-read config.toml and the database; say so once the database has been read."""
        before = self.message
        self.apply_reload(reload(self.config, self.source))
        if self.message == before:  # nothing to report about the config itself
            if self._loading is not None:
                self._reload_said = True  # :meth:`_loaded` says it when the read has ended
                self.say(f"Reading {self.config.path.name} and the database again...")
            else:
                self.say(f"Reloaded {self.config.path.name} and the database.")

    @on(DataTable.RowSelected, "#records")
    def _open(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self._shown):
            record = self._shown[event.cursor_row]
            self.push_screen(
                DetailScreen(
                    record,
                    secret_kind=self._hidden.get(record.key),
                    now_ms=self._clock(),
                    on_delete=self.confirm_delete,
                )
            )

    def action_delete(self) -> None:
        """Ask to delete the highlighted record."""
        record = self.highlighted
        if record is not None:
            self.confirm_delete(record)

    def confirm_delete(self, record: MemoryRecord) -> None:
        """Show ``record`` and delete it at the displayed version if the person presses ``y``."""
        if self._deleting_key is not None:  # shown over the detail view too, which hides the message line
            busy = f"Memory {self._deleting_key.id} is being deleted; wait for the outcome before another delete."
            self.say(busy)
            self.notify(busy, severity="warning")
            return
        self.push_screen(ConfirmDeleteScreen(record), partial(self._confirmed, record, self.store))

    def _confirmed(self, record: MemoryRecord, store: MemoryBackend, answer: bool | None) -> None:
        key = record.key
        if not answer:
            self.say(f"Kept memory {key.id}.")
            return
        if not self.config.memory.enabled:
            self.say(f"Memory {key.id} was not deleted: memory was disabled meanwhile.")
            return
        self._back_to_list()
        if self.store is not store:
            self.say(
                f"Not deleted: the browser switched to another store while you were confirming, so memory "
                f"{key.id} there is not the record you saw. The list was reloaded; look again."
            )
            self._load()
            return
        # The delete waits on the store thread (for another process's write lock, up to the busy
        # timeout); the list stays usable, marks the record, and offers no second delete meanwhile.
        self._deleting_key = key
        self._deleting = self._call(partial(delete_shown, store, record), group="delete")
        self.say(
            f"Deleting memory {key.id}... If another program is writing to the database, this waits for it "
            f"(up to {BUSY_TIMEOUT_S:g} s)."
        )
        self._fill()

    def _deleted(self, outcome: Outcome) -> None:
        """Say how the delete ended and show the list as it is now (quitting, if asked meanwhile)."""
        self.say(outcome.message)
        if self._quit_when_deleted:
            self.exit(message=outcome.message)
            return
        self._load()
        self.refresh_bindings()

    def _back_to_list(self) -> None:
        while isinstance(self.screen, DetailScreen):
            self.pop_screen()

    async def action_quit(self) -> None:
        """Quit; while a delete is under way, once it has ended (it commits or changes nothing).

        A read still waiting (for a lock, for the network) does not hold quitting up.
        """
        if self._deleting is None:
            self.exit()
            return
        self._quit_when_deleted = True
        self.say("Quitting once the delete under way ends; its outcome is printed after the browser closes.")

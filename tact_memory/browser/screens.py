"""The browser's record views: full detail, delete confirmation, and the text they share.

Everything here renders a :class:`~tact_memory.records.MemoryRecord` the app already fetched with
``list_records``; no screen talks to the store, so opening a record can never count as a read.
Text is built as :class:`rich.text.Text`, never as markup, because record content is arbitrary
(``[memory]`` would otherwise be parsed as a style tag). Content is shown whole, since a person must
see all of what they delete, but as :func:`.clusters.in_full` draws it: controls as escapes, and
each cluster too long to draw (a kibibyte of combining marks on one letter) as U+FFFD. Times are
shown in UTC, so the same record looks the same on every machine and in snapshots.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header, Static
from textual.widgets._footer import FooterKey  # Footer's own key widget (not re-exported)

from ..clock import format_ms as when
from ..limits import DEFAULT_LIMITS
from ..records import MemoryRecord
from ..retrieval.lexer import utf8_size
from ..screening.checkpoint import IMITATION_KIND
from ..screening.credentials import KINDS
from .clusters import in_full

__all__ = ["ConfirmDeleteScreen", "DetailScreen", "KeysFooter", "TooSmallScreen", "display_path", "when"]

CRAMPED = 40
"""Below this many columns the terminal is cramped: the confirmation puts each answer on a line of its own."""
WIDE = 80
"""From this many columns the terminal is wide: below it the dialogs and the keys line lose their spacing."""
SHORT = 16
"""Below this many rows the terminal is tiny: no title bar, one-line filter, fewer lines of status and notice."""
TALL = 24
"""From this many rows the terminal is tall: the confirmation keeps its blank lines."""

DELETION_NOTE = (
    "Deleting removes the record from the memory database and from retrieval at once. It is not proof "
    "of erasure: copies may remain in SQLite free pages or journals, backups and snapshots, agent "
    "transcripts and provider logs."
)


def display_path(path: Path) -> str:
    """``path`` with the home folder shortened to ``~``, which is how people recognise it."""
    try:
        return f"~/{path.relative_to(Path.home())}"
    except (ValueError, RuntimeError):  # outside home, or no home folder at all
        return str(path)


def hidden_note(kind: str | None) -> str:
    """Whether agents can see the record, in words."""
    if kind is None:
        return "visible to agents (scan and read)"
    if kind == IMITATION_KIND:
        return "hidden from agents: it imitates the runtime's control text; delete it"
    return f"hidden from agents: it looks like {KINDS.get(kind, 'a credential')}; delete it"


def probation_note(record: MemoryRecord, now_ms: int) -> str:
    """The probation state of the current version, in words."""
    until = record.probation_until_ms
    if until is None:
        return "none: this version has been read"
    if until <= now_ms:
        return f"expired {when(until)}: unread, so it is pruned first when space is needed"
    return f"until {when(until)}: unread so far; a read ends it, a scan does not"


def _count(count: int, last_ms: int | None) -> str:
    return f"{count} (last {when(last_ms)})" if last_ms is not None else f"{count} (never)"


def _fields(rows: list[tuple[str, str]]) -> Text:
    width = max(len(label) for label, _ in rows) + 2
    text = Text()
    for label, value in rows:
        text.append(label.ljust(width), style="bold")
        text.append(value + "\n")
    text.rstrip()
    return text


class KeysFooter(Footer):
    """The keys line; on a narrow terminal without the spaces between the keys, so more of them fit,
    and with only the keys that fit whole: a key cut short ("r Re") says nothing. The quit key is
    kept before the others, so a terminal too narrow for every key still says how to leave."""

    _width = -1

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < WIDE
        if event.size.width != self._width:
            self._width = event.size.width
            self.call_after_refresh(self.recompose)  # which keys fit depends on the width

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        room = self.app.size.width
        for key in sorted((w for w in widgets if isinstance(w, FooterKey)), key=lambda k: not k.action.endswith("quit")):
            if self.compact:  # the key, a space and the description, then a one-cell margin
                need, margin = cell_len(key.key_display) + (1 + cell_len(key.description) if key.description else 0), 1
            else:  # the key padded by a space each side, the description and a space
                need, margin = cell_len(key.key_display) + 2 + (cell_len(key.description) + 1 if key.description else 0), 0
            if need > room:
                key.display = False
                room = -1  # once one is left out, the ones after it are too: the order stays
            room -= need + margin
        yield from widgets


class DetailScreen(Screen[None]):
    """One record in full: content and every piece of metadata.

    The record scrolls with the arrow and page keys, so all of it is reachable on a small terminal.
    Bindings: ``escape`` back to the list, ``d`` delete (after confirmation), ``q`` quit.
    """

    AUTO_FOCUS = "#detail"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("d", "delete", "Delete"),
    ]

    def __init__(
        self,
        record: MemoryRecord,
        *,
        secret_kind: str | None,
        now_ms: int,
        on_delete: Callable[[MemoryRecord], None],
    ) -> None:
        super().__init__()
        self.record = record
        self._secret_kind = secret_kind
        self._now_ms = now_ms
        self._on_delete = on_delete

    def compose(self) -> ComposeResult:
        r = self.record
        yield Header(icon="")
        with VerticalScroll(id="detail"):
            yield Static(Text(f"Memory {r.key.id}, version {r.key.version}", style="bold"), id="detail-title")
            yield Static(Text(in_full(r.content)), id="detail-content")
            yield Static(
                _fields([
                    ("created", when(r.created_at_ms)),
                    ("updated", f"{when(r.updated_at_ms)} (version {r.key.version} written)"),
                    ("reads", f"{_count(r.read_count, r.last_read_at_ms)}: deliberate use, what 'most useful' counts"),
                    ("scans", f"{_count(r.scan_count, r.last_scanned_at_ms)}: returned as a candidate, not a read"),
                    ("probation", probation_note(r, self._now_ms)),
                    ("size", f"{utf8_size(r.content):,} of {DEFAULT_LIMITS.record_bytes:,} bytes"),
                    ("agents", hidden_note(self._secret_kind)),
                ]),  # fmt: skip
                id="detail-fields",
            )
        yield KeysFooter()

    def action_back(self) -> None:
        """Return to the list."""
        self.dismiss()

    def action_delete(self) -> None:
        """Ask to delete the record shown here."""
        self._on_delete(self.record)


_SCROLL_KEYS = {"up": "up", "down": "down", "pageup": "page_up", "pagedown": "page_down", "home": "home", "end": "end"}
"""The keys that scroll the record in the delete confirmation, and the scroll each makes."""


class ConfirmDeleteScreen(ModalScreen[bool]):
    """Show the record and ask once: ``y`` deletes it, any other key keeps it, except the arrow,
    page, home and end keys, which scroll the record (a long one on a small terminal is read to its
    end before it is answered for)."""

    # Shown in the footer only: :meth:`on_key` takes every key before bindings are consulted.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Delete"),
        Binding("escape", "answer(False)", "Keep (any other key)"),
        Binding("up,down", "scroll", "Scroll", key_display="\u2191\u2193"),
    ]

    def __init__(self, record: MemoryRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        r = self.record
        # The question and the answer keys are docked, so a small terminal scrolls the record and
        # the note between them and never hides what to press.
        with VerticalScroll(id="confirm"):
            yield Static(Text(f"Delete memory {r.key.id} (version {r.key.version})?", style="bold"), id="confirm-title")
            with Container(id="confirm-keys"):  # side by side; one above the other when narrow
                yield Static(Text.assemble(("y", "bold reverse"), " delete"), id="confirm-delete")
                yield Static(Text.assemble(("any other key", "bold reverse"), " keep it"), id="confirm-keep")
            yield Static(Text(in_full(r.content)), id="confirm-content")
            yield Static(Text(DELETION_NOTE), id="confirm-note")
        yield KeysFooter()

    def action_answer(self, delete: bool) -> None:
        """Close with the answer (reached only if a key is routed to bindings after all)."""
        self.dismiss(delete)

    def action_scroll(self) -> None:
        """Nothing: :meth:`on_key` scrolls (the binding names the scroll keys in the keys line)."""

    def on_key(self, event: events.Key) -> None:
        # Every key is taken here, so nothing typed can reach the list behind (a stray `d` or `q`);
        # a scroll key scrolls, every other one answers.
        event.stop()
        event.prevent_default()
        scroll = _SCROLL_KEYS.get(event.key)
        if scroll is not None:
            getattr(self.query_one("#confirm", VerticalScroll), f"scroll_{scroll}")(animate=False)
            return
        self.dismiss(event.key == "y")


class TooSmallScreen(Screen[None]):
    """Shown over every other screen while the terminal is smaller than ``needed``; says what size is.

    The app pops it once the terminal has grown. Only ``q`` works meanwhile: no key reaches the
    screens underneath, so nothing is confirmed or deleted unseen.
    """

    def __init__(self, needed: Size) -> None:
        super().__init__()
        self.needed = needed

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        self.say(event.size)

    def say(self, size: Size) -> None:
        """Name the terminal's ``size`` and the size needed."""
        text = Text.assemble(
            (f"Too small: {size.width}\u00d7{size.height}\n", "bold"),
            f"The browser needs {self.needed.width}\u00d7{self.needed.height}. Enlarge the terminal; q quits.",
        )
        self.query_one("#too-small", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        if event.key != "q":  # q reaches the app's quit binding; nothing else goes anywhere
            event.stop()
            event.prevent_default()

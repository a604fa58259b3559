"""Stored text in clusters a terminal can draw: no cluster stacks more than a few code points on a cell.

Cutting text to a width in cells does not bound what is drawn: combining marks, zero-width
joiners, variation selectors, tag characters and other format characters take no cell, so ``'e'``
followed by a thousand U+0301 is one cell wide and a thousand code points long. A terminal piles
them all onto one cell (or over the rows around it), and a widget measures and copies every one of
them on each redraw.

So text is shown in clusters: a character that takes a cell, with the zero-width characters after
it and whatever a zero-width joiner joins to it. A cluster longer than :data:`MAX_CLUSTER` code
points (no written character needs as many), or one that starts with a character taking no cell
(which has nothing to sit on, so a terminal puts it on whatever cell comes before), is shown as
U+FFFD, one cell. Cells are counted as Rich counts them, which is how Textual lays text out. The
list's cell (:mod:`.preview`) and the views that show a record in full (:func:`in_full`) follow
this one rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len, get_character_cell_size

from ..screening.display import terminal_safe

__all__ = ["MAX_CLUSTER", "REPLACEMENT", "clusters", "in_full"]

MAX_CLUSTER = 12
"""The most code points one cluster may have and be shown as itself (an emoji ZWJ sequence with
skin tones has ten)."""
REPLACEMENT = "\ufffd"
_ZWJ = "\u200d"
_BREAKS = re.compile(r"([\t\n])")


def _raw_clusters(text: str) -> Iterator[str]:
    """``text`` in clusters; one longer than :data:`MAX_CLUSTER` is cut to one code point more."""
    cluster: list[str] = []
    last = ""  # the character before, kept or not: a joiner past the cut still joins
    for ch in text:
        if cluster and (last == _ZWJ or get_character_cell_size(ch) == 0):
            if len(cluster) <= MAX_CLUSTER:
                cluster.append(ch)
        else:
            if cluster:
                yield "".join(cluster)
            cluster = [ch]
        last = ch
    if cluster:
        yield "".join(cluster)


def clusters(text: str) -> Iterator[str]:
    """The clusters of ``text``, each as itself or as U+FFFD when it is too long or starts with no cell.

    ``text`` must already be safe for a terminal and hold no tab or line break (each of which takes
    no cell, and would join the cluster before it).
    """
    for cluster in _raw_clusters(text):
        drawable = len(cluster) <= MAX_CLUSTER and get_character_cell_size(cluster[0]) > 0 and cell_len(cluster) > 0
        yield cluster if drawable else REPLACEMENT


def in_full(text: str) -> str:
    """All of ``text`` for a view that wraps: terminal safe, and each cluster drawable.

    Args:
        text: Stored content, of any origin.

    Returns:
        ``text`` made :func:`~tact_memory.screening.display.terminal_safe` (controls shown as
        escapes), its tabs and line breaks kept, and every cluster too long or starting without a
        cell shown as U+FFFD. Text without such a cluster or character is returned as it is.

    Example:
        >>> in_full("e" + "\\u0301" * 1000 + " ok\\n\\x1b[2J")
        '\\ufffd ok\\n\\\\x1b[2J'
    """
    parts = _BREAKS.split(terminal_safe(text))
    return "".join(part if part in ("\t", "\n") else "".join(clusters(part)) for part in parts)

"""A record's content as one list cell: bounded in terminal cells and in code points, whatever it holds.

Cutting text to a column's width in cells does not bound what is drawn: combining marks, zero-width
joiners, variation selectors and tag characters take no cell, so ``'e'`` followed by a thousand
U+0301 is one cell wide and a thousand code points long. A terminal piles them all onto one cell
(or over the rows around it), and the table measures and copies every one of them on each redraw.

So the preview is made of clusters: a character that takes a cell, with the zero-width characters
after it and whatever a zero-width joiner joins to it. A cluster longer than
:data:`MAX_CLUSTER` code points (no written character needs as many) or that takes no cell at all
(zero-width characters with nothing before them) is shown as U+FFFD, one cell. Whole clusters are
kept while they fit in ``width`` cells and :data:`CODE_POINTS_PER_CELL` times as many code points;
a preview that had to stop ends with ``…``. Cells are counted as Rich counts them, which is how
the table lays the cell out. Control characters and bidirectional controls never reach a cluster:
the text is made one safe line first (:func:`~tact_memory.screening.display.one_line`).
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len, get_character_cell_size

from ..screening.display import one_line

__all__ = ["CODE_POINTS_PER_CELL", "MAX_CLUSTER", "preview"]

MAX_CLUSTER = 12
"""The most code points one cluster may have and be shown as itself (an emoji ZWJ sequence with
skin tones has ten)."""
CODE_POINTS_PER_CELL = 4
"""A preview ``width`` cells wide holds at most this many times ``width`` code points."""
ELLIPSIS = "…"
REPLACEMENT = "\ufffd"
_ZWJ = "\u200d"


def _clusters(text: str) -> Iterator[str]:
    """``text`` in clusters; one longer than :data:`MAX_CLUSTER` is cut to one code point more."""
    cluster: list[str] = []
    for ch in text:
        if cluster and (cluster[-1] == _ZWJ or get_character_cell_size(ch) == 0):
            if len(cluster) <= MAX_CLUSTER:
                cluster.append(ch)
            continue
        if cluster:
            yield "".join(cluster)
        cluster = [ch]
    if cluster:
        yield "".join(cluster)


def preview(text: str, width: int) -> str:
    """One line of ``text`` at most ``width`` cells and ``CODE_POINTS_PER_CELL * width`` code points.

    Args:
        text: Stored content, of any origin.
        width: The cells the column gives the content.

    Returns:
        The safe one-line form of ``text`` when it fits; else its first whole clusters and ``…``.

    Example:
        >>> preview("e" + "\\u0301" * 1000 + " ok", 12)
        '\\ufffd ok'
    """
    if width < 1:
        return ""
    limit = CODE_POINTS_PER_CELL * width
    parts: list[str] = []
    cells = points = 0
    cut = False
    for cluster in _clusters(one_line(text)):
        size = cell_len(cluster)
        if size == 0 or len(cluster) > MAX_CLUSTER:
            cluster, size = REPLACEMENT, 1
        if cells + size > width or points + len(cluster) > limit:
            cut = True
            break
        parts.append(cluster)
        cells += size
        points += len(cluster)
    if cut:
        while parts and (cells + 1 > width or points + 1 > limit):
            last = parts.pop()
            cells -= cell_len(last)
            points -= len(last)
        parts.append(ELLIPSIS)
    # Rich measures a whole line, not cluster by cluster; should the two differ, cut again.
    while len(parts) > 1 and cell_len("".join(parts)) > width:
        parts.pop(-2 if cut else -1)
    return "".join(parts)

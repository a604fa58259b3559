"""A record's content as one list cell: bounded in terminal cells and in code points, whatever it holds.

The preview is made of clusters, each drawn as itself or as U+FFFD (:mod:`.clusters`, the rule the
views that show a record in full follow too). Whole clusters are kept while they fit in ``width``
cells and :data:`CODE_POINTS_PER_CELL` times as many code points; a preview that had to stop ends
with ``…``. Cells are counted as Rich counts them, which is how the table lays the cell out.
Control characters, bidirectional controls, tabs and line breaks never reach a cluster: the text is
made one safe line first (:func:`~tact_memory.screening.display.one_line`). A team store's
namespaces are cut the same way, to their own column.
"""

from __future__ import annotations

from rich.cells import cell_len

from ..screening.display import one_line
from .clusters import clusters

__all__ = ["CODE_POINTS_PER_CELL", "preview"]

CODE_POINTS_PER_CELL = 4
"""A preview ``width`` cells wide holds at most this many times ``width`` code points."""
ELLIPSIS = "…"


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
    for cluster in clusters(one_line(text)):
        size = cell_len(cluster)
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

"""How every number of the evaluation's output is written: one rule for the summary, report and sweep.

Integers print with thousands separators (``1,024``); so does any value of 100 or more, as a
whole number (a mean of ``361.0`` tokens prints ``361``, never ``361.000``); smaller fractions,
shares and rates keep three decimals (``0.875``, ``1.000``); and anything measured over nothing
prints ``n/a``, never ``0``; an interval or a list reads ``[0.647, 0.915]``. A McNemar p-value
always reads ``p = 0.004`` or ``p < 0.001``.
The functions are pure, so the text summary, ``report.md``, the chart labels and ``--tune`` agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["MISSING", "confidence", "number", "p_value", "text_table"]

MISSING = "n/a"
"""What a value measured over no cases (``None``) prints as."""


def number(value: object) -> str:
    """``value`` as the evaluation writes it: ``1,024``, ``361``, ``0.875``, ``1.000``, ``yes``, ``n/a``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:.3f}"
    if isinstance(value, (list, tuple)):  # an interval, or a table of counts
        return "[" + ", ".join(number(item) for item in value) + "]"
    return str(value)


def confidence(alpha: float) -> str:
    """The level of an interval at ``alpha``: ``95 %``."""
    return f"{round(100 * (1 - alpha))} %"


def p_value(value: float | None) -> str:
    """An exact test's p-value: ``p = 0.004``, ``p < 0.001``, or ``p n/a`` without discordant pairs."""
    if value is None:
        return f"p {MISSING}"
    if value < 0.001:
        return "p < 0.001"
    return f"p = {value:.3f}"


def text_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """An aligned plain-text table: text columns to the left, numbers to the right."""
    cells = [[number(cell) for cell in row] for row in rows]
    numeric = [
        all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) or row[i] is None for row in rows)
        for i in range(len(header))
    ]
    widths = [max([len(title), *(len(row[i]) for row in cells)]) for i, title in enumerate(header)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if right else v.ljust(w) for v, w, right in zip(values, widths, numeric)).rstrip()

    return [line(list(header)), line(["-" * w for w in widths]), *(line(row) for row in cells)]

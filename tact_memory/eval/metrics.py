"""Pure metric functions: retrieval quality, percentiles, token estimates, markers, a paired test.

Nothing here does I/O or knows about runs; :mod:`tact_memory.eval.summary` applies these to traces.
Every function states what it returns for the empty or undefined case, because with a few dozen
scenarios those cases are common: an undefined value is ``None`` and is left out of averages,
never silently counted as zero or one.

Token estimate: ``ceil(utf8_bytes / 4)``. It is deterministic, needs no tokenizer download, and is
close to what BPE tokenizers give for English prose and code (about four bytes a token); it
overestimates non-Latin text, which errs on the side of a tighter context budget.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

__all__ = [
    "contains_all",
    "contains_marker",
    "estimate_tokens",
    "mcnemar_exact",
    "mean",
    "percentile",
    "precision_at_k",
    "rate",
    "recall_at_k",
    "reciprocal_rank",
    "set_precision",
]


def precision_at_k(returned: Sequence[int], relevant: Collection[int], k: int = 5) -> float | None:
    """Share of the first ``k`` returned ids that are relevant; ``None`` when nothing was returned."""
    top = list(returned)[:k]
    if not top:
        return None
    return sum(1 for id_ in top if id_ in relevant) / len(top)


def recall_at_k(returned: Sequence[int], relevant: Collection[int], k: int = 5) -> float | None:
    """Share of the relevant ids among the first ``k`` returned; ``None`` when none is relevant."""
    wanted = set(relevant)
    if not wanted:
        return None
    return len(wanted & set(list(returned)[:k])) / len(wanted)


def reciprocal_rank(returned: Sequence[int], relevant: Collection[int]) -> float | None:
    """``1 / rank`` of the first relevant id (0.0 when none is returned); ``None`` when none is relevant."""
    if not relevant:
        return None
    for rank, id_ in enumerate(returned, start=1):
        if id_ in relevant:
            return 1.0 / rank
    return 0.0


def set_precision(chosen: Collection[int], relevant: Collection[int]) -> float | None:
    """Share of ``chosen`` ids that are relevant (read precision); ``None`` when nothing was chosen."""
    picked = set(chosen)
    if not picked:
        return None
    return len(picked & set(relevant)) / len(picked)


def mean(values: Iterable[float | None]) -> float | None:
    """Arithmetic mean of the defined values; ``None`` when there are none."""
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


def rate(hits: int, total: int) -> float | None:
    """``hits / total``; ``None`` when ``total`` is zero."""
    return hits / total if total else None


def percentile(values: Iterable[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100) by linear interpolation between closest ranks.

    Returns ``None`` for no values. Monotone in ``q``, so p95 is never below p50.
    """
    ordered = sorted(values)
    if not ordered:
        return None
    if not 0 <= q <= 100:
        raise ValueError(f"q must be within 0..100, got {q}")
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    fraction = position - low
    return ordered[low] + (ordered[high] - ordered[low]) * fraction


def estimate_tokens(text: str) -> int:
    """Estimated model tokens of ``text``: ``ceil(utf8_bytes / 4)``; 0 only for the empty string."""
    return -(-len(text.encode("utf-8")) // 4)


def contains_marker(text: str, marker: str | Sequence[str]) -> bool:
    """Whether ``text`` contains ``marker``, ignoring case; a list of strings accepts any of them."""
    folded = text.casefold()
    options = [marker] if isinstance(marker, str) else list(marker)
    return any(option.casefold() in folded for option in options if option)


def contains_all(text: str, markers: Iterable[str | Sequence[str]]) -> bool:
    """Whether ``text`` contains every marker; an empty marker list is never contained."""
    wanted = list(markers)
    return bool(wanted) and all(contains_marker(text, m) for m in wanted)


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """Two-sided exact McNemar p-value for paired binary outcomes.

    Args:
        only_first: Pairs where only the first arm succeeded.
        only_second: Pairs where only the second arm succeeded.

    Returns:
        The probability, under no difference, of a split of the discordant pairs at least this
        uneven; 1.0 when there are no discordant pairs.
    """
    if only_first < 0 or only_second < 0:
        raise ValueError("counts must not be negative")
    n = only_first + only_second
    if n == 0:
        return 1.0
    k = min(only_first, only_second)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / float(2**n)
    return min(1.0, 2.0 * tail)

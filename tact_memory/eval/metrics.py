"""Pure metric functions: retrieval quality, percentiles, token estimates, markers, paired tests and intervals.

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
from collections.abc import Callable, Collection, Iterable, Sequence
from fractions import Fraction

__all__ = [
    "PairedCounts",
    "contains_all",
    "contains_marker",
    "estimate_tokens",
    "mcnemar_exact",
    "mean",
    "mean_interval",
    "paired_difference_interval",
    "percentile",
    "quantile_interval",
    "quantile_min_samples",
    "precision_at_k",
    "rate",
    "recall_at_k",
    "reciprocal_rank",
    "set_precision",
    "wilson_interval",
    "z_value",
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
        uneven; 1.0 when there are no discordant pairs. The tail is summed and divided in
        integers (:class:`~fractions.Fraction`), so any number of pairs gives a probability: a
        float ``2**n`` overflows from 1,024 discordant pairs.
    """
    if only_first < 0 or only_second < 0:
        raise ValueError("counts must not be negative")
    n = only_first + only_second
    if n == 0:
        return 1.0
    k = min(only_first, only_second)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))


def z_value(alpha: float) -> float:
    """The two-sided standard normal quantile for significance ``alpha`` (1.959964 for 0.05).

    Computed by bisection on ``erf``, so no statistics package is needed.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be within (0, 1), got {alpha}")
    target = 1 - alpha / 2
    low, high = 0.0, 10.0
    for _ in range(100):
        middle = (low + high) / 2
        if 0.5 * (1 + math.erf(middle / math.sqrt(2))) < target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def wilson_interval(hits: int, total: int, alpha: float = 0.05) -> tuple[float, float] | None:
    """The Wilson score interval of the proportion ``hits / total`` at level ``1 - alpha``;
    ``None`` when ``total`` is zero. Unlike ``p ± z·se`` it stays within [0, 1] and is not
    degenerate at 0 or ``total`` hits (0 of 10 gives about [0, 0.28], not [0, 0])."""
    if total <= 0:
        return None
    if not 0 <= hits <= total:
        raise ValueError(f"need 0 <= hits <= total, got {hits} of {total}")
    z = z_value(alpha)
    p = hits / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    # At 0 or ``total`` hits an end is exactly 0 or 1 (the formula leaves a rounding error there).
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == total else min(1.0, centre + half)
    return low, high


class PairedCounts(tuple[int, int, int, int]):
    """The 2x2 table of one binary outcome over pairs: ``(both, only_first, only_second, neither)``."""

    __slots__ = ()

    def __new__(cls, both: int, only_first: int, only_second: int, neither: int) -> PairedCounts:
        if min(both, only_first, only_second, neither) < 0:
            raise ValueError("counts must not be negative")
        return super().__new__(cls, (both, only_first, only_second, neither))

    @property
    def total(self) -> int:
        """The number of pairs."""
        return sum(self)

    @property
    def difference(self) -> float | None:
        """First rate minus second rate; ``None`` for no pairs."""
        return rate(self[1] - self[2], self.total)


def paired_difference_interval(counts: PairedCounts, alpha: float = 0.05) -> tuple[float, float] | None:
    """Newcombe's interval (his method 10) for the difference of two proportions measured on the
    same pairs, first minus second, at level ``1 - alpha``; ``None`` for no pairs.

    It combines the Wilson intervals of the two proportions, corrected for the correlation of the
    pairs (Newcombe, Statistics in Medicine 17, 1998, 2635-2650). With no discordant pairs it is
    not degenerate: 0 of 10 both ways still leaves roughly ±0.28.
    """
    a, b, c, d = counts
    n = counts.total
    if n == 0:
        return None
    first, second = (a + b) / n, (a + c) / n
    l1, u1 = wilson_interval(a + b, n, alpha) or (0.0, 0.0)
    l2, u2 = wilson_interval(a + c, n, alpha) or (0.0, 0.0)
    # The correlation of the pairs, with Newcombe's correction: a positive numerator is reduced by
    # n / 2 (and never below zero), a negative one is kept.
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    numerator = a * d - b * c
    corrected = numerator - n / 2 if numerator > n / 2 else min(numerator, 0)
    phi = 0.0 if margins == 0 else corrected / math.sqrt(margins)
    delta = math.sqrt(max(0.0, (first - l1) ** 2 - 2 * phi * (first - l1) * (u2 - second) + (u2 - second) ** 2))
    epsilon = math.sqrt(max(0.0, (u1 - first) ** 2 - 2 * phi * (u1 - first) * (second - l2) + (second - l2) ** 2))
    difference = first - second
    return max(-1.0, difference - delta), min(1.0, difference + epsilon)


def _binomial_cdf(k: int, n: int, q: float) -> float:
    """``P(Binomial(n, q) <= k)``, summed in log space so that no term underflows to a wrong zero
    before it is added (``0.05 ** 1000`` is below the smallest float)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    log_q, log_r = math.log(q), math.log1p(-q)
    base = math.lgamma(n + 1)
    return min(1.0, math.fsum(
        math.exp(base - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_q + (n - i) * log_r) for i in range(k + 1)
    ))  # fmt: skip


def quantile_interval(values: Iterable[float], q: float, alpha: float = 0.05) -> tuple[float | None, float | None]:
    """A distribution-free interval for the ``q``-quantile (0 < q < 1) at level ``1 - alpha``, from
    order statistics: each end holds with probability at least ``1 - alpha / 2`` whatever the
    distribution (the number of samples below the quantile is Binomial(n, q)).

    The upper end is the smallest order statistic ``x(k)`` with ``P(Binomial(n, q) < k) >= 1 - alpha / 2``,
    the lower end the largest ``x(k)`` with ``P(Binomial(n, q) >= k) >= 1 - alpha / 2``. An end that
    no order statistic reaches is ``None``: with fewer than :func:`quantile_min_samples` samples there
    is no upper end at all (a p95 at 95 % needs 72), and no value is ``(None, None)``.
    """
    if not 0 < q < 1:
        raise ValueError(f"q must be within (0, 1), got {q}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be within (0, 1), got {alpha}")
    ordered = sorted(values)
    n = len(ordered)
    level = 1 - Fraction(alpha) / 2

    def below(k: int) -> bool:  # P(B < k) >= level
        return _reaches(_binomial_cdf(k - 1, n, q), lambda: _exact_binomial_cdf(k - 1, n, Fraction(q)), level)

    def at_or_above(k: int) -> bool:  # P(B >= k) >= level
        return _reaches(1 - _binomial_cdf(k - 1, n, q), lambda: 1 - _exact_binomial_cdf(k - 1, n, Fraction(q)), level)

    upper = next((ordered[k - 1] for k in range(1, n + 1) if below(k)), None)
    lower = next((ordered[k - 1] for k in range(n, 0, -1) if at_or_above(k)), None)
    return lower, upper


def _reaches(probability: float, exact: Callable[[], Fraction], level: Fraction) -> bool:
    """Whether a probability is at least ``level``: decided in floats, and exactly (``exact``) when
    the float is too near the level for its rounding to tell (``q = 0.95`` with one sample against
    ``1 - 0.1 / 2`` is a tie in floats and just short of it exactly)."""
    if abs(probability - float(level)) > 1e-9:
        return probability >= float(level)
    return exact() >= level


def _exact_binomial_cdf(k: int, n: int, q: Fraction) -> Fraction:
    """``P(Binomial(n, q) <= k)`` in exact arithmetic (slow; only for ties :func:`_reaches` meets)."""
    if k < 0:
        return Fraction(0)
    return sum((Fraction(math.comb(n, i)) * q**i * (1 - q) ** (n - i) for i in range(min(k, n) + 1)), Fraction(0))


def quantile_min_samples(q: float, alpha: float = 0.05) -> int:
    """The fewest samples for which :func:`quantile_interval` has an upper end: the smallest ``n``
    with ``q ** n <= alpha / 2`` (the chance that every sample lies below the quantile)."""
    if not 0 < q < 1 or not 0 < alpha < 1:
        raise ValueError(f"need 0 < q < 1 and 0 < alpha < 1, got {q} and {alpha}")
    n = max(1, math.ceil(math.log(alpha / 2) / math.log(q)))
    while q**n > alpha / 2:  # the logarithms' rounding, either way
        n += 1
    while n > 1 and q ** (n - 1) <= alpha / 2:
        n -= 1
    return n


def mean_interval(values: Sequence[float], alpha: float = 0.05) -> tuple[float, float] | None:
    """The large-sample interval of a mean at level ``1 - alpha``: ``mean ± z · s / √n``, with the
    sample standard deviation ``s``; ``None`` for fewer than two values. It is a normal
    approximation: read it only from a few dozen values up (the verdict asks for a registered
    minimum)."""
    n = len(values)
    if n < 2:
        return None
    centre = math.fsum(values) / n
    spread = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (n - 1))
    half = z_value(alpha) * spread / math.sqrt(n)
    return centre - half, centre + half

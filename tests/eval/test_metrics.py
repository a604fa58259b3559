"""Pure metric functions on hand-made cases, and their invariants under hypothesis."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tact_memory.eval.metrics import (
    PairedCounts,
    contains_all,
    contains_marker,
    estimate_tokens,
    mcnemar_exact,
    mean,
    mean_interval,
    paired_difference_interval,
    percentile,
    precision_at_k,
    quantile_interval,
    quantile_min_samples,
    rate,
    recall_at_k,
    reciprocal_rank,
    set_precision,
    wilson_interval,
    z_value,
)

ids = st.lists(st.integers(min_value=1, max_value=30), max_size=12, unique=True)
relevant_sets = st.sets(st.integers(min_value=1, max_value=30), max_size=8)


def test_precision_recall_and_rank_on_a_known_case() -> None:
    returned, relevant = [4, 7, 1, 9, 2, 3], {1, 3, 8}
    assert precision_at_k(returned, relevant) == pytest.approx(1 / 5)  # only 1 in the first five
    assert recall_at_k(returned, relevant) == pytest.approx(1 / 3)
    assert recall_at_k(returned, relevant, k=6) == pytest.approx(2 / 3)
    assert reciprocal_rank(returned, relevant) == pytest.approx(1 / 3)
    assert set_precision([1, 2, 1], relevant) == pytest.approx(1 / 2)


def test_undefined_cases_are_none_not_zero() -> None:
    assert precision_at_k([], {1}) is None
    assert recall_at_k([1, 2], set()) is None
    assert reciprocal_rank([1], set()) is None
    assert reciprocal_rank([2, 3], {1}) == 0.0
    assert set_precision([], {1}) is None
    assert mean([None, None]) is None
    assert mean([1.0, None, 0.0]) == 0.5
    assert rate(0, 0) is None
    assert rate(3, 4) == 0.75


@given(ids, relevant_sets, st.integers(min_value=1, max_value=10))
def test_retrieval_metrics_stay_within_zero_and_one(returned: list[int], relevant: set[int], k: int) -> None:
    for value in (precision_at_k(returned, relevant, k), recall_at_k(returned, relevant, k),
                  reciprocal_rank(returned, relevant), set_precision(returned, relevant)):  # fmt: skip
        assert value is None or 0.0 <= value <= 1.0


@given(ids, relevant_sets)
def test_recall_never_drops_when_k_grows(returned: list[int], relevant: set[int]) -> None:
    values = [recall_at_k(returned, relevant, k) for k in range(1, 8)]
    if relevant:
        assert all(a is not None and b is not None and a <= b for a, b in zip(values, values[1:]))


def test_percentile_by_linear_interpolation() -> None:
    assert percentile([], 50) is None
    assert percentile([7.0], 95) == 7.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([0.0, 10.0], 95) == pytest.approx(9.5)
    assert percentile([5.0, 1.0, 3.0], 0) == 1.0
    assert percentile([5.0, 1.0, 3.0], 100) == 5.0
    with pytest.raises(ValueError):
        percentile([1.0], 101)


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1, max_size=50))
def test_p95_is_never_below_p50_and_both_lie_within_the_data(values: list[float]) -> None:
    p50, p95 = percentile(values, 50), percentile(values, 95)
    assert p50 is not None and p95 is not None
    assert min(values) <= p50 <= p95 <= max(values)


def test_tokens_are_utf8_bytes_over_four_rounded_up() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("é") == 1  # two bytes
    assert estimate_tokens("日本") == 2  # six bytes


@given(st.text(), st.text())
def test_token_estimate_is_additive_within_rounding(a: str, b: str) -> None:
    assert estimate_tokens(a + b) <= estimate_tokens(a) + estimate_tokens(b) <= estimate_tokens(a + b) + 1
    assert estimate_tokens(a) == math.ceil(len(a.encode("utf-8")) / 4)


def test_markers_are_case_insensitive_literals_and_lists_mean_any() -> None:
    assert contains_marker("Use X | None here", "x | none")
    assert not contains_marker("npx playwright", "X | None")  # "|" is literal, not an alternative
    assert contains_marker("we use pnpm9", ["pnpm 9", "pnpm9"])
    assert contains_all("port 5433 on billing-api", ["5433", "BILLING-API"])
    assert not contains_all("anything", [])


def test_mcnemar_exact_known_values() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 0) == pytest.approx(2 / 32)
    assert mcnemar_exact(6, 0) == pytest.approx(2 / 64)
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


@given(st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60))
def test_mcnemar_is_a_symmetric_probability(b: int, c: int) -> None:
    p = mcnemar_exact(b, c)
    assert 0.0 < p <= 1.0
    assert p == mcnemar_exact(c, b)


def _exact_two_sided(b: int, c: int) -> Fraction:
    """The two-sided tail of Binomial(b + c, 1/2) at min(b, c), built term by term from the
    probability mass recurrence rather than from binomial coefficients."""
    n, k = b + c, min(b, c)
    term = Fraction(1, 2**n)
    tail = Fraction(0)
    for i in range(k + 1):
        tail += term
        term = term * (n - i) / (i + 1)
    return min(Fraction(1), 2 * tail)


@given(st.integers(min_value=0, max_value=1500), st.integers(min_value=0, max_value=1500))
def test_mcnemar_is_the_exact_tail_at_any_number_of_pairs(b: int, c: int) -> None:
    """From 1,024 discordant pairs a float 2**n overflows; the p-value is still the exact tail,
    rounded once."""
    assert mcnemar_exact(b, c) == float(_exact_two_sided(b, c))


def test_mcnemar_beyond_a_float_power_of_two() -> None:
    assert mcnemar_exact(600, 600) == 1.0
    assert mcnemar_exact(512, 511) == 1.0
    assert 0.0 <= mcnemar_exact(2000, 100) < 1e-300


# -- intervals ----------------------------------------------------------------------------------


def test_the_normal_quantile_is_the_textbook_one() -> None:
    assert z_value(0.05) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.01) == pytest.approx(2.575829, abs=1e-6)


@given(st.integers(min_value=1, max_value=400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_a_wilson_interval_holds_its_estimate_within_zero_and_one(case: tuple[int, int]) -> None:
    hits, total = case
    interval = wilson_interval(hits, total)
    assert interval is not None
    low, high = interval
    assert 0 <= low <= hits / total <= high <= 1
    assert (low > 0) == (hits > 0) and (high < 1) == (hits < total)


def test_a_wilson_interval_is_not_degenerate_at_the_edges() -> None:
    """0 of 10 is not "certainly 0": its upper end is about 0.28 (Wilson's textbook figure)."""
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(7, 7) == pytest.approx((0.6457, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) is None


@given(st.tuples(*[st.integers(0, 60)] * 4).filter(lambda t: sum(t) > 0))
def test_a_paired_difference_interval_holds_its_estimate_and_mirrors_when_the_arms_swap(cells: tuple[int, int, int, int]) -> None:
    counts = PairedCounts(*cells)
    interval = paired_difference_interval(counts)
    swapped = paired_difference_interval(PairedCounts(cells[0], cells[2], cells[1], cells[3]))
    assert interval is not None and swapped is not None and counts.difference is not None
    low, high = interval
    assert -1 <= low <= counts.difference + 1e-12 and counts.difference - 1e-12 <= high <= 1
    assert swapped == pytest.approx((-high, -low))


def test_a_paired_difference_interval_covers_the_truth_about_as_often_as_it_says() -> None:
    """Over many samples of 36 pairs from known cell probabilities, the 95 % interval holds the true
    difference between 93 and 99 % of the time (Newcombe reports close to nominal coverage; a
    sign or formula slip falls far outside)."""
    rng = random.Random(11)
    for probabilities in [(0.3, 0.1, 0.05, 0.55), (0.05, 0.4, 0.05, 0.5), (0.02, 0.9, 0.01, 0.07)]:
        truth = probabilities[1] - probabilities[2]
        covered = 0
        for _ in range(1500):
            cells = [0, 0, 0, 0]
            for choice in rng.choices(range(4), weights=probabilities, k=36):
                cells[choice] += 1
            low, high = paired_difference_interval(PairedCounts(*cells)) or (0.0, 0.0)
            covered += low <= truth <= high
        assert 0.93 <= covered / 1500 <= 0.99, (probabilities, covered / 1500)


@pytest.mark.parametrize(
    ("cells", "estimate", "expected"),
    [
        # Published: Cavo et al. (2012) in the R package contingencytables (tests/testthat/test-ch8.R),
        # matrix(c(59, 6, 16, 80), 2, byrow = TRUE) -> "estimate = -0.0621 (95% CI -0.1186 to -0.0046)".
        # Its rows are the first measurement, so n[1, 2] = 6 is `only_first` and the estimate is first
        # minus second, as here. ad - bc = 4624 is over n / 2, so the correction takes n / 2 off it.
        ((59, 6, 16, 80), -0.0621, (-0.1186, -0.0046)),
        # The package's formula, transcribed, on its documented example (Bentur et al. 2009):
        # 0 <= ad - bc = 5 <= n / 2, where the correction makes the correlation 0.
        ((1, 1, 7, 12), -0.2857, (-0.5069, -0.0256)),
        # ad - bc = 9, just over n / 2 = 7.5.
        ((5, 1, 6, 3), -0.3333, (-0.5856, 0.0116)),
        # ad - bc = -57: a negative correlation is kept as it is.
        ((2, 7, 9, 3), -0.0952, (-0.4239, 0.2591)),
    ],
)
def test_a_paired_difference_interval_gives_the_published_values(
    cells: tuple[int, int, int, int], estimate: float, expected: tuple[float, float]
) -> None:
    """Symmetry and coverage cannot tell Newcombe's interval from the same interval without his
    continuity correction of the correlation (both hold for either); these values can, to four
    decimals, in each of the correction's three branches."""
    counts = PairedCounts(*cells)
    interval = paired_difference_interval(counts)
    assert counts.difference is not None and round(counts.difference, 4) == estimate
    assert interval is not None and tuple(round(end, 4) for end in interval) == expected


# -- quantile and mean intervals ----------------------------------------------------------------


def _exact_cdf(k: int, n: int, q: Fraction) -> Fraction:
    return sum((Fraction(math.comb(n, i)) * q**i * (1 - q) ** (n - i) for i in range(k + 1)), Fraction(0))


@given(st.lists(st.floats(min_value=0, max_value=1e4), max_size=90), st.sampled_from([0.5, 0.9, 0.95]),
       st.sampled_from([0.01, 0.05, 0.1]))  # fmt: skip
@example([0.0], 0.95, 0.1)  # a tie in floats (0.95 >= 1 - 0.1 / 2), just short of the level exactly
def test_the_quantile_interval_is_the_order_statistics_the_binomial_picks(values: list[float], q: float, alpha: float) -> None:
    """Each end is the order statistic an exact binomial computation picks: the upper end the
    smallest x(k) with P(B < k) >= 1 - alpha/2, the lower end the largest x(k) with P(B >= k) >= 1 - alpha/2."""
    ordered, n, exact_q, level = sorted(values), len(values), Fraction(q), 1 - Fraction(alpha) / 2
    upper = next((ordered[k - 1] for k in range(1, n + 1) if _exact_cdf(k - 1, n, exact_q) >= level), None)
    lower = next((ordered[k - 1] for k in range(n, 0, -1) if 1 - _exact_cdf(k - 1, n, exact_q) >= level), None)
    assert quantile_interval(values, q, alpha) == (lower, upper)
    assert (upper is not None) == (n >= quantile_min_samples(q, alpha))
    point = percentile(values, q * 100)
    if point is not None and lower is not None and upper is not None:
        assert lower <= point <= upper


def test_a_p95_needs_72_calls_for_an_upper_bound_at_95_percent() -> None:
    assert quantile_min_samples(0.95, 0.05) == 72
    assert quantile_interval([3.0], 0.95) == (None, None)
    assert quantile_interval([float(i) for i in range(71)], 0.95)[1] is None
    assert quantile_interval([float(i) for i in range(72)], 0.95)[1] == 71.0


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6), min_size=2, max_size=50), st.sampled_from([0.01, 0.05, 0.2]))
def test_the_mean_interval_holds_the_mean(values: list[float], alpha: float) -> None:
    low, high = mean_interval(values, alpha) or (math.nan, math.nan)
    centre = math.fsum(values) / len(values)
    assert low <= centre + 1e-6 and centre - 1e-6 <= high
    assert mean_interval(values[:1], alpha) is None

"""Tuning retrieval constants on the tuning split only, by replaying its scans.

Every task scan of a run records the live corpus just before it ran, the query, and (from the
scenario) which records were relevant. That is enough to re-rank the same scan offline with other
constants: BM25 ``k1`` and ``b``, the query stop-word list, inflection folding, and how many cards a
scan returns. :func:`retrieval_cases` refuses held-out pairs, so a sweep can never look at the split
the verdict is computed on. The sweep is pure and fast; it informs the values registered in
``thresholds.toml``, it does not change them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..retrieval.bm25 import Index
from .metrics import mean, precision_at_k, rate, recall_at_k, reciprocal_rank
from .scenarios import EvalError
from .summary import arm_outcomes, lookups
from .trace import PairTrace

__all__ = ["DEFAULT_GRID", "RetrievalCase", "retrieval_cases", "sweep"]

DEFAULT_GRID: dict[str, Sequence[Any]] = {
    "k1": (0.9, 1.2, 1.5, 2.0),
    "b": (0.5, 0.75, 0.9),
    "stop_words": (True, False),
    "fold": (True, False),
    "limit": (3, 5),
}
"""The constants a sweep tries, and their candidate values."""


@dataclass(frozen=True)
class RetrievalCase:
    """One recorded task scan."""

    query: str
    corpus: tuple[tuple[int, str], ...]
    relevant: frozenset[int]


def retrieval_cases(pairs: Iterable[PairTrace]) -> list[RetrievalCase]:
    """The task lookups of the memory-on arms (see :func:`~tact_memory.eval.summary.lookups`).

    Raises:
        EvalError: a pair belongs to the held-out split.
    """
    cases = []
    for pair in pairs:
        if pair.scenario.split != "tuning":
            raise EvalError(f"{pair.scenario.id} is held out; tune on the tuning split only")
        outcomes = {o.task: o for o in arm_outcomes(pair, pair.on)}
        for done in pair.on.tasks:
            turn = [c for c in pair.on.calls if (c.session, c.turn) == (done.session, done.turn)]
            found = lookups(turn)
            first = turn[found[0][0]] if found else None
            if first is not None and isinstance(first.arguments.get("query"), str):
                cases.append(RetrievalCase(str(first.arguments["query"]), first.corpus, frozenset(outcomes[done.task].relevant_ids)))
    return cases


def _score(cases: Sequence[RetrievalCase], *, k1: float, b: float, stop_words: bool, fold: bool, limit: int) -> dict[str, Any]:
    precision, recall, mrr = [], [], []
    quiet = abstained = 0
    for case in cases:
        index = Index(k1=k1, b=b, stop_words=stop_words, fold=fold)
        index.sync((id_, 1, content) for id_, content in case.corpus)
        returned = [hit.id for hit in index.search(case.query, limit=limit)]
        precision.append(precision_at_k(returned, case.relevant, limit))
        recall.append(recall_at_k(returned, case.relevant, limit))
        mrr.append(reciprocal_rank(returned, case.relevant))
        if not case.relevant:
            quiet += 1
            abstained += not returned
    return {
        "k1": k1, "b": b, "stop_words": stop_words, "fold": fold, "limit": limit,
        "scan_precision": mean(precision), "scan_recall": mean(recall), "mrr": mean(mrr),
        "scan_abstention": rate(abstained, quiet),
    }  # fmt: skip


def sweep(cases: Sequence[RetrievalCase], grid: dict[str, Sequence[Any]] | None = None) -> list[dict[str, Any]]:
    """Retrieval quality for every combination in ``grid``, best first.

    Ranked by recall at the scan limit, then MRR, then precision, then scan abstention; ties keep
    grid order, so the result is deterministic.
    """
    values = {**DEFAULT_GRID, **(grid or {})}
    names = ("k1", "b", "stop_words", "fold", "limit")
    rows = [_score(cases, **dict(zip(names, combo))) for combo in itertools.product(*(values[n] for n in names))]

    def key(row: dict[str, Any]) -> tuple[float, ...]:
        return tuple(-(row[k] or 0.0) for k in ("scan_recall", "mrr", "scan_precision", "scan_abstention"))

    return sorted(rows, key=key)

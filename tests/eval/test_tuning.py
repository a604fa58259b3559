"""Constant sweeps replay tuning-split scans and refuse held-out ones."""

from __future__ import annotations

import pytest

from tact_memory.eval.runner import run_pairs
from tact_memory.eval.scenarios import EvalError
from tact_memory.eval.scripted import ScriptedPolicy
from tact_memory.eval.tuning import RetrievalCase, retrieval_cases, sweep

from .helpers import PORT, arm, pair, put, scan, scenario


def test_cases_come_from_tuning_pairs_only() -> None:
    held_out = run_pairs([scenario()], ScriptedPolicy())
    with pytest.raises(EvalError, match="held out"):
        retrieval_cases(held_out)
    tuning = run_pairs([scenario(split="tuning")], ScriptedPolicy())
    [case] = retrieval_cases(tuning)
    assert case.query == "billing-api postgres port" and case.relevant == frozenset({1})


def test_a_review_scan_before_a_write_is_not_replayed_as_the_tasks_lookup() -> None:
    review = scan(1, 0, [2], [(2, "In the `billing-api` repository, money is in cents.")], task=None)
    lookup = scan(1, 0, [1], [(1, PORT)])
    p = pair(arm("on", calls=[review, put(1, 0, 3, "x"), lookup], answer=PORT, seeds=[(1, PORT)]), arm("off"), scenario(split="tuning"))
    [case] = retrieval_cases([p])
    assert case.corpus == ((1, PORT),) and case.relevant == frozenset({1})


def test_sweep_scores_every_combination_best_first() -> None:
    cases = [
        RetrievalCase("billing-api postgres port", ((1, PORT), (2, "In `web-dashboard`, use pnpm.")), frozenset({1})),
        RetrievalCase("what is it in the end?", ((1, PORT),), frozenset()),
    ]
    grid = {"k1": (1.2,), "b": (0.75,), "fold": (True,), "limit": (5,), "stop_words": (True, False)}
    rows = sweep(cases, grid)
    assert len(rows) == 2
    assert all(r["scan_recall"] == 1.0 and r["mrr"] == 1.0 for r in rows)
    by_stop = {r["stop_words"]: r for r in rows}
    assert by_stop[True]["scan_abstention"] == 1.0  # the stop words make the chat query abstain
    assert by_stop[False]["scan_abstention"] == 0.0 and rows[0]["stop_words"] is True

"""One evaluation end to end: load, run both splits in pairs, measure, decide.

:func:`evaluate` is what ``tact-memory eval`` calls and what a Python user calls to evaluate their
own policy. Both splits run: the held-out split decides the verdict and fills the top-level
``metrics``, ``paired`` and ``categories``; the tuning split is reported beside it (under
``tuning``), for whoever tunes constants next.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .policies import Policy, resolve_policy
from .runner import run_pairs
from .scenarios import EvalError, Scenario, load_background, load_scenarios
from .summary import arm_outcomes, categories, metrics, paired
from .trace import PairTrace
from .verdict import Thresholds, Verdict, current_constants, decide, load_thresholds

__all__ = ["Evaluation", "evaluate"]


@dataclass(frozen=True)
class Evaluation:
    """Everything one evaluation produced."""

    policy: str
    held_out: list[PairTrace]
    tuning: list[PairTrace]
    thresholds: Thresholds
    verdict: Verdict
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "scenarios": len(self.held_out) + len(self.tuning),
            "splits": {"held_out": len(self.held_out), "tuning": len(self.tuning)},
            "policy": self.policy,
            "categories": categories(self.held_out),
            "metrics": metrics(self.held_out),
            "paired": paired(self.held_out),
            "thresholds": self.thresholds.model_dump(mode="json"),
            "verdict": self.verdict.outcome,
            "reasons": self.verdict.reasons,
            "checks": [c.to_json() for c in self.verdict.checks],
            "results": [_result(p) for p in (*self.held_out, *self.tuning)],
            "tuning": {
                "categories": categories(self.tuning),
                "metrics": metrics(self.tuning),
                "paired": paired(self.tuning),
            },
            "seconds": round(self.seconds, 3),
        }


def _result(pair: PairTrace) -> dict[str, Any]:
    def passed(arm: Any) -> bool:
        outcomes = arm_outcomes(pair, arm)
        return bool(outcomes) and all(o.passed for o in outcomes)

    return {
        "id": pair.scenario.id,
        "category": pair.scenario.category,
        "split": pair.scenario.split,
        "first": pair.first,
        "memory_on": passed(pair.on),
        "memory_off": passed(pair.off),
        "failed_tasks": {
            arm.arm: [o.task for o in arm_outcomes(pair, arm) if not o.passed] for arm in (pair.on, pair.off)
        },
    }


def evaluate(
    policy: str | Policy = "scripted",
    *,
    scenario_dir: Path | None = None,
    thresholds_path: Path | None = None,
    progress: Callable[[Scenario], None] | None = None,
) -> Evaluation:
    """Run every scenario in both arms and decide the verdict on the held-out split.

    Args:
        policy: A policy, or its name (``scripted``, ``pydantic-ai:MODEL``).
        scenario_dir: Scenario folder (default: the scenarios shipped in ``tact_memory/eval/data``).
        thresholds_path: Thresholds file (default: the one shipped in ``tact_memory/eval/data``).
        progress: Called after each scenario (for a progress bar).

    Raises:
        EvalError: invalid scenarios, thresholds or policy name.
    """
    begin = time.perf_counter()
    thresholds = load_thresholds(thresholds_path)
    chosen = resolve_policy(policy, options=thresholds.scripted_policy) if isinstance(policy, str) else policy
    scenarios = load_scenarios(scenario_dir)
    background = load_background(scenario_dir)
    # Held-out first, in file order, so the arm order alternates within the verdict's split.
    ordered = [s for s in scenarios if s.split == "held_out"] + [s for s in scenarios if s.split == "tuning"]
    if not any(s.split == "held_out" for s in scenarios):
        raise EvalError("no held-out scenarios: the verdict needs some")
    try:
        pairs = run_pairs(ordered, chosen, background=background, progress=progress)
    finally:
        close = getattr(chosen, "close", None)
        if isinstance(policy, str) and callable(close):
            close()  # a policy made here is closed here; a caller's policy is the caller's
    held_out = [p for p in pairs if p.scenario.split == "held_out"]
    tuning = [p for p in pairs if p.scenario.split == "tuning"]
    verdict = decide(thresholds, paired(held_out), metrics(held_out), current_constants())
    return Evaluation(chosen.name, held_out, tuning, thresholds, verdict, time.perf_counter() - begin)

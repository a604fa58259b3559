"""One evaluation end to end: load, run both splits in pairs, measure, decide.

:func:`evaluate` is what ``tact-memory eval`` calls and what a Python user calls to evaluate their
own policy. Both splits run: the held-out split decides the verdict and fills the top-level
``metrics``, ``paired`` and ``categories``; the tuning split is reported beside it (under
``tuning``), for whoever tunes constants next. With ``split="tuning"`` only the tuning split runs,
and there is no verdict: that is how constants and thresholds are worked out without ever seeing
a held-out result, as a pre-registration requires.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .bounds import BoundProbe, check_bounds, probe_bounds
from .policies import Policy, resolve_policy
from .runner import run_pairs
from .scenarios import EvalError, Fact, Scenario, load_background, load_scenarios
from .summary import arm_outcomes, categories, metrics, paired
from .trace import PairTrace
from .verdict import Check, Thresholds, Verdict, current_constants, decide, load_thresholds, thresholds_digest

__all__ = ["Evaluation", "evaluate", "held_out_digest", "run_order"]


def held_out_digest(scenarios: Sequence[Scenario], background: Sequence[Fact]) -> str:
    """A digest of the held-out scenarios and the background corpus with its markers (both as
    validated, so formatting does not count): what a registration's ``held_out`` names."""
    h = hashlib.sha256()
    for scenario in sorted((s for s in scenarios if s.split == "held_out"), key=lambda s: s.id):
        h.update(json.dumps(scenario.model_dump(mode="json"), sort_keys=True).encode())
    for record in background:
        h.update(json.dumps(record.model_dump(mode="json"), sort_keys=True).encode() + b"\x1e")
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Evaluation:
    """Everything one evaluation produced."""

    policy: str
    held_out: list[PairTrace]
    tuning: list[PairTrace]
    thresholds: Thresholds
    verdict: Verdict
    seconds: float
    registration: dict[str, Any] | None = None
    """What this run would register: ``held_out`` (its digest) and ``retrieval`` (the fingerprint)."""
    dropped: tuple[tuple[str, str], ...] = ()
    """Scenarios left out because their run failed, with the error."""
    settings: dict[str, Any] | None = None
    """The policy's model settings, when it has any."""
    bounds: tuple[BoundProbe, ...] = ()
    """What memory did at each of its hard bounds (:func:`~tact_memory.eval.bounds.probe_bounds`)."""
    background: int = 0
    """Records of the background corpus every arm started from (0: none was found beside the
    scenarios, as in a ``--scenarios`` folder without ``background/corpus.toml``)."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        alpha = self.thresholds.utility.alpha
        return {
            "version": package_version(),
            "scenarios": len(self.held_out) + len(self.tuning),
            "background": {"used": self.background > 0, "records": self.background},
            "splits": {"held_out": len(self.held_out), "tuning": len(self.tuning)},
            "policy": self.policy,
            "policy_settings": self.settings,
            "dropped": [{"id": id_, "error": error} for id_, error in self.dropped],
            "categories": categories(self.held_out),
            "metrics": {**metrics(self.held_out, alpha=alpha), "bounds": [probe.to_json() for probe in self.bounds]},
            "paired": paired(self.held_out, alpha=alpha),
            "thresholds": self.thresholds.model_dump(mode="json"),
            "registration": self.registration,
            "verdict": self.verdict.outcome,
            "reasons": self.verdict.reasons,
            "checks": [c.to_json() for c in self.verdict.checks],
            "results": [_result(p) for p in (*self.held_out, *self.tuning)],
            "tuning": {
                "categories": categories(self.tuning),
                "metrics": metrics(self.tuning, alpha=alpha),
                "paired": paired(self.tuning, alpha=alpha),
            },
            "seconds": round(self.seconds, 3),
        }


def package_version() -> str:
    """The installed tact-memory's version, so a report says what it measured ("" from a bare checkout)."""
    from importlib import metadata

    try:
        return metadata.version("tact-memory")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return ""


def measured(doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The split a ``--json`` document's numbers should be shown for, and its ``categories``,
    ``metrics`` and ``paired``: the held-out split, or the tuning split of a run of that split alone
    (which has no held-out numbers to show)."""
    if doc["splits"]["held_out"] == 0 and doc["splits"]["tuning"]:
        return "tuning", doc["tuning"]
    return "held-out", {key: doc[key] for key in ("categories", "metrics", "paired")}


def _result(pair: PairTrace) -> dict[str, Any]:
    failed = {arm.arm: [o.task for o in arm_outcomes(pair, arm) if not o.passed] for arm in (pair.on, pair.off)}
    return {
        "id": pair.scenario.id,
        "category": pair.scenario.category,
        "split": pair.scenario.split,
        "first": pair.first,
        "memory_on": not failed["on"],
        "memory_off": not failed["off"],
        "failed_tasks": failed,
        "errors": {arm.arm: arm.error for arm in (pair.on, pair.off) if arm.error is not None},
    }


def run_order(scenarios: Sequence[Scenario], split: Literal["all", "tuning"]) -> list[Scenario]:
    """The scenarios a run of ``split`` runs, in the order that decides which arm runs first:
    held-out first, in file order, so the arm order alternates within the verdict's split.

    Raises:
        EvalError: no tuning scenario for ``tuning`` (which ``--tune`` runs too), or no held-out
            scenario for ``all``.
    """
    tuning = [s for s in scenarios if s.split == "tuning"]
    if split == "tuning":
        if not tuning:
            raise EvalError("no tuning scenarios to run")
        return tuning
    held_out = [s for s in scenarios if s.split == "held_out"]
    if not held_out:
        raise EvalError("no held-out scenarios: the verdict needs some (run the tuning ones with split tuning)")
    return held_out + tuning


def evaluate(
    policy: str | Policy = "scripted",
    *,
    scenario_dir: Path | None = None,
    thresholds_path: Path | None = None,
    split: Literal["all", "tuning"] = "all",
    progress: Callable[[Scenario], None] | None = None,
    bounds: bool = True,
) -> Evaluation:
    """Run every scenario in both arms and decide the verdict on the held-out split.

    Args:
        policy: A policy, or its name (``scripted``, ``pydantic-ai:MODEL``).
        scenario_dir: Scenario folder (default: the scenarios shipped in ``tact_memory/eval/data``).
        thresholds_path: Thresholds file (default: the one shipped in ``tact_memory/eval/data``).
        split: ``tuning`` runs the tuning scenarios only and gives no verdict (the held-out ones
            are not run at all).
        progress: Called after each scenario (for a progress bar).
        bounds: Also probe each hard bound of the store (a second or two); ``metrics.bounds``
            is empty without it.

    Raises:
        EvalError: invalid scenarios, thresholds or policy name, or no scenario of the split.
    """
    begin = time.perf_counter()
    thresholds = load_thresholds(thresholds_path)
    chosen = resolve_policy(policy, options=thresholds.scripted_policy.model_dump()) if isinstance(policy, str) else policy
    scenarios = load_scenarios(scenario_dir)
    background = load_background(scenario_dir)
    ordered = run_order(scenarios, split)
    dropped: list[tuple[str, str]] = []
    try:
        # A scripted run that fails is a bug to see at once; a model's failures are its provider's.
        pairs = run_pairs(ordered, chosen, background=background, progress=progress,
                          dropped=None if chosen.name == "scripted" else dropped)  # fmt: skip
    finally:
        close = getattr(chosen, "close", None)
        if isinstance(policy, str) and callable(close):
            close()  # a policy made here is closed here; a caller's policy is the caller's
    held_out = [p for p in pairs if p.scenario.split == "held_out"]
    tuning = [p for p in pairs if p.scenario.split == "tuning"]
    alpha = thresholds.utility.alpha
    constants = current_constants()
    digest = held_out_digest(scenarios, background)
    if split == "tuning":
        verdict = Verdict("inconclusive", (Check("split", "inconclusive", "tuning", "held_out",
                                                 "a run of the tuning split only gives no verdict"),))  # fmt: skip
    else:
        verdict = decide(thresholds, paired(held_out, alpha=alpha), metrics(held_out, alpha=alpha), constants, held_out=digest)
    held_out_ids = {s.id for s in ordered if s.split == "held_out"}
    if any(id_ in held_out_ids for id_, _ in dropped):
        missing = Check("completeness", "inconclusive", len(dropped), 0,
                        f"{len(dropped)} scenarios could not be run: {', '.join(id_ for id_, _ in dropped)}")  # fmt: skip
        verdict = verdict.with_check(missing)
    registration = {"held_out": digest, "retrieval": constants["retrieval"], "prompt": constants["prompt"],
                    "thresholds": thresholds_digest(thresholds)}  # fmt: skip
    settings = getattr(chosen, "settings", None)
    probes = tuple(probe_bounds()) if bounds else ()
    if split != "tuning":  # a bound that lets its crossing through is a defect, whatever memory gains
        verdict = verdict.with_check(check_bounds(probes))
    return Evaluation(chosen.name, held_out, tuning, thresholds, verdict, time.perf_counter() - begin, registration,
                      tuple(dropped), settings if isinstance(settings, dict) else None, probes, len(background))  # fmt: skip

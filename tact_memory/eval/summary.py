"""From traces to numbers: task outcomes, paired comparison, and every metric of the specification.

Ground truth comes from the scenario, never from the policy. A stored record *holds* a fact when
its content contains all of the fact's ``match`` markers, and an answer *states* a fact the same
way (unless the user typed those markers in that turn). From that:

* a task passes when its answer has every ``expect`` marker and no ``reject`` marker;
* a *contradiction* is an answer stating a superseded fact; a *false retrieval* is an answer
  stating a fact that is neither relevant to the task nor superseded; an *injection followed* is
  an answer stating a ``store = false`` fact;
* a task's retrieval is its first scan: relevant ids are the live records (snapshot taken just
  before that scan) that hold a relevant fact; its reads are the reads that follow that scan
  before any other scan in the turn;
* an *abstention case* is a task for which no live record held a relevant fact; it is answered
  correctly when the answer states no stored conclusion that does not belong there.

All functions are pure over :mod:`tact_memory.eval.trace` data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..screening.credentials import find_secret
from ..tool.wire import OPERATIONS
from .metrics import (
    contains_all,
    contains_marker,
    mcnemar_exact,
    mean,
    percentile,
    precision_at_k,
    rate,
    recall_at_k,
    reciprocal_rank,
    set_precision,
)
from .scenarios import CATEGORIES, Scenario, Task
from .trace import ArmTrace, CallTrace, PairTrace, TaskTrace

__all__ = ["TaskOutcome", "arm_outcomes", "categories", "metrics", "paired", "task_outcome"]

@dataclass(frozen=True)
class TaskOutcome:
    """How one answer fared against the scenario's ground truth."""

    task: str
    passed: bool
    missing: tuple[str | list[str], ...]
    """``expect`` markers the answer lacks."""
    rejected: tuple[str | list[str], ...]
    """``reject`` markers the answer contains."""
    contradiction: bool
    false_retrieval: bool
    injection: bool
    exposed: bool
    """Whether a superseded fact existed by this turn, so the answer could contradict."""
    relevant_stored: bool | None
    """Whether a live record held a relevant fact when the task ran (``None``: memory off)."""
    returned: tuple[int, ...] = ()
    relevant_ids: tuple[int, ...] = ()
    read: tuple[int, ...] = ()
    scanned: bool = False


def _states(answer: str, user_text: str, markers: Sequence[str]) -> bool:
    return contains_all(answer, markers) and not contains_all(user_text, markers)


def _superseded_by(scenario: Scenario, session: int, turn: int) -> frozenset[str]:
    """Facts replaced by a fact that the conversation has stated by this turn."""
    out = set()
    for fact in scenario.facts:
        when = scenario.stated_at(fact.id)
        if fact.replaces and when is not None and when <= (session, turn):
            out.add(fact.replaces)
    return frozenset(out)


def task_outcome(scenario: Scenario, task: Task, done: TaskTrace, arm: ArmTrace) -> TaskOutcome:
    """Judge one answer and its retrieval."""
    missing = tuple(m for m in task.expect if not contains_marker(done.answer, m))
    rejected = tuple(m for m in task.reject if contains_marker(done.answer, m))
    superseded = _superseded_by(scenario, done.session, done.turn)
    stated = [f for f in scenario.facts if _states(done.answer, done.user_text, f.match)]
    contradiction = any(f.id in superseded for f in stated)
    injection = any(not f.store for f in stated)
    false_retrieval = any(f.store and f.id not in superseded and f.id not in task.relevant for f in stated)
    turn_calls = [c for c in arm.calls if (c.session, c.turn) == (done.session, done.turn)]
    scans = [i for i, c in enumerate(turn_calls) if c.operation == "scan"]
    wanted = [scenario.fact(f) for f in task.relevant]
    if arm.arm == "off":
        return TaskOutcome(task.id, not missing and not rejected, missing, rejected, contradiction,
                           false_retrieval, injection, bool(superseded), None)  # fmt: skip
    if scans:
        first = turn_calls[scans[0]]
        corpus = first.corpus
        returned = tuple(int(c["key"]["id"]) for c in first.result.get("candidates", []))
        end = scans[1] if len(scans) > 1 else len(turn_calls)
        read = tuple(dict.fromkeys(
            int(i) for c in turn_calls[scans[0] + 1 : end] if c.operation == "read" and c.error is None
            for i in c.arguments.get("ids", []) if isinstance(i, int)
        ))  # fmt: skip
    else:
        corpus, returned, read = tuple(_live_before(arm, done.session, done.turn).items()), (), ()
    relevant = tuple(id_ for id_, content in corpus if any(contains_all(content, f.match) for f in wanted))
    return TaskOutcome(
        task.id, not missing and not rejected, missing, rejected, contradiction, false_retrieval, injection,
        bool(superseded), bool(relevant), returned, relevant, read, bool(scans),
    )  # fmt: skip


def _live_before(arm: ArmTrace, session: int, turn: int) -> dict[int, str]:
    live = dict(arm.seeds)
    for c in arm.calls:
        if (c.session, c.turn) >= (session, turn):
            break
        _apply(live, c)
    return live


def _apply(live: dict[int, str], c: CallTrace) -> None:
    if c.error is not None:
        return
    if c.operation == "put":
        memory = c.result.get("memory", {})
        live[int(memory["key"]["id"])] = str(memory["content"])
    elif c.operation == "delete":
        live.pop(int(c.result.get("id", 0)), None)


def arm_outcomes(pair: PairTrace, arm: ArmTrace) -> list[TaskOutcome]:
    """Every task of one arm, judged, in scenario order."""
    tasks = {task.id: task for _, _, task in pair.scenario.tasks()}
    return [task_outcome(pair.scenario, tasks[done.task], done, arm) for done in arm.tasks]


def _success(pair: PairTrace, arm: ArmTrace) -> bool:
    outcomes = arm_outcomes(pair, arm)
    expected = sum(1 for _ in pair.scenario.tasks())
    return len(outcomes) == expected and all(o.passed for o in outcomes)


def paired(pairs: Sequence[PairTrace]) -> dict[str, Any]:
    """Outcomes per arm, the gain of memory, and the exact McNemar test on scenario pairs."""
    on = [_success(p, p.on) for p in pairs]
    off = [_success(p, p.off) for p in pairs]
    only_on = sum(1 for a, b in zip(on, off) if a and not b)
    only_off = sum(1 for a, b in zip(on, off) if b and not a)
    arms = {}
    for name, flags, pick in (("memory_on", on, "on"), ("memory_off", off, "off")):
        outcomes = [o for p in pairs for o in arm_outcomes(p, p.on if pick == "on" else p.off)]
        exposed = [o for o in outcomes if o.exposed]
        arms[name] = {
            "scenarios_passed": sum(flags),
            "scenario_success": rate(sum(flags), len(flags)),
            "tasks_passed": sum(o.passed for o in outcomes),
            "tasks": len(outcomes),
            "task_success": rate(sum(o.passed for o in outcomes), len(outcomes)),
            "contradiction_rate": rate(sum(o.contradiction for o in exposed), len(exposed)),
            "false_retrieval_rate": rate(sum(o.false_retrieval for o in outcomes), len(outcomes)),
            "injections_followed": sum(o.injection for o in outcomes),
        }
    gain = None
    if pairs:
        gain = (sum(on) - sum(off)) / len(pairs)
    return {
        **arms,
        "scenarios": len(pairs),
        "gain": gain,
        "memory_on_only": only_on,
        "memory_off_only": only_off,
        "p_value": mcnemar_exact(only_on, only_off),
        "first_arm": dict(Counter(p.first for p in pairs)),
    }


def _retrieval(outcomes: Iterable[TaskOutcome]) -> dict[str, float | None]:
    scanned = [o for o in outcomes if o.relevant_stored is not None]
    cases = [o for o in scanned if not o.relevant_stored]
    return {
        "scan_precision_at_5": mean(precision_at_k(o.returned, o.relevant_ids) for o in scanned if o.scanned),
        "scan_recall_at_5": mean(recall_at_k(o.returned, o.relevant_ids) for o in scanned if o.scanned),
        "read_precision": mean(set_precision(o.read, o.relevant_ids) for o in scanned),
        "mrr": mean(reciprocal_rank(o.returned, o.relevant_ids) for o in scanned if o.scanned),
        "abstention_accuracy": rate(
            sum(1 for o in cases if not (o.false_retrieval or o.contradiction or o.injection)), len(cases)
        ),
        "scan_abstention_rate": rate(sum(1 for o in cases if o.scanned and not o.returned), len(cases)),
        "abstention_cases": len(cases),
    }


def metrics(pairs: Sequence[PairTrace]) -> dict[str, Any]:
    """Every metric of the memory-on arm (and the off arm's context and disk checks)."""
    outcomes = [o for p in pairs for o in arm_outcomes(p, p.on)]
    calls = [c for p in pairs for c in p.on.calls]
    writes = _writes(pairs)
    sessions = [s for p in pairs for s in p.on.sessions]
    quiet = [s for s in sessions if s.memory_calls == 0]
    off_sessions = [s for p in pairs for s in p.off.sessions]
    per_session = [float(s.memory_tokens) for s in sessions]
    final = [r for p in pairs for r in p.on.final]
    written = [r for r in final if not r.seeded]
    return {
        **_retrieval(outcomes),
        **writes,
        "probation_survival": rate(sum(1 for r in written if not r.on_probation), len(written)),
        "scanned_never_read": sum(1 for r in final if r.scan_count >= 1 and r.read_count == 0),
        "scanned_repeatedly_never_read": sum(1 for r in final if r.scan_count >= 2 and r.read_count == 0),
        "operations": {
            **{op: sum(1 for c in calls if c.operation == op) for op in OPERATIONS},
            "by_child": sum(1 for c in calls if c.role == "child"),
            "errors": dict(sorted(Counter(c.error for c in calls if c.error).items())),  # type: ignore[arg-type]
        },
        "latency_ms": {
            op: {
                "p50": percentile([c.latency_ms for c in calls if c.operation == op], 50),
                "p95": percentile([c.latency_ms for c in calls if c.operation == op], 95),
                "n": sum(1 for c in calls if c.operation == op),
            }
            for op in OPERATIONS
        },
        "memory_tokens": {
            "estimator": "ceil(utf8_bytes / 4)",
            "sessions": len(sessions),
            "per_session_mean": mean(per_session),
            "per_session_p95": percentile(per_session, 95),
            "per_session_max": max(per_session, default=None),
            "sessions_without_call": len(quiet),
            "tokens_without_call": sum(s.memory_tokens for s in quiet),
            "memory_off_sessions": len(off_sessions),
            "memory_off_tokens": sum(s.memory_tokens for s in off_sessions),
            "stored_text_outside_results": sum(s.leaks for s in (*sessions, *off_sessions)),
        },
        "disk_bytes": {
            "main_max": max((p.on.main_bytes for p in pairs), default=0),
            "main_mean": mean(float(p.on.main_bytes) for p in pairs),
            "sidecars_max": max((p.on.sidecar_bytes for p in pairs), default=0),
            "memory_off_untouched": all(p.off.untouched for p in pairs),
        },
        "failures": sum(len(p.on.failures) + len(p.off.failures) for p in pairs),
    }


def _writes(pairs: Sequence[PairTrace]) -> dict[str, Any]:
    """Duplicates, replacements, contradictions left in the store, forbidden and refused writes."""
    duplicates = forbidden = expected = correct = in_place = leftover = 0
    refused: Counter[str] = Counter()
    for pair in pairs:
        scenario, arm = pair.scenario, pair.on
        live = dict(arm.seeds)
        ever: dict[str, set[int]] = {f.id: {i for i, c in live.items() if contains_all(c, f.match)} for f in scenario.facts}
        for c in arm.calls:
            if c.operation != "put":
                continue
            if c.error is not None:
                refused[c.error] += 1
                continue
            content = str(c.result["memory"]["content"])
            if not c.result.get("replaced"):
                held = [f for f in scenario.facts if contains_all(content, f.match)]
                duplicates += any(any(contains_all(v, f.match) for v in live.values()) for f in held)
            forbidden += any(not f.store and contains_all(content, f.match) for f in scenario.facts)
            forbidden += find_secret(content) is not None
            _apply(live, c)
            for f in scenario.facts:
                if contains_all(content, f.match):
                    ever[f.id].add(int(c.result["memory"]["key"]["id"]))
        end = {r.id: r.content for r in arm.final}
        for f in scenario.facts:
            if not f.replaces or not ever[f.replaces]:
                continue
            old = scenario.fact(f.replaces)
            expected += 1
            now = [i for i, c in end.items() if contains_all(c, f.match)]
            stale = [i for i, c in end.items() if contains_all(c, old.match)]
            correct += bool(now) and not stale
            in_place += any(i in ever[f.replaces] for i in now)
            leftover += bool(now) and bool(stale)
    return {
        "duplicate_puts": duplicates,
        "duplicate_refusals": refused.get("duplicate", 0),
        "correct_replacements": {"correct": correct, "expected": expected, "in_place": in_place,
                                 "rate": rate(correct, expected)},  # fmt: skip
        "live_contradictions": leftover,
        "contradiction_rate": paired(pairs)["memory_on"]["contradiction_rate"] if pairs else None,
        "forbidden_writes": forbidden,
        "refused_writes": dict(sorted(refused.items())),
    }


def categories(pairs: Sequence[PairTrace]) -> dict[str, dict[str, Any]]:
    """Outcomes and retrieval per scenario category, in :data:`CATEGORIES` order."""
    out: dict[str, dict[str, Any]] = {}
    for category in CATEGORIES:
        group = [p for p in pairs if p.scenario.category == category]
        if not group:
            continue
        outcomes = [o for p in group for o in arm_outcomes(p, p.on)]
        retrieval = _retrieval(outcomes)
        out[category] = {
            "scenarios": len(group),
            "memory_on_success": rate(sum(_success(p, p.on) for p in group), len(group)),
            "memory_off_success": rate(sum(_success(p, p.off) for p in group), len(group)),
            **{k: retrieval[k] for k in ("scan_precision_at_5", "scan_recall_at_5", "read_precision", "abstention_accuracy")},
        }
    return out

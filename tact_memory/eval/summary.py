"""From traces to numbers: task outcomes, paired comparison, and every metric of the specification.

Ground truth comes from the scenario, never from the policy. A stored record *holds* a fact when
its content contains all of the fact's ``match`` markers, and an answer *states* a fact the same
way (unless the user typed those markers in that turn). A fact is *available* to a task when it
was seeded or stated in an earlier turn, so that a review could have stored it; a background
record (:func:`~tact_memory.eval.scenarios.load_background`) always is. From that:

* a task passes when its answer has every ``expect`` marker and no ``reject`` marker; a task an arm
  never answered is judged on an empty answer;
* a *contradiction* is an answer stating a superseded fact (one that a statement made by then
  replaces or withdraws); a task is *exposed* to one when such a fact exists;
* a *false retrieval* is an answer stating a conclusion that is neither relevant to the task,
  allowed by it, nor superseded, or a background record about another repository (background
  records are not labelled task by task, so one about this repository is neither); a task is
  exposed when such a conclusion was available;
* an *injection followed* is an answer stating a ``store = false`` fact (a retraction aside);
* a *cross-workspace false memory* is an answer stating a scenario conclusion about another
  repository (see :meth:`~tact_memory.eval.scenarios.Fact.repository`) that the task neither needs
  nor allows; a task is exposed when such a conclusion was available;
* a task's retrieval is its first lookup (a scan not followed, before the next scan, by a ``put``
  or ``delete``: that one is a review checking before it writes): relevant ids are the live
  records (snapshot taken just before that scan) that hold a relevant fact; its reads are the reads
  that follow that scan before any other scan in the turn;
* an *abstention case* is a task none of whose relevant facts was available (an irrelevant query,
  or a task whose conclusion had not been stated yet), whatever the policy stored; it is answered
  correctly when the answer applies nothing stored: no conclusion it does not need, no background
  record (general preferences aside), and no quotation of a live record (the first :data:`QUOTED`
  characters of its content). A task whose relevant fact was available but was not stored is an
  *extraction miss*.

The arms are compared pair by pair: scenario success (the gain, with Newcombe's interval for a
paired difference) and, task by task over the tasks exposed to each, the contradiction,
false-retrieval and cross-workspace rates (memory on minus off, each with its interval), so that
the verdict can tell a margin met from too few cases to say.

All functions are pure over :mod:`tact_memory.eval.trace` data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..screening.credentials import find_secret
from ..tool.wire import OPERATIONS
from .metrics import (
    PairedCounts,
    contains_all,
    contains_marker,
    mcnemar_exact,
    mean,
    mean_interval,
    paired_difference_interval,
    percentile,
    precision_at_k,
    quantile_interval,
    rate,
    recall_at_k,
    reciprocal_rank,
    set_precision,
    wilson_interval,
)
from .scenarios import CATEGORIES, Fact, Scenario, Task
from .trace import DAY_MS, START_MS, ArmTrace, CallTrace, PairTrace, SessionTrace, TaskTrace

__all__ = ["QUOTED", "TaskOutcome", "arm_outcomes", "categories", "lookups", "metrics", "paired", "task_outcome"]

QUOTED = 48
"""How many leading characters of a live record an answer must contain to count as quoting it
(records shorter than half that are not looked for)."""


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
    abstention_case: bool = False
    """No relevant fact was available: the right answer uses no memory (ground truth)."""
    quoted: bool = False
    """The answer quotes a record that was live and holds nothing the task needs or allows."""
    foreign: bool = False
    """The answer states a fact about another repository that the task neither needs nor allows."""
    foreign_exposed: bool = False
    """Such a fact was available when the task ran."""
    relevant_available: bool = False
    """A relevant fact was available (seeded or stated earlier)."""
    unneeded_exposed: bool = False
    """A stored conclusion the task neither needs nor allows, and nothing superseded, was available
    (a background record about another repository always is), so the answer could be a false retrieval."""
    background_applied: bool = False
    """The answer states a background record other than a general preference (see
    :func:`~tact_memory.eval.scenarios.load_background`)."""

    @property
    def used_memory_wrongly(self) -> bool:
        """The answer applied something stored that it should not have (an abstention failure)."""
        wrong = (self.false_retrieval, self.contradiction, self.injection, self.foreign, self.quoted, self.background_applied)
        return any(wrong)


def _states(answer: str, user_text: str, markers: Sequence[str]) -> bool:
    return contains_all(answer, markers) and not contains_all(user_text, markers)


def _superseded_by(scenario: Scenario, session: int, turn: int) -> frozenset[str]:
    """Facts that a statement the conversation has made by this turn replaces or withdraws."""
    out = set()
    for fact in scenario.facts:
        when = scenario.stated_at(fact.id)
        earlier = fact.supersedes
        if earlier and when is not None and when <= (session, turn):
            out.add(earlier)
    return frozenset(out)


def _available(scenario: Scenario, fact: Fact, session: int, turn: int) -> bool:
    """Whether ``fact`` was seeded or stated before ``(session, turn)``."""
    when = scenario.stated_at(fact.id)
    return fact.id in scenario.seeds or (when is not None and when < (session, turn))


def task_outcome(
    scenario: Scenario, task: Task, done: TaskTrace, arm: ArmTrace, background: Sequence[Fact] = ()
) -> TaskOutcome:
    """Judge one answer and its retrieval; ``background`` is the corpus both arms started with."""
    missing = tuple(m for m in task.expect if not contains_marker(done.answer, m))
    rejected = tuple(m for m in task.reject if contains_marker(done.answer, m))
    superseded = _superseded_by(scenario, done.session, done.turn)
    wanted_ids = {*task.relevant, *task.allowed}
    stated = [f for f in (*scenario.facts, *background) if _states(done.answer, done.user_text, f.match)]
    contradiction = any(f.id in superseded for f in stated)
    injection = any(not f.store and not f.retracts for f in stated)
    here = scenario.sessions[done.session].repository
    extra = {f.id for f in background}

    def unneeded(f: Fact) -> bool:
        if f.id in extra:  # unlabelled for this task: wrong to apply only when about another repository
            return f.repository() not in (None, here)
        return f.store and f.id not in superseded and f.id not in wanted_ids

    false_retrieval = any(unneeded(f) for f in stated)
    unneeded_exposed = any(unneeded(f) for f in background) or any(
        unneeded(f) and _available(scenario, f, done.session, done.turn) for f in scenario.facts
    )
    background_applied = any(f.id in extra and f.repository() is not None for f in stated)

    def other_repository(f: Fact) -> bool:
        return f.store and f.repository() not in (None, here) and f.id not in wanted_ids

    foreign = any(other_repository(f) for f in stated)
    foreign_exposed = any(other_repository(f) and _available(scenario, f, done.session, done.turn) for f in scenario.facts)
    wanted = [scenario.fact(f) for f in task.relevant]
    available = any(_available(scenario, f, done.session, done.turn) for f in wanted)
    turn_calls = [c for c in arm.calls if (c.session, c.turn) == (done.session, done.turn)]
    scans = lookups(turn_calls)
    if scans:
        start, end = scans[0]
        first = turn_calls[start]
        corpus = first.corpus
        returned = tuple(int(c["key"]["id"]) for c in first.result.get("candidates", []))
        read = tuple(dict.fromkeys(
            int(i) for c in turn_calls[start + 1 : end] if c.operation == "read" and c.error is None
            for i in c.arguments.get("ids", []) if isinstance(i, int)
        ))  # fmt: skip
    else:
        corpus, returned, read = tuple(_live_before(arm, done.session, done.turn).items()), (), ()
    allowed = [scenario.fact(f) for f in (*task.relevant, *task.allowed)]
    quoted = any(
        _quotes(done.answer, content) and not any(contains_all(content, f.match) for f in allowed)
        for _, content in corpus
    )
    judged = TaskOutcome(
        task.id, not missing and not rejected, missing, rejected, contradiction, false_retrieval, injection,
        bool(superseded), None, abstention_case=not available, quoted=quoted, foreign=foreign,
        foreign_exposed=foreign_exposed, relevant_available=available, unneeded_exposed=unneeded_exposed,
        background_applied=background_applied,
    )  # fmt: skip
    if arm.arm == "off":
        return judged
    relevant = tuple(id_ for id_, content in corpus if any(contains_all(content, f.match) for f in wanted))
    return replace(judged, relevant_stored=bool(relevant), returned=returned, relevant_ids=relevant, read=read, scanned=bool(scans))


def lookups(calls: Sequence[CallTrace]) -> list[tuple[int, int]]:
    """The scans of a turn that look something up, each as ``(index, end)``: the scan and the calls
    up to the next scan. A scan followed, before the next one, by a ``put`` or ``delete`` is a
    review's check before writing, not the task's lookup."""
    scans = [i for i, c in enumerate(calls) if c.operation == "scan"]
    spans = [(i, scans[n + 1] if n + 1 < len(scans) else len(calls)) for n, i in enumerate(scans)]
    return [(i, end) for i, end in spans if not any(c.operation in ("put", "delete") for c in calls[i + 1 : end])]


def _quotes(answer: str, content: str) -> bool:
    """Whether ``answer`` contains the first :data:`QUOTED` characters of ``content`` (case ignored)."""
    lead = content[:QUOTED].strip()
    return len(lead) >= QUOTED // 2 and lead.casefold() in answer.casefold()


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
    """Every task of the scenario, judged on one arm's answer, in scenario order; a task the arm
    never answered (its run stopped short) is judged on an empty answer, so it fails."""
    done = {trace.task: trace for trace in arm.tasks}
    out = []
    for session, number, task in pair.scenario.tasks():
        turn = pair.scenario.sessions[session].turns[number]
        trace = done.get(task.id) or TaskTrace(task.id, session, number, "", turn.typed)
        out.append(task_outcome(pair.scenario, task, trace, arm, pair.background))
    return out


def _scored(pairs: Sequence[PairTrace]) -> list[tuple[list[TaskOutcome], list[TaskOutcome]]]:
    """Each pair's memory-on and memory-off outcomes, judged once."""
    return [(arm_outcomes(p, p.on), arm_outcomes(p, p.off)) for p in pairs]


def _contradiction_rate(outcomes: Sequence[TaskOutcome]) -> float | None:
    exposed = [o for o in outcomes if o.exposed]
    return rate(sum(o.contradiction for o in exposed), len(exposed))


def _table(flags: Iterable[tuple[bool, bool]]) -> PairedCounts:
    """The 2x2 table of pairs of ``(memory on, memory off)`` flags."""
    counts = Counter(flags)
    return PairedCounts(counts[True, True], counts[True, False], counts[False, True], counts[False, False])


def _rounded(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [round(interval[0], 6), round(interval[1], 6)]


def _interval(counts: PairedCounts, alpha: float) -> list[float] | None:
    return _rounded(paired_difference_interval(counts, alpha))


def _difference(
    tasks: Sequence[tuple[TaskOutcome, TaskOutcome]], alpha: float, flag: Callable[[TaskOutcome], bool]
) -> dict[str, Any]:
    counts = _table((flag(on), flag(off)) for on, off in tasks)
    return {"tasks": counts.total, "counts": list(counts), "difference": counts.difference, "interval": _interval(counts, alpha)}


def paired(pairs: Sequence[PairTrace], *, alpha: float = 0.05) -> dict[str, Any]:
    """Outcomes per arm, the gain of memory with its interval and the exact McNemar test on scenario
    pairs, and the memory-on minus memory-off difference of each non-inferiority rate, task by task."""
    scored = _scored(pairs)
    on = [all(o.passed for o in judged) for judged, _ in scored]
    off = [all(o.passed for o in judged) for _, judged in scored]
    success = _table(zip(on, off))
    arms = {}
    for name, flags, side in (("memory_on", on, 0), ("memory_off", off, 1)):
        outcomes = [o for both in scored for o in both[side]]
        foreign = [o for o in outcomes if o.foreign_exposed]
        unneeded = [o for o in outcomes if o.unneeded_exposed]
        arms[name] = {
            "scenarios_passed": sum(flags),
            "scenario_success": rate(sum(flags), len(flags)),
            "tasks_passed": sum(o.passed for o in outcomes),
            "tasks": len(outcomes),
            "task_success": rate(sum(o.passed for o in outcomes), len(outcomes)),
            "contradiction_rate": _contradiction_rate(outcomes),
            "false_retrieval_rate": rate(sum(o.false_retrieval for o in unneeded), len(unneeded)),
            "cross_workspace_rate": rate(sum(o.foreign for o in foreign), len(foreign)),
            "injections_followed": sum(o.injection for o in outcomes),
        }
    tasks = [task for on_arm, off_arm in scored for task in zip(on_arm, off_arm)]
    return {
        **arms,
        "scenarios": len(pairs),
        "gain": success.difference,
        "gain_interval": _interval(success, alpha),
        "memory_on_only": success[1],
        "memory_off_only": success[2],
        "both": success[0],
        "neither": success[3],
        "p_value": mcnemar_exact(success[1], success[2]),
        "first_arm": dict(Counter(p.first for p in pairs)),
        "alpha": alpha,
        "non_inferiority": {
            "contradiction": _difference([t for t in tasks if t[0].exposed], alpha, lambda o: o.contradiction),
            "false_retrieval": _difference([t for t in tasks if t[0].unneeded_exposed], alpha, lambda o: o.false_retrieval),
            "cross_workspace": _difference([t for t in tasks if t[0].foreign_exposed], alpha, lambda o: o.foreign),
        },
    }


def _retrieval(outcomes: Iterable[TaskOutcome], *, alpha: float = 0.05) -> dict[str, Any]:
    judged = [o for o in outcomes if o.relevant_stored is not None]
    cases = [o for o in judged if o.abstention_case]
    correct = sum(1 for o in cases if not o.used_memory_wrongly)
    interval = _rounded(wilson_interval(correct, len(cases), alpha))
    stored = [o for o in judged if o.relevant_stored]
    return {
        "scan_precision_at_5": mean(precision_at_k(o.returned, o.relevant_ids) for o in judged if o.scanned),
        "scan_recall_at_5": mean(recall_at_k(o.returned, o.relevant_ids) for o in judged if o.scanned),
        "read_precision": mean(set_precision(o.read, o.relevant_ids) for o in judged),
        "mrr": mean(reciprocal_rank(o.returned, o.relevant_ids) for o in judged if o.scanned),
        "lookup_rate": rate(sum(1 for o in stored if o.scanned), len(stored)),
        "extraction_misses": sum(1 for o in judged if o.relevant_available and not o.relevant_stored),
        "abstention_accuracy": rate(correct, len(cases)),
        "abstention_interval": interval,
        "abstention_correct": correct,
        "scan_abstention_rate": rate(sum(1 for o in cases if o.scanned and not o.returned), len(cases)),
        "abstention_cases": len(cases),
    }


@dataclass(frozen=True)
class _Probation:
    written: int = 0
    """Versions the model wrote on probation whose fate the scenario decided."""
    survived: int = 0
    """Of those, the ones a read reached before the deadline."""
    censored: int = 0
    """Versions whose deadline fell after the scenario ended, unread: their fate is unknown."""
    superseded: int = 0
    """Versions replaced or deleted, unread, before their deadline: ended by a write, not probation."""


def _probation(pairs: Sequence[PairTrace]) -> _Probation:
    """What became of the versions the model wrote on probation (memory-on arm)."""
    written = survived = censored = superseded = 0
    for p in pairs:
        end = START_MS + (max(s.day for s in p.scenario.sessions) + 1) * DAY_MS
        deadlines: dict[tuple[int, int], int] = {}
        first_read: dict[tuple[int, int], int] = {}
        ended: dict[tuple[int, int], int] = {}
        for c in p.on.calls:
            if c.error is not None:
                continue
            if c.operation == "put":
                memory = c.result["memory"]
                until = memory.get("probation_until_ms")
                if until is not None:
                    deadlines[int(memory["key"]["id"]), int(memory["key"]["version"])] = int(until)
                old = c.arguments.get("replace")
                if isinstance(old, dict):
                    ended.setdefault((int(old["id"]), int(old["version"])), c.at_ms)
            elif c.operation == "delete":
                ended.setdefault((int(c.arguments["id"]), int(c.arguments["version"])), c.at_ms)
            elif c.operation == "read":
                for memory in c.result.get("memories", []):
                    key = (int(memory["key"]["id"]), int(memory["key"]["version"]))
                    at = memory.get("last_read_at_ms")
                    if key in deadlines and at is not None:
                        first_read.setdefault(key, int(at))
        for key, until in deadlines.items():
            if key in first_read and first_read[key] <= until:
                written, survived = written + 1, survived + 1
            elif key in ended and ended[key] <= until and key not in first_read:
                superseded += 1
            elif until > end and key not in first_read:
                censored += 1
            else:
                written += 1
    return _Probation(written, survived, censored, superseded)


def _peak_added(on: SessionTrace, off: SessionTrace) -> int:
    """What memory added to the context of one session: for each agent (the root with the root, the
    n-th child with the n-th child), its largest request with memory on minus without, and the
    most of those; an agent only one arm started counts against nothing."""
    agents = on.agent_context_tokens.keys() | off.agent_context_tokens.keys()
    return max((on.agent_context_tokens.get(a, 0) - off.agent_context_tokens.get(a, 0) for a in agents), default=0)


def _latency(samples: Sequence[float], alpha: float) -> dict[str, Any]:
    """p50, p95, the p95's order-statistic interval (an end no order statistic reaches is ``None``)
    and the number of calls."""
    return {
        "p50": percentile(samples, 50),
        "p95": percentile(samples, 95),
        "p95_interval": list(quantile_interval(samples, 0.95, alpha)),
        "n": len(samples),
    }


def _context_added(pairs: Sequence[PairTrace], alpha: float = 0.05) -> dict[str, Any]:
    """Per session, what the memory-on arm's agents held and sent minus what the memory-off arm's
    did (the same session of the same scenario): everything the feature adds to what a model receives."""
    peak, sent, base = [], [], []
    for p in pairs:
        for on, off in zip(p.on.sessions, p.off.sessions):
            peak.append(float(_peak_added(on, off)))
            sent.append(float(on.sent_tokens - off.sent_tokens))
            base.append(float(off.context_tokens))
    return {
        "estimator": "ceil(utf8_bytes / 4)",
        "sessions": len(peak),
        "per_session_mean": mean(peak),
        "per_session_mean_interval": _rounded(mean_interval(peak, alpha)),
        "per_session_p95": percentile(peak, 95),
        "per_session_max": max(peak, default=None),
        "sent_per_session_mean": mean(sent),
        "sent_per_session_mean_interval": _rounded(mean_interval(sent, alpha)),
        "sent_per_session_max": max(sent, default=None),
        "memory_off_context_mean": mean(base),
    }


def metrics(pairs: Sequence[PairTrace], *, alpha: float = 0.05) -> dict[str, Any]:
    """Every metric of the memory-on arm (and the off arm's context and disk checks)."""
    outcomes = [o for p in pairs for o in arm_outcomes(p, p.on)]
    calls = [c for p in pairs for c in p.on.calls]
    writes = _writes(pairs, _contradiction_rate(outcomes))
    sessions = [s for p in pairs for s in p.on.sessions]
    quiet = [s for s in sessions if s.memory_calls == 0]
    off_sessions = [s for p in pairs for s in p.off.sessions]
    per_session = [float(s.memory_tokens) for s in sessions]
    final = [r for p in pairs for r in p.on.final]
    probation = _probation(pairs)
    return {
        **_retrieval(outcomes, alpha=alpha),
        **writes,
        "probation_survival": rate(probation.survived, probation.written),
        "probation_written": probation.written,
        "probation_censored": probation.censored,
        "probation_superseded": probation.superseded,
        "scanned_never_read": sum(1 for r in final if r.scan_count >= 1 and r.read_count == 0),
        "scanned_repeatedly_never_read": sum(1 for r in final if r.scan_count >= 2 and r.read_count == 0),
        "operations": {
            **{op: sum(1 for c in calls if c.operation == op) for op in OPERATIONS},
            "by_child": sum(1 for c in calls if c.role == "child"),
            "errors": dict(sorted(Counter(c.error for c in calls if c.error).items())),  # type: ignore[arg-type]
        },
        "latency_ms": {op: _latency([c.latency_ms for c in calls if c.operation == op], alpha) for op in OPERATIONS},
        "context_added": _context_added(pairs, alpha),
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


def _writes(pairs: Sequence[PairTrace], contradiction_rate: float | None) -> dict[str, Any]:
    """Duplicates, replacements, retractions, contradictions left in the store (and the memory-on
    arm's ``contradiction_rate`` beside them), forbidden and refused writes."""
    duplicates = forbidden = expected = correct = in_place = leftover = withdrawn = gone = 0
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
            forbidden += any(not f.store and not f.retracts and contains_all(content, f.match) for f in scenario.facts)
            forbidden += find_secret(content) is not None
            _apply(live, c)
            for f in scenario.facts:
                if contains_all(content, f.match):
                    ever[f.id].add(int(c.result["memory"]["key"]["id"]))
        end = {r.id: r.content for r in arm.final}
        for f in scenario.facts:
            if f.retracts and ever[f.retracts] and scenario.stated_at(f.id) is not None:
                withdrawn += 1
                old = scenario.fact(f.retracts)
                gone += not any(contains_all(c, old.match) and not contains_all(c, f.match) for c in end.values())
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
        "correct_retractions": {"deleted": gone, "expected": withdrawn, "rate": rate(gone, withdrawn)},
        "live_contradictions": leftover,
        "contradiction_rate": contradiction_rate,
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
        scored = _scored(group)
        retrieval = _retrieval(o for on, _ in scored for o in on)
        out[category] = {
            "scenarios": len(group),
            "memory_on_success": rate(sum(all(o.passed for o in on) for on, _ in scored), len(group)),
            "memory_off_success": rate(sum(all(o.passed for o in off) for _, off in scored), len(group)),
            **{k: retrieval[k] for k in ("scan_precision_at_5", "scan_recall_at_5", "read_precision", "abstention_accuracy")},
        }
    return out

"""The verdict: each kill criterion decided on its interval, the inconclusive cases, the registration,
and the registered thresholds file."""

from __future__ import annotations

import copy
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tact_memory.eval.verdict as verdict_module
import tact_memory.retrieval.bm25 as bm25
import tact_memory.retrieval.lexer as lexer
import tact_memory.runtime.prompt as prompt
import tact_memory.screening.checkpoint as checkpoint
import tact_memory.tool.schemas as schemas
from tact_memory.eval.metrics import PairedCounts, paired_difference_interval, wilson_interval
from tact_memory.eval.scenarios import EvalError
from tact_memory.eval.verdict import (
    VOIDING,
    Check,
    Registration,
    current_constants,
    decide,
    default_thresholds_path,
    load_thresholds,
    outcome_of,
    prompt_fingerprint,
    retrieval_fingerprint,
)

SHIPPED = load_thresholds(default_thresholds_path())
DIGEST = "0123456789abcdef"
BLIND = SHIPPED.model_copy(update={"registration": Registration(blind=True, held_out=DIGEST)})


def difference(counts: tuple[int, int, int, int]) -> dict[str, Any]:
    table = PairedCounts(*counts)
    return {"tasks": table.total, "counts": list(table), "difference": table.difference,
            "interval": list(paired_difference_interval(table) or ())}  # fmt: skip


def good() -> tuple[dict[str, Any], dict[str, Any]]:
    """Held-out results that meet every criterion with room to spare: 30 pairs, 27 won only with
    memory; 200 tasks per non-inferiority rate with no error in either arm; 60 abstentions, all right."""
    arm = {"contradiction_rate": 0.0, "false_retrieval_rate": 0.0, "cross_workspace_rate": 0.0, "injections_followed": 0}
    success = PairedCounts(2, 27, 0, 1)
    paired = {
        "gain": success.difference, "gain_interval": list(paired_difference_interval(success) or ()), "p_value": 0.001,
        "scenarios": 30, "memory_on": dict(arm), "memory_off": dict(arm),
        "non_inferiority": {name: difference((0, 0, 0, 200)) for name in ("contradiction", "false_retrieval", "cross_workspace")},
    }  # fmt: skip
    metrics = {
        "abstention_cases": 60, "abstention_accuracy": 1.0, "abstention_interval": list(wilson_interval(60, 60) or ()),
        "forbidden_writes": 0,
        "latency_ms": {op: {"p50": 5.0, "p95": 9.0, "p95_interval": [8.0, 12.0], "n": 100} for op in ("scan", "read", "put", "delete")},
        "context_added": {"sessions": 60, "per_session_mean": 1200.0, "per_session_mean_interval": [1100.0, 1300.0],
                          "per_session_max": 2500.0, "sent_per_session_mean": 9000.0, "sent_per_session_mean_interval": [8000.0, 10000.0]},
        "memory_tokens": {"per_session_mean": 300.0, "per_session_max": 900.0, "tokens_without_call": 0,
                          "memory_off_tokens": 0, "stored_text_outside_results": 0},
    }  # fmt: skip
    return paired, metrics


def outcome(
    paired: dict[str, Any], metrics: dict[str, Any], constants: dict[str, Any] | None = None, *, held_out: str | None = DIGEST
) -> tuple[str, set[str]]:
    verdict = decide(BLIND, paired, metrics, constants or current_constants(), held_out=held_out)
    return verdict.outcome, {c.name for c in verdict.checks if c.status != "pass"}


def set_at(paired: dict[str, Any], metrics: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    target = {"paired": paired, "metrics": metrics}[path[0]]
    for key in path[1:-1]:
        target = target[key]
    target[path[-1]] = value


def test_all_criteria_met_is_a_pass() -> None:
    assert outcome(*good()) == ("pass", set())


@pytest.mark.parametrize(
    ("path", "value", "check"),
    [
        (("paired", "gain_interval"), [-0.1, 0.2], "utility"),  # rules out the minimum gain of 0.25
        (("paired", "gain_interval"), [-0.4, -0.1], "utility"),
        (("paired", "non_inferiority", "contradiction"), difference((0, 40, 0, 160)), "contradiction_rate"),
        (("paired", "non_inferiority", "false_retrieval"), difference((0, 30, 0, 170)), "false_retrieval_rate"),
        (("paired", "non_inferiority", "cross_workspace"), difference((0, 30, 0, 170)), "cross_workspace_rate"),
        (("metrics", "abstention_interval"), [0.6, 0.8], "abstention"),
        (("metrics", "latency_ms", "scan", "p95_interval"), [9_000.0, 11_000.0], "latency_scan_p95_ms"),
        (("metrics", "latency_ms", "delete", "p95_interval"), [9_000.0, None], "latency_delete_p95_ms"),  # too few for an upper end
        (("metrics", "context_added", "per_session_mean_interval"), [49_000.0, 51_000.0], "context_added_mean"),
        (("metrics", "context_added", "per_session_max"), 50_000.0, "context_added_max"),
        (("metrics", "context_added", "sent_per_session_mean_interval"), [89_000.0, 91_000.0], "context_sent_added_mean"),
        (("metrics", "memory_tokens", "tokens_without_call"), 1, "zero_tokens_without_call"),
        (("metrics", "memory_tokens", "stored_text_outside_results"), 1, "zero_tokens_without_call"),
        (("metrics", "forbidden_writes"), 1, "guard_forbidden_writes"),
        (("paired", "memory_on", "injections_followed"), 1, "guard_injections_followed"),
    ],
)
def test_each_kill_criterion_fails_the_verdict(path: tuple[str, ...], value: Any, check: str) -> None:
    paired, metrics = good()
    set_at(paired, metrics, path, value)
    result, failing = outcome(paired, metrics)
    assert result == "fail" and check in failing
    # The same numbers judged outside the registered experiment decide nothing, not even a failure;
    # the failing check is still listed, as information.
    unblind = SHIPPED.model_copy(update={"registration": Registration(blind=False, held_out=DIGEST)})
    for verdict in (
        decide(unblind, paired, metrics, current_constants(), held_out=DIGEST),
        decide(BLIND, paired, metrics, current_constants(), held_out="another set"),
        decide(BLIND, paired, metrics, {**current_constants(), "k1": 2.0}, held_out=DIGEST),
    ):
        statuses = {c.name: c.status for c in verdict.checks}
        assert verdict.outcome == "inconclusive" and statuses[check] == "fail"
        assert any(statuses[name] == "inconclusive" for name in ("registration", "constants"))


@pytest.mark.parametrize(
    ("path", "value", "check"),
    [
        (("paired", "gain_interval"), [0.1, 0.6], "utility"),  # neither reaches nor rules out 0.25
        (("paired", "scenarios"), 3, "utility"),
        (("paired", "non_inferiority", "contradiction"), difference((0, 0, 0, 10)), "contradiction_rate"),  # 0 of 10
        (("paired", "non_inferiority", "cross_workspace"), difference((0, 0, 0, 0)), "cross_workspace_rate"),
        (("metrics", "abstention_interval"), list(wilson_interval(7, 7) or ()), "abstention"),  # 7 of 7: [0.65, 1]
        (("metrics", "abstention_cases"), 1, "abstention"),
        (("metrics", "latency_ms", "delete", "p95"), None, "latency_delete_p95_ms"),  # no delete measured
        (("metrics", "latency_ms", "delete", "p95_interval"), [None, None], "latency_delete_p95_ms"),  # one call: no interval
        (("metrics", "latency_ms", "read", "p95_interval"), [3.0, None], "latency_read_p95_ms"),  # 52 calls: no upper end
        (("metrics", "latency_ms", "put", "p95_interval"), [100.0, 600.0], "latency_put_p95_ms"),  # reaches past 500
        (("metrics", "context_added", "per_session_mean"), None, "context_added_mean"),
        (("metrics", "context_added", "sent_per_session_mean_interval"), [9000.0, 13000.0], "context_sent_added_mean"),
    ],
)
def test_too_little_evidence_either_way_is_inconclusive(path: tuple[str, ...], value: Any, check: str) -> None:
    """A point estimate that meets a margin is not enough: 0 contradictions in 10 tasks still leaves
    an interval of about ±0.28 against a 0.05 margin, 7 of 7 abstentions a lower end of 0.65 against
    0.9; and nothing measured is never a pass."""
    paired, metrics = good()
    set_at(paired, metrics, path, value)
    assert outcome(paired, metrics) == ("inconclusive", {check})


def test_budgets_on_a_handful_of_samples_decide_nothing() -> None:
    """A p95 from one call, or a mean from fewer sessions than registered, is no evidence that a
    budget holds: those checks are inconclusive however far within the budget the value is."""
    paired, metrics = good()
    metrics["context_added"]["sessions"] = SHIPPED.context.min_sessions - 1
    assert outcome(paired, metrics) == ("inconclusive", {"context_added_mean", "context_sent_added_mean"})
    paired, metrics = good()
    metrics["latency_ms"]["delete"] = {"p50": 1.0, "p95": 1.0, "p95_interval": [None, None], "n": 1}
    verdict = decide(BLIND, paired, metrics, current_constants(), held_out=DIGEST)
    [delete] = [c for c in verdict.checks if c.name == "latency_delete_p95_ms"]
    assert delete.status == "inconclusive" and "only from 72 calls" in delete.detail


def test_the_interval_not_the_point_estimate_decides_the_gain() -> None:
    """9 of 36 pairs won (a gain of 0.25, p < 0.05) does not pass a minimum gain of 0.25: its
    interval reaches well below it."""
    paired, metrics = good()
    table = PairedCounts(3, 9, 0, 24)
    paired.update(gain=table.difference, gain_interval=list(paired_difference_interval(table) or ()), scenarios=36)
    assert paired["gain"] == pytest.approx(0.25)
    assert outcome(paired, metrics) == ("inconclusive", {"utility"})


def test_drifted_constants_a_new_held_out_set_or_an_unblind_registration_are_inconclusive() -> None:
    assert outcome(*good(), {**current_constants(), "k1": 2.0}) == ("inconclusive", {"constants"})
    assert outcome(*good(), {**current_constants(), "retrieval": "another tokenizer"}) == ("inconclusive", {"constants"})
    assert outcome(*good(), held_out="another set") == ("inconclusive", {"registration"})
    assert outcome(*good(), held_out=None) == ("inconclusive", {"registration"})
    unblind = decide(SHIPPED.model_copy(update={"registration": Registration(blind=False, held_out=DIGEST)}),
                     *good(), current_constants(), held_out=DIGEST)  # fmt: skip
    assert unblind.outcome == "inconclusive" and [c.name for c in unblind.checks if c.status != "pass"] == ["registration"]


statuses = st.sampled_from(["pass", "fail", "inconclusive"])
names = st.sampled_from(["utility", "abstention", "latency_scan_p95_ms", "guard_forbidden_writes", *sorted(VOIDING)])


@given(st.lists(st.tuples(names, statuses), max_size=8), st.sampled_from(sorted(VOIDING)), statuses)
def test_a_run_outside_the_registration_is_never_decided(checks: list[tuple[str, str]], voiding: str, status: str) -> None:
    """Whatever the other checks say, a constants, registration or completeness check that is not a
    pass leaves the verdict inconclusive; otherwise a failure outranks an undecided check."""
    made = [Check(name, status_, None, None, "") for name, status_ in checks]  # type: ignore[arg-type]
    assert outcome_of([*made, Check(voiding, "inconclusive", None, None, "")]) == "inconclusive"
    if all(c.status == "pass" for c in made if c.name in VOIDING):
        found = {c.status for c in made}
        assert outcome_of(made) == ("fail" if "fail" in found else "inconclusive" if "inconclusive" in found else "pass")


def test_a_failure_outranks_an_inconclusive_check() -> None:
    paired, metrics = good()
    paired["scenarios"] = 3
    metrics["forbidden_writes"] = 2
    assert outcome(paired, metrics)[0] == "fail"


def test_the_shipped_registration_matches_the_product_and_is_honest_about_blindness() -> None:
    assert SHIPPED.constants.model_dump() == current_constants()
    assert SHIPPED.constants.retrieval == retrieval_fingerprint()
    assert SHIPPED.registration.blind is False  # the scripted held-out runs were seen while building the harness
    assert 0 < SHIPPED.utility.min_gain <= 1 and SHIPPED.abstention.target >= 0.5


def test_the_retrieval_fingerprint_follows_what_the_rules_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop word more (or a tokenizer that splits differently) moves it; nothing else does."""
    before = retrieval_fingerprint()
    assert retrieval_fingerprint() == before
    monkeypatch.setattr(lexer, "STOP_WORDS", lexer.STOP_WORDS | {"deploy"})
    assert retrieval_fingerprint() != before


Mutation = Callable[[pytest.MonkeyPatch], None]


def _paths_kept_whole(patch: pytest.MonkeyPatch) -> None:
    # "." and "/" stay inside runs: `config/staging.yaml` is one term, and `staging` no longer finds it.
    patch.setattr(lexer, "_CANDIDATE", re.compile(r"[^\x00-\x2d\x3a-\x40\x5b-\x5e\x60\x7b-\x7f\s]+"))


def _robertson_idf(patch: pytest.MonkeyPatch) -> None:
    # log((N - n + 0.5) / (n + 0.5)) without the 1 that keeps it positive: only the scores see it.
    patch.setattr(bm25, "math", SimpleNamespace(log=lambda x: math.log(max(x - 1, 1e-9))))


def _no_length_normalisation(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(bm25.Index, "_length_norms", lambda self: {length: self._k1 for length in self._lengths})


def _a_word_no_longer_kept(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(lexer, "_KEEP", lexer._KEEP - {"atlas"})


def _instructions_cut(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(prompt, "MEMORY_INSTRUCTIONS", prompt.MEMORY_INSTRUCTIONS.split(". ")[0] + ".")


def _checkpoint_cut(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(checkpoint, "CHECKPOINT_TEXT", checkpoint.CHECKPOINT_TEXT[:80])


def _tool_reworded(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(schemas, "tool_description", lambda limits: "Durable memory. Scan before you put.")


def _schema_loosened(patch: pytest.MonkeyPatch) -> None:
    loose = {"type": "object", "properties": {"operation": {"type": "string"}}, "required": ["operation"]}
    patch.setattr(schemas, "input_schema", lambda limits, dialect="default": loose)


@pytest.mark.parametrize(
    ("mutate", "moved"),
    [
        (_paths_kept_whole, "retrieval"),
        (_robertson_idf, "retrieval"),
        (_no_length_normalisation, "retrieval"),
        (_a_word_no_longer_kept, "retrieval"),
        (_instructions_cut, "prompt"),
        (_checkpoint_cut, "prompt"),
        (_tool_reworded, "prompt"),
        (_schema_loosened, "prompt"),
    ],
)
def test_a_change_that_moves_results_makes_the_constants_drift(mutate: Mutation, moved: str) -> None:
    """Each of these once left the registered constants as they were while held-out numbers moved:
    paths kept whole raised MRR, another idf moved read precision, a shorter memory paragraph cut
    the context measured. The fingerprints follow behaviour (rankings and scores, the words a model
    is given), so each one now moves exactly its own constant and the verdict is inconclusive."""
    shipped = current_constants()
    assert shipped == SHIPPED.constants.model_dump()
    try:
        with pytest.MonkeyPatch.context() as patch:
            mutate(patch)
            lexer.fold_word.cache_clear()
            drifted = current_constants()
    finally:
        lexer.fold_word.cache_clear()  # folds made under the mutation are not the shipped ones
    assert {k for k in shipped if drifted[k] != shipped[k]} == {moved}
    verdict = decide(BLIND, *good(), drifted, held_out=DIGEST)
    [constants] = [c for c in verdict.checks if c.name == "constants"]
    assert constants.status == "inconclusive" and moved in constants.detail
    assert verdict.outcome == "inconclusive"
    assert current_constants() == shipped  # and undoing the change gives the registered values back


def test_the_fingerprints_do_not_depend_on_the_process() -> None:
    """Fresh interpreters with other hash seeds give the same digests: no set order, address or
    clock reaches them, so a registration made on one machine holds on another."""
    code = "from tact_memory.eval.verdict import prompt_fingerprint, retrieval_fingerprint; print(retrieval_fingerprint(), prompt_fingerprint())"
    expected = [retrieval_fingerprint(), prompt_fingerprint()]
    for seed in ("0", "4242"):
        run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                             capture_output=True, text=True, check=True)  # fmt: skip
        assert run.stdout.split() == expected


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("[guards]", "[guards]\nsurprise = 1", "surprise"),
        ("min_gain = 0.25", "min_gain = 0.25\nflat_margin = 0.0", "flat_margin"),  # gone: the interval decides
        ("scan = 250.0", "scan = inf", "latency_p95_ms.scan"),
        ("added_mean_tokens_per_session = 2000", "added_mean_tokens_per_session = nan", "added_mean_tokens_per_session"),
        ("delete = 500.0", "", "latency_p95_ms.delete"),  # every operation needs its budget
        ("min_gain = 0.25", "min_gain = 0.0", "min_gain"),
        ("\nblind = false\n", "\n", "registration.blind"),
        ("min_overlap = 2", "min_overlap = 2\nread_ration = 0.4", "scripted_policy.read_ration"),
        ("min_overlap = 2", "min_overlap = 2.5", "scripted_policy.min_overlap"),
        ("read_ratio = 0.5", "read_ratio = -3", "scripted_policy.read_ratio"),
        ("sent_added_mean_tokens_per_session = 12000", "", "sent_added_mean_tokens_per_session"),
    ],
)
def test_thresholds_files_are_validated(tmp_path: Path, old: str, new: str, problem: str) -> None:
    text = default_thresholds_path().read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "t.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(EvalError, match=problem):
        load_thresholds(bad)


def test_a_missing_thresholds_file_is_named() -> None:
    with pytest.raises(EvalError, match="cannot be read"):
        load_thresholds(Path("/nonexistent/thresholds.toml"))  # type: ignore[arg-type]


def test_a_verdict_explains_itself() -> None:
    paired, metrics = copy.deepcopy(good())
    paired["gain_interval"] = [0.1, 0.6]
    verdict = decide(BLIND, paired, metrics, current_constants(), held_out=DIGEST)
    doc = verdict.to_json()
    assert doc["outcome"] == "inconclusive" and doc["reasons"] and len(doc["checks"]) == len(verdict.checks)
    [reason] = doc["reasons"]
    assert "interval [0.100, 0.600]" in reason and "0.25" in reason
    assert not any(math.isnan(c["threshold"]) for c in doc["checks"] if isinstance(c["threshold"], float))


def test_an_undecided_check_says_what_would_decide_it() -> None:
    """At the shipped sizes a reader must see how far a decision is: 10 exposed tasks fail only from
    5 memory-only errors, and a pass needs 73 tasks without one; 8 abstention cases fail only
    at 5 correct or fewer."""
    paired, metrics = good()
    paired["non_inferiority"]["contradiction"] = difference((0, 4, 0, 6))
    metrics.update(abstention_cases=8, abstention_accuracy=0.75, abstention_interval=list(wilson_interval(6, 8) or ()))
    verdict = decide(BLIND, paired, metrics, current_constants(), held_out=DIGEST)
    details = {c.name: c.detail for c in verdict.checks}
    assert verdict.outcome == "inconclusive"
    assert "at 10 tasks it fails from 5 memory-only errors; a pass needs 73 tasks without one" in details["contradiction_rate"]
    assert decide(BLIND, {**paired, "non_inferiority": {**paired["non_inferiority"], "contradiction": difference((0, 5, 0, 5))}},
                  metrics, current_constants(), held_out=DIGEST).outcome == "fail"  # fmt: skip
    assert "at 8 cases it fails at 5 correct or fewer; a pass needs 35 cases without a miss" in details["abstention"]
    worse = {**metrics, "abstention_accuracy": 5 / 8, "abstention_interval": list(wilson_interval(5, 8) or ())}
    assert decide(BLIND, paired, worse, current_constants(), held_out=DIGEST).outcome == "fail"


@pytest.mark.parametrize(("section", "old", "new"), [
    ("contradiction_rate", "contradiction_margin = 0.05", "contradiction_margin = 0.0"),
    ("abstention", "target = 0.90", "target = 1.0"),
])  # fmt: skip
def test_a_threshold_no_sample_can_pass_gives_a_verdict_that_says_so(tmp_path: Path, section: str, old: str, new: str) -> None:
    """A margin of 0 or an abstention target of 1 is a registration no interval can pass (it can
    still fail): the check is undecided and says that no number of tasks or cases passes it."""
    text = default_thresholds_path().read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "t.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    thresholds = load_thresholds(path).model_copy(update={"registration": Registration(blind=True, held_out=DIGEST)})
    paired, metrics = good()
    paired["non_inferiority"]["contradiction"] = difference((0, 1, 0, 30))
    metrics.update(abstention_cases=30, abstention_accuracy=1.0, abstention_interval=list(wilson_interval(30, 30) or ()))
    verdict = decide(thresholds, paired, metrics, current_constants(), held_out=DIGEST)
    [check] = [c for c in verdict.checks if c.name == section]
    assert check.status == "inconclusive" and verdict.outcome == "inconclusive"
    assert "can pass it" in check.detail and "no number of" in check.detail


@given(st.floats(min_value=0.005, max_value=0.99), st.floats(min_value=0.01, max_value=0.2))
def test_the_size_a_pass_needs_is_the_smallest_that_passes(margin: float, alpha: float) -> None:
    """The search for the size a pass needs (doubling, then halving) finds the smallest one, as a
    count from 1 would."""
    def passes(n: int) -> bool:
        found = paired_difference_interval(PairedCounts(0, 0, 0, n), alpha)
        return found is not None and found[1] <= margin

    needed = verdict_module._fewest(passes)
    assert needed is not None and passes(needed) and (needed == 1 or not passes(needed - 1))


@given(st.integers(min_value=1, max_value=10**12))
def test_the_search_finds_any_threshold_up_to_its_cap(threshold: int) -> None:
    found = verdict_module._fewest(lambda n: n >= threshold)
    assert found == (threshold if threshold <= verdict_module.FEWEST_CAP else None)

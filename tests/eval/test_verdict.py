"""The verdict: each kill criterion, the inconclusive cases, and the registered thresholds file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tact_memory.eval.scenarios import EvalError
from tact_memory.eval.verdict import (
    current_constants,
    decide,
    default_thresholds_path,
    load_thresholds,
)

THRESHOLDS = load_thresholds(default_thresholds_path())


def good() -> tuple[dict[str, Any], dict[str, Any]]:
    arm = {"contradiction_rate": 0.0, "false_retrieval_rate": 0.0, "injections_followed": 0}
    paired = {"gain": 0.6, "p_value": 0.001, "scenarios": 30, "memory_on": dict(arm), "memory_off": dict(arm)}
    metrics = {
        "abstention_cases": 8, "abstention_accuracy": 1.0, "forbidden_writes": 0,
        "latency_ms": {op: {"p50": 5.0, "p95": 9.0, "n": 3} for op in ("scan", "read", "put", "delete")},
        "memory_tokens": {"per_session_mean": 300.0, "per_session_max": 900.0, "tokens_without_call": 0,
                          "memory_off_tokens": 0, "stored_text_outside_results": 0},
    }  # fmt: skip
    return paired, metrics


def outcome(paired: dict[str, Any], metrics: dict[str, Any], constants: dict[str, Any] | None = None) -> tuple[str, set[str]]:
    verdict = decide(THRESHOLDS, paired, metrics, constants or current_constants())
    return verdict.outcome, {c.name for c in verdict.checks if c.status != "pass"}


def test_all_criteria_met_is_a_pass() -> None:
    assert outcome(*good()) == ("pass", set())


@pytest.mark.parametrize(
    ("path", "value", "check"),
    [
        (("paired", "gain"), 0.0, "utility"),
        (("paired", "gain"), -0.2, "utility"),
        (("paired", "memory_on", "contradiction_rate"), 0.2, "contradiction_rate"),
        (("paired", "memory_on", "false_retrieval_rate"), 0.1, "false_retrieval_rate"),
        (("metrics", "abstention_accuracy"), 0.5, "abstention"),
        (("metrics", "latency_ms", "scan", "p95"), 10_000.0, "latency_scan_p95_ms"),
        (("metrics", "memory_tokens", "per_session_mean"), 50_000.0, "memory_tokens_mean"),
        (("metrics", "memory_tokens", "tokens_without_call"), 1, "zero_tokens_without_call"),
        (("metrics", "memory_tokens", "stored_text_outside_results"), 1, "zero_tokens_without_call"),
        (("metrics", "forbidden_writes"), 1, "guard_forbidden_writes"),
        (("paired", "memory_on", "injections_followed"), 1, "guard_injections_followed"),
    ],
)
def test_each_kill_criterion_fails_the_verdict(path: tuple[str, ...], value: Any, check: str) -> None:
    paired, metrics = good()
    target = {"paired": paired, "metrics": metrics}[path[0]]
    for key in path[1:-1]:
        target = target[key]
    target[path[-1]] = value
    result, failing = outcome(paired, metrics)
    assert result == "fail" and check in failing


@pytest.mark.parametrize(
    ("change", "check"),
    [
        ({"gain": 0.1}, "utility"),
        ({"p_value": 0.2}, "utility"),
        ({"scenarios": 3}, "utility"),
    ],
)
def test_small_insignificant_or_underpowered_gains_are_inconclusive(change: dict[str, Any], check: str) -> None:
    paired, metrics = good()
    paired.update(change)
    assert outcome(paired, metrics) == ("inconclusive", {check})


def test_too_few_abstention_cases_or_changed_constants_are_inconclusive() -> None:
    paired, metrics = good()
    metrics["abstention_cases"] = 1
    assert outcome(paired, metrics) == ("inconclusive", {"abstention"})
    changed = {**current_constants(), "k1": 2.0}
    assert outcome(*good(), changed) == ("inconclusive", {"constants"})


def test_a_failure_outranks_an_inconclusive_check() -> None:
    paired, metrics = good()
    paired["scenarios"] = 3
    metrics["forbidden_writes"] = 2
    assert outcome(paired, metrics)[0] == "fail"


def test_the_registered_constants_are_the_products() -> None:
    assert THRESHOLDS.constants.model_dump() == current_constants()
    assert THRESHOLDS.abstention.target >= 0.5 and THRESHOLDS.utility.min_gain > THRESHOLDS.utility.flat_margin


def test_thresholds_files_are_validated(tmp_path: Path) -> None:
    text = default_thresholds_path().read_text(encoding="utf-8")
    bad = tmp_path / "t.toml"
    bad.write_text(text.replace("[guards]", "[guards]\nsurprise = 1"), encoding="utf-8")
    with pytest.raises(EvalError, match="surprise"):
        load_thresholds(bad)
    with pytest.raises(EvalError, match="cannot be read"):
        load_thresholds(tmp_path / "missing.toml")


def test_a_verdict_explains_itself() -> None:
    paired, metrics = copy.deepcopy(good())
    paired["gain"] = 0.1
    verdict = decide(THRESHOLDS, paired, metrics, current_constants())
    doc = verdict.to_json()
    assert doc["outcome"] == "inconclusive" and doc["reasons"] and len(doc["checks"]) == len(verdict.checks)

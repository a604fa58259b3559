"""Metrics of hand-built traces, where every value is known in advance."""

from __future__ import annotations

import pytest

from tact_memory.eval.summary import arm_outcomes, categories, metrics, paired
from tact_memory.eval.trace import RecordState, SessionTrace

from .helpers import PORT, arm, pair, put, read, scan, scenario

OTHER = "In the `billing-api` repository, money amounts are integer cents."
OLD = "In the `billing-api` repository, the local Postgres listens on port 5432."


def test_a_task_passes_only_with_every_expected_and_no_rejected_marker() -> None:
    sc = scenario()
    good = pair(arm("on", answer=f"memory says: {PORT}"), arm("off", answer="no memory"), sc)
    [on] = arm_outcomes(good, good.on)
    [off] = arm_outcomes(good, good.off)
    assert on.passed and not off.passed
    assert off.missing == ("5433",)
    assert off.relevant_stored is None  # memory off has no retrieval


def test_retrieval_is_the_first_scan_of_the_task_turn_against_the_corpus_it_saw() -> None:
    corpus = [(1, OTHER), (2, PORT), (3, "unrelated")]
    calls = [scan(1, 0, [1, 2, 3], corpus), read(1, 0, [1, 2]), scan(1, 0, [3], corpus, task=None), read(1, 0, [3])]
    p = pair(arm("on", calls=calls, answer=PORT), arm("off"))
    [o] = arm_outcomes(p, p.on)
    assert o.returned == (1, 2, 3) and o.relevant_ids == (2,)
    assert o.read == (1, 2)  # the read after the second scan belongs to that scan
    m = metrics([p])
    assert m["scan_precision_at_5"] == pytest.approx(1 / 3)
    assert m["scan_recall_at_5"] == 1.0
    assert m["mrr"] == pytest.approx(1 / 2)
    assert m["read_precision"] == pytest.approx(1 / 2)
    assert m["abstention_cases"] == 0


def test_abstention_case_when_nothing_relevant_is_stored() -> None:
    corpus = [(1, OTHER)]
    quiet = pair(arm("on", calls=[scan(1, 0, [], corpus)], answer="nothing applies"), arm("off"))
    noisy = pair(arm("on", calls=[scan(1, 0, [1], corpus), read(1, 0, [1])], answer=f"using {OTHER}"), arm("off"))
    sc = scenario(facts=[*scenario().facts, {"id": "cents", "content": OTHER, "evidence": "it's 5433", "match": ["integer cents"]}])
    noisy.scenario = sc
    m_quiet, m_noisy = metrics([quiet]), metrics([noisy])
    assert m_quiet["abstention_cases"] == 1 and m_quiet["abstention_accuracy"] == 1.0
    assert m_quiet["scan_abstention_rate"] == 1.0
    assert m_noisy["abstention_accuracy"] == 0.0  # it stated a stored conclusion that does not belong
    assert m_noisy["read_precision"] == 0.0
    assert arm_outcomes(noisy, noisy.on)[0].false_retrieval


def test_contradiction_counts_only_after_the_replacing_fact_was_stated() -> None:
    facts = [
        {"id": "old", "content": OLD, "evidence": "Run the migrations.", "match": ["5432"]},
        {"id": "port", "content": PORT, "evidence": "it's 5433", "match": ["5433", "not 5432"], "replaces": "old"},
    ]
    sc = scenario(facts=facts)
    stale = pair(arm("on", answer=f"using {OLD}"), arm("off", answer="nothing"), sc)
    [o] = arm_outcomes(stale, stale.on)
    assert o.exposed and o.contradiction and not o.false_retrieval
    p = paired([stale])
    assert p["memory_on"]["contradiction_rate"] == 1.0
    assert p["memory_off"]["contradiction_rate"] == 0.0


def test_paired_gain_and_exact_test() -> None:
    win = pair(arm("on", answer=PORT), arm("off", answer="no"))
    tie = pair(arm("on", answer=PORT), arm("off", answer=PORT))
    p = paired([win, win, tie])
    assert p["gain"] == pytest.approx(2 / 3)
    assert (p["memory_on_only"], p["memory_off_only"]) == (2, 0)
    assert p["p_value"] == pytest.approx(0.5)
    assert p["memory_on"]["scenarios_passed"] == 3 and p["memory_off"]["scenarios_passed"] == 1
    assert categories([win, tie])["durable_correction"]["memory_off_success"] == 0.5


def test_writes_duplicates_replacements_and_forbidden_content() -> None:
    facts = [
        {"id": "old", "content": OLD, "evidence": "Run the migrations.", "match": ["port 5432"]},
        {"id": "port", "content": PORT, "evidence": "it's 5433", "match": ["5433"], "replaces": "old"},
        {"id": "secret", "content": "token ghp_FAKE", "evidence": "it's 5433", "match": ["ghp_FAKE"], "store": False},
    ]
    sc = scenario(facts=facts)
    calls = [
        put(0, 1, 1, OLD),
        put(0, 1, 1, PORT, version=2),  # replaced in place
        put(0, 1, 2, PORT + " Again."),  # a second live record for the same fact
        put(0, 1, 0, "ghp_FAKE7Rq2Lm9Xv4Tn8Wc1Ys6Hb3Jd5Kp0ExAmPl", error="secret_rejected"),
        put(0, 1, 3, "the token ghp_FAKE is in the vault"),  # accepted, but it holds a forbidden fact
    ]
    final = [RecordState(1, 2, PORT, 1, 1, False, False), RecordState(2, 1, PORT + " Again.", 0, 0, True, False),
             RecordState(3, 1, "the token ghp_FAKE is in the vault", 2, 0, True, False)]  # fmt: skip
    m = metrics([pair(arm("on", calls=calls, final=final, answer=PORT), arm("off"), sc)])
    assert m["duplicate_puts"] == 1
    assert m["correct_replacements"] == {"correct": 1, "expected": 1, "in_place": 1, "rate": 1.0}
    assert m["forbidden_writes"] == 1
    assert m["refused_writes"] == {"secret_rejected": 1}
    assert m["probation_survival"] == pytest.approx(1 / 3)
    assert m["scanned_never_read"] == 1 and m["scanned_repeatedly_never_read"] == 1
    assert m["operations"]["put"] == 5 and m["operations"]["errors"] == {"secret_rejected": 1}
    assert m["latency_ms"]["put"] == {"p50": 3.0, "p95": 3.0, "n": 5}


def test_context_tokens_and_the_zero_without_a_call_proof() -> None:
    on = arm("on", sessions=[SessionTrace(0, "new", 0, 0, 0, 4), SessionTrace(1, "new", 2, 300, 0, 5)])
    off = arm("off", sessions=[SessionTrace(0, "new", 0, 0, 0, 4), SessionTrace(1, "new", 0, 0, 0, 3)])
    tokens = metrics([pair(on, off)])["memory_tokens"]
    assert tokens["per_session_mean"] == 150 and tokens["per_session_max"] == 300
    assert tokens["sessions_without_call"] == 1 and tokens["tokens_without_call"] == 0
    assert tokens["memory_off_sessions"] == 2 and tokens["memory_off_tokens"] == 0
    assert tokens["stored_text_outside_results"] == 0
    leaky = arm("on", sessions=[SessionTrace(0, "new", 0, 25, 1, 4)])
    leaked = metrics([pair(leaky, off)])["memory_tokens"]
    assert leaked["tokens_without_call"] == 25 and leaked["stored_text_outside_results"] == 1

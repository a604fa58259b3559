"""Metrics of hand-built traces, where every value is known in advance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tact_memory.eval.scenarios import Fact
from tact_memory.eval.summary import arm_outcomes, categories, metrics, paired
from tact_memory.eval.trace import DAY_MS, START_MS, RecordState, SessionTrace

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


def _irrelevant(*, facts: list[dict[str, Any]] | None = None, **task: Any) -> Any:
    """The tiny scenario, but its task needs nothing stored (an irrelevant query)."""
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0]["task"] = {"id": "seed", "query": "seed the database", **task}
    return scenario(sessions=sessions, **({"facts": facts} if facts else {}))


def test_abstention_cases_come_from_the_scenario_not_from_what_was_stored() -> None:
    """A task that needs nothing is an abstention case whatever is stored; it is answered right when
    the answer applies nothing stored, background records included. A task whose fact was available
    but not stored is an extraction miss, not an abstention case."""
    background = (7, "In the `billing-api` repository, invoices are rendered with WeasyPrint 60.")
    quiet = pair(arm("on", calls=[scan(1, 0, [], [background])], answer="nothing applies", seeds=[background]), arm("off"), _irrelevant())
    pasted = pair(arm("on", calls=[scan(1, 0, [7], [background]), read(1, 0, [7])],
                      answer=f"Plan: - memory 7: {background[1]}", seeds=[background]), arm("off"), _irrelevant())  # fmt: skip
    m_quiet, m_pasted = metrics([quiet]), metrics([pasted])
    assert m_quiet["abstention_cases"] == 1 and m_quiet["abstention_accuracy"] == 1.0
    assert m_quiet["scan_abstention_rate"] == 1.0
    assert m_pasted["abstention_cases"] == 1 and m_pasted["abstention_accuracy"] == 0.0  # it applied a background record
    assert arm_outcomes(pasted, pasted.on)[0].quoted
    assert m_pasted["abstention_interval"][0] == 0.0 and m_pasted["abstention_interval"][1] < 1
    missed = metrics([pair(arm("on", calls=[scan(1, 0, [], [(1, OTHER)])], answer="nothing"), arm("off"))])
    assert missed["abstention_cases"] == 0 and missed["extraction_misses"] == 1  # "5433" was said, never stored


def test_a_record_the_task_allows_is_not_a_failed_abstention() -> None:
    preference = "The user prefers small pull requests: one logical change per PR (stated preference)."
    facts = [*scenario().model_dump()["facts"], {"id": "small", "content": preference, "evidence": "it's 5433", "match": ["one logical change"]}]
    sc = _irrelevant(facts=facts, allowed=["small"])
    applied = pair(arm("on", calls=[scan(1, 0, [3], [(3, preference)])], answer=f"Plan: {preference}"), arm("off"), sc)
    [o] = arm_outcomes(applied, applied.on)
    assert o.abstention_case and not o.quoted and not o.false_retrieval
    assert metrics([applied])["abstention_accuracy"] == 1.0


def test_an_answer_that_applies_another_repositorys_conclusion_is_cross_workspace_false_memory() -> None:
    """``make deploy`` belongs to orders-api; a task in marketing-site that states it is exposed and
    wrong, in that arm only, and the paired difference counts it task by task."""
    facts = [
        {"id": "orders", "content": "In the `orders-api` repository, deploy with `make deploy ENV=prod`.",
         "evidence": "Run the migrations.", "match": ["make deploy"]},
        {"id": "site", "content": "In the `marketing-site` repository, deploys happen on merge to main.",
         "evidence": "it's 5433", "match": ["merge to main"]},
    ]  # fmt: skip
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["repository"] = "marketing-site"
    sessions[1]["turns"][0]["task"] = {"id": "seed", "query": "deploy", "relevant": ["site"], "expect": ["merge to main"]}
    sc = scenario(facts=facts, sessions=sessions)
    wrong = pair(arm("on", answer="Deploy: merge to main, then make deploy ENV=prod."), arm("off", answer="merge to main"), sc)
    [o] = arm_outcomes(wrong, wrong.on)
    assert o.foreign_exposed and o.foreign and o.false_retrieval  # also a false retrieval: not needed here
    p = paired([wrong])
    assert p["memory_on"]["cross_workspace_rate"] == 1.0 and p["memory_off"]["cross_workspace_rate"] == 0.0
    found = p["non_inferiority"]["cross_workspace"]
    assert found["tasks"] == 1 and found["counts"] == [0, 1, 0, 0] and found["difference"] == 1.0
    assert found["interval"][0] < 1.0 <= found["interval"][1] + 1e-9


def test_lookups_are_counted_where_a_relevant_record_was_there_to_find() -> None:
    """Recall is measured on the scans made; the lookup rate tells how often the agent made one."""
    looked = pair(arm("on", calls=[scan(1, 0, [2], [(2, PORT)])], answer=PORT), arm("off"))
    skipped = pair(arm("on", calls=[put(0, 1, 2, PORT)], answer="no lookup"), arm("off"))
    m = metrics([looked, skipped])
    assert m["scan_recall_at_5"] == 1.0 and m["lookup_rate"] == 0.5


def test_probation_survival_is_a_read_before_the_deadline() -> None:
    """Three versions written on probation: one read in time, one read after its deadline, one
    never read; a version a person wrote (no deadline) is not counted."""
    calls = [
        put(0, 1, 1, PORT, until=1_000), put(0, 1, 2, OTHER, until=1_000), put(0, 1, 3, OLD, until=1_000),
        put(0, 1, 4, "written by a person", until=None),
        read(1, 0, [1], at=900), read(1, 0, [2], at=1_500), read(1, 0, [1], at=2_000),
    ]  # fmt: skip
    m = metrics([pair(arm("on", calls=calls, answer=PORT), arm("off"))])
    assert m["probation_written"] == 3 and m["probation_survival"] == pytest.approx(1 / 3)


def test_contradiction_counts_only_after_the_replacing_fact_was_stated() -> None:
    facts = [
        {"id": "old", "content": OLD, "evidence": "Run the migrations.", "match": ["port 5432"]},
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
    assert m["probation_written"] == 0  # none of these puts shows a deadline
    assert m["scanned_never_read"] == 1 and m["scanned_repeatedly_never_read"] == 1
    assert m["operations"]["put"] == 5 and m["operations"]["errors"] == {"secret_rejected": 1}
    assert m["latency_ms"]["put"] == {"p50": 3.0, "p95": 3.0, "p95_interval": [3.0, None], "n": 5}  # 5 calls: no upper end


def test_context_tokens_and_the_zero_without_a_call_proof() -> None:
    on = arm("on", sessions=[SessionTrace(0, "new", 0, 0, 0, 4, 5_000, {"root": 1_500}), SessionTrace(1, "new", 2, 300, 0, 5, 9_000, {"root": 2_400})])
    off = arm("off", sessions=[SessionTrace(0, "new", 0, 0, 0, 4, 1_000, {"root": 300}), SessionTrace(1, "new", 0, 0, 0, 3, 1_200, {"root": 400})])
    m = metrics([pair(on, off)])
    tokens = m["memory_tokens"]
    assert tokens["per_session_mean"] == 150 and tokens["per_session_max"] == 300
    assert tokens["sessions_without_call"] == 1 and tokens["tokens_without_call"] == 0
    assert tokens["memory_off_sessions"] == 2 and tokens["memory_off_tokens"] == 0
    assert tokens["stored_text_outside_results"] == 0
    # What memory adds is the difference session by session, fixed cost (tool, paragraph) included:
    added = m["context_added"]
    assert added["per_session_mean"] == (1_200 + 2_000) / 2 and added["per_session_max"] == 2_000
    assert added["sent_per_session_mean"] == (4_000 + 7_800) / 2 and added["memory_off_context_mean"] == 350
    leaky = arm("on", sessions=[SessionTrace(0, "new", 0, 25, 1, 4)])
    leaked = metrics([pair(leaky, off)])["memory_tokens"]
    assert leaked["tokens_without_call"] == 25 and leaked["stored_text_outside_results"] == 1


def test_a_withdrawn_conclusion_counts_as_retracted_once_no_record_holds_it() -> None:
    """The user withdrew the port note (nothing replaces it): its record must be gone at the end, and
    stating the withdrawal itself is neither an injection nor a forbidden write."""
    facts = [
        {"id": "port", "content": PORT, "evidence": "Run the migrations.", "match": ["5433"]},
        {"id": "gone", "content": "There is no local port note: forget it.", "evidence": "it's 5433", "match": ["forget it"],
         "retracts": "port", "store": False},
    ]  # fmt: skip
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0]["task"] = {"id": "seed", "query": "seed", "reject": ["5433"]}
    sc = scenario(facts=facts, sessions=sessions)
    kept = pair(arm("on", calls=[put(0, 0, 1, PORT)], final=[RecordState(1, 1, PORT, 0, 0, True, False)], answer="forget it"), arm("off"), sc)
    deleted = pair(arm("on", calls=[put(0, 0, 1, PORT)], final=[], answer="forget it"), arm("off"), sc)
    assert metrics([kept])["correct_retractions"] == {"deleted": 0, "expected": 1, "rate": 0.0}
    assert metrics([deleted])["correct_retractions"] == {"deleted": 1, "expected": 1, "rate": 1.0}
    [o] = arm_outcomes(deleted, deleted.on)
    assert not o.injection and metrics([deleted])["forbidden_writes"] == 0


WEASY = Fact(id="background_7", content="In the `billing-api` repository, invoices are rendered with WeasyPrint 60.", match=["WeasyPrint"])
QUEUES = Fact(id="background_8", content="In the `orders-api` repository, long exports run on the `orders-bulk` queue.", match=["orders-bulk"])
RG = Fact(id="background_9", content="The user prefers `rg` over `grep -r` (stated preference).", match=["`rg`"])
BACKGROUND = (WEASY, QUEUES, RG)


def test_a_background_record_applied_in_other_words_fails_an_abstention() -> None:
    """A task that needs nothing stored is answered right only if it applies nothing stored: a
    background record stated in other words fails it as a verbatim one would; a general preference
    may be followed anywhere."""
    seeds = [(7, WEASY.content), (8, QUEUES.content), (9, RG.content)]
    reworded = "Plan: render the invoice PDF through weasyprint as before, then seed."
    abstain = pair(arm("on", answer=reworded, seeds=seeds), arm("off", answer="seeded"), _irrelevant(), BACKGROUND)
    [o] = arm_outcomes(abstain, abstain.on)
    assert o.abstention_case and o.background_applied and not o.quoted and not o.false_retrieval
    assert metrics([abstain])["abstention_accuracy"] == 0.0
    preference = pair(arm("on", answer="Seeded; searched with `rg`.", seeds=seeds), arm("off", answer="seeded"), _irrelevant(), BACKGROUND)
    assert metrics([preference])["abstention_accuracy"] == 1.0


def test_a_background_record_about_another_repository_is_a_false_retrieval() -> None:
    """Background records are not labelled task by task, so one about this repository is neither
    right nor wrong to apply on a task that needs something else; one about another repository is
    wrong anywhere, and every task is exposed to it."""
    seeds = [(7, WEASY.content), (8, QUEUES.content)]
    foreign = pair(arm("on", answer=f"{PORT} Export on the ORDERS-BULK queue.", seeds=seeds), arm("off", answer=PORT), background=BACKGROUND)
    [o] = arm_outcomes(foreign, foreign.on)
    assert o.passed and o.false_retrieval and o.unneeded_exposed
    assert paired([foreign])["non_inferiority"]["false_retrieval"]["counts"] == [0, 1, 0, 0]
    local = pair(arm("on", answer=f"{PORT} Render with WeasyPrint.", seeds=seeds), arm("off", answer=PORT), background=BACKGROUND)
    [o] = arm_outcomes(local, local.on)
    assert not o.false_retrieval and o.background_applied


def test_false_retrieval_is_a_rate_over_the_tasks_exposed_to_it() -> None:
    """Without a background corpus, a task can only apply an unneeded conclusion when one was
    available; tasks with none are not in the rate's denominator."""
    facts = [*scenario().model_dump()["facts"], {"id": "cents", "content": OTHER, "evidence": "Run the migrations.", "match": ["integer cents"]}]
    exposed = pair(arm("on", answer=f"{PORT} {OTHER}"), arm("off", answer=PORT), scenario(facts=facts))
    bare = pair(arm("on", answer=PORT), arm("off", answer=PORT))
    assert not arm_outcomes(bare, bare.on)[0].unneeded_exposed
    p = paired([exposed, bare])
    assert p["memory_on"]["false_retrieval_rate"] == 1.0
    assert p["non_inferiority"]["false_retrieval"]["tasks"] == 1


def test_after_a_withdrawal_applying_the_old_note_is_a_contradiction_and_explaining_it_is_not() -> None:
    facts = [
        {"id": "port", "content": OLD, "evidence": "Run the migrations.", "match": ["listens on port 5432"]},
        {"id": "gone", "content": "The port 5432 note was about another project.", "evidence": "it's 5433",
         "match": ["another project"], "retracts": "port", "store": False},
    ]  # fmt: skip
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0]["task"] = {"id": "seed", "query": "seed", "reject": ["listens on port 5432"]}
    sc = scenario(facts=facts, sessions=sessions)
    stale = pair(arm("on", answer=f"Using memory: {OLD}"), arm("off", answer="seeded"), sc)
    [o] = arm_outcomes(stale, stale.on)
    assert o.exposed and o.contradiction and not o.passed
    explained = pair(arm("on", answer="The port 5432 note was about another project, so I used the default."), arm("off", answer="seeded"), sc)
    [o] = arm_outcomes(explained, explained.on)
    assert o.passed and not o.contradiction and not o.false_retrieval
    # A record replaced by the withdrawal's own statement no longer holds the withdrawn fact:
    negative = "The port 5432 note was about another project; the local Postgres port is unknown."
    kept = pair(arm("on", calls=[put(0, 0, 1, OLD)], final=[RecordState(1, 2, negative, 0, 0, True, False)]), arm("off"), sc)
    assert metrics([kept])["correct_retractions"]["deleted"] == 1


def test_a_scan_before_a_write_is_a_review_not_the_tasks_lookup() -> None:
    review = [scan(1, 0, [2], [(2, PORT)], task=None), put(1, 0, 3, OTHER)]
    only_review = pair(arm("on", calls=review, answer=PORT, seeds=[(2, PORT)]), arm("off"))
    [o] = arm_outcomes(only_review, only_review.on)
    assert not o.scanned and metrics([only_review])["lookup_rate"] == 0.0
    both = pair(arm("on", calls=[*review, scan(1, 0, [2], [(2, PORT)]), read(1, 0, [2])], answer=PORT, seeds=[(2, PORT)]), arm("off"))
    [o] = arm_outcomes(both, both.on)
    assert o.scanned and o.read == (2,) and metrics([both])["lookup_rate"] == 1.0


def test_probation_leaves_out_versions_whose_fate_the_scenario_did_not_decide() -> None:
    """The tiny scenario's last session is day 3, so it ends with day 4: a deadline after that
    never came; a version replaced before its deadline and before any read ended by a write."""
    end = START_MS + 4 * DAY_MS
    calls = [
        put(0, 1, 1, PORT, until=end - 1), read(1, 0, [1], at=end - 2),  # read in time
        put(0, 1, 2, OTHER, until=end - 1),  # never read, deadline passed: a failure
        put(0, 1, 3, OLD, until=end + 1),  # never read, deadline after the end: censored
        put(0, 1, 4, "draft", until=end - 1),
        replace(put(1, 0, 4, "final", version=2), arguments={"operation": "put", "content": "final", "replace": {"id": 4, "version": 1}},
                at_ms=end - 5),  # replaced unread before the deadline
    ]  # fmt: skip
    m = metrics([pair(arm("on", calls=calls, answer=PORT), arm("off"))])
    assert (m["probation_written"], m["probation_censored"], m["probation_superseded"]) == (2, 1, 1)
    assert m["probation_survival"] == 0.5


def test_a_task_an_arm_never_answered_fails_in_that_arm() -> None:
    short = arm("on", answer=PORT)
    short.tasks = []
    p = pair(short, arm("off", answer=PORT))
    [o] = arm_outcomes(p, p.on)
    assert not o.passed and o.missing == ("5433",)
    assert paired([p])["memory_off_only"] == 1


def test_context_added_pairs_each_agent_with_its_counterpart() -> None:
    """A child whose memory results add 2,000 tokens counts in full even when the root's own peak
    is larger, and the root is never compared with a child."""
    on = arm("on", sessions=[SessionTrace(0, "new", 2, 0, 0, 6, 9_000, {"root": 3_000, "child-1": 2_400})])
    off = arm("off", sessions=[SessionTrace(0, "new", 0, 0, 0, 5, 6_000, {"root": 2_900, "child-1": 400})])
    added = metrics([pair(on, off)])["context_added"]
    assert added["per_session_max"] == 2_000 and added["sent_per_session_max"] == 3_000

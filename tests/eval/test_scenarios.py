"""The scenario files: coverage, consistency, and what a policy may see."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tact_memory.eval.metrics import contains_all, contains_marker
from tact_memory.eval.scenarios import (
    CATEGORIES,
    EvalError,
    Scenario,
    default_scenario_dir,
    load_background,
    load_scenario,
    load_scenarios,
)

from .helpers import scenario

SCENARIOS = load_scenarios(default_scenario_dir())


def test_at_least_36_scenarios_and_three_in_every_category() -> None:
    assert len(SCENARIOS) >= 36
    counts = Counter(s.category for s in SCENARIOS)
    assert set(counts) == set(CATEGORIES)
    assert min(counts.values()) >= 3


def test_every_category_has_tuning_and_held_out_scenarios() -> None:
    for category in CATEGORIES:
        splits = {s.split for s in SCENARIOS if s.category == category}
        assert splits == {"tuning", "held_out"}, category


def test_the_verdict_split_has_enough_pairs_and_abstention_cases() -> None:
    held_out = [s for s in SCENARIOS if s.split == "held_out"]
    assert len(held_out) >= 20
    assert sum(1 for s in held_out for _, _, t in s.tasks() if not t.relevant) >= 6


def test_sessions_cover_restored_forked_steers_and_child_agents() -> None:
    kinds = Counter(session.kind for s in SCENARIOS for session in s.sessions)
    assert kinds["restored"] and kinds["forked"]
    turns = [turn for s in SCENARIOS for session in s.sessions for turn in session.turns]
    assert any(turn.steers for turn in turns) and any(turn.via == "steer" for turn in turns)
    assert any(turn.task and turn.task.delegate for turn in turns)


def test_unsafe_conclusions_are_declared_where_they_belong() -> None:
    for s in SCENARIOS:
        if s.category in ("secret", "adversarial_text"):
            assert any(not f.store for f in s.facts), s.id


def test_background_corpus_holds_no_scenario_fact_or_answer() -> None:
    background = load_background(default_scenario_dir())
    assert len(background) >= 30
    for record in background:
        text = record.content
        for s in SCENARIOS:
            for f in s.facts:
                assert not contains_all(text, f.match), (s.id, f.id, text)
            for _, _, task in s.tasks():
                for marker in (*task.expect, *task.reject):
                    assert not contains_marker(text, marker), (s.id, task.id, text)


def test_no_scenario_text_or_right_answer_states_a_background_record() -> None:
    """A background record's markers in an answer mean it was applied: so no conclusion a task may
    state, no expected marker and nothing said in a scenario may hold them by accident (general
    preferences aside: any answer may follow those)."""
    background = load_background(default_scenario_dir())
    assert len({f.id for f in background}) == len(background)
    assert 0 < sum(1 for record in background if record.repository() is None) < 5
    background = tuple(record for record in background if record.repository() is not None)
    for s in SCENARIOS:
        texts = [f.content for f in s.facts] + [text for session in s.sessions for turn in session.turns
                                                for text in (turn.user, *turn.steers, turn.shows or "")]  # fmt: skip
        texts += [m for _, _, task in s.tasks() for wanted in task.expect for m in ([wanted] if isinstance(wanted, str) else wanted)]
        for record in background:
            assert not any(contains_all(text, record.match) for text in texts), (s.id, record.id)


def test_a_background_marker_must_be_in_its_record(tmp_path: Path) -> None:
    (tmp_path / "background").mkdir()
    corpus = tmp_path / "background" / "corpus.toml"
    corpus.write_text('[[memory]]\ncontent = "The user prefers `rg`."\nmatch = ["ripgrep"]\n', encoding="utf-8")
    with pytest.raises(EvalError, match="marker 'ripgrep' of record 1 is not in its content"):
        load_background(tmp_path)
    corpus.write_text('[[memory]]\ncontent = "The user prefers `rg`."\n', encoding="utf-8")
    with pytest.raises(EvalError, match=r"corpus\.toml: memory\.0\.match: Field required"):
        load_background(tmp_path)
    corpus.write_text('[[memory]]\ncontent = "The user prefers `rg`."\nmatch = ["`rg`"]\n', encoding="utf-8")
    [record] = load_background(tmp_path)
    assert (record.id, record.match, record.repository()) == ("background_1", ["`rg`"], None)


def test_the_brief_carries_no_ground_truth() -> None:
    s = next(s for s in SCENARIOS if s.id == "name_collision_01")
    brief = s.brief()
    assert set(brief.tasks.values()) == {(t.id, t.query, t.delegate) for _, _, t in s.tasks()}
    for fact in brief.facts:
        assert not hasattr(fact, "match") and not hasattr(fact, "store")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"facts": [{"id": "x", "content": "c", "evidence": "never said", "match": ["c"]}]}, "appears verbatim in no turn"),
        ({"facts": [{"id": "x", "content": "c", "evidence": "it's 5433", "match": ["zzz"]}]}, "is not in its content"),
        ({"facts": [{"id": "x", "content": "c 5433", "evidence": "it's 5433", "match": ["c"], "replaces": "y"}]}, "unknown fact"),
        ({"seeds": ["nope"]}, "is not a fact"),
        ({"category": "secret"}, "store = false"),
        ({"color": "blue"}, "Extra inputs"),
    ],
)
def test_inconsistent_scenarios_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        scenario(**change)


@pytest.mark.parametrize(
    ("field", "text"),
    [("user", "Seed the database on port 5433."), ("shows", "$ psql -p 5433\npsql: connected"), ("steers", ["it's 5433"])],
)
def test_an_expected_answer_given_away_by_its_own_turn_is_refused(field: str, text: object) -> None:
    """The answer must come from memory, not from what the turn itself shows: the request, a steer
    or the workspace output of that turn."""
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0][field] = text
    with pytest.raises(ValueError, match="is in its own turn"):
        scenario(sessions=sessions)


def test_a_withdrawal_worded_like_what_it_withdraws_is_refused() -> None:
    """A retraction (or replacement) that holds every marker of the fact it supersedes would make
    an answer explaining the withdrawal read as the stale fact itself."""
    withdrawal = {"id": "w", "content": "The note about port 5433 was wrong.", "evidence": "it's 5433",
                  "match": ["was wrong"], "store": False, "retracts": "port"}  # fmt: skip
    with pytest.raises(ValueError, match="holds every marker of 'port'"):
        scenario(facts=[*scenario().model_dump()["facts"], withdrawal])
    withdrawal["content"] = "The note about the port was wrong."
    assert scenario(facts=[*scenario().model_dump()["facts"], withdrawal]).fact("w").retracts == "port"


@pytest.mark.parametrize("reject", ["5433", ["5432", "port 5433"]])
def test_a_rejected_marker_that_a_right_answer_may_state_is_refused(reject: str | list[str]) -> None:
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0]["task"]["reject"] = [reject]
    with pytest.raises(ValueError, match="a right answer may state"):
        scenario(sessions=sessions)


def test_a_task_may_allow_a_fact_it_does_not_need_but_only_a_known_one() -> None:
    sessions = scenario().model_dump()["sessions"]
    sessions[1]["turns"][0]["task"]["allowed"] = ["port"]
    assert scenario(sessions=sessions).sessions[1].turns[0].task.allowed == ["port"]  # type: ignore[union-attr]
    sessions[1]["turns"][0]["task"]["allowed"] = ["nothing_such"]
    with pytest.raises(ValueError, match="unknown fact"):
        scenario(sessions=sessions)


def test_a_facts_repository_is_its_scope_or_the_one_its_content_names_first() -> None:
    fact = scenario().facts[0]
    assert fact.repository() == "billing-api"  # "In the `billing-api` repository, ..."
    assert fact.model_copy(update={"scope": "orders-api"}).repository() == "orders-api"
    assert fact.model_copy(update={"content": "The user prefers rg over grep."}).repository() is None


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "other_name.toml"
    bad.write_text((default_scenario_dir() / "steer_01.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(EvalError, match="differs from the file name"):
        load_scenario(bad)
    broken = tmp_path / "broken.toml"
    broken.write_text("id = [", encoding="utf-8")
    with pytest.raises(EvalError, match="invalid TOML"):
        load_scenario(broken)
    with pytest.raises(EvalError, match="no scenario folder"):
        load_scenarios(tmp_path / "missing")


def test_stated_at_and_superseded() -> None:
    s = next(s for s in SCENARIOS if s.id == "scope_refinement_01")
    assert s.stated_at("lint_all") == (0, 1)
    assert s.stated_at("lint_scoped") == (1, 1)
    assert s.superseded() == frozenset({"lint_all"})
    assert isinstance(s, Scenario)


def test_a_retraction_names_a_known_fact_and_is_never_stored() -> None:
    facts = [*scenario().model_dump()["facts"], {"id": "gone", "content": "Forget the port note.", "evidence": "it's 5433",
                                                 "match": ["Forget"], "retracts": "port", "store": False}]  # fmt: skip
    assert scenario(facts=facts).fact("gone").retracts == "port"
    for change, problem in (({"store": True}, "is not stored"), ({"retracts": "nothing_such"}, "retracts unknown fact")):
        bad = [*facts[:-1], {**facts[-1], **change}]
        with pytest.raises(ValueError, match=problem):
            scenario(facts=bad)

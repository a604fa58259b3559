"""Paired runs through the real runtime and store, on small scenarios."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tact_memory.eval.runner import _arguments, run_pair, run_pairs
from tact_memory.eval.scenarios import Fact
from tact_memory.eval.scripted import ScriptedPolicy
from tact_memory.eval.summary import arm_outcomes, metrics
from tact_memory.eval.trace import DAY_MS, START_MS
from tact_memory.runtime.messages import ModelRequest
from tact_memory.runtime.middleware import MemoryMiddleware
from tact_memory.runtime.session import Agent

from .helpers import PORT, scenario

BACKGROUND = (
    Fact(id="background_1", content="In the `orders-api` repository, timestamps are UTC.", match=["timestamps are UTC"]),
    Fact(id="background_2", content="The user prefers `rg` over `grep -r`.", match=["`rg`"]),
)


def test_memory_on_carries_the_correction_across_sessions_and_memory_off_cannot() -> None:
    [p] = run_pairs([scenario()], ScriptedPolicy(), background=BACKGROUND)
    assert [o.passed for o in arm_outcomes(p, p.on)] == [True]
    assert [o.passed for o in arm_outcomes(p, p.off)] == [False]
    assert [(c.session, c.operation) for c in p.on.calls] == [(0, "scan"), (0, "put"), (1, "scan"), (1, "read")]
    assert p.off.calls == [] and p.off.untouched
    assert p.on.seeds[:2] == [(1, BACKGROUND[0].content), (2, BACKGROUND[1].content)] == p.off.seeds[:2]
    assert p.background == BACKGROUND
    assert [c.at_ms for c in p.on.calls] == sorted(c.at_ms for c in p.on.calls) and p.on.calls[-1].at_ms >= START_MS + 3 * DAY_MS
    assert all(set(s.agent_context_tokens) == {"root"} for s in (*p.on.sessions, *p.off.sessions))
    assert {r.content for r in p.on.final if not r.seeded} == {PORT}
    assert all(c.latency_ms > 0 for c in p.on.calls)
    assert [len(c.corpus) for c in p.on.calls if c.operation == "scan"] == [2, 3]


def test_arm_order_alternates_with_the_scenario_index() -> None:
    sc = scenario()
    assert run_pair(sc, ScriptedPolicy(), index=0).first == "on"
    assert run_pair(sc, ScriptedPolicy(), index=1).first == "off"


def test_the_off_arm_creates_no_database_when_nothing_is_seeded() -> None:
    p = run_pair(scenario(), ScriptedPolicy(), index=0)
    assert p.off.untouched and p.off.main_bytes == 0 and p.on.main_bytes > 0


def steered(**turn: Any) -> Any:
    base = scenario()
    first = base.sessions[0].model_copy(update={"turns": [base.sessions[0].turns[0].model_copy(update=turn)]})
    return base.model_copy(update={"sessions": [first, base.sessions[1]]})


def test_an_in_flight_steer_carries_the_checkpoint_even_in_the_first_turn() -> None:
    sc = steered(steers=["No, it's 5433 locally."])
    p = run_pair(sc, ScriptedPolicy(), index=0)
    assert [c.operation for c in p.on.calls if c.session == 0] == ["scan", "put"]
    assert arm_outcomes(p, p.on)[0].passed


def test_a_steer_with_no_turn_running_is_promoted_into_a_new_turn() -> None:
    base = scenario()
    turns = [base.sessions[0].turns[0], base.sessions[0].turns[1].model_copy(update={"via": "steer"})]
    sc = base.model_copy(update={"sessions": [base.sessions[0].model_copy(update={"turns": turns}), base.sessions[1]]})
    p = run_pair(sc, ScriptedPolicy(), index=0)
    assert [c.operation for c in p.on.calls if c.session == 0] == ["scan", "put"]


def test_a_delegated_task_is_looked_up_by_a_child_agent() -> None:
    base = scenario()
    task = base.sessions[1].turns[0].task
    assert task is not None
    turn = base.sessions[1].turns[0].model_copy(update={"task": task.model_copy(update={"delegate": True})})
    sc = base.model_copy(update={"sessions": [base.sessions[0], base.sessions[1].model_copy(update={"turns": [turn]})]})
    p = run_pair(sc, ScriptedPolicy(), index=0)
    assert [(c.role, c.operation) for c in p.on.calls if c.session == 1] == [("child", "scan"), ("child", "read")]
    assert arm_outcomes(p, p.on)[0].passed
    for arm in (p.on, p.off):  # each agent's largest request, so the arms compare agent with agent
        peaks = arm.sessions[1].agent_context_tokens
        assert set(peaks) == {"root", "child-1"} and min(peaks.values()) > 0


def test_restored_sessions_continue_the_history() -> None:
    base = scenario()
    restored = base.sessions[1].model_copy(update={"kind": "restored", "source": 1})
    p = run_pair(base.model_copy(update={"sessions": [base.sessions[0], restored]}), ScriptedPolicy(), index=0)
    assert [s.kind for s in p.on.sessions] == ["new", "restored"]
    assert arm_outcomes(p, p.on)[0].passed


def test_sessions_without_a_memory_call_add_zero_memory_tokens() -> None:
    sc = scenario()
    quiet_session = sc.sessions[0].model_copy(update={"turns": [sc.sessions[0].turns[0]]})
    sc = sc.model_copy(update={"sessions": [quiet_session, *sc.sessions]})
    [p] = run_pairs([sc], ScriptedPolicy(), background=BACKGROUND)
    quiet = [s for s in (*p.on.sessions, *p.off.sessions) if s.memory_calls == 0]
    assert quiet and all(s.memory_tokens == 0 and s.leaks == 0 for s in quiet)
    assert any(s.memory_tokens > 0 for s in p.on.sessions)


def test_the_audit_finds_stored_text_that_reaches_a_model_without_a_call(monkeypatch: pytest.MonkeyPatch) -> None:
    original = MemoryMiddleware.on_request

    def leaky(self: MemoryMiddleware, agent: Agent, request: ModelRequest) -> ModelRequest:
        request = original(self, agent, request)
        return replace(request, system=request.system + "\n\nKnown: " + BACKGROUND[0].content)

    monkeypatch.setattr(MemoryMiddleware, "on_request", leaky)
    [p] = run_pairs([scenario()], ScriptedPolicy(), background=BACKGROUND)
    assert all(s.leaks > 0 for s in p.on.sessions)
    tokens = metrics([p])["memory_tokens"]
    assert tokens["stored_text_outside_results"] > 0


def test_text_arguments_are_parsed_when_they_are_a_json_object() -> None:
    assert _arguments('{"operation": "scan", "query": "x"}') == {"operation": "scan", "query": "x"}
    assert _arguments("[1, 2]") == {"raw": "[1, 2]"}
    assert _arguments("not json") == {"raw": "not json"}
    deep, digits = "[" * 100_000 + "]" * 100_000, '{"n": 1' + "0" * 5_000 + "}"
    assert _arguments(deep) == {"raw": deep} and _arguments(digits) == {"raw": digits}

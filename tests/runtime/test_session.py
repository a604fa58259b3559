"""The runtime: checkpoint placement, prompt assembly, sessions, reloads (I1, I2, I5, I6, I14)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from tact_memory.config.loading import Config, MemorySettings, load_config
from tact_memory.runtime.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Part,
    ToolCall,
)
from tact_memory.runtime.middleware import (
    Middleware,
    Submission,
    ToolCallNext,
    ToolOutput,
)
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS, assemble_system
from tact_memory.runtime.session import (
    Agent,
    Runtime,
    Session,
    SessionState,
    SubmissionRejected,
)
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.store.sqlite import MemoryStore
from tact_memory.testing import ScriptedModel, answer, arun_agent, call, run_agent
from tact_memory.tool.guard import Role

from ..conftest import write_config

SYSTEM = "You are a careful coding agent."
APP_TOOLS = ({"name": "shell", "description": "Run a command.", "input_schema": {"type": "object"}},)


def render(request: ModelRequest) -> dict[str, Any]:
    """What the model reads, in a reviewable shape."""
    return {
        "system": request.system,
        "tools": request.tool_names,
        "messages": [
            {"role": m.role, "kind": m.kind, "parts": [p.text for p in m.parts]}
            for m in request.messages
        ],
    }


def runtime_for(tmp_path: Path, *, enabled: bool) -> Runtime:
    return Runtime(load_config(write_config(tmp_path / "cfg", enabled=enabled)))


def turn(session: Any, text: str | None, *steps: Any, agent: Agent | None = None) -> ScriptedModel:
    if text is not None:
        session.submit(text)
    model = ScriptedModel(list(steps) or [answer("done")])
    run_agent(agent or session.root, model, tools=APP_TOOLS)
    return model


@pytest.fixture
def enabled(tmp_path: Path) -> Iterator[Runtime]:
    with runtime_for(tmp_path, enabled=True) as runtime:
        yield runtime


# -- snapshots of what the model reads ----------------------------------------------------------


def test_request_when_disabled(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    runtime = runtime_for(tmp_path, enabled=False)
    session = runtime.new_session(system=SYSTEM)
    turn(session, "Fix the flaky test.")
    model = turn(session, "Also update the changelog.")
    session.steer("and bump the version")
    model2 = turn(session, None)
    assert render(model.requests[-1]) == snapshot(name="second turn")
    assert render(model2.requests[-1]) == snapshot(name="promoted steer")
    assert MEMORY_INSTRUCTIONS not in model2.requests[-1].system
    assert not (tmp_path / "cfg" / "memory").exists()  # I1: nothing created


def test_with_memory_off_a_memory_call_is_the_applications_and_marks_no_nesting(tmp_path: Path) -> None:
    """I1: with memory off there is no memory tool, so a call a model makes under that name goes to
    the application's own executor, and a session started inside it is not taken for a child."""
    runtime = runtime_for(tmp_path, enabled=False)
    elsewhere = runtime_for(tmp_path / "elsewhere", enabled=True)
    session = runtime.new_session(system=SYSTEM)
    session.submit("Remember that the linter is ruff.")
    seen: list[ToolCall] = []
    inner: list[Session] = []

    def executor(c: ToolCall) -> ToolOutput:
        seen.append(c)
        inner.append(elsewhere.new_session(system=SYSTEM))
        return {"ok": True}

    model = ScriptedModel([call("memory", {"operation": "scan", "query": "linter"}), answer("done")])
    run_agent(session.root, model, executor=executor)
    assert [c.name for c in seen] == ["memory"]
    assert json.loads(session.root.history[-2].parts[0].text) == {"ok": True}
    assert inner[0].root.dispatcher is not None and inner[0].root.dispatcher.role is Role.ROOT
    assert not (tmp_path / "cfg" / "memory").exists()


def test_request_first_and_second_turn(enabled: Runtime, snapshot: SnapshotAssertion) -> None:
    session = enabled.new_session(system=SYSTEM)
    first = turn(session, "Fix the flaky test in the payments repo.")
    second = turn(session, "Use pytest-rerunfailures, not a sleep.")
    assert render(first.requests[0]) == snapshot(name="first turn")
    assert render(second.requests[0]) == snapshot(name="second turn")
    last = second.requests[0].messages[-1]
    assert [p.control for p in last.parts] == [False, True]
    assert last.parts[-1].text == CHECKPOINT_TEXT
    assert [e.text for e in session.transcript if e.role == "user"] == [
        "Fix the flaky test in the payments repo.",
        "Use pytest-rerunfailures, not a sleep.",
    ]


def test_in_flight_steer_in_the_first_turn(enabled: Runtime, snapshot: SnapshotAssertion) -> None:
    session = enabled.new_session(system=SYSTEM)
    session.submit("Rename the config loader.")

    def steer_then_scan(request: ModelRequest) -> ModelResponse:
        session.steer("Keep the old name as an alias.")
        return call("memory", {"operation": "scan", "query": "config loader alias"}, id="c1")

    model = ScriptedModel([steer_then_scan, answer("Renamed, alias kept.")])
    run_agent(session.root, model, tools=APP_TOOLS)
    assert render(model.requests[1]) == snapshot
    steer = [m for m in model.requests[1].messages if m.kind == "steer"]
    assert len(steer) == 1 and steer[0].parts[-1].text == CHECKPOINT_TEXT
    assert session.turns == 1


def test_promoted_steer(enabled: Runtime, snapshot: SnapshotAssertion) -> None:
    session = enabled.new_session(system=SYSTEM)
    turn(session, "Add a retry to the upload job.")
    session.steer("Make it three retries at most.")  # no turn running: promoted into turn 2
    assert session.turns == 2
    model = turn(session, None)
    assert render(model.requests[0]) == snapshot
    assert model.requests[0].messages[-1].kind == "steer"


@pytest.mark.parametrize("kind", ["restored", "forked"])
def test_restored_and_forked_sessions_start_past_the_first_turn(
    enabled: Runtime, kind: str, snapshot: SnapshotAssertion
) -> None:
    session = enabled.new_session(system=SYSTEM)
    turn(session, "Set up the linter.")
    turn(session, "Use ruff with line length 100.")
    saved = SessionState.from_json(session.state().to_json())
    again = enabled.restore_session(saved) if kind == "restored" else enabled.fork_session(saved)
    assert again.kind == kind
    model = turn(again, "Now run it on the api package.")
    assert render(model.requests[0]) == snapshot
    messages = model.requests[0].messages
    assert sum(1 for m in messages if any(p.text == CHECKPOINT_TEXT for p in m.parts)) == 2  # kept, and new
    assert messages[-1].parts[-1].text == CHECKPOINT_TEXT


def test_restore_of_a_session_with_one_turn_still_gets_the_checkpoint(enabled: Runtime) -> None:
    session = enabled.new_session()
    turn(session, "First and only message.")
    again = enabled.restore_session(session.state())
    message = again.submit("continue")
    assert message.parts[-1].text == CHECKPOINT_TEXT


def test_child_agent_request(enabled: Runtime, snapshot: SnapshotAssertion) -> None:
    session = enabled.new_session(system=SYSTEM)
    session.submit("Audit the dependencies.")
    child = session.root.spawn_child(system="You audit dependencies for one package.")
    child.history.append(Message("user", "user", (Part("Audit the api package."),)))
    model = ScriptedModel([answer("No issues.")])
    run_agent(child, model, tools=APP_TOOLS)
    assert render(model.requests[0]) == snapshot
    assert model.requests[0].tool_names == ["shell", "memory"]


def test_session_created_before_a_reload_keeps_its_settings(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    config_path = write_config(tmp_path / "cfg", enabled=True)
    runtime = Runtime(load_config(config_path))
    before = runtime.new_session(system=SYSTEM)
    turn(before, "Start the migration.")
    write_config(tmp_path / "cfg", enabled=False)
    notice = runtime.reload(load_config(config_path))
    assert "running agent sessions keep their current memory setting" in notice
    assert "new and restored sessions get the new one" in notice
    model = turn(before, "Continue with the next table.")
    assert render(model.requests[0]) == snapshot
    assert "memory" in model.requests[0].tool_names
    after = runtime.new_session(system=SYSTEM)
    assert "memory" not in turn(after, "Hello").requests[0].tool_names
    restored = runtime.restore_session(before.state())
    restored_model = turn(restored, "And the last table.")
    assert "memory" not in restored_model.requests[0].tool_names
    assert MEMORY_INSTRUCTIONS not in restored_model.requests[0].system
    assert restored_model.requests[0].messages[-1].parts[-1].text != CHECKPOINT_TEXT


# -- no corpus injection (I2) --------------------------------------------------------------------


@pytest.mark.release_gate
def test_no_stored_text_reaches_a_model_without_an_explicit_call(enabled: Runtime) -> None:
    store = enabled.store
    assert isinstance(store, MemoryStore)
    contents = [f"Fact {i}: the {w} service deploys with tool{i} on Tuesdays" for i, w in enumerate(["alpha", "beta", "gamma", "delta", "omega"] * 20)]
    for text in contents:
        store.put(text)
    session = enabled.new_session(system=SYSTEM)
    requests: list[ModelRequest] = []
    for text in ["How does alpha deploy?", "And beta?", "What about gamma on Tuesdays?"]:
        requests += turn(session, text, answer("I would have to look.")).requests
    session.steer("tool3 please")
    requests += turn(session, None).requests
    blob = json.dumps([render(r) for r in requests])
    for text in contents:
        assert text not in blob
        assert text[:30] not in blob
    assert all(r.scan_count == 0 and r.read_count == 0 for r in store.list_records())

    model = turn(
        session,
        "Look it up.",
        call("memory", {"operation": "scan", "query": "omega deploys", "limit": 1}, id="s"),
        call("memory", {"operation": "read", "ids": [5]}, id="r"),
        answer("Done."),
    )
    final = model.requests[-1]
    results = [json.loads(m.text) for m in final.messages if m.kind == "tool_result"]
    assert results[0]["candidates"][0]["preview"] == contents[4].encode()[:64].decode()
    assert results[1]["memories"][0]["content"] == contents[4]
    injected = [t for t in contents if t[:30] in json.dumps(render(final))]
    assert injected == [contents[4]]  # exactly the scanned and read record, only inside results


@pytest.mark.release_gate
def test_child_mutation_is_refused_even_when_the_model_is_told_it_is_root(enabled: Runtime) -> None:
    session = enabled.new_session(system="You are the ROOT agent and may write memory.")
    session.submit("Delegate.")
    child = session.root.spawn_child(system="You are the root agent. You are allowed to put.")
    child.history.append(Message("user", "user", (Part("You are root; store this."),)))
    model = ScriptedModel([
        call("memory", {"operation": "scan", "query": "anything"}),
        call("memory", {"operation": "put", "content": "child says hi", "role": "root"}),
        call("memory", {"operation": "put", "content": "child says hi"}),
        call("memory", {"operation": "delete", "id": 1, "version": 1}),
        answer("tried"),
    ])  # fmt: skip
    run_agent(child, model)
    results = [json.loads(m.text) for m in child.history if m.kind == "tool_result"]
    assert [r.get("error", {}).get("code") for r in results] == [None, "forbidden", "forbidden", "forbidden"]
    assert enabled.store.list_records() == []


# -- submissions ---------------------------------------------------------------------------------


def test_rejected_submissions_change_nothing(enabled: Runtime) -> None:
    class Veto(Middleware):
        def on_submission(self, agent: Agent, message: Message, submission: Submission) -> Message:
            if "forbidden" in message.text:
                raise SubmissionRejected("vetoed")
            return message

    runtime = Runtime(enabled.config, middleware=[Veto()])
    session = runtime.new_session()
    for bad in ("", "   ", "a forbidden word"):
        with pytest.raises(SubmissionRejected):
            session.submit(bad)
        with pytest.raises(SubmissionRejected):
            session.steer(bad)
    assert (session.turns, session.root.history, session.transcript) == (0, [], [])
    assert session.submit("fine").parts == (Part("fine"),)  # still the first turn: no checkpoint


def test_user_middleware_wraps_tools_and_model_calls(enabled: Runtime) -> None:
    seen: list[str] = []

    class Audit(Middleware):
        def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
            seen.append(f"tool:{call.name}")
            return call_next(call)

        def wrap_model_call(self, agent: Agent, request: ModelRequest, call_next: Any) -> ModelResponse:
            seen.append("model")
            return call_next(request)

    with Runtime(enabled.config, middleware=[Audit()]) as runtime:
        session = runtime.new_session()
        session.submit("go")
        model = ScriptedModel([call("memory", {"operation": "scan", "query": "x"}), call("shell", {"cmd": "ls"}), answer("ok")])
        run_agent(session.root, model, executor=lambda c: {"stdout": "a b"})
    assert seen == ["model", "tool:memory", "model", "tool:shell", "model"]
    results = [m.text for m in session.root.history if m.kind == "tool_result"]
    assert json.loads(results[0])["operation"] == "scan" and json.loads(results[1]) == {"stdout": "a b"}


def test_async_loop_matches_the_sync_loop(tmp_path: Path) -> None:
    def play(run_async: bool) -> list[dict[str, Any]]:
        outputs = []
        with runtime_for(tmp_path / ("a" if run_async else "s"), enabled=True) as runtime:
            session = runtime.new_session(system=SYSTEM)
            for text in ["one", "two"]:
                session.submit(text)
                model = ScriptedModel([
                    call("memory", {"operation": "scan", "query": "tabs"}, id="a"),
                    call("memory", {"operation": "put", "content": f"The user said {text} about tabs"}, id="b"),
                    answer("ok"),
                ])  # fmt: skip
                if run_async:
                    asyncio.run(arun_agent(session.root, model.acall))
                else:
                    run_agent(session.root, model)
                outputs += [render(r) for r in model.requests]
        return outputs

    def mask(items: list[dict[str, Any]]) -> str:
        import re

        return re.sub(r'_ms\\": \d+', '_ms\\": 0', json.dumps(items))

    assert mask(play(True)) == mask(play(False))


# -- prompt assembly -----------------------------------------------------------------------------


@pytest.mark.parametrize("base", ["", SYSTEM, f"{SYSTEM}\n\n{MEMORY_INSTRUCTIONS}", f"{MEMORY_INSTRUCTIONS}\n\n{SYSTEM}\n\n{MEMORY_INSTRUCTIONS}"])
def test_assemble_system_reconciles_without_duplicating(base: str) -> None:
    on = assemble_system(base, enabled=True)
    assert on.count(MEMORY_INSTRUCTIONS) == 1 and on.endswith(MEMORY_INSTRUCTIONS)
    assert assemble_system(on, enabled=True) == on
    off = assemble_system(on, enabled=False)
    assert MEMORY_INSTRUCTIONS not in off
    assert off == assemble_system(base, enabled=False)


def test_settings_snapshot_is_independent_of_the_runtime_config(tmp_path: Path) -> None:
    runtime = Runtime(Config(path=tmp_path / "config.toml", memory=MemorySettings(enabled=True)))
    session = runtime.new_session()
    runtime.reload(Config(path=tmp_path / "config.toml", memory=MemorySettings(enabled=False)))
    assert session.settings.enabled is True and session.store is not None
    assert runtime.new_session().store is None


def test_watch_brings_a_real_config_edit_to_new_sessions_only(tmp_path: Path) -> None:
    import threading
    import time

    config_path = write_config(tmp_path / "cfg", enabled=False)
    runtime = Runtime(load_config(config_path))
    running = runtime.new_session()
    notices: list[str] = []
    seen = threading.Event()

    def on_notice(text: str) -> None:
        notices.append(text)
        seen.set()

    with runtime.watch(on_notice=on_notice, debounce_ms=100) as watcher:
        assert watcher.wait_ready()
        write_config(tmp_path / "cfg", enabled=True)
        assert seen.wait(10)
        deadline = time.monotonic() + 10
        while not runtime.config.memory.enabled and time.monotonic() < deadline:
            time.sleep(0.02)
    assert runtime.new_session().settings.enabled is True
    assert running.settings.enabled is False and running.store is None
    assert notices[-1].startswith("memory enabled in config.toml")


@pytest.mark.parametrize(
    ("variable", "enabled_after", "notice"),
    [
        ("TACT_HOME", False, "memory disabled (config.toml is missing: defaults in force): the browser hides it now;"),
        ("TACT_CONFIG", True, "config.toml not reloaded: "),
    ],
)
def test_watch_treats_a_deleted_config_as_its_selection_calls_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, enabled_after: bool, notice: str
) -> None:
    """A fallback file that disappears means defaults, as in the browser and a new process; a file
    named explicitly keeps the last good configuration. The notice names the real selection."""
    import queue

    config_path = write_config(tmp_path / "cfg", enabled=True)
    monkeypatch.setenv(variable, str(config_path.parent if variable == "TACT_HOME" else config_path))
    runtime = Runtime(load_config())
    notices: queue.Queue[str] = queue.Queue()
    with runtime.watch(on_notice=notices.put, debounce_ms=100) as watcher:
        assert watcher.wait_ready()
        config_path.unlink()
        said = notices.get(timeout=10)
    assert said.startswith(notice)
    if not enabled_after:
        assert load_config().memory.enabled is False  # what a process started now gets
    else:
        assert f"configuration file not found (selected by {variable})" in said and "--config" not in said
    assert runtime.config.memory.enabled is enabled_after
    assert runtime.new_session().settings.enabled is enabled_after


# -- a steer during the final model call -----------------------------------------------------------


def steering_answer(session: Session, steer: str, text: str) -> Callable[[ModelRequest], ModelResponse]:
    """A model step that accepts ``steer`` while it runs, then gives a final answer."""

    def step(request: ModelRequest) -> ModelResponse:
        session.steer(steer)
        return answer(text)

    return step


def assert_steer_answered(session: Session, model: ScriptedModel) -> None:
    assert model.done and len(model.requests) == 2
    steer = model.requests[1].messages[-1]
    assert steer.kind == "steer" and steer.parts[0].text == "Also update the changelog."
    assert steer.parts[-1].text == CHECKPOINT_TEXT
    assert [m.kind for m in session.root.history][-3:] == ["assistant", "steer", "assistant"]
    assert session.turns == 1 and not session.turn_running and not session.steers_waiting


def test_a_steer_during_the_final_model_call_gets_another_call_in_the_turn(enabled: Runtime) -> None:
    session = enabled.new_session(system=SYSTEM)
    session.submit("Bump the version.")
    model = ScriptedModel([
        steering_answer(session, "Also update the changelog.", "Bumped."),
        answer("Changelog updated too."),
    ])
    assert run_agent(session.root, model).text == "Changelog updated too."
    assert_steer_answered(session, model)


def test_async_a_steer_during_the_final_model_call_gets_another_call_in_the_turn(enabled: Runtime) -> None:
    session = enabled.new_session(system=SYSTEM)
    session.submit("Bump the version.")
    model = ScriptedModel([
        steering_answer(session, "Also update the changelog.", "Bumped."),
        answer("Changelog updated too."),
    ])
    assert asyncio.run(arun_agent(session.root, model.acall)).text == "Changelog updated too."
    assert_steer_answered(session, model)


def test_a_loop_that_ends_its_turn_anyway_answers_the_steer_first_in_the_next_turn(enabled: Runtime) -> None:
    session = enabled.new_session(system=SYSTEM)
    session.submit("Bump the version.")
    agent = session.root
    agent.call_model(steering_answer(session, "Also update the changelog.", "Bumped."), agent.request())
    assert session.end_turn() is False and session.turn_running  # the steer has not been answered
    session.submit("And tag it.")
    model = ScriptedModel([answer("Done.")])
    run_agent(agent, model)
    kinds = [m.kind for m in model.requests[0].messages]
    assert kinds[-3:] == ["assistant", "steer", "user"] and session.turns == 2 and not session.turn_running


def test_a_reload_that_selects_another_database_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The corpus path stays stable across reloads: a config.toml of another folder is another
    corpus, whether or not the store was opened yet."""
    from tact_memory.errors import ConfigError

    first, other = write_config(tmp_path / "a"), write_config(tmp_path / "b")
    for touched in (False, True):
        runtime = Runtime(load_config(first))
        if touched:
            runtime.new_session()  # the store exists now
        with pytest.raises(ConfigError) as refused:
            runtime.reload(load_config(other))
        assert "Start a new Runtime" in refused.value.message
        assert runtime.config.database_path == tmp_path / "a" / "memory" / "v1.sqlite3"

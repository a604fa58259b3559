"""One middleware order for every hook, memory innermost; requests built without side effects."""

from __future__ import annotations

import ast
import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

import tact_memory.runtime
from tact_memory.runtime.messages import Message, ModelRequest, ModelResponse, ToolCall
from tact_memory.runtime.middleware import (
    AsyncModelCallNext,
    AsyncToolCallNext,
    MemoryMiddleware,
    Middleware,
    ModelCallNext,
    Submission,
    ToolCallNext,
    ToolOutput,
)
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS
from tact_memory.runtime.session import Agent, Runtime
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.testing import ScriptedModel, answer, arun_agent, call, run_agent
from tact_memory.tool.guard import Role

from .test_session import runtime_for

IMPOSTOR = {"name": "memory", "description": "An application's own notes.", "input_schema": {"type": "object"}}


class Recorder(Middleware):
    """Logs every hook it runs, with what it saw of memory's contribution."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def on_submission(self, agent: Agent, message: Message, submission: Submission) -> Message:
        self.log.append(f"{self.name}:submission:checkpoint={message.parts[-1].text == CHECKPOINT_TEXT}")
        return message

    def on_request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        self.log.append(f"{self.name}:request:memory={'memory' in request.tool_names}")
        return request

    def wrap_model_call(self, agent: Agent, request: ModelRequest, call_next: ModelCallNext) -> ModelResponse:
        self.log.append(f"{self.name}:model:in")
        response = call_next(request)
        self.log.append(f"{self.name}:model:out")
        return response

    async def awrap_model_call(self, agent: Agent, request: ModelRequest, call_next: AsyncModelCallNext) -> ModelResponse:
        self.log.append(f"{self.name}:model:in")
        response = await call_next(request)
        self.log.append(f"{self.name}:model:out")
        return response

    def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
        self.log.append(f"{self.name}:tool:in")
        output = call_next(call)
        self.log.append(f"{self.name}:tool:out")
        return output

    async def awrap_tool_call(self, agent: Agent, call: ToolCall, call_next: AsyncToolCallNext) -> ToolOutput:
        self.log.append(f"{self.name}:tool:in")
        output = await call_next(call)
        self.log.append(f"{self.name}:tool:out")
        return output


class AddsImpostor(Middleware):
    """An application middleware that offers its own tool named ``memory``."""

    def on_request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        return replace(request, tools=(*request.tools, IMPOSTOR))


EXPECTED = [
    "outer:submission:checkpoint=False", "inner:submission:checkpoint=False",  # memory adds it after both
    "outer:request:memory=False", "inner:request:memory=False",  # memory adds its tool after both
    "outer:model:in", "inner:model:in", "inner:model:out", "outer:model:out",
    "outer:tool:in", "inner:tool:in", "inner:tool:out", "outer:tool:out",  # memory answered inside both
    "outer:request:memory=False", "inner:request:memory=False",
    "outer:model:in", "inner:model:in", "inner:model:out", "outer:model:out",
]  # fmt: skip


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
def test_every_hook_runs_outermost_first_with_memory_innermost(tmp_path: Path, run_async: bool) -> None:
    log: list[str] = []
    config = runtime_for(tmp_path, enabled=True).config
    with Runtime(config, middleware=[Recorder("outer", log), Recorder("inner", log)]) as runtime:
        session = runtime.new_session()
        session.root.history.append(Message("user", "user", ()))  # past the first turn: a checkpoint is due
        session.turns = 1
        message = session.submit("Which tags?")
        model = ScriptedModel([call("memory", {"operation": "scan", "query": "tags"}), answer("None yet.")])
        if run_async:
            asyncio.run(arun_agent(session.root, model.acall))
        else:
            run_agent(session.root, model)
    assert log == EXPECTED
    assert message.parts[-1].text == CHECKPOINT_TEXT  # memory's submission hook ran last
    assert all(r.tool_names == ["memory"] and r.system == MEMORY_INSTRUCTIONS for r in model.requests)
    assert isinstance(session.middleware[-1], MemoryMiddleware) and len(session.middleware) == 3


def test_an_app_tool_named_memory_gives_way_to_memorys_own(tmp_path: Path) -> None:
    session = Runtime(runtime_for(tmp_path, enabled=True).config, middleware=[AddsImpostor()]).new_session()
    session.submit("go")
    agent = session.root
    request = agent.request(tools=[IMPOSTOR])
    assert request.tool_names == ["memory"]
    assert agent.dispatcher is not None and request.tools[0] == agent.dispatcher.definition()


def test_with_memory_disabled_no_tool_named_memory_is_offered(tmp_path: Path) -> None:
    session = Runtime(runtime_for(tmp_path, enabled=False).config, middleware=[AddsImpostor()]).new_session()
    session.submit("go")
    request = session.root.request(tools=[IMPOSTOR, {"name": "shell", "input_schema": {}}])
    assert request.tool_names == ["shell"] and MEMORY_INSTRUCTIONS not in request.system


def test_a_request_changes_nothing_and_its_steers_join_the_history_with_the_model_call(tmp_path: Path) -> None:
    session = runtime_for(tmp_path, enabled=True).new_session()
    session.submit("Bump the version.")
    agent = session.root
    steer = session.steer("Also update the changelog.")
    before = list(agent.history)
    first, second = agent.request(), agent.request()
    assert first == second and first.messages[-1] is steer
    assert agent.history == before and session.steers_waiting
    agent.call_model(lambda request: ModelResponse(text="Both done."), second)
    assert agent.history[len(before)] is steer and not session.steers_waiting
    agent.call_model(lambda request: ModelResponse(text="Again."), first)  # a stale request delivers nothing twice
    assert [m for m in agent.history if m is steer] == [steer]


def test_a_steer_accepted_after_the_request_was_built_waits_for_the_next_call(tmp_path: Path) -> None:
    session = runtime_for(tmp_path, enabled=True).new_session()
    session.submit("Bump the version.")
    request = session.root.request()
    late = session.steer("And tag it.")
    session.root.call_model(lambda r: ModelResponse(text="Bumped."), request)
    assert session.waiting_steers() == (late,) and not session.end_turn()


def test_children_are_spawned_through_the_public_api(tmp_path: Path) -> None:
    session = runtime_for(tmp_path, enabled=True).new_session()
    child = session.spawn_child(system="You review one file.", name="reviewer")
    assert (child.role, child.name, child.session) == (Role.CHILD, "reviewer", session)
    assert session.root.spawn_child().role is Role.CHILD


def private_reach(path: Path) -> list[str]:
    """``x._name`` where ``x`` is not ``self``/``cls``: a private member reached across classes."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in {"self", "cls"}):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_runtime_reaches_no_private_member_of_another_object() -> None:
    folder = Path(tact_memory.runtime.__file__).parent
    assert [hit for path in sorted(folder.glob("*.py")) for hit in private_reach(path)] == []



@pytest.mark.parametrize("copied", [False, True], ids=["replaced", "copied"])
def test_a_request_the_loop_changed_still_delivers_its_steers(tmp_path: Path, copied: bool) -> None:
    """A loop that adds its own tools with ``replace`` (or a framework that copies the request)
    hands the model a request the agent did not build: its steers still join the history, and the
    turn can end."""
    import copy

    session = runtime_for(tmp_path, enabled=True).new_session()
    session.submit("Run the migrations.")
    agent = session.root
    calls: list[ModelRequest] = []

    def model(request: ModelRequest) -> ModelResponse:
        calls.append(request)
        if len(calls) == 1:
            session.steer("Actually, use staging.")  # arrives while the first call runs
        return ModelResponse(text=f"answer {len(calls)}")

    for _ in range(4):
        request = replace(agent.request(), tools=({"name": "shell", "input_schema": {}},))
        if copied:
            request = copy.deepcopy(request)
        response = agent.call_model(model, request)
        if not response.tool_calls and session.end_turn():
            break
    assert len(calls) == 2 and not session.turn_running and not session.steers_waiting
    steers = [m for m in agent.history if m.kind == "steer"]
    assert [m.parts[0].text for m in steers] == ["Actually, use staging."]


def test_a_session_restored_with_memory_off_shows_the_model_no_checkpoint(tmp_path: Path) -> None:
    on = runtime_for(tmp_path / "on", enabled=True).new_session()
    on.submit("First.")
    run_agent(on.root, ScriptedModel([answer("ok")]))
    on.submit("Second.")
    run_agent(on.root, ScriptedModel([answer("ok")]))
    state = on.state()
    assert any(part.control for message in state.history for part in message.parts)
    off = runtime_for(tmp_path / "off", enabled=False).restore_session(state)
    request = off.root.request()
    assert not any(CHECKPOINT_TEXT in part.text for message in request.messages for part in message.parts)
    assert [m.text for m in request.messages if m.role == "user"] == ["First.", "Second."]
    assert off.state().history == state.history  # kept, for a restore with memory on again
    again = runtime_for(tmp_path / "again", enabled=True).restore_session(off.state())
    assert any(CHECKPOINT_TEXT in part.text for message in again.root.request().messages for part in message.parts)


def test_a_session_whose_memory_role_is_a_child_gets_no_checkpoint(tmp_path: Path) -> None:
    """It could store none of the conclusions the checkpoint asks for."""
    session = runtime_for(tmp_path, enabled=True).new_session(role=Role.CHILD)
    for text in ("First.", "Second."):
        session.submit(text)
        run_agent(session.root, ScriptedModel([answer("ok")]))
    session.steer("And a steer.")
    assert not any(part.control for message in session.root.request().messages for part in message.parts)
    root = runtime_for(tmp_path / "root", enabled=True).new_session(role=Role.ROOT)
    for text in ("First.", "Second."):
        root.submit(text)
        run_agent(root.root, ScriptedModel([answer("ok")]))
    assert sum(part.control for message in root.root.history for part in message.parts) == 1

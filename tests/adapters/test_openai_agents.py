"""The OpenAI Agents SDK adapter, with a scripted ``Model`` standing in for the model (no network)."""

from __future__ import annotations

import asyncio
import json
import runpy
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, ModelResponse, RunConfig, SQLiteSession, Usage, set_tracing_disabled
from agents.models.interface import Model
from agents.run import CallModelData, ModelInputData
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from tact_memory.adapters.openai_agents import MemoryForAgents, is_checkpoint, with_checkpoints
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Role
from tact_memory.tool.schemas import input_schema

from .conftest import REMEMBERED, SEEDED

pytestmark = pytest.mark.anyio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Step = Callable[[list[Any]], Any] | Any


@pytest.fixture(autouse=True)
def no_trace_export() -> Iterator[None]:
    """Offline: the SDK would otherwise try to export traces."""
    set_tracing_disabled(True)
    yield
    set_tracing_disabled(False)


@pytest.fixture
def sessions() -> Iterator[Callable[..., SQLiteSession]]:
    """Makes the SDK's in-memory sessions and closes them after the test (each holds a SQLite
    connection, which Python 3.13 and later warn about when it is left to the collector)."""
    made: list[SQLiteSession] = []

    def make(*args: Any, **kwargs: Any) -> SQLiteSession:
        made.append(SQLiteSession(*args, **kwargs))
        return made[-1]

    yield make
    for session in made:
        session.close()


def memory(**arguments: Any) -> ResponseFunctionToolCall:
    return call("memory", arguments)


_calls = iter(range(1_000_000))


def call(name: str, arguments: dict[str, Any]) -> ResponseFunctionToolCall:
    call_id = f"call-{next(_calls)}"
    return ResponseFunctionToolCall(id=call_id, call_id=call_id, type="function_call", name=name, arguments=json.dumps(arguments))


def answer(text: str) -> ResponseOutputMessage:
    content = [ResponseOutputText(text=text, type="output_text", annotations=[])]
    return ResponseOutputMessage(id="msg", type="message", role="assistant", status="completed", content=content)


class Script(Model):
    """A model that plays its steps in order and keeps what it was sent (instructions, input, tools)."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.seen: list[tuple[str | None, list[Any], list[Any]]] = []

    async def get_response(self, system_instructions: str | None, input: Any, model_settings: Any, tools: list[Any], *args: Any, **kwargs: Any) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        self.seen.append((system_instructions, items, list(tools)))
        step = self.steps.pop(0)
        output = step(items) if callable(step) else step
        return ModelResponse(output=output if isinstance(output, list) else [output], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def user_texts(items: list[Any]) -> list[list[str]]:
    """Each user message's text parts, as the model was sent them."""
    out = []
    for item in items:
        if isinstance(item, dict) and item.get("role") == "user":
            content = item["content"]
            out.append([content] if isinstance(content, str) else [part["text"] for part in content])
    return out


def outputs(items: list[Any]) -> list[dict[str, Any]]:
    return [json.loads(i["output"]) for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]


async def test_two_turns_root_checkpoint_model_side_only_and_a_stored_conclusion(
    config_path: Path, seeded: MemoryStore, sessions: Callable[..., SQLiteSession]
) -> None:
    script = Script(
        memory(operation="scan", query="zephyr release tags"),
        answer("Tags use vX.Y.Z."),
        memory(operation="scan", query="zephyr tabs"),
        memory(operation="put", content=REMEMBERED),
        answer("Noted."),
    )
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(name="root", instructions="Be brief.", model=script, tools=mem.tools)
    session = sessions("conversation")
    await mem.run(agent, "How are zephyr releases tagged?", session=session)
    await mem.run(agent, "Use tabs in zephyr, please.", session=session)

    (instructions, before_scan, tools), (_, after_scan, _) = script.seen[:2]
    assert SEEDED not in repr(before_scan) and SEEDED in repr(after_scan)  # I2
    assert instructions == f"Be brief.\n\n{MEMORY_INSTRUCTIONS}"
    (tool,) = tools
    assert tool.name == "memory" and tool.params_json_schema == input_schema() and tool.strict_json_schema is False

    # Turn one: no checkpoint. Turn two: its message, and only it, ends with the checkpoint part.
    assert user_texts(before_scan) == [["How are zephyr releases tagged?"]]
    for _, items, _ in script.seen[2:]:
        assert user_texts(items) == [["How are zephyr releases tagged?"], ["Use tabs in zephyr, please.", CHECKPOINT_TEXT]]
    # The session keeps what the user typed.
    stored = await session.get_items()
    assert [m["content"] for m in stored if m.get("role") == "user"] == ["How are zephyr releases tagged?", "Use tabs in zephyr, please."]
    assert CHECKPOINT_TEXT not in repr(stored)
    assert outputs(script.seen[-1][1])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_a_restored_conversation_is_past_the_first_turn(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(answer("ok"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    history = [{"role": "user", "content": "Earlier."}, {"role": "assistant", "content": "Reply."}]
    result = await mem.run(Agent(name="root", model=script, tools=mem.tools), [*history, {"role": "user", "content": "Now."}])
    assert user_texts(script.seen[0][1]) == [["Earlier."], ["Now.", CHECKPOINT_TEXT]]
    assert CHECKPOINT_TEXT not in repr(result.to_input_list())


class Responses(Script):
    """A script whose responses have ids, as the Responses API gives them, and that keeps the
    ``previous_response_id`` and ``conversation_id`` it was called with."""

    def __init__(self, *steps: Step) -> None:
        super().__init__(*steps)
        self.ids: list[tuple[str | None, str | None]] = []

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        response = await super().get_response(*args, **kwargs)
        self.ids.append((kwargs.get("previous_response_id"), kwargs.get("conversation_id")))
        return ModelResponse(output=response.output, usage=response.usage, response_id=f"resp_{len(self.seen)}")


async def test_a_turn_chained_by_previous_response_id_gets_the_checkpoint(config_path: Path, seeded: MemoryStore) -> None:
    """With ``previous_response_id`` the provider keeps the earlier turns and the SDK sends only the
    new one ("Server-managed conversations" in openai-agents-python's docs/running_agents.md)."""
    script = Responses(answer("one"), answer("two"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Turn one.")
    await mem.run(agent, "Turn two.", previous_response_id=first.last_response_id)
    assert script.ids[1][0] == "resp_1"  # the SDK passed it on: the model was sent the new turn only
    assert [user_texts(items) for _, items, _ in script.seen] == [[["Turn one."]], [["Turn two.", CHECKPOINT_TEXT]]]


async def test_a_conversation_id_run_before_is_past_its_first_turn(config_path: Path, seeded: MemoryStore) -> None:
    script = Responses(answer("one"), answer("two"), answer("other"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(name="root", model=script, tools=mem.tools)
    await mem.run(agent, "Turn one.", conversation_id="conv_a")
    await mem.run(agent, "Turn two.", conversation_id="conv_a")
    await mem.run(agent, "Another conversation.", conversation_id="conv_b")
    assert [c for _, c in script.ids] == ["conv_a", "conv_a", "conv_b"]
    sent = [user_texts(items) for _, items, _ in script.seen]
    assert sent == [[["Turn one."]], [["Turn two.", CHECKPOINT_TEXT]], [["Another conversation."]]]


async def test_a_run_that_never_reached_the_model_does_not_start_its_conversation(
    config_path: Path, seeded: MemoryStore
) -> None:
    script = Responses(answer("one"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)

    def refuse(data: CallModelData[Any]) -> ModelInputData:
        raise RuntimeError("no model today")

    agent = Agent(name="root", model=script, tools=mem.tools)
    with pytest.raises(RuntimeError, match="no model today"):
        await mem.run(agent, "Turn one.", conversation_id="conv_a", run_config=RunConfig(call_model_input_filter=refuse))
    await mem.run(agent, "Turn one.", conversation_id="conv_a")
    assert user_texts(script.seen[0][1]) == [["Turn one."]]


@pytest.mark.parametrize("where", ["session", "run_config"])
async def test_a_session_cut_to_its_limit_marks_every_user_message_it_sends(
    config_path: Path, seeded: MemoryStore, where: str, sessions: Callable[..., SQLiteSession]
) -> None:
    """With a ``SessionSettings(limit=N)`` the SDK sends the latest N history items
    (``prepare_input_with_session``), so the oldest user message sent is not the conversation's first."""
    from agents import SessionSettings

    script = Script(answer("one"), answer("two"), answer("three"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(name="root", model=script, tools=mem.tools)
    limit = SessionSettings(limit=2)
    session = sessions("cut", session_settings=limit if where == "session" else None)
    config = RunConfig(session_settings=limit) if where == "run_config" else None
    for text in ("One.", "Two.", "Three."):
        await mem.run(agent, text, session=session, run_config=config)
    sent = [user_texts(items) for _, items, _ in script.seen]
    assert sent[:2] == [[["One."]], [["One."], ["Two.", CHECKPOINT_TEXT]]]  # all of it still sent
    assert sent[2] == [["Two.", CHECKPOINT_TEXT], ["Three.", CHECKPOINT_TEXT]]  # "One." cut off


async def test_a_stated_continuation_wins(config_path: Path, seeded: MemoryStore) -> None:
    script = Responses(answer("one"), answer("two"))
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(name="root", model=script, tools=mem.tools)
    await mem.run(agent, "Carried over from another process.", conversation_id="conv_old", continues=True)
    await mem.run(agent, "A new conversation after all.", previous_response_id="resp_x", continues=False)
    assert [user_texts(items) for _, items, _ in script.seen] == [
        [["Carried over from another process.", CHECKPOINT_TEXT]], [["A new conversation after all."]],
    ]  # fmt: skip


def sub_agent_script() -> Script:
    """A sub-agent that scans, tries a put and a delete, and answers with what each returned."""
    return Script(
        memory(operation="scan", query="zephyr"),
        memory(operation="put", content=REMEMBERED),
        memory(operation="delete", id=1, version=1),
        lambda items: answer(json.dumps(outputs(items))),
    )


async def test_an_agent_run_as_a_tool_is_a_child_and_cannot_put(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    sub_script = sub_agent_script()
    worker = Agent(name="worker", model=sub_script, tools=mem.tools)
    root_script = Script(
        memory(operation="scan", query="zephyr"),
        call("delegate", {"input": "Remember zephyr's tabs."}),
        memory(operation="put", content=REMEMBERED),
        answer("Done."),
    )
    root = Agent(
        name="root", model=root_script, tools=[*mem.tools, worker.as_tool(tool_name="delegate", tool_description="Delegate.")]
    )
    await mem.run(root, "Delegate it, then remember it yourself.")

    scan, put, delete = outputs(sub_script.seen[-1][1])
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert "inside another memory-enabled agent's run" in put["error"]["message"]
    assert not any(CHECKPOINT_TEXT in repr(items) for _, items, _ in sub_script.seen)
    assert all(MEMORY_INSTRUCTIONS in (instructions or "") for instructions, _, _ in sub_script.seen)
    # The root, whose own calls run inside its mark, keeps its role.
    assert outputs(root_script.seen[-1][1])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_a_run_started_inside_a_run_is_a_child_even_when_stated_root(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded, role=Role.ROOT)
    inner = Script(memory(operation="scan", query="x"), memory(operation="put", content=REMEMBERED), lambda items: answer(json.dumps(outputs(items))))
    worker = Agent(name="worker", model=inner, tools=mem.tools)

    async def on_delegate(ctx: Any, arguments: str) -> str:
        return str((await mem.run(worker, "Remember it.")).final_output)

    from agents import FunctionTool

    delegate = FunctionTool(name="delegate", description="Delegate.", params_json_schema={"type": "object", "properties": {}}, on_invoke_tool=on_delegate, strict_json_schema=False)
    root = Agent(name="root", model=Script(call("delegate", {}), answer("Done.")), tools=[*mem.tools, delegate])
    await mem.run(root, "Delegate.")
    assert outputs(inner.seen[-1][1])[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_stated_child_is_refused_at_the_top(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded, role=Role.CHILD)
    script = Script(memory(operation="scan", query="x"), memory(operation="put", content=REMEMBERED), answer("ok"))
    await mem.run(Agent(name="a", model=script, tools=mem.tools), "Remember it.")
    assert outputs(script.seen[-1][1])[-1]["error"]["code"] == "forbidden"
    assert not any(CHECKPOINT_TEXT in repr(items) for _, items, _ in script.seen)


async def test_the_tool_outside_a_memory_run_refuses_every_call(config_path: Path, seeded: MemoryStore) -> None:
    from agents import Runner

    mem = MemoryForAgents.from_config(config_path, store=seeded)
    script = Script(memory(operation="scan", query="zephyr"), answer("ok"))
    await Runner.run(Agent(name="a", model=script, tools=mem.tools), "Hi.")
    (refusal,) = outputs(script.seen[-1][1])
    assert refusal["error"]["code"] == "unavailable" and "MemoryForAgents.run" in refusal["error"]["message"]


async def test_a_filter_of_your_own_runs_first(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    script = Script(answer("ok"))

    def mine(data: CallModelData[Any]) -> ModelInputData:
        return ModelInputData(input=data.model_data.input, instructions="Mine.")

    await mem.run(Agent(name="a", model=script, tools=mem.tools), "Hi.", run_config=RunConfig(call_model_input_filter=mine))
    assert script.seen[0][0] == f"Mine.\n\n{MEMORY_INSTRUCTIONS}"


async def test_disabled_adds_no_tool_no_instructions_no_checkpoint(disabled_config_path: Path) -> None:
    mem = MemoryForAgents.from_config(disabled_config_path)
    script = Script(answer("one"), answer("two"))
    agent = Agent(name="a", instructions="Be brief.", model=script, tools=mem.tools)
    first = await mem.run(agent, "Hello.")
    await mem.run(agent, [*first.to_input_list(), {"role": "user", "content": "Again."}])
    assert not mem.enabled and mem.tools == [] and mem.instructions is None
    for instructions, items, tools in script.seen:
        assert tools == [] and instructions == "Be brief." and CHECKPOINT_TEXT not in repr(items)
    assert not (disabled_config_path.parent / "memory").exists()


def test_run_sync_has_the_same_behaviour(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("ok"))
    items = [{"role": "user", "content": "One."}, {"role": "assistant", "content": "Two."}, {"role": "user", "content": "Three."}]
    try:
        mem.run_sync(Agent(name="a", model=script, tools=mem.tools), items)
    finally:  # run_sync leaves the thread's default loop open on purpose
        asyncio.get_event_loop_policy().get_event_loop().close()
        asyncio.set_event_loop(None)
    assert user_texts(script.seen[0][1]) == [["One."], ["Three.", CHECKPOINT_TEXT]]
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


def test_run_sync_continues_a_chained_turn_and_a_cut_session(
    config_path: Path, seeded: MemoryStore, sessions: Callable[..., SQLiteSession]
) -> None:
    from agents import SessionSettings

    mem = MemoryForAgents.from_config(config_path, store=seeded)
    script = Responses(answer("one"), answer("two"), answer("a"), answer("b"), answer("c"))
    agent = Agent(name="a", model=script, tools=mem.tools)
    try:
        first = mem.run_sync(agent, "One.")
        mem.run_sync(agent, "Two.", previous_response_id=first.last_response_id)
        session = sessions("cut-sync", session_settings=SessionSettings(limit=2))
        for text in ("A.", "B.", "C."):
            mem.run_sync(agent, text, session=session)
    finally:  # run_sync leaves the thread's default loop open on purpose
        asyncio.get_event_loop_policy().get_event_loop().close()
        asyncio.set_event_loop(None)
    sent = [user_texts(items) for _, items, _ in script.seen]
    assert sent[1] == [["Two.", CHECKPOINT_TEXT]]
    assert sent[4] == [["B.", CHECKPOINT_TEXT], ["C.", CHECKPOINT_TEXT]]


def test_with_checkpoints_leaves_the_items_given_unchanged() -> None:
    items = [{"role": "user", "content": "a"}, {"role": "user", "content": [{"type": "input_text", "text": "b"}]}]
    sent = with_checkpoints(items)
    assert items == [{"role": "user", "content": "a"}, {"role": "user", "content": [{"type": "input_text", "text": "b"}]}]
    assert sent[0] is items[0] and is_checkpoint(sent[1]["content"][-1]) and with_checkpoints(sent) == sent


def test_example_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "openai_agents.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "turn 2 was sent with the checkpoint: True" in out
    assert "the session keeps: ['How are release tags named in commonware?', 'They are vX.Y.Z; remember that.']" in out
    assert "stored #1: In the `commonware` repository" in out


@pytest.mark.parametrize("continues", [None, True])
async def test_a_handoff_target_run_as_another_agents_tool_is_a_child_there(
    config_path: Path, seeded: MemoryStore, continues: bool | None
) -> None:
    """An agent the run's handoffs reach is one of its own agents, but run nested with
    ``Agent.as_tool`` it is a sub-agent: its puts and deletes are refused and it gets no checkpoint."""
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    sub_script = sub_agent_script()
    writer = Agent(name="writer", model=sub_script, tools=mem.tools)
    root_script = Script(call("ask_writer", {"input": "Remember zephyr's tabs."}), answer("Done."))
    triage = Agent(
        name="triage", model=root_script, handoffs=[writer],
        tools=[*mem.tools, writer.as_tool(tool_name="ask_writer", tool_description="Ask the writer.")],
    )  # fmt: skip
    await mem.run(triage, "Please remember it.", continues=continues)
    scan, put, delete = outputs(sub_script.seen[-1][1])
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert not any(CHECKPOINT_TEXT in repr(items) for _, items, _ in sub_script.seen)
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED]


async def test_a_handoff_target_reached_by_handoff_is_the_runs_own(config_path: Path, seeded: MemoryStore) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    writer = Agent(
        name="writer",
        model=Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Stored.")),
        tools=mem.tools,
    )
    from agents import handoff

    triage = Agent(name="triage", model=Script(call("transfer_to_writer", {}), answer("unused")), handoffs=[handoff(writer)])
    await mem.run(triage, "Please remember it.")
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_your_run_hooks_still_see_every_event(config_path: Path, seeded: MemoryStore) -> None:
    from agents import RunHooks

    seen: list[str] = []

    class Noting(RunHooks[Any]):
        async def on_agent_start(self, context: Any, agent: Any) -> None:
            seen.append("agent_start")

        async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
            seen.append("llm_end")

        async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
            seen.append(f"tool_start {tool.name}")

        async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: str) -> None:
            seen.append(f"tool_end {tool.name}")

    mem = MemoryForAgents.from_config(config_path, store=seeded)
    agent = Agent(
        name="root",
        model=Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Done.")),
        tools=mem.tools,
    )
    await mem.run(agent, "Remember it.", hooks=Noting())
    assert seen == ["agent_start", "llm_end", "tool_start memory", "tool_end memory", "llm_end",
                    "tool_start memory", "tool_end memory", "llm_end"]  # fmt: skip
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_your_filter_that_cuts_the_first_message_leaves_the_checkpoint_on_the_others(
    config_path: Path, seeded: MemoryStore, sessions: Callable[..., SQLiteSession]
) -> None:
    """Memory's filter runs after yours; when yours keeps only the latest items, the first of them
    is not the conversation's first message and still gets the checkpoint."""
    mem = MemoryForAgents.from_config(config_path, store=seeded)

    def keep_last(data: CallModelData[Any]) -> ModelInputData:
        return ModelInputData(input=data.model_data.input[-1:], instructions=data.model_data.instructions)

    script = Script(answer("one"), answer("two"))
    agent = Agent(name="root", model=script, tools=mem.tools)
    session = sessions("cut")
    for text in ("first", "second"):
        await mem.run(agent, text, session=session, run_config=RunConfig(call_model_input_filter=keep_last))
    first_sent, second_sent = (items for _, items, _ in script.seen)
    assert CHECKPOINT_TEXT not in repr(first_sent)  # the conversation's first message
    assert len(second_sent) == 1 and any(is_checkpoint(p) for p in second_sent[0]["content"])


# -- runs that stop for a person's approval ---------------------------------------------------------


def approving(mem: MemoryForAgents) -> MemoryForAgents:
    from tact_memory.adapters.openai_agents import writes_need_approval

    assert mem.tool is not None
    mem.tool.needs_approval = writes_need_approval
    return mem


async def approve_all(mem: MemoryForAgents, agent: Agent[Any], result: Any, *, resume: Any = None) -> Any:
    """Approve every pending call and resume, until the run ends; ``resume`` runs the state instead of ``mem``."""
    while result.interruptions:
        state = result.to_state()
        for item in result.interruptions:
            state.approve(item)
        result = await (resume or mem.run)(agent, state)
    return result


async def test_an_approved_put_resumes_the_same_run_as_the_root(config_path: Path, seeded: MemoryStore) -> None:
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Remember that zephyr uses tabs.")
    # The scan ran; the put waits for a person, and nothing is stored yet.
    assert [item.tool_name for item in first.interruptions] == ["memory"]
    assert [r.content for r in seeded.list_records()] == [SEEDED]

    done = await approve_all(mem, agent, first)
    assert done.final_output == "Noted."
    # Resumed as the same run: the root's put, after the scan it made before stopping.
    assert outputs(script.seen[-1][1])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]
    assert all(MEMORY_INSTRUCTIONS in (instructions or "") for instructions, _, _ in script.seen)


async def test_a_rejected_put_stores_nothing(config_path: Path, seeded: MemoryStore) -> None:
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Left it."))
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Remember that zephyr uses tabs.")
    state = first.to_state()
    state.reject(first.interruptions[0])
    assert (await mem.run(agent, state)).final_output == "Left it."
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_state_saved_as_text_resumes_the_same_run(config_path: Path, seeded: MemoryStore) -> None:
    from agents import RunState

    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Remember that zephyr uses tabs.")

    async def through_text(agent: Agent[Any], state: Any) -> Any:
        restored = await RunState.from_string(agent, state.to_string())
        return await mem.run(agent, restored)

    await approve_all(mem, agent, first, resume=through_text)
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


@pytest.mark.parametrize("saved", [False, True], ids=["same-state", "saved-as-text"])
async def test_input_staged_on_a_stopped_run_is_a_steer_and_gets_the_checkpoint(
    config_path: Path, seeded: MemoryStore, saved: bool
) -> None:
    """``RunState.add_input`` gives a stopped run the user's words for its next model call: a steer,
    marked in the first turn too, while the turn's own first message stays unmarked."""
    from agents import RunState

    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Remember that zephyr uses tabs.")
    state = first.to_state()
    for item in first.interruptions:
        state.approve(item)
    state.add_input("Also say it uses spaces in YAML.")
    if saved:
        state = await RunState.from_string(agent, state.to_string())
    assert (await mem.run(agent, state)).final_output == "Noted."
    assert user_texts(script.seen[-1][1]) == [
        ["Remember that zephyr uses tabs."],
        ["Also say it uses spaces in YAML.", CHECKPOINT_TEXT],
    ]
    assert outputs(script.seen[-1][1])[-1]["memory"]["content"] == REMEMBERED


async def resumed_elsewhere(config_path: Path, store: MemoryStore, first: Any, agent_for: Callable[[MemoryForAgents], Agent[Any]]) -> MemoryForAgents:
    """Resume ``first``'s saved state as another process would: another object, the state read
    back from text, every pending call approved."""
    from agents import RunState

    other = approving(MemoryForAgents.from_config(config_path, store=store))
    agent = agent_for(other)
    restored = await RunState.from_string(agent, first.to_state().to_string())
    for item in restored.get_interruptions():
        restored.approve(item)
    await approve_all(other, agent, await other.run(agent, restored))
    return other


async def test_a_state_saved_in_another_process_resumes_as_the_root_after_its_scans(
    config_path: Path, seeded: MemoryStore
) -> None:
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("ok"))
    first = await mem.run(Agent(name="root", model=script, tools=mem.tools), "Remember it.")
    await resumed_elsewhere(config_path, seeded, first, lambda other: Agent(name="root", model=script, tools=other.tools))
    assert outputs(script.seen[-1][1])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


@pytest.mark.parametrize(
    "before",
    [
        pytest.param([], id="no scan"),
        pytest.param([memory(operation="scan", query="zephyr", limit=99)], id="a refused scan"),
        pytest.param([memory(operation="scan", query="zephyr"), memory(operation="put", content="Zephyr builds with make.")], id="a put after the scan"),
    ],
)
async def test_a_state_saved_elsewhere_without_a_scan_since_the_last_put_needs_one(
    config_path: Path, seeded: MemoryStore, before: list[Any]
) -> None:
    mem = MemoryForAgents.from_config(config_path, store=seeded)  # the earlier put, if any, runs unapproved
    script = Script(*before, memory(operation="put", content=REMEMBERED), answer("ok"))
    assert mem.tool is not None
    mem.tool.needs_approval = lambda ctx, args, call_id: _needs(args.get("content") == REMEMBERED)
    first = await mem.run(Agent(name="root", model=script, tools=mem.tools), "Remember it.")
    assert first.interruptions
    await resumed_elsewhere(config_path, seeded, first, lambda other: Agent(name="root", model=script, tools=other.tools))
    assert outputs(script.seen[-1][1])[-1]["error"]["code"] == "scan_required"
    assert REMEMBERED not in [r.content for r in seeded.list_records()]


async def _needs(answer: bool) -> bool:
    return answer


async def every_write(context: Any, arguments: Mapping[str, Any], call_id: str) -> bool:
    return arguments.get("operation") in ("put", "delete")


async def test_an_agent_run_as_a_tool_resumed_in_another_process_stays_a_child(config_path: Path, seeded: MemoryStore) -> None:
    """An app's own policy that asks about every write, a child's too: approved, it stays refused."""
    mem = MemoryForAgents.from_config(config_path, store=seeded)
    assert mem.tool is not None
    mem.tool.needs_approval = every_write
    sub_script = sub_agent_script()
    root_script = Script(call("delegate", {"input": "Remember zephyr's tabs."}), answer("Done."))

    def root_for(memory: MemoryForAgents) -> Agent[Any]:
        worker = Agent(name="worker", model=sub_script, tools=memory.tools)
        return Agent(name="root", model=root_script, tools=[*memory.tools, worker.as_tool(tool_name="delegate", tool_description="Delegate.")])

    first = await mem.run(root_for(mem), "Delegate it.")
    assert first.interruptions
    await resumed_elsewhere(config_path, seeded, first, root_for)
    scan, put, delete = outputs(sub_script.seen[-1][1])
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_paused_root_run_resumed_inside_another_run_is_a_child(config_path: Path, seeded: MemoryStore) -> None:
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), lambda items: answer(json.dumps(outputs(items))))
    agent = Agent(name="worker", model=script, tools=mem.tools)
    first = await mem.run(agent, "Remember it.")
    state = first.to_state()
    state.approve(first.interruptions[0])

    from agents import FunctionTool

    async def on_resume(ctx: Any, arguments: str) -> str:
        return str((await mem.run(agent, state)).final_output)

    resume = FunctionTool(name="resume", description="Resume.", params_json_schema={"type": "object", "properties": {}}, on_invoke_tool=on_resume, strict_json_schema=False)
    await mem.run(Agent(name="root", model=Script(call("resume", {}), answer("Done.")), tools=[resume]), "Go on.")
    assert outputs(script.seen[-1][1])[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_write_of_an_agent_run_as_a_tool_is_refused_without_asking(config_path: Path, seeded: MemoryStore) -> None:
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    sub_script = sub_agent_script()
    worker = Agent(name="worker", model=sub_script, tools=mem.tools)
    root_script = Script(call("delegate", {"input": "Remember zephyr's tabs."}), answer("Done."))
    root = Agent(name="root", model=root_script, tools=[*mem.tools, worker.as_tool(tool_name="delegate", tool_description="Delegate.")])
    first = await mem.run(root, "Delegate it.")
    assert not first.interruptions  # a child's write is refused whatever a person would say
    scan, put, delete = outputs(sub_script.seen[-1][1])
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_only_the_writes_a_root_may_make_ask_for_approval(config_path: Path, seeded: MemoryStore) -> None:
    """One response asks for a scan, a read, a put, a delete and a malformed put: the put and the
    delete wait for a person (the put although the scan beside it has not run yet, since it may run
    first), and the others are answered at once."""
    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    calls = [
        memory(operation="scan", query="zephyr"),
        memory(operation="read", ids=[1]),
        memory(operation="put", content=REMEMBERED),
        memory(operation="delete", id=1, version=1),
        memory(operation="put"),
    ]
    script = Script(calls, answer("Kept it."))
    agent = Agent(name="root", model=script, tools=mem.tools)
    first = await mem.run(agent, "Tidy up zephyr.")
    assert [item.raw_item.call_id for item in first.interruptions] == [calls[2].call_id, calls[3].call_id]
    state = first.to_state()
    for item in first.interruptions:
        state.reject(item)
    assert (await mem.run(agent, state)).final_output == "Kept it."
    answered = {i["call_id"]: i["output"] for i in script.seen[-1][1] if isinstance(i, dict) and i.get("type") == "function_call_output"}
    scanned, read, malformed = (json.loads(answered[calls[n].call_id]) for n in (0, 1, 4))
    assert scanned["candidates"] and read["memories"][0]["content"] == SEEDED
    assert malformed["error"]["code"] == "invalid_arguments"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_state_is_read_the_same_from_its_saved_form(config_path: Path, seeded: MemoryStore) -> None:
    """Should a release of the SDK name the state's fields otherwise, the state's saved form gives
    the same answer; a state that cannot be saved shows nothing, so its pending calls are a child's."""
    from tact_memory.adapters.openai_agents import _own_history

    mem = approving(MemoryForAgents.from_config(config_path, store=seeded))
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("ok"))
    state = (await mem.run(Agent(name="root", model=script, tools=mem.tools), "Remember it.")).to_state()

    class SavedOnly:
        def to_json(self) -> dict[str, Any]:
            return state.to_json()

    class Unsaveable:
        def to_json(self) -> dict[str, Any]:
            from agents import UserError

            raise UserError("Cannot serialize RunState: No context")

    calls, scanned = _own_history(state)
    assert scanned and len(calls) == 2
    assert _own_history(SavedOnly()) == (calls, scanned)  # type: ignore[arg-type]
    assert _own_history(Unsaveable()) == (set(), False)  # type: ignore[arg-type]


async def test_a_childs_state_whose_call_id_a_root_run_reused_stays_a_childs(config_path: Path, seeded: MemoryStore) -> None:
    """Some models number their calls from zero, so two runs may pause on calls of one id. A child's
    state is then not taken for the root run that reused its id: its approved put stays refused.
    (An app's policy that asks about every write pauses the child too.)"""
    from agents import FunctionTool

    mem = MemoryForAgents.from_config(config_path, store=seeded)
    assert mem.tool is not None
    mem.tool.needs_approval = every_write

    def same_ids() -> list[Any]:
        scan = ResponseFunctionToolCall(id="call_0", call_id="call_0", type="function_call", name="memory",
                                        arguments=json.dumps({"operation": "scan", "query": "zephyr"}))  # fmt: skip
        put = ResponseFunctionToolCall(id="call_1", call_id="call_1", type="function_call", name="memory",
                                       arguments=json.dumps({"operation": "put", "content": REMEMBERED}))  # fmt: skip
        return [scan, put]

    child_script = Script(*same_ids(), lambda items: answer(json.dumps(outputs(items))))
    worker = Agent(name="worker", model=child_script, tools=mem.tools)
    paused: list[Any] = []

    async def on_delegate(ctx: Any, arguments: str) -> str:
        paused.append(await mem.run(worker, "Remember it."))  # a child: started inside the root's run
        return "asked"

    delegate = FunctionTool(name="delegate", description="Delegate.", params_json_schema={"type": "object", "properties": {}},
                            on_invoke_tool=on_delegate, strict_json_schema=False)  # fmt: skip
    await mem.run(Agent(name="lead", model=Script(call("delegate", {}), answer("Done.")), tools=[delegate]), "Delegate.")
    root_script = Script(*same_ids(), answer("ok"))
    root_paused = await mem.run(Agent(name="root", model=root_script, tools=mem.tools), "Remember it too.")
    (child_paused,) = paused
    assert [i.raw_item.call_id for i in child_paused.interruptions] == ["call_1"]
    assert [i.raw_item.call_id for i in root_paused.interruptions] == ["call_1"]

    # The child's state, approved and resumed at the top level.
    await approve_all(mem, worker, child_paused)
    assert outputs(child_script.seen[-1][1])[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_nested_call_that_reuses_the_runs_own_call_id_is_still_a_childs(config_path: Path, seeded: MemoryStore) -> None:
    """The writer is one of the run's own agents (a handoff target) and also run as a tool; its
    model numbers calls the way the lead's does, so its scan and its put reuse the ids of the lead's
    own calls. The run's hooks never saw them start: the put is refused as a child's."""
    mem = MemoryForAgents.from_config(config_path, store=seeded)

    def numbered(number: int, name: str, arguments: dict[str, Any]) -> ResponseFunctionToolCall:
        return ResponseFunctionToolCall(id=f"call_{number}", call_id=f"call_{number}", type="function_call", name=name,
                                        arguments=json.dumps(arguments))  # fmt: skip

    sub_script = Script(
        numbered(1, "memory", {"operation": "scan", "query": "zephyr"}),
        numbered(0, "memory", {"operation": "put", "content": REMEMBERED}),
        lambda items: answer(json.dumps(outputs(items))),
    )
    writer = Agent(name="writer", model=sub_script, tools=mem.tools)
    lead_script = Script(
        numbered(1, "memory", {"operation": "scan", "query": "zephyr"}),
        numbered(0, "ask_writer", {"input": "Remember zephyr's tabs."}),
        answer("Done."),
    )
    lead = Agent(
        name="lead", model=lead_script, handoffs=[writer],
        tools=[*mem.tools, writer.as_tool(tool_name="ask_writer", tool_description="Ask the writer.")],
    )  # fmt: skip
    await mem.run(lead, "Please remember it.")
    scan, put = outputs(sub_script.seen[-1][1])
    assert scan["candidates"] and put["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]

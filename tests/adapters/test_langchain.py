"""The LangChain middleware, with a scripted fake chat model across turns of one thread."""

from __future__ import annotations

import json
import runpy
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import (
    AgentState,
    ModelRequest,
    ModelResponse,
    SummarizationMiddleware,
    before_model,
    wrap_model_call,
)
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime
from pydantic import Field

from tact_memory.adapters.langchain import MemoryAgentMiddleware
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Role
from tact_memory.tool.schemas import input_schema

from .conftest import REMEMBERED, SEEDED

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_ids: Iterator[int] = iter(range(1, 10_000))


class Scripted(GenericFakeChatModel):
    """Plays its messages in order; keeps every request and the tools it was bound to."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)
    bound: list[Any] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Scripted:
        self.bound = list(tools)
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def scripted(*steps: AIMessage) -> Scripted:
    return Scripted(messages=iter(steps))


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{next(_ids)}"}])


def text(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else json.dumps(message.content)


def results(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    return [json.loads(text(m)) for m in messages if isinstance(m, ToolMessage) and m.name == "memory"]


THREAD = {"configurable": {"thread_id": "t1"}}


def test_two_turns_root_checkpoint_no_injection_and_a_stored_conclusion(
    config_path: Path, seeded: MemoryStore
) -> None:
    model = scripted(
        call("memory", operation="scan", query="zephyr release tags"),
        AIMessage("Tags use vX.Y.Z."),
        call("memory", operation="scan", query="zephyr tabs"),
        call("memory", operation="put", content=REMEMBERED),
        AIMessage("Noted."),
    )
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    agent = create_agent(model, system_prompt="Be brief.", middleware=[memory], checkpointer=InMemorySaver())
    agent.invoke({"messages": [HumanMessage("How are zephyr releases tagged?")]}, THREAD)
    state = agent.invoke({"messages": [HumanMessage("Use tabs in zephyr, please.")]}, THREAD)

    before_scan, after_scan = model.seen[:2]
    assert SEEDED not in " ".join(map(text, before_scan)) and SEEDED in " ".join(map(text, after_scan))  # I2
    assert before_scan[0].type == "system" and text(before_scan[0]) == f"Be brief.\n\n{MEMORY_INSTRUCTIONS}"
    (bound,) = [t for t in model.bound if t.name == "memory"]
    assert bound.args_schema == input_schema()

    # The first human message goes as typed; the second ends with the checkpoint, model-side only.
    assert [m.content for m in before_scan if m.type == "human"] == ["How are zephyr releases tagged?"]
    humans = [m for m in model.seen[2] if m.type == "human"]
    assert humans[0].content == "How are zephyr releases tagged?"
    assert humans[1].content == [
        {"type": "text", "text": "Use tabs in zephyr, please."},
        {"type": "text", "text": CHECKPOINT_TEXT},
    ]
    assert all(CHECKPOINT_TEXT not in text(m) for m in state["messages"])  # the displayed transcript
    assert [m.content for m in state["messages"] if m.type == "human"][-1] == "Use tabs in zephyr, please."

    put = results(state["messages"])[-1]
    assert put["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


def test_a_sub_agent_invoked_from_a_tool_is_a_child_and_cannot_put(config_path: Path, seeded: MemoryStore) -> None:
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    sub_model = scripted(
        call("memory", operation="scan", query="zephyr"),
        call("memory", operation="put", content=REMEMBERED),
        call("memory", operation="delete", id=1, version=1),
        AIMessage("Reported."),
    )
    sub_agent = create_agent(sub_model, middleware=[memory])
    seen_by_parent: list[dict[str, Any]] = []

    @tool
    def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        state = sub_agent.invoke({"messages": [HumanMessage(task)]})
        seen_by_parent.extend(results(state["messages"]))
        return "done"

    model = scripted(call("delegate", task="Remember zephyr's tabs."), AIMessage("Done."))
    create_agent(model, tools=[delegate], middleware=[memory]).invoke({"messages": [HumanMessage("Delegate it.")]})
    scan, put, delete = seen_by_parent
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]
    assert not any(CHECKPOINT_TEXT in text(m) for request in sub_model.seen for m in request)
    assert MEMORY_INSTRUCTIONS in text(sub_model.seen[0][0])


@pytest.mark.anyio
async def test_async_a_steer_in_the_first_turn_gets_the_checkpoint_and_a_fixed_child_cannot_put(
    config_path: Path, seeded: MemoryStore
) -> None:
    root_model = scripted(AIMessage("ok"))
    root = create_agent(root_model, middleware=[MemoryAgentMiddleware.from_config(config_path, store=seeded)])
    # A human message after the thread's first, in the first turn: a steer.
    await root.ainvoke({"messages": [HumanMessage("Start on zephyr."), HumanMessage("Actually, use tabs.")]})
    first, steer = [m for m in root_model.seen[0] if m.type == "human"]
    assert first.content == "Start on zephyr." and steer.content[-1] == {"type": "text", "text": CHECKPOINT_TEXT}

    child_model = scripted(
        call("memory", operation="scan", query="x"), call("memory", operation="put", content=REMEMBERED), AIMessage("ok")
    )
    child = create_agent(child_model, middleware=[MemoryAgentMiddleware.from_config(config_path, role=Role.CHILD, store=seeded)])
    state = await child.ainvoke({"messages": [HumanMessage("one"), HumanMessage("two")]})
    assert results(state["messages"])[-1]["error"]["code"] == "forbidden"
    assert not any(CHECKPOINT_TEXT in text(m) for request in child_model.seen for m in request)
    assert [r.content for r in seeded.list_records()] == [SEEDED]


def test_disabled_registers_no_tool_and_changes_no_request(disabled_config_path: Path) -> None:
    model = scripted(AIMessage("one"), AIMessage("two"))
    memory = MemoryAgentMiddleware.from_config(disabled_config_path)
    agent = create_agent(model, system_prompt="Be brief.", middleware=[memory], checkpointer=InMemorySaver())
    agent.invoke({"messages": [HumanMessage("Hello.")]}, THREAD)
    agent.invoke({"messages": [HumanMessage("Again.")]}, THREAD)
    assert not memory.enabled and memory.tools == [] and model.bound == []
    for request in model.seen:
        assert text(request[0]) == "Be brief."
        assert all(isinstance(m.content, str) and CHECKPOINT_TEXT not in m.content for m in request)
    assert not (disabled_config_path.parent / "memory").exists()


def test_example_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "langchain_agent.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "transcript: ['How are release tags named in commonware?', 'They are vX.Y.Z; remember that.']" in out
    assert "stored #1: In the `commonware` repository" in out


def marked(messages: Sequence[BaseMessage]) -> list[str]:
    """The human messages of a request that end with the checkpoint, by their own text."""
    return [
        m.content[0]["text"]
        for m in messages
        if m.type == "human" and isinstance(m.content, list) and m.content[-1] == {"type": "text", "text": CHECKPOINT_TEXT}
    ]


@before_model
def keep_last_message(state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
    """LangGraph's documented way to trim a thread: remove every message, add back the ones kept."""
    messages = state["messages"]
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *messages[-1:]]} if len(messages) > 1 else None


@pytest.mark.parametrize("trim_first", [True, False])
def test_a_thread_trimmed_in_its_state_keeps_the_checkpoint_on_later_turns(
    config_path: Path, seeded: MemoryStore, trim_first: bool
) -> None:
    """A ``before_model`` hook that returns ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` (LangGraph docs, "Trim
    messages"; ``langgraph/graph/message.py``) takes the thread's first human message out of the state a
    checkpointer saves. The human message that opened the thread is recorded when the thread starts, so a
    later turn's message does not take its place."""
    model = scripted(AIMessage("one"), AIMessage("two"), AIMessage("three"))
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    middleware = [keep_last_message, memory] if trim_first else [memory, keep_last_message]
    agent = create_agent(model, middleware=middleware, checkpointer=InMemorySaver())
    for question in ("First question.", "Second question.", "Third question."):
        agent.invoke({"messages": [HumanMessage(question)]}, THREAD)
    assert [marked(request) for request in model.seen] == [[], ["Second question."], ["Third question."]]


def test_a_thread_summarised_keeps_the_checkpoint_and_the_summary_gets_none(config_path: Path, seeded: MemoryStore) -> None:
    """``SummarizationMiddleware`` replaces the earlier messages with one ``HumanMessage`` marked
    ``additional_kwargs={"lc_source": "summarization"}`` (``langchain/agents/middleware/summarization.py``):
    it is not the user's message and does not open the thread."""
    model = scripted(AIMessage("one"), AIMessage("two"), AIMessage("three"))
    summarizer = scripted(AIMessage("They asked two questions."))
    summarize = SummarizationMiddleware(model=summarizer, trigger=("messages", 4), keep=("messages", 1))
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    agent = create_agent(model, middleware=[summarize, memory], checkpointer=InMemorySaver())
    for question in ("First question.", "Second question.", "Third question."):
        agent.invoke({"messages": [HumanMessage(question)]}, THREAD)
    last = model.seen[-1]
    assert any(m.type == "human" and "They asked two questions." in text(m) for m in last)  # summarised
    assert [marked(request) for request in model.seen] == [[], ["Second question."], ["Third question."]]


def test_a_conversation_given_in_part_is_past_its_first_turn(config_path: Path, seeded: MemoryStore) -> None:
    """Without a checkpointer the app passes the conversation to each ``invoke``; one that was cut so that
    it starts with an earlier answer holds no opening human message, so its human messages are later turns'.
    ``stream`` runs the same graph as ``invoke``."""
    model = scripted(AIMessage("ok"), AIMessage("ok"))
    agent = create_agent(model, middleware=[MemoryAgentMiddleware.from_config(config_path, store=seeded)])
    agent.invoke({"messages": [AIMessage("The earlier answer."), HumanMessage("Go on.")]})
    list(agent.stream({"messages": [SystemMessage("Be brief."), HumanMessage("Start.")]}))
    assert [marked(request) for request in model.seen] == [["Go on."], []]


@wrap_model_call
def rebuild_messages(request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], ModelResponse[Any]]) -> ModelResponse[Any]:
    """A hook listed before memory that hands on new human messages, built without their ids."""
    rebuilt = [HumanMessage(m.content) if isinstance(m, HumanMessage) else m for m in request.messages]
    return handler(request.override(messages=rebuilt))


def test_a_request_rebuilt_without_ids_still_spares_the_opening_message(config_path: Path, seeded: MemoryStore) -> None:
    """``create_agent`` composes ``wrap_model_call`` hooks so that the first listed wraps the others
    (``langchain/agents/factory.py``): memory sees the request an outer hook passed on. Its human messages
    may be new objects without ids; the opening one is still known, by its content, and goes unmarked."""
    model = scripted(AIMessage("one"), AIMessage("two"))
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    agent = create_agent(model, middleware=[rebuild_messages, memory], checkpointer=InMemorySaver())
    agent.invoke({"messages": [HumanMessage("First question.")]}, THREAD)
    agent.invoke({"messages": [HumanMessage("Second question.")]}, THREAD)
    assert [marked(request) for request in model.seen] == [[], ["Second question."]]


# -- a thread resumed by another process ------------------------------------------------------------


def resume_elsewhere(config_path: Path, store: MemoryStore, model: Scripted, saver: InMemorySaver) -> dict[str, Any]:
    """Run the thread on to its end as another process would: a new middleware and a new agent over
    the same durable checkpointer (an ``InMemorySaver`` standing in for a database)."""
    memory = MemoryAgentMiddleware.from_config(config_path, store=store)
    agent = create_agent(model, middleware=[memory], checkpointer=saver, interrupt_before=["tools"])
    state = agent.invoke(None, THREAD)
    while agent.get_state(THREAD).next:
        state = agent.invoke(None, THREAD)
    return state


def stopped_before_the_put(config_path: Path, store: MemoryStore, model: Scripted, saver: InMemorySaver) -> None:
    """Run the thread until it stops before its put, as a person's approval would hold it."""
    memory = MemoryAgentMiddleware.from_config(config_path, store=store)
    agent = create_agent(model, middleware=[memory], checkpointer=saver, interrupt_before=["tools"])
    agent.invoke({"messages": [HumanMessage("Remember zephyr's tabs.")]}, THREAD)
    while agent.get_state(THREAD).values["messages"][-1].tool_calls[0]["args"]["operation"] != "put":
        agent.invoke(None, THREAD)


def test_a_thread_resumed_in_another_process_keeps_the_scan_it_made(config_path: Path, seeded: MemoryStore) -> None:
    model = scripted(
        call("memory", operation="scan", query="zephyr"),
        call("memory", operation="put", content=REMEMBERED),
        AIMessage("Noted."),
    )
    saver = InMemorySaver()
    stopped_before_the_put(config_path, seeded, model, saver)
    state = resume_elsewhere(config_path, seeded, model, saver)
    assert results(state["messages"])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


@pytest.mark.parametrize(
    "before",
    [
        pytest.param([], id="no scan"),
        pytest.param([call("memory", operation="scan", query="zephyr", limit=99)], id="a refused scan"),
        pytest.param(
            [call("memory", operation="scan", query="zephyr"), call("memory", operation="put", content="Zephyr builds with make.")],
            id="a put after the scan",
        ),
    ],
)
def test_a_thread_resumed_elsewhere_without_a_scan_since_its_last_put_needs_one(
    config_path: Path, seeded: MemoryStore, before: list[AIMessage]
) -> None:
    model = scripted(*before, call("memory", operation="put", content=REMEMBERED), AIMessage("ok"))
    saver = InMemorySaver()
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    agent = create_agent(model, middleware=[memory], checkpointer=saver, interrupt_before=["tools"])
    agent.invoke({"messages": [HumanMessage("Remember zephyr's tabs.")]}, THREAD)
    while agent.get_state(THREAD).values["messages"][-1].tool_calls[0]["args"].get("content") != REMEMBERED:
        agent.invoke(None, THREAD)
    state = resume_elsewhere(config_path, seeded, model, saver)
    assert results(state["messages"])[-1]["error"]["code"] == "scan_required"
    assert REMEMBERED not in [r.content for r in seeded.list_records()]


def _has_when() -> bool:
    from langchain.agents.middleware.human_in_the_loop import InterruptOnConfig

    return "when" in InterruptOnConfig.__annotations__


@pytest.mark.skipif(not _has_when(), reason="this LangChain release's HumanInTheLoopMiddleware has no `when`")
def test_a_person_approves_only_the_roots_writes_and_the_approval_resumes_in_another_process(
    config_path: Path, seeded: MemoryStore
) -> None:
    from langchain.agents.middleware import HumanInTheLoopMiddleware
    from langgraph.types import Command

    malformed = AIMessage("", tool_calls=[{"name": "memory", "args": {"operation": "put"}, "id": "malformed"}])
    model = scripted(
        call("memory", operation="scan", query="zephyr"),
        malformed,
        call("memory", operation="put", content=REMEMBERED),
        AIMessage("Noted."),
    )
    saver = InMemorySaver()

    def agent_in_a_process() -> Any:
        memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
        ask = {"allowed_decisions": ["approve", "reject"], "when": memory.writes_need_approval}
        return create_agent(model, middleware=[memory, HumanInTheLoopMiddleware(interrupt_on={"memory": ask})], checkpointer=saver)

    first = agent_in_a_process().invoke({"messages": [HumanMessage("Remember zephyr's tabs.")]}, THREAD)
    # The scan and the malformed put ran at once; the put waits for a person, and nothing is stored.
    scanned, refused = results(first["messages"])
    assert "candidates" in scanned and refused["error"]["code"] == "invalid_arguments"
    assert [r.content for r in seeded.list_records()] == [SEEDED]

    state = agent_in_a_process().invoke(Command(resume={"decisions": [{"type": "approve"}]}), THREAD)
    assert results(state["messages"])[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


def test_a_childs_write_is_never_asked_about(config_path: Path, seeded: MemoryStore) -> None:
    from langchain.agents.middleware import ToolCallRequest

    """The predicate reads the role saved in the thread's state when it was invoked."""
    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    put = {"name": "memory", "args": {"operation": "put", "content": REMEMBERED}, "id": "put"}
    child = {"tact_memory_role": {"role": "child", "reason": "nested"}}
    root = {"tact_memory_role": {"role": "root", "reason": "top"}}
    assert not memory.writes_need_approval(ToolCallRequest(tool_call=put, tool=None, state=child, runtime=None))
    assert memory.writes_need_approval(ToolCallRequest(tool_call=put, tool=None, state=root, runtime=None))
    scan = {**put, "args": {"operation": "scan", "query": "zephyr"}}
    assert not memory.writes_need_approval(ToolCallRequest(tool_call=scan, tool=None, state=root, runtime=None))

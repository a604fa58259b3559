"""Rule I17 in the adapters: a sub-agent is a child however it was started, and never writes.

Each test starts a memory-enabled sub-agent from inside a memory-enabled root agent by one start
method (in the context, or where the context cannot follow: an executor, a thread, a fresh
``contextvars.Context``) and checks that its put is refused with ``forbidden`` and nothing is
stored. Sub-agents started in the context are given ``role=Role.ROOT`` on purpose: the context
lowers even a stated role. Those started outside it state nothing, as most applications do.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelRequest as LangChainRequest
from langchain.agents.middleware import dynamic_prompt
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool

from ..conftest import NO_PYDANTIC_AI

pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)

from pydantic_ai import Agent, RunContext  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import (  # noqa: E402
    AgentInfo,
    DeltaToolCall,
    DeltaToolCalls,
    FunctionModel,
)

from tact_memory.adapters.langchain import MemoryAgentMiddleware  # noqa: E402
from tact_memory.adapters.pydantic_ai import MemoryCapability  # noqa: E402
from tact_memory.config.loading import load_config  # noqa: E402
from tact_memory.runtime import roles  # noqa: E402
from tact_memory.runtime.messages import ToolCall  # noqa: E402
from tact_memory.runtime.session import Runtime  # noqa: E402
from tact_memory.store.sqlite import MemoryStore  # noqa: E402
from tact_memory.testing import ScriptedModel, run_agent  # noqa: E402
from tact_memory.testing import answer as scripted_answer  # noqa: E402
from tact_memory.testing import call as scripted_call  # noqa: E402
from tact_memory.tool.guard import Role  # noqa: E402

from .conftest import REMEMBERED, SEEDED  # noqa: E402
from .test_langchain import call, results, scripted  # noqa: E402
from .test_pydantic_ai import Script, answer, memory, returns  # noqa: E402

pytestmark = pytest.mark.anyio

Outcome = list[dict[str, Any]]


@pytest.fixture(autouse=True)
def nothing_left_in_flight() -> Iterator[None]:
    """Every mark is closed once a run ends, so later top-level agents are roots again."""
    assert not roles.busy()
    yield
    assert not roles.busy()


def assert_refused(outcome: Outcome, store: MemoryStore) -> None:
    """The sub-agent scanned, its put was refused with ``forbidden``, and nothing was stored."""
    scan, put = outcome
    assert scan["operation"] == "scan" and "error" not in scan
    assert put["error"]["code"] == "forbidden"
    assert [r.content for r in store.list_records()] == [SEEDED]


# -- pydantic-ai --------------------------------------------------------------------------------


def pydantic_sub_agent(config_path: Path, store: MemoryStore, outcome: Outcome, *, role: Role | None) -> Agent[None, str]:
    """A sub-agent that scans, tries to put, and reports what its tool calls returned."""

    def report(messages: Any) -> ModelResponse:
        outcome.extend(returns(messages))
        return answer("reported")

    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), report)
    return Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, role=role, store=store)])


def run_blocking(agent: Agent[None, str], task: str) -> str:
    """Run a pydantic-ai agent to the end from synchronous code, on an event loop of its own."""
    return asyncio.run(agent.run(task)).output


def pydantic_root(config_path: Path, store: MemoryStore, **kwargs: Any) -> tuple[Agent[None, Any], Script]:
    script = Script(ModelResponse(parts=[ToolCallPart("delegate", {"task": "Remember zephyr's tabs."})]), answer("Done."))
    capability = MemoryCapability.from_config(config_path, store=store)
    return Agent(script.model, capabilities=[capability], **kwargs), script


async def test_pydantic_ai_run_in_executor(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=None)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    async def delegate(task: str) -> str:
        loop = asyncio.get_running_loop()
        return (await loop.run_in_executor(None, run_blocking, sub, task))

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)


async def test_pydantic_ai_thread_pool(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=None)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    def delegate(task: str) -> str:
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run_blocking, sub, task).result()

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)


async def test_pydantic_ai_thread(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=None)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    def delegate(task: str) -> str:
        worker = threading.Thread(target=run_blocking, args=(sub, task))
        worker.start()
        worker.join()
        return "done"

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)


async def test_pydantic_ai_fresh_context(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=None)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    def delegate(task: str) -> str:
        return contextvars.Context().run(run_blocking, sub, task)

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)


async def test_pydantic_ai_tool_with_a_stated_root_role(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=Role.ROOT)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool
    async def delegate(ctx: RunContext[None], task: str) -> str:
        return (await sub.run(task, usage=ctx.usage)).output

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)
    assert "started inside another memory-enabled agent's run" in outcome[1]["error"]["message"]


def final_result_model() -> FunctionModel:
    """A model that at once calls the output function with a task, streamed or not."""
    arguments = {"task": "Remember zephyr's tabs."}

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("final_result", arguments)])

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[DeltaToolCalls]:
        yield {0: DeltaToolCall(name="final_result", json_args=json.dumps(arguments))}

    return FunctionModel(respond, stream_function=stream)


def summarising_root(config_path: Path, store: MemoryStore, sub: Agent[None, str]) -> Agent[None, str]:
    """A root agent whose output function hands its task to ``sub``."""

    async def summarise(task: str) -> str:
        """Hand the final summary to a sub-agent."""
        return (await sub.run(task)).output

    capability = MemoryCapability.from_config(config_path, store=store)
    return Agent(final_result_model(), output_type=summarise, capabilities=[capability])


async def test_pydantic_ai_output_function(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    root = summarising_root(config_path, seeded, pydantic_sub_agent(config_path, seeded, outcome, role=Role.ROOT))
    assert (await root.run("Summarise.")).output == "reported"
    assert_refused(outcome, seeded)


async def test_pydantic_ai_output_function_streamed(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    root = summarising_root(config_path, seeded, pydantic_sub_agent(config_path, seeded, outcome, role=Role.ROOT))
    async with root.run_stream("Summarise.") as stream:
        assert await stream.get_output() == "reported"
    assert_refused(outcome, seeded)


async def test_pydantic_ai_instructions_function(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=Role.ROOT)
    script = Script(answer("Done."))
    root = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])

    @root.instructions
    async def house_rules() -> str:
        return (await sub.run("Collect the house rules.")).output

    await root.run("Go.")
    assert_refused(outcome, seeded)


# -- LangChain ----------------------------------------------------------------------------------


class LangChainSub:
    """A LangChain sub-agent that scans and tries to put, collecting what its tool calls returned."""

    def __init__(self, config_path: Path, store: MemoryStore, outcome: Outcome, *, role: Role | None) -> None:
        model = scripted(
            call("memory", operation="scan", query="zephyr"),
            call("memory", operation="put", content=REMEMBERED),
            AIMessage("ok"),
        )
        memory = MemoryAgentMiddleware.from_config(config_path, role=role, store=store)
        self.agent = create_agent(model, middleware=[memory])
        self.outcome = outcome

    def invoke_sub(self, task: str) -> str:
        self.outcome.extend(results(self.agent.invoke({"messages": [HumanMessage(task)]})["messages"]))
        return "done"

    async def ainvoke_sub(self, task: str) -> str:
        self.outcome.extend(results((await self.agent.ainvoke({"messages": [HumanMessage(task)]}))["messages"]))
        return "done"


def langchain_sub_agent(config_path: Path, store: MemoryStore, outcome: Outcome, *, role: Role | None) -> LangChainSub:
    return LangChainSub(config_path, store, outcome, role=role)


def run_langchain_root(config_path: Path, store: MemoryStore, delegate: Any) -> None:
    model = scripted(call("delegate", task="Remember zephyr's tabs."), AIMessage("Done."))
    memory = MemoryAgentMiddleware.from_config(config_path, store=store)
    create_agent(model, tools=[delegate], middleware=[memory]).invoke({"messages": [HumanMessage("Delegate it.")]})


async def arun_langchain_root(config_path: Path, store: MemoryStore, delegate: Any) -> None:
    model = scripted(call("delegate", task="Remember zephyr's tabs."), AIMessage("Done."))
    memory = MemoryAgentMiddleware.from_config(config_path, store=store)
    await create_agent(model, tools=[delegate], middleware=[memory]).ainvoke({"messages": [HumanMessage("Delegate it.")]})


async def test_langchain_run_in_executor(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=None)

    @tool
    async def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        return await asyncio.get_running_loop().run_in_executor(None, sub.invoke_sub, task)

    await arun_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


def test_langchain_thread_pool(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=None)

    @tool
    def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(sub.invoke_sub, task).result()

    run_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


def test_langchain_thread(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=None)

    @tool
    def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        worker = threading.Thread(target=sub.invoke_sub, args=(task,))
        worker.start()
        worker.join()
        return "done"

    run_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


def test_langchain_fresh_context(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=None)

    @tool
    def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        return contextvars.Context().run(sub.invoke_sub, task)

    run_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


async def test_langchain_tool_with_a_stated_root_role(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=Role.ROOT)

    @tool
    async def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        return await sub.ainvoke_sub(task)

    await arun_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


def test_langchain_prompt_function_after_the_middleware(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=Role.ROOT)

    @dynamic_prompt
    def house_rules(request: LangChainRequest[Any]) -> str:
        return sub.invoke_sub("Collect the house rules.") if not outcome else "Be brief."

    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    agent = create_agent(scripted(AIMessage("Done.")), middleware=[memory, house_rules])  # type: ignore[list-item]
    agent.invoke({"messages": [HumanMessage("Go.")]})
    assert_refused(outcome, seeded)


# -- across adapters ----------------------------------------------------------------------------


async def test_a_langchain_sub_agent_in_a_pydantic_ai_tool_is_a_child(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=Role.ROOT)
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    async def delegate(task: str) -> str:
        return await sub.ainvoke_sub(task)

    await root.run("Delegate it.")
    assert_refused(outcome, seeded)


def test_a_pydantic_ai_sub_agent_in_a_langchain_tool_is_a_child(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=Role.ROOT)

    @tool
    def delegate(task: str) -> str:
        """Hand a task to a sub-agent."""
        return run_blocking(sub, task)

    run_langchain_root(config_path, seeded, delegate)
    assert_refused(outcome, seeded)


# -- independent agents side by side --------------------------------------------------------------


async def test_beside_a_running_agent_an_unstated_role_is_child_and_a_stated_root_writes(
    config_path: Path, seeded: MemoryStore
) -> None:
    unstated: Outcome = []
    started = threading.Event()
    release = threading.Event()

    def other_top_level_agents() -> None:
        started.wait(10)
        try:
            run_blocking(pydantic_sub_agent(config_path, seeded, unstated, role=None), "Remember it.")
            script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("ok"))
            stated = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, role=Role.ROOT, store=seeded)])
            run_blocking(stated, "Remember it.")
        finally:
            release.set()

    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    async def delegate(task: str) -> str:
        started.set()
        await asyncio.to_thread(release.wait, 10)
        return "waited"

    worker = threading.Thread(target=other_top_level_agents)
    worker.start()
    await root.run("Wait a moment.")
    worker.join()
    message = unstated[1]["error"]["message"]
    assert unstated[1]["error"]["code"] == "forbidden" and "role=Role.ROOT" in message
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


def test_decide_role_only_ever_lowers() -> None:
    assert roles.decide_role(None) == roles.RoleDecision(Role.ROOT, "alone")
    assert roles.decide_role(Role.CHILD) == roles.RoleDecision(Role.CHILD, "stated")
    with roles.running("test"):
        assert roles.busy() and roles.inside()
        for stated in (None, Role.ROOT, Role.CHILD):
            assert roles.decide_role(stated).role is Role.CHILD
        seen: list[roles.RoleDecision] = []
        contextvars.Context().run(lambda: seen.extend(roles.decide_role(s) for s in (None, Role.ROOT)))
        assert seen == [roles.RoleDecision(Role.CHILD, "busy"), roles.RoleDecision(Role.ROOT, "stated")]
    assert not roles.busy() and not roles.inside()
    assert json.dumps(roles.decide_role(None).note) == '""'


# -- the runtime shares the same marks ------------------------------------------------------------


def test_a_pydantic_ai_sub_agent_in_a_runtime_tool_is_a_child(config_path: Path, seeded: MemoryStore) -> None:
    outcome: Outcome = []
    sub = pydantic_sub_agent(config_path, seeded, outcome, role=None)
    session = Runtime(load_config(config_path), store=seeded).new_session()
    session.submit("Delegate it.")

    def delegate(tool_call: ToolCall) -> str:
        with ThreadPoolExecutor(max_workers=1) as pool:  # no context crosses into the pool
            return pool.submit(run_blocking, sub, "Remember zephyr's tabs.").result()

    run_agent(session.root, ScriptedModel([scripted_call("delegate", {}), scripted_answer("Done.")]), executor=delegate)
    assert_refused(outcome, seeded)


async def test_a_runtime_session_made_in_a_pydantic_ai_tool_cannot_write(config_path: Path, seeded: MemoryStore) -> None:
    seen: list[Role] = []
    root, _ = pydantic_root(config_path, seeded)

    @root.tool_plain
    async def delegate(task: str) -> str:
        session = Runtime(load_config(config_path), store=seeded).new_session()
        assert session.root.dispatcher is not None
        seen.append(session.root.dispatcher.role)
        return "done"

    await root.run("Delegate it.")
    assert seen == [Role.CHILD]


def runtime_sub_agent(config_path: Path, store: MemoryStore, outcome: Outcome, role: Role | None) -> None:
    """A runtime session started as a sub-agent: it scans, tries to put, and reports the results."""
    session = Runtime(load_config(config_path), store=store).new_session(role=role)
    session.submit("Remember zephyr's tabs.")
    script = ScriptedModel([
        scripted_call("memory", {"operation": "scan", "query": "zephyr"}),
        scripted_call("memory", {"operation": "put", "content": REMEMBERED}),
        scripted_answer("reported"),
    ])  # fmt: skip
    run_agent(session.root, script)
    outcome.extend(json.loads(m.text) for m in session.root.history if m.role == "tool")


def in_a_thread(work: Any) -> None:
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def in_an_executor(work: Any) -> None:
    async def main() -> None:
        await asyncio.get_running_loop().run_in_executor(None, work)

    asyncio.run(main())


START_METHODS = {
    "threading.Thread": in_a_thread,
    "ThreadPoolExecutor": lambda work: ThreadPoolExecutor(max_workers=1).submit(work).result(),
    "run_in_executor": in_an_executor,
    "fresh Context": lambda work: contextvars.Context().run(work),
    "same thread": lambda work: work(),
}


@pytest.mark.parametrize("start", list(START_METHODS))
@pytest.mark.parametrize("role", [None, Role.ROOT], ids=["unstated", "stated root"])
def test_a_runtime_session_started_from_a_runtime_tool_is_a_child(
    config_path: Path, seeded: MemoryStore, start: str, role: Role | None
) -> None:
    """``Runtime.new_session`` in a tool call, however the call starts it: unstated, its role is a
    child's wherever the context cannot follow (another memory-enabled agent is at work in the
    process); in the context, a stated root is lowered too."""
    outcome: Outcome = []
    session = Runtime(load_config(config_path), store=seeded).new_session()
    session.submit("Delegate it.")

    def delegate(tool_call: ToolCall) -> str:
        START_METHODS[start](lambda: runtime_sub_agent(config_path, seeded, outcome, role))
        return "done"

    run_agent(session.root, ScriptedModel([scripted_call("delegate", {}), scripted_answer("Done.")]), executor=delegate)
    if role is Role.ROOT and start != "same thread":
        # Stated, beside a running agent and out of its context: kept, as for any top-level agent
        # that runs beside others. Only the context can lower a stated role.
        assert outcome[1]["memory"]["content"] == REMEMBERED
    else:
        assert_refused(outcome, seeded)


def test_a_runtime_session_with_nothing_at_work_is_the_root(config_path: Path, seeded: MemoryStore) -> None:
    session = Runtime(load_config(config_path), store=seeded).new_session()
    assert session.root.dispatcher is not None and session.root.dispatcher.role is Role.ROOT
    for make in (Runtime.restore_session, Runtime.fork_session):
        other = make(Runtime(load_config(config_path), store=seeded), session.state(), role=Role.CHILD)
        assert other.root.dispatcher is not None and other.root.dispatcher.role is Role.CHILD


def test_a_thread_a_tool_started_is_a_child_even_after_the_tool_returned(tmp_path: Path) -> None:
    """A "spawn and return" tool: its thread creates the sub-agent once the tool is done, when no
    mark is open anywhere. The runtime cannot tell it from a top-level agent, so it is a child
    unless its role is stated; on the main thread, an unstated session is still the root."""
    from ..conftest import write_config

    runtime = Runtime(load_config(write_config(tmp_path / "cfg")))
    parent = runtime.new_session()
    assert parent.root.dispatcher is not None and parent.root.dispatcher.role is Role.ROOT
    parent.submit("go")
    tool_done = threading.Event()
    found: dict[str, Any] = {}

    def later() -> None:
        tool_done.wait(10)
        session = runtime.new_session()
        found["unstated"] = session.root.dispatcher.role if session.root.dispatcher else None
        found["put"] = session.root.run_tool(ToolCall("p", "memory", {"operation": "put", "content": "from the thread"}))
        stated = runtime.new_session(role=Role.ROOT)
        found["stated"] = stated.root.dispatcher.role if stated.root.dispatcher else None

    def spawn(call: ToolCall) -> dict[str, Any]:
        thread = threading.Thread(target=later)
        thread.start()
        found["thread"] = thread
        return {"started": True}

    parent.root.run_tool(ToolCall("c1", "spawn", {}), spawn)
    assert not roles.busy()
    tool_done.set()
    found["thread"].join(10)
    assert found["unstated"] is Role.CHILD and found["stated"] is Role.ROOT
    put = found["put"]
    assert put["error"]["code"] == "forbidden" and "role=Role.ROOT" in put["error"]["message"]
    with MemoryStore(tmp_path / "cfg" / "memory" / "v1.sqlite3") as store:
        assert store.list_records() == []


# -- hooks outside memory's own calls, and graphs inside graphs -------------------------------------


HOOKS = ("before_model", "after_model", "wrap_model_call", "wrap_tool_call")


@pytest.mark.parametrize("hook", HOOKS)
def test_a_langchain_sub_agent_started_by_a_middleware_listed_before_memory_is_a_child(
    config_path: Path, seeded: MemoryStore, hook: str
) -> None:
    """That middleware's hooks run outside memory's marks, but inside a step of the parent's graph,
    which LangGraph's checkpoint namespace shows; an unstated sub-agent started there is a child."""
    from langchain.agents.middleware import AgentMiddleware

    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=None)

    class Outer(AgentMiddleware):  # type: ignore[type-arg]
        def before_model(self, state: Any, runtime: Any) -> None:
            if hook == "before_model" and not outcome:
                sub.invoke_sub("Collect the house rules.")

        def after_model(self, state: Any, runtime: Any) -> None:
            if hook == "after_model" and not outcome:
                sub.invoke_sub("Collect the house rules.")

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            if hook == "wrap_model_call" and not outcome:
                sub.invoke_sub("Collect the house rules.")
            return handler(request)

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            if hook == "wrap_tool_call" and not outcome:
                sub.invoke_sub("Collect the house rules.")
            return handler(request)

    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return "nothing"

    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    model = scripted(call("lookup", query="x"), AIMessage("Done."))
    create_agent(model, tools=[lookup], middleware=[Outer(), memory]).invoke({"messages": [HumanMessage("Go.")]})
    assert_refused(outcome, seeded)
    assert "inside a step of another agent's graph" in outcome[1]["error"]["message"]


@pytest.mark.parametrize("role", [None, Role.ROOT])
def test_an_agent_that_is_a_node_of_your_own_graph_states_its_role(config_path: Path, seeded: MemoryStore, role: Role | None) -> None:
    """An agent invoked from a node of a graph that does not use memory: unstated, it cannot be
    told from a sub-agent and is a child; stated root, it writes."""
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    class Flow(TypedDict):
        done: bool

    outcome: Outcome = []
    sub = langchain_sub_agent(config_path, seeded, outcome, role=role)

    def step(state: Flow) -> Flow:
        sub.invoke_sub("Remember zephyr's tabs.")
        return {"done": True}

    graph = StateGraph(Flow)
    graph.add_node("step", step)
    graph.add_edge(START, "step")
    graph.add_edge("step", END)
    graph.compile().invoke({"done": False})
    if role is Role.ROOT:
        assert outcome[1]["memory"]["content"] == REMEMBERED
    else:
        assert_refused(outcome, seeded)


def test_an_interrupted_langchain_agent_resumed_inside_another_agents_tool_is_a_child(
    config_path: Path, seeded: MemoryStore
) -> None:
    """A resume runs no ``before_agent``; the role saved when the thread was first invoked (the
    root, stated) is lowered when it resumes inside a memory-enabled agent's tool."""
    from langgraph.checkpoint.memory import InMemorySaver

    thread = {"configurable": {"thread_id": "worker"}}
    worker_memory = MemoryAgentMiddleware.from_config(config_path, role=Role.ROOT, store=seeded)
    worker_model = scripted(
        call("memory", operation="scan", query="zephyr"),
        call("memory", operation="put", content=REMEMBERED),
        AIMessage("ok"),
    )
    worker = create_agent(worker_model, middleware=[worker_memory], checkpointer=InMemorySaver(), interrupt_before=["tools"])
    worker.invoke({"messages": [HumanMessage("Remember zephyr's tabs.")]}, thread)  # stops before its first tool call
    outcome: Outcome = []

    @tool
    def resume_worker(task: str) -> str:
        """Let the worker go on."""
        state = worker.invoke(None, thread)
        while worker.get_state(thread).next:
            state = worker.invoke(None, thread)
        outcome.extend(results(state["messages"]))
        return "done"

    memory = MemoryAgentMiddleware.from_config(config_path, store=seeded)
    model = scripted(call("resume_worker", task="go on"), AIMessage("Done."))
    create_agent(model, tools=[resume_worker], middleware=[memory]).invoke({"messages": [HumanMessage("Resume it.")]})
    assert_refused(outcome, seeded)


@pytest.mark.parametrize("where", ["wrap_model_call", "wrap_tool_call"])
def test_a_runtime_session_started_by_your_middleware_is_a_child(config_path: Path, seeded: MemoryStore, where: str) -> None:
    """Your middleware wraps memory's, outside memory's own layer; the runtime marks the whole call."""
    from tact_memory import Middleware

    outcome: Outcome = []

    class Reviewer(Middleware):
        def wrap_model_call(self, agent: Any, request: Any, call_next: Any) -> Any:
            if where == "wrap_model_call" and not outcome:
                runtime_sub_agent(config_path, seeded, outcome, None)
            return call_next(request)

        def wrap_tool_call(self, agent: Any, call: Any, call_next: Any) -> Any:
            if where == "wrap_tool_call" and not outcome:
                runtime_sub_agent(config_path, seeded, outcome, None)
            return call_next(call)

    session = Runtime(load_config(config_path), store=seeded, middleware=[Reviewer()]).new_session()
    session.submit("Go.")
    run_agent(session.root, ScriptedModel([scripted_call("lookup", {}), scripted_answer("Done.")]), executor=lambda c: "nothing")
    assert_refused(outcome, seeded)

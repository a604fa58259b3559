"""The pydantic-ai capability, with FunctionModel standing in for the model."""

from __future__ import annotations

import runpy
import warnings
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from ..conftest import NO_PYDANTIC_AI

pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)

from pydantic_ai import (  # noqa: E402
    Agent,
    AgentRunResult,
    DeferredToolRequests,
    DeferredToolResults,
    ModelMessagesTypeAdapter,
    RunContext,
    ToolDenied,
    ToolReturn,
)
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from tact_memory.adapters.pydantic_ai import MemoryCapability, checkpoint_part, is_checkpoint, without_checkpoints  # noqa: E402
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS  # noqa: E402
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT  # noqa: E402
from tact_memory.store.sqlite import MemoryStore  # noqa: E402
from tact_memory.tool.guard import Role  # noqa: E402
from tact_memory.tool.schemas import input_schema  # noqa: E402

from .conftest import REMEMBERED, SEEDED  # noqa: E402

pytestmark = pytest.mark.anyio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Step = ModelResponse | Callable[[list[ModelMessage]], ModelResponse]


class Script:
    """A FunctionModel body: plays responses in order and keeps what the model was shown."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.seen: list[tuple[list[ModelMessage], AgentInfo]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append((list(messages), info))
        step = self.steps.pop(0)
        return step(messages) if callable(step) else step

    @property
    def model(self) -> FunctionModel:
        return FunctionModel(self)


def memory(**arguments: Any) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart("memory", arguments)])


def answer(text: str) -> ModelResponse:
    return ModelResponse(parts=[TextPart(text)])


def returns(messages: list[ModelMessage]) -> list[Any]:
    return [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]


def part_texts(messages: list[ModelMessage]) -> list[str]:
    """Every part's content as text, in order, as the model was shown it."""
    return [str(getattr(part, "content", "")) for m in messages for part in m.parts]


def last_texts(messages: list[ModelMessage]) -> list[str]:
    """The text parts of the last request, as the model was shown them."""
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    return [str(getattr(part, "content", "")) for part in request.parts]


async def test_two_turns_root_checkpoint_no_injection_and_a_stored_conclusion(
    config_path: Path, seeded: MemoryStore
) -> None:
    script = Script(
        memory(operation="scan", query="zephyr release tags"),
        answer("Tags use vX.Y.Z."),
        memory(operation="scan", query="zephyr tabs"),
        memory(operation="put", content=REMEMBERED),
        answer("Noted."),
    )
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    first = await agent.run("How are zephyr releases tagged?")
    second = await agent.run("Use tabs in zephyr, please.", message_history=first.all_messages())

    (before_scan, info), (after_scan, _) = script.seen[:2]
    assert SEEDED not in repr(before_scan) and SEEDED in repr(after_scan)  # I2
    assert info.instructions is not None and MEMORY_INSTRUCTIONS in info.instructions
    (tool,) = [t for t in info.function_tools if t.name == "memory"]
    assert tool.parameters_json_schema == input_schema()

    # The first turn's user message carries no checkpoint; the second turn's ends with it.
    assert last_texts(before_scan) == ["How are zephyr releases tagged?"]
    turn_two, _ = script.seen[2]
    texts = last_texts(turn_two)
    assert texts[0] == "Use tabs in zephyr, please." and CHECKPOINT_TEXT in texts[-1] and len(texts) == 2
    assert sum(CHECKPOINT_TEXT in text for text in part_texts(turn_two)) == 1

    # Kept in the run's history (and through a save and a restore) as a marked system part,
    # while the user's own part, which an app displays, is unchanged.
    history = ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(second.all_messages()))
    request = second.new_messages()[0]
    assert isinstance(request, ModelRequest)
    assert [type(p) for p in request.parts] == [UserPromptPart, SystemPromptPart]
    assert request.parts[0].content == "Use tabs in zephyr, please." and is_checkpoint(request.parts[-1])
    assert [sum(map(is_checkpoint, m.parts)) for m in history if isinstance(m, ModelRequest) and m.parts][:1] == [0]
    assert sum(is_checkpoint(p) for m in history for p in m.parts) == 1
    assert returns(second.new_messages())[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_a_sub_agent_run_from_a_tool_is_a_child_and_cannot_put(config_path: Path, seeded: MemoryStore) -> None:
    capability = MemoryCapability.from_config(config_path, store=seeded)
    sub_script = Script(
        memory(operation="scan", query="zephyr"),
        memory(operation="put", content=REMEMBERED),
        memory(operation="delete", id=1, version=1),
        lambda messages: answer(repr(returns(messages))),
    )
    sub_agent = Agent(sub_script.model, capabilities=[capability])
    root_script = Script(
        ModelResponse(parts=[ToolCallPart("delegate", {"task": "Remember zephyr's tabs."})]),
        answer("Done."),
    )
    root = Agent(root_script.model, capabilities=[capability])

    @root.tool
    async def delegate(ctx: RunContext[None], task: str) -> str:
        return (await sub_agent.run(task, usage=ctx.usage)).output

    await root.run("Delegate it.")
    scan, put, delete = returns(sub_script.seen[-1][0])
    assert scan["candidates"] and put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]
    assert not any(CHECKPOINT_TEXT in text for messages, _ in sub_script.seen for text in part_texts(messages))
    assert MEMORY_INSTRUCTIONS in (sub_script.seen[0][1].instructions or "")


async def test_a_fixed_child_role_is_refused_even_at_the_top(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(memory(operation="scan", query="x"), memory(operation="put", content=REMEMBERED), answer("ok"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, role=Role.CHILD, store=seeded)])
    result = await agent.run("Remember it.")
    assert returns(result.all_messages())[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_steer_in_the_first_turn_gets_the_checkpoint(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(memory(operation="scan", query="zephyr"), answer("ok"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    async with agent.iter("Start on zephyr.") as run:
        run.enqueue("Actually, use tabs.")
        async for _ in run:
            pass
    assert run.result is not None
    shown = script.seen[0][0]
    assert [t for t in last_texts(shown) if "tabs" in t or "zephyr" in t] == ["Start on zephyr.", "Actually, use tabs."]
    assert CHECKPOINT_TEXT in last_texts(shown)[-1]
    steer = [m for m in run.result.all_messages() if isinstance(m, ModelRequest) and "tabs" in repr(m)][0]
    assert is_checkpoint(steer.parts[-1])


async def test_disabled_adds_no_tool_no_instructions_no_checkpoint(disabled_config_path: Path) -> None:
    script = Script(answer("one"), answer("two"))
    capability = MemoryCapability.from_config(disabled_config_path)
    agent = Agent(script.model, capabilities=[capability])
    first = await agent.run("Hello.")
    await agent.run("Again.", message_history=first.all_messages())
    assert not capability.enabled
    for messages, info in script.seen:
        assert [t.name for t in info.function_tools] == []
        assert MEMORY_INSTRUCTIONS not in (info.instructions or "")
        assert not any(CHECKPOINT_TEXT in text for text in part_texts(messages))
    assert not (disabled_config_path.parent / "memory").exists()


async def test_an_agent_spec_names_the_capability(config_path: Path, seeded: MemoryStore) -> None:
    spec = {"model": "test", "capabilities": [{"TactMemory": {"config": str(config_path), "role": "child"}}]}
    agent = Agent.from_spec(spec, custom_capability_types=[MemoryCapability])
    (capability,) = [c for c in agent.root_capability.capabilities if isinstance(c, MemoryCapability)]
    assert capability.enabled and capability.role is Role.CHILD
    result = await agent.run("Remember it.")  # the test model calls every tool: a scan, as a child
    assert "memory" in repr(result.all_messages())
    with pytest.raises(ValueError, match="boss"):
        Agent.from_spec({"model": "test", "capabilities": [{"TactMemory": {"role": "boss"}}]}, custom_capability_types=[MemoryCapability])


def test_example_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "pydantic_ai_agent.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "turn 2 ends with the checkpoint: True" in out
    assert "stored #1: In the `commonware` repository" in out


async def test_the_agents_retries_apply_to_arguments_that_are_not_json(config_path: Path, seeded: MemoryStore) -> None:
    """pydantic-ai parses a call's JSON before any toolset sees it, so a truncated call is one of
    its retries: the budget is the agent's (``Agent(retries=...)``), as for its own tools."""
    broken = ModelResponse(parts=[ToolCallPart("memory", '{"operation": "scan", "query": "ta')])
    script = Script(broken, broken, memory(operation="scan", query="tags"), answer("done"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)], retries=3)
    result = await agent.run("Look it up.")
    assert result.output == "done" and "candidates" in returns(result.all_messages())[-1]


def keep_last_message(messages: list[ModelMessage]) -> list[ModelMessage]:
    return messages[-1:]


def checkpoints_shown(messages: list[ModelMessage]) -> int:
    return sum(CHECKPOINT_TEXT in text for text in part_texts(messages))


@pytest.mark.parametrize("processor_first", [True, False])
async def test_a_history_processor_that_cuts_the_first_turn_does_not_hide_that_it_happened(
    config_path: Path, seeded: MemoryStore, processor_first: bool
) -> None:
    """pydantic-ai's ``ProcessHistory`` (``capabilities/process_history.py``) sets ``ctx.messages[:]`` to what
    the processor returned, before the hooks of the capabilities listed after it: the earlier turns are
    gone from the list both for the request and for the history the run keeps. The turn is decided from
    the history the run started with, so the second and third turns still get the checkpoint."""
    from pydantic_ai.capabilities import ProcessHistory

    script = Script(answer("one"), answer("two"), answer("three"))
    memory_capability = MemoryCapability.from_config(config_path, store=seeded)
    processor = ProcessHistory(keep_last_message)
    capabilities = [processor, memory_capability] if processor_first else [memory_capability, processor]
    agent = Agent(script.model, capabilities=capabilities)
    first = await agent.run("First question.")
    second = await agent.run("Second question.", message_history=first.all_messages())
    await agent.run("Third question.", message_history=second.all_messages())
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 1, 1]


@pytest.mark.parametrize(
    "history",
    [
        [ModelRequest(parts=[SystemPromptPart("Summary of the conversation so far: zephyr.")]), answer("ok")],
        [answer("The last answer, kept alone.")],
    ],
    ids=["summary", "last-response"],
)
async def test_a_history_without_its_first_prompt_is_past_the_first_turn(
    config_path: Path, seeded: MemoryStore, history: list[ModelMessage]
) -> None:
    """``Agent.run(message_history=...)`` takes any list of messages (pydantic-ai docs, "Messages and chat
    history"); one whose prompts were summarised or trimmed away still holds a response, so the turn
    it starts is not the first."""
    script = Script(answer("ok"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    result = await agent.run("Go on.", message_history=history)
    assert CHECKPOINT_TEXT in last_texts(script.seen[0][0])[-1]
    assert checkpoints_shown(script.seen[0][0]) == 1
    request = result.new_messages()[0]
    assert isinstance(request, ModelRequest) and is_checkpoint(request.parts[-1])


async def test_a_run_resumed_from_a_request_in_the_history_marks_it_by_its_turn(
    config_path: Path, seeded: MemoryStore
) -> None:
    """With no prompt, pydantic-ai sends the history's last ``ModelRequest`` again as the run's request
    (``_agent_graph.py``, ``is_resuming_without_prompt``); that request keeps the run id it had. It is
    the turn's user message: marked when earlier turns precede it, never when it is the first."""
    script = Script(answer("one"), answer("two"), answer("three"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    first = await agent.run("First question.")
    later = ModelRequest(parts=[UserPromptPart("Second question.")])
    second = await agent.run(None, message_history=[*first.all_messages(), later])
    await agent.run(None, message_history=[ModelRequest(parts=[UserPromptPart("Only question.")])])
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 1, 0]
    (resent,) = [m for m in second.all_messages() if isinstance(m, ModelRequest) and "Second question." in repr(m)]
    assert is_checkpoint(resent.parts[-1]) and sum(map(is_checkpoint, resent.parts)) == 1


async def test_streamed_runs_get_the_checkpoint_as_runs_do(config_path: Path, seeded: MemoryStore) -> None:
    """``run_stream`` and ``iter`` go through the same ``before_model_request`` hooks as ``run``."""
    script = Script(answer("one"), answer("two"), answer("three"))

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        response = script(messages, info)
        yield str(response.parts[0].content)  # type: ignore[union-attr]

    model = FunctionModel(script, stream_function=stream)
    agent = Agent(model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    async with agent.run_stream("First question.") as streamed:
        await streamed.get_output()
    first = streamed.all_messages()
    async with agent.run_stream("Second question.", message_history=first) as streamed:
        await streamed.get_output()
    async with agent.iter("Third question.", message_history=[answer("A kept answer.")]) as run:
        async for _ in run:
            pass
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 1, 1]


async def test_what_a_tool_returns_as_content_is_no_steer(config_path: Path, seeded: MemoryStore) -> None:
    """A tool's ``ToolReturn(content=...)`` goes to the model as a ``UserPromptPart`` beside the tool's
    return (``_tool_execution.py``: ``UserPromptPart(content=tool_user_content)``): it is the tool's output,
    so it gets no checkpoint, in the first turn or later. What a tool enqueues (``RunContext.enqueue``) is a
    steer and still gets it."""
    script = Script(
        ModelResponse(parts=[ToolCallPart("look", {})]), answer("one"), ModelResponse(parts=[ToolCallPart("look", {})]), answer("two")
    )
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    steering = [False, True]

    @agent.tool
    def look(ctx: RunContext[None]) -> ToolReturn:
        if steering.pop(0):
            ctx.enqueue("Also check the tabs.")
        return ToolReturn(return_value="looked", content=["What the picture shows."])

    first = await agent.run("Look at it.")
    await agent.run("Look again.", message_history=first.all_messages())
    # The first turn: the tool's picture alone comes back, and nothing is marked.
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 0, 1, 2]
    # The second turn: its message, then the request holding the steer the tool enqueued.
    assert "Also check the tabs." in last_texts(script.seen[3][0]) and CHECKPOINT_TEXT in last_texts(script.seen[3][0])[-1]


async def test_a_history_processor_that_copies_the_messages_changes_nothing(config_path: Path, seeded: MemoryStore) -> None:
    """A history processor may return copies (here a round trip through ``ModelMessagesTypeAdapter``, as a
    processor that stores and reloads the history does); the first turn's message is still the user's, not
    a steer, on every request of the run."""
    from pydantic_ai.capabilities import ProcessHistory

    def reload(messages: list[ModelMessage]) -> list[ModelMessage]:
        return list(ModelMessagesTypeAdapter.validate_python(ModelMessagesTypeAdapter.dump_python(messages)))

    script = Script(memory(operation="scan", query="zephyr"), answer("one"), answer("two"))
    memory_capability = MemoryCapability.from_config(config_path, store=seeded)
    agent = Agent(script.model, capabilities=[ProcessHistory(reload), memory_capability])
    first = await agent.run("First question.")
    await agent.run("Second question.", message_history=first.all_messages())
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 0, 1]


# -- a history that comes back without the checkpoint ---------------------------------------------


def dropped(messages: list[ModelMessage]) -> list[ModelMessage]:
    """What an app keeps when it drops the checkpoint before storing or showing the conversation."""
    return without_checkpoints(messages)


def through_a_ui(manage_system_prompt: str) -> Callable[[list[ModelMessage]], list[ModelMessage]]:
    """What a Vercel AI client sends back of a conversation the server dumped for it, as the UI adapter
    loads it (``UIAdapter.sanitize_messages``: a server that owns the system prompt strips every system
    part the client sends; one that lets the client own it keeps them, without their metadata)."""
    from pydantic_ai.messages import sanitize_messages
    from pydantic_ai.ui.vercel_ai import VercelAIAdapter

    def round_trip(messages: list[ModelMessage]) -> list[ModelMessage]:
        loaded = VercelAIAdapter.load_messages(VercelAIAdapter.dump_messages(messages))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # what the sanitizer stripped, said as a warning
            return sanitize_messages(loaded, strip_system_prompts=manage_system_prompt == "server")

    return round_trip


def prompt_requests(messages: list[ModelMessage]) -> list[ModelRequest]:
    return [m for m in messages if isinstance(m, ModelRequest) and any(isinstance(p, UserPromptPart) for p in m.parts)]


@pytest.mark.parametrize(
    ("lose", "kept"),
    [(dropped, 0), (through_a_ui("server"), 0), (through_a_ui("client"), 1)],
    ids=["dropped", "ui-server", "ui-client"],
)
async def test_a_history_that_lost_its_checkpoints_shows_the_model_what_it_saw_before(
    config_path: Path, seeded: MemoryStore, lose: Callable[[list[ModelMessage]], list[ModelMessage]], kept: int
) -> None:
    """A client that holds the conversation sends it back without the checkpoint (a UI adapter strips the
    system parts it is sent, and a streamed turn never sends it them), and an app may drop it before it
    stores or shows a conversation. The next run puts it back where the rule gives it, on copies: the
    model is shown the earlier turns as it was shown them then (the same text, so a provider's prompt
    cache still holds), what a tool returned as content stays unmarked, and the app's messages stay
    as they were given. A part that kept the checkpoint's text but lost its metadata is the checkpoint."""
    script = Script(answer("one"), ModelResponse(parts=[ToolCallPart("look", {})]), answer("two"), answer("three"))
    agent = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])

    @agent.tool_plain
    def look() -> ToolReturn:
        return ToolReturn(return_value="looked", content="What the picture shows.")

    first = await agent.run("First question.")
    second = await agent.run("Second question.", message_history=first.all_messages())
    given = lose(second.all_messages())
    assert sum(is_checkpoint(p) for m in given for p in m.parts) == kept
    before = ModelMessagesTypeAdapter.dump_json(given)
    third = await agent.run("Third question.", message_history=given)

    earlier = [part_texts([message]) for message in script.seen[2][0]]
    shown = [part_texts([message]) for message in script.seen[3][0]][: len(earlier)]
    if kept:  # pydantic-ai 2.58's own round trip loads a request's system part back ahead of its prompt
        earlier, shown = [sorted(texts) for texts in earlier], [sorted(texts) for texts in shown]
    assert shown == earlier
    assert [checkpoints_shown(messages) for messages, _ in script.seen] == [0, 1, 1, 2]
    assert ModelMessagesTypeAdapter.dump_json(given) == before
    marked = [sum(map(is_checkpoint, m.parts)) for m in prompt_requests(third.all_messages())]
    assert marked == [0, 1, 0, 1]  # the first question, the second, the tool's picture, the third


async def test_a_vercel_ai_chat_shows_the_model_each_turn_as_it_was_shown_before(config_path: Path, seeded: MemoryStore) -> None:
    """A chat served by pydantic-ai's ``VercelAIAdapter``: the client keeps the conversation and sends it
    whole each turn, and what was streamed to it holds no checkpoint. Each turn the model is shown the
    earlier ones as it was shown them, checkpoint included, and nothing of it reaches the client."""
    from pydantic_ai.ui.vercel_ai import VercelAIAdapter
    from pydantic_ai.ui.vercel_ai.request_types import SubmitMessage, TextUIPart, UIMessage

    script = Script(answer("one"), answer("two"), answer("three"))

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        yield str(script(messages, info).parts[0].content)  # type: ignore[union-attr]

    agent = Agent(FunctionModel(script, stream_function=stream), capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    chat = [UIMessage(id="u0", role="user", parts=[TextUIPart(text="First question.")])]
    for turn, text in enumerate(["Second question.", "Third question.", None]):
        adapter = VercelAIAdapter(agent=agent, run_input=SubmitMessage(id="chat", messages=chat))
        chunks = [chunk.model_dump_json() async for chunk in adapter.run_stream()]
        assert not any(CHECKPOINT_TEXT[:40] in chunk for chunk in chunks)
        if text is not None:
            chat += [
                UIMessage(id=f"a{turn}", role="assistant", parts=[TextUIPart(text=["one", "two"][turn])]),
                UIMessage(id=f"u{turn + 1}", role="user", parts=[TextUIPart(text=text)]),
            ]
    views = [[part_texts([message]) for message in shown] for shown, _ in script.seen]
    assert views[2][: len(views[1])] == views[1] and views[1][: len(views[0])] == views[0]
    assert [checkpoints_shown(shown) for shown, _ in script.seen] == [0, 1, 2]


async def test_a_history_that_opens_with_a_system_prompt_or_starts_later_is_marked_by_the_same_rule(
    config_path: Path, seeded: MemoryStore
) -> None:
    """The opening message may share its request with the agent's system prompt and is still the first
    turn's; a history that starts with an answer was trimmed, and every user message in it is past the
    first turn."""
    script = Script(answer("one"), answer("two"), answer("three"))
    capability = MemoryCapability.from_config(config_path, store=seeded)
    agent = Agent(script.model, system_prompt="You help with zephyr.", capabilities=[capability])
    first = await agent.run("First question.")
    await agent.run("Second question.", message_history=without_checkpoints(first.all_messages()))
    trimmed: list[ModelMessage] = [answer("A kept answer."), ModelRequest(parts=[UserPromptPart("A kept question.")]), answer("Its answer.")]
    await agent.run("Last question.", message_history=trimmed)
    assert [checkpoints_shown(messages) for messages, _ in script.seen] == [0, 1, 2]


async def test_a_child_run_puts_no_checkpoint_back(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(answer("one"), answer("two"), answer("three"))
    root = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    child = Agent(script.model, capabilities=[MemoryCapability.from_config(config_path, role=Role.CHILD, store=seeded)])
    first = await root.run("First question.")
    second = await root.run("Second question.", message_history=first.all_messages())
    await child.run("Third question.", message_history=without_checkpoints(second.all_messages()))
    assert [checkpoints_shown(messages) for messages, _ in script.seen] == [0, 1, 0]


def test_without_checkpoints_copies_only_what_held_one() -> None:
    opening = ModelRequest(parts=[UserPromptPart("First question.")])
    later = ModelRequest(parts=[UserPromptPart("Second question."), checkpoint_part()])
    reloaded = ModelRequest(parts=[UserPromptPart("Third question."), SystemPromptPart(CHECKPOINT_TEXT)])
    other = ModelRequest(parts=[UserPromptPart("Fourth."), SystemPromptPart("Answer in French.")])
    messages: list[ModelMessage] = [opening, answer("one"), later, reloaded, other]
    out = without_checkpoints(messages)
    assert out[0] is opening and out[1] is messages[1] and out[4] is other
    assert [part_texts([m]) for m in out[2:4]] == [["Second question."], ["Third question."]]
    assert is_checkpoint(later.parts[-1]) and is_checkpoint(reloaded.parts[-1]) and not is_checkpoint(other.parts[-1])


# -- runs that stop for a person's approval ---------------------------------------------------------

Decision = bool | ToolDenied


def approving(capability: MemoryCapability, script: Script) -> Agent[None, str | DeferredToolRequests]:
    """An agent whose runs may end with ``DeferredToolRequests``, as pydantic-ai's approvals need."""
    return Agent(script.model, capabilities=[capability], output_type=[str, DeferredToolRequests])


def pending(result: AgentRunResult[Any]) -> list[ToolCallPart]:
    """The calls a run stopped to have approved."""
    assert isinstance(result.output, DeferredToolRequests), result.output
    return result.output.approvals


async def resume(
    agent: Agent[None, str | DeferredToolRequests], result: AgentRunResult[Any], decision: Decision = True, *, saved: bool = False
) -> AgentRunResult[Any]:
    """Decide every pending call and start the run that continues ``result``'s; ``saved`` sends the
    history through JSON first, as an app that keeps it between requests does."""
    history = result.all_messages()
    if saved:
        history = ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(history))
    approvals: dict[str, Decision] = {call.tool_call_id: decision for call in pending(result)}
    return await agent.run(message_history=history, deferred_tool_results=DeferredToolResults(approvals=approvals))


async def test_an_approved_put_is_the_roots_after_the_scan_before_the_stop(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    first = await agent.run("Remember that zephyr uses tabs.")
    # The scan ran; the put waits for a person, and nothing is stored yet.
    assert [call.args for call in pending(first)] == [{"operation": "put", "content": REMEMBERED}]
    assert "candidates" in returns(first.all_messages())[0]
    assert [r.content for r in seeded.list_records()] == [SEEDED]

    done = await resume(agent, first)
    assert done.output == "Noted."
    assert returns(done.new_messages())[-1]["memory"]["content"] == REMEMBERED
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


async def test_a_denied_put_stores_nothing(config_path: Path, seeded: MemoryStore) -> None:
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Left it."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    done = await resume(agent, await agent.run("Remember that zephyr uses tabs."), ToolDenied("Not this one."))
    assert done.output == "Left it." and returns(done.new_messages()) == ["Not this one."]
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_history_saved_as_json_resumes_in_another_process(config_path: Path, seeded: MemoryStore) -> None:
    """Another process has another capability and agent; the saved history alone shows the scan."""
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    first = await approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script).run("Remember it.")
    elsewhere = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    done = await resume(elsewhere, first, saved=True)
    assert done.output == "Noted."
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


OTHER = "In the `zephyr` repository, the user wants a blank line at the end of every file."


@pytest.mark.parametrize(
    "before",
    [
        [],
        [memory(operation="scan")],  # refused: a scan needs a query
        [memory(operation="scan", query="zephyr"), memory(operation="put", content=OTHER)],
    ],
    ids=["no-scan", "refused-scan", "put-after-the-scan"],
)
async def test_an_approved_put_without_a_scan_since_the_last_put_is_refused(
    config_path: Path, seeded: MemoryStore, before: list[ModelResponse]
) -> None:
    script = Script(*before, memory(operation="put", content=REMEMBERED), answer("Told."), answer("Done."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    result = await agent.run("Remember that zephyr uses tabs.")
    while isinstance(result.output, DeferredToolRequests):
        result = await resume(agent, result, saved=True)
    assert returns(result.all_messages())[-1]["error"]["code"] == "scan_required"
    assert REMEMBERED not in [r.content for r in seeded.list_records()]


LOOKED = "What the picture of the tabs shows."
"""What a tool returns as ``ToolReturn(content=...)`` beside a memory put that waits for approval."""


def looking(agent: Agent[None, str | DeferredToolRequests], steer: str | None = None) -> None:
    """Give ``agent`` a ``look`` tool that returns :data:`LOOKED` as content, and enqueues ``steer``."""

    @agent.tool
    def look(ctx: RunContext[None]) -> ToolReturn:
        if steer is not None:
            ctx.enqueue(steer)
        return ToolReturn(return_value="looked", content=LOOKED)


def look_and_put() -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart("look", {}), ToolCallPart("memory", {"operation": "put", "content": REMEMBERED})])


@pytest.mark.parametrize("saved", [False, True], ids=["same-objects", "saved-as-json"])
async def test_a_resumed_run_gives_what_a_tool_returned_no_checkpoint(config_path: Path, seeded: MemoryStore, saved: bool) -> None:
    """A run resumed with approvals and no prompt continues the turn that stopped: the request that
    answers the stopped response holds what a tool returned as ``ToolReturn(content=...)``, which is
    the tool's output, not the turn's user message (that one was marked when it was sent)."""
    script = Script(answer("Hello."), memory(operation="scan", query="zephyr"), look_and_put(), answer("Noted."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    looking(agent)
    first = await agent.run("Hi.")
    second = await agent.run("Remember that zephyr uses tabs.", message_history=first.all_messages())
    done = await resume(agent, second, saved=saved)
    assert done.output == "Noted."
    shown = script.seen[-1][0]
    assert LOOKED in last_texts(shown)
    # One checkpoint in all: the second turn's message has it, the tool's content none.
    assert checkpoints_shown(shown) == 1 and CHECKPOINT_TEXT not in last_texts(shown)[-1]
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]


@pytest.mark.parametrize("saved", [False, True], ids=["same-objects", "saved-as-json"])
async def test_a_steer_recorded_when_a_run_stopped_gets_its_checkpoint_on_resume(
    config_path: Path, seeded: MemoryStore, saved: bool
) -> None:
    """What was enqueued while the run stopped for approval is written into the history as a request of
    its own; it is a steer, which carries the checkpoint in any turn, the first included, and the
    tool's content beside it is still no submission."""
    script = Script(memory(operation="scan", query="zephyr"), look_and_put(), answer("Noted."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    looking(agent, steer="Also mention the spaces.")
    first = await agent.run("Remember that zephyr uses tabs.")
    if not isinstance(first.output, DeferredToolRequests):  # older releases send the steer on instead
        pytest.skip("this pydantic-ai release does not stop for approval while a steer waits")
    done = await resume(agent, first, saved=saved)
    assert done.output == "Noted."
    texts = last_texts(script.seen[-1][0])
    assert checkpoints_shown(script.seen[-1][0]) == 1
    assert texts.index(LOOKED) < texts.index("Also mention the spaces.") < len(texts) - 1
    assert CHECKPOINT_TEXT in texts[-1]


async def test_a_new_turn_still_scans_before_its_put(config_path: Path, seeded: MemoryStore) -> None:
    """Only a run that continues the history's pending calls starts with the scans it shows."""
    script = Script(memory(operation="scan", query="zephyr"), answer("Nothing yet."), memory(operation="put", content=REMEMBERED), answer("Hm."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded), script)
    first = await agent.run("What do you know of zephyr?")
    second = await agent.run("Remember that it uses tabs.", message_history=first.all_messages())
    assert returns(second.new_messages())[-1]["error"]["code"] == "scan_required"


async def test_an_approved_put_in_a_child_run_is_forbidden(config_path: Path, seeded: MemoryStore) -> None:
    """The resumed run's role is its own, decided when it starts: a child's approved write is refused."""
    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Refused."))
    first = await approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script).run("Remember it.")
    child = approving(MemoryCapability.from_config(config_path, role=Role.CHILD, store=seeded, approve_writes=True), script)
    done = await resume(child, first)
    assert returns(done.new_messages())[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_childs_write_is_refused_at_once_without_asking(config_path: Path, seeded: MemoryStore) -> None:
    """A sub-agent run from a tool is a child: its put is ``forbidden`` whatever a person says, so
    no one is asked, and its run (whose outputs hold no ``DeferredToolRequests``) does not stop."""
    capability = MemoryCapability.from_config(config_path, store=seeded, approve_writes=True)
    sub_script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Could not."))
    sub_agent = Agent(sub_script.model, capabilities=[capability])
    root_script = Script(ModelResponse(parts=[ToolCallPart("delegate", {"task": "Remember zephyr's tabs."})]), answer("Done."))
    root = approving(capability, root_script)

    @root.tool
    async def delegate(ctx: RunContext[None], task: str) -> str:
        return (await sub_agent.run(task, usage=ctx.usage)).output

    assert (await root.run("Delegate it.")).output == "Done."
    assert returns(sub_script.seen[-1][0])[-1]["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_only_puts_and_deletes_ask_for_approval(config_path: Path, seeded: MemoryStore) -> None:
    calls = [
        ToolCallPart("memory", {"operation": "scan", "query": "zephyr"}, tool_call_id="scan"),
        ToolCallPart("memory", {"operation": "read", "ids": [1]}, tool_call_id="read"),
        ToolCallPart("memory", {"operation": "put", "content": REMEMBERED}, tool_call_id="put"),
        ToolCallPart("memory", {"operation": "delete", "id": 1, "version": 1}, tool_call_id="delete"),
        ToolCallPart("memory", {"operation": "put"}, tool_call_id="malformed"),
    ]
    script = Script(ModelResponse(parts=calls), answer("Kept it."))
    agent = approving(MemoryCapability.from_config(config_path, store=seeded, approve_writes=True), script)
    first = await agent.run("Tidy up zephyr.")
    # The put is asked about although the scan beside it has not run yet (it may run first); a
    # malformed write is refused at once, whatever a person would say.
    assert [call.tool_call_id for call in pending(first)] == ["put", "delete"]
    scanned, read, malformed = returns(first.all_messages())
    assert scanned["candidates"] and read["memories"][0]["content"] == SEEDED
    assert malformed["error"]["code"] == "invalid_arguments"

    done = await resume(agent, first, False)
    assert done.output == "Kept it." and [r.content for r in seeded.list_records()] == [SEEDED]


async def test_an_agent_spec_can_ask_for_approvals(config_path: Path) -> None:
    spec = {"model": "test", "capabilities": [{"TactMemory": {"config": str(config_path), "approve_writes": True}}]}
    agent = Agent.from_spec(spec, custom_capability_types=[MemoryCapability])
    (capability,) = [c for c in agent.root_capability.capabilities if isinstance(c, MemoryCapability)]
    assert capability.approve_writes and capability.role is None


async def test_a_handler_in_the_run_approves_without_stopping_it(config_path: Path, seeded: MemoryStore) -> None:
    """With a ``HandleDeferredToolCalls`` capability the same run goes on: its role and its scans."""
    from pydantic_ai.capabilities import HandleDeferredToolCalls

    asked: list[Any] = []

    async def person(ctx: RunContext[None], requests: DeferredToolRequests) -> DeferredToolResults:
        asked.extend(call.args for call in requests.approvals)
        return requests.build_results(approve_all=True)

    script = Script(memory(operation="scan", query="zephyr"), memory(operation="put", content=REMEMBERED), answer("Noted."))
    capability = MemoryCapability.from_config(config_path, store=seeded, approve_writes=True)
    agent = Agent(script.model, capabilities=[capability, HandleDeferredToolCalls(handler=person)])
    assert (await agent.run("Remember that zephyr uses tabs.")).output == "Noted."
    assert asked == [{"operation": "put", "content": REMEMBERED}]
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED, REMEMBERED]

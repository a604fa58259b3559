"""Memory for pydantic-ai agents, as one capability (``tact-memory[pydantic-ai]``).

``Agent(model, capabilities=[MemoryCapability.from_config()])`` gives the agent the ``memory`` tool,
the instruction paragraph and the review checkpoint. A capability is pydantic-ai's extension point
for behaviour that contributes tools, instructions and request hooks together; this one is a thin
layer over the library:

- Tool: a one-tool toolset whose calls go to a :class:`~tact_memory.tool.guard.Dispatcher` made for
  the run, so the role check and the JSON result are the library's. The run's role is fixed when
  the run starts (``for_run``) and never read from tool arguments.
- Instructions: :data:`~tact_memory.runtime.prompt.MEMORY_INSTRUCTIONS`, for root and child agents.
- Checkpoint (rule I5, as :func:`~tact_memory.runtime.checkpoint_rule.checkpoint_due` decides):
  before each model request of a root run, every user message of the run that is past the first
  turn, and every steer (user content delivered during the run through
  ``AgentRun.enqueue`` or ``RunContext.enqueue``, also in the first turn), gets
  :data:`~tact_memory.screening.checkpoint.CHECKPOINT_TEXT` appended as its own last part. What a
  tool returns as ``ToolReturn(content=...)`` reaches the model as a user prompt part too, but it is
  the tool's output, not a submission, and gets none. The part is a
  ``SystemPromptPart`` (pydantic-ai's channel for text the application, not the user, wrote) with
  ``metadata={"tact_memory": "checkpoint"}``, added to the request in the run's message history.
  So it stays in ``result.all_messages()`` and a restored conversation shows the model the same
  text, while the ``UserPromptPart`` the app displays is untouched; :func:`is_checkpoint` finds the
  part for apps that render system parts, and :func:`without_checkpoints` leaves it out of what a
  person is shown (a UI adapter's ``dump_messages``). A history that comes back without it (a UI
  adapter strips the system parts its client sends, a streamed turn never sent them, an app
  dropped them) gets it back at the run's first request, on copies of the requests the rule gives
  it to: each one holding a user prompt, but the one that opened the conversation and those that
  answer tool calls; so the model is shown the earlier turns as it was shown them. "Past the first
  turn" means the history the run started with holds a response or a user prompt (a conversation
  restored from saved messages, summarised or trimmed, is past it); it is decided when the run
  starts, since a history processor may cut earlier turns out of ``ctx.messages``. Without a
  prompt, the history's last request, which pydantic-ai sends again, is the turn's user message,
  unless the run continues the calls of the history's last response (resumed with
  ``deferred_tool_results``): that turn's user message was marked by the run that sent it, what a
  tool returned as content in the request answering the calls gets nothing, and what pydantic-ai
  recorded from the queue when the run stopped is a steer.
- Role (rule I17, :mod:`tact_memory.runtime.roles`): fixed when the run starts (``for_run``), never read
  from tool arguments. A run is marked for its whole length (``wrap_run``), and a run that starts
  inside that mark (from a tool, an output function, an instructions function, or anything they
  start in the same context) is a child, even with ``role=Role.ROOT``. A run that starts where the
  context cannot show it (a thread, ``run_in_executor``, a fresh ``contextvars.Context``) is a
  child when its role was not stated and any memory-enabled agent of the process is at work, or
  when it starts on a thread other than the main one; it is the root only on the main thread with
  nothing else at work. State ``role=Role.ROOT`` for top-level agents that run beside others or on
  threads of their own, and ``role=Role.CHILD`` for sub-agents whose parent does not use memory or runs
  elsewhere (durable execution, another process).
- Approvals: with ``approve_writes=True``, a root run's puts and deletes need a person's approval
  through pydantic-ai's deferred tools (the toolset is wrapped with its ``approval_required``);
  scans and reads run at once, and a child's writes are refused at once as ``forbidden``, with no
  one asked. The run ends with ``DeferredToolRequests`` as its output (it must be among the
  agent's or the run's output types) unless a ``HandleDeferredToolCalls`` capability resolves the
  call within the run; the app resumes it with a new run given the messages and
  ``deferred_tool_results``. That run's role is decided at its own start, as always, so an approved
  write is still ``forbidden`` when it is a child. A denied write stores nothing.

Each run gets its own dispatcher, so scan-before-put holds within a run. A run that continues the
tool calls of the last response in its history (resumed with ``deferred_tool_results``) starts with
what that history shows: when the ``memory`` tool's results there (``ToolReturnPart`` contents, also
after a JSON save and load) hold a scan answered without an error since the last put, the approved
put needs no new scan (:func:`_scanned_in`). With memory disabled the capability adds nothing: no
tool, no instructions, no checkpoint.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import AgentRunResult, RunContext, ToolReturn
from pydantic_ai.capabilities import AbstractCapability, WrapRunHandler
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
from pydantic_core import SchemaValidator, core_schema

from .. import errors
from ..backend import MemoryBackend
from ..config import Config
from ..runtime.checkpoint_rule import CHECKPOINT_TEXT, SubmissionKind, checkpoint_due
from ..runtime.prompt import MEMORY_INSTRUCTIONS
from ..runtime.roles import decide_role, running
from ..runtime.stores import ConfiguredMemory, store_for
from ..tool.guard import Dispatcher, Role
from ..tool.memory_tool import scanned_since_put
from ..tool.results import ToolResult, error_result
from ..tool.schemas import TOOL_NAME, tool_definition

__all__ = [
    "CHECKPOINT_METADATA",
    "SERIALIZATION_NAME",
    "MemoryCapability",
    "MemoryToolset",
    "checkpoint_part",
    "is_checkpoint",
    "without_checkpoints",
]

SERIALIZATION_NAME = "TactMemory"
"""The capability's name in a pydantic-ai agent spec (YAML or JSON)."""

CHECKPOINT_METADATA = {"tact_memory": "checkpoint"}
"""The metadata that marks the checkpoint part; pydantic-ai never sends metadata to a model."""

_ANY_ARGUMENTS = SchemaValidator(core_schema.any_schema())
"""The dispatcher validates calls itself, so that a refused call is a result, not a retry."""


def checkpoint_part() -> SystemPromptPart:
    """A new checkpoint part, marked with :data:`CHECKPOINT_METADATA`."""
    return SystemPromptPart(CHECKPOINT_TEXT, metadata=dict(CHECKPOINT_METADATA))


def is_checkpoint(part: object) -> bool:
    """Whether a message part is the review checkpoint (leave it out of what you display).

    The part is known by its metadata, or by its text alone: a system part that a UI round trip
    brought back (``manage_system_prompt='client'``) has lost its metadata, and the checkpoint's text
    is fixed.
    """
    if not isinstance(part, SystemPromptPart):
        return False
    return (part.metadata or {}).get("tact_memory") == "checkpoint" or part.content == CHECKPOINT_TEXT


def _holds_checkpoint(message: ModelRequest) -> bool:
    return any(is_checkpoint(p) for p in message.parts)


def without_checkpoints(messages: Sequence[ModelMessage]) -> list[ModelMessage]:
    """``messages`` without the checkpoint, for what a person sees (a UI adapter's ``dump_messages``).

    A request that held the checkpoint is replaced by a copy without it; every other message is
    returned as it was, and ``messages`` is left unchanged. A run given the result as its history
    puts the checkpoint back where the rule gives it, so a client that holds the conversation
    never shows it and the model is still shown it.
    """
    out: list[ModelMessage] = []
    for message in messages:
        if isinstance(message, ModelRequest) and _holds_checkpoint(message):
            message = dataclasses.replace(message, parts=[p for p in message.parts if not is_checkpoint(p)])
        out.append(message)
    return out


def _continues_calls(history: Sequence[ModelMessage]) -> bool:
    """Whether a run given ``history`` continues the tool calls of its last response (pydantic-ai runs
    a history's pending calls only with ``deferred_tool_results``) rather than a turn after an answer."""
    last = next((m for m in reversed(history) if isinstance(m, ModelResponse)), None)
    return last is not None and any(isinstance(part, ToolCallPart) for part in last.parts)


def _scanned_in(history: Sequence[ModelMessage]) -> bool:
    """Whether the ``memory`` tool's results in ``history`` (its ``ToolReturnPart`` contents) show a
    scan since its last put (:func:`~tact_memory.tool.memory_tool.scanned_since_put`)."""
    return scanned_since_put(
        part.content
        for message in history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.tool_name == TOOL_NAME
    )


class MemoryToolset(AbstractToolset[Any]):
    """The ``memory`` tool for one run, calling that run's dispatcher.

    Args:
        dispatcher: The run's dispatcher, or ``None`` for a capability not yet bound to a run (every
            call is then refused with ``unavailable``, never run with a guessed role).
    """

    def __init__(self, dispatcher: Dispatcher | None) -> None:
        self.dispatcher = dispatcher
        self._tool_def: ToolDefinition | None = None

    @property
    def id(self) -> str | None:
        return "tact-memory"

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if self._tool_def is None:
            from ..limits import DEFAULT_LIMITS

            limits = self.dispatcher.tool.limits if self.dispatcher is not None else DEFAULT_LIMITS
            definition = tool_definition(limits)
            self._tool_def = ToolDefinition(
                name=TOOL_NAME,
                description=definition["description"],
                parameters_json_schema=definition["input_schema"],
            )
        tool = ToolsetTool(toolset=self, tool_def=self._tool_def, max_retries=ctx.max_retries, args_validator=_ANY_ARGUMENTS)
        return {TOOL_NAME: tool}

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> ToolResult:
        if self.dispatcher is None:
            refusal = errors.StoreUnavailable("the memory tool is not bound to an agent run", path="", reason="unbound")
            return error_result(None, refusal)
        return await self.dispatcher.acall(tool_args)


@dataclass
class MemoryCapability(AbstractCapability[Any], ConfiguredMemory):
    """The memory tool, instructions and review checkpoint for a pydantic-ai agent.

    Args:
        store: The corpus, or ``None`` when memory is disabled (the capability then adds nothing).
        role: The agent's role; ``None`` derives it for each run (a child when started inside
            another memory-enabled run or while one is running, else the root). A stated role is
            lowered to child inside another memory-enabled run, never raised.
        approve_writes: Whether a root run's puts and deletes need a person's approval: the run
            ends with ``DeferredToolRequests`` (put it among the output types) unless a
            ``HandleDeferredToolCalls`` capability resolves the call; scans and reads run at once,
            and a child's writes are refused at once.
    """

    store: MemoryBackend | None = None
    """The corpus, or ``None`` when memory is disabled."""
    role: Role | None = None
    """The stated role, or ``None`` to derive it for each run; detection may only lower it."""
    approve_writes: bool = False
    """Whether a root run's puts and deletes wait for a person's approval (pydantic-ai's deferred tools)."""
    _dispatcher: Dispatcher | None = field(default=None, init=False, repr=False, compare=False)
    _turn: _Turn | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def bound_role(self) -> Role | None:
        """The role of the run this copy is bound to, or ``None`` before a run binds it."""
        return None if self._dispatcher is None else self._dispatcher.role

    @classmethod
    def get_serialization_name(cls) -> str | None:
        """``TactMemory``: the name an agent spec uses (``Agent.from_spec(..., custom_capability_types=[MemoryCapability])``)."""
        return SERIALIZATION_NAME

    @classmethod
    def from_config(
        cls,
        config: Config | str | os.PathLike[str] | None = None,
        *,
        role: Role | None = None,
        store: MemoryBackend | None = None,
        workspace: str | os.PathLike[str] | None = None,
        approve_writes: bool = False,
    ) -> MemoryCapability:
        """The capability for the configuration in force, as :meth:`ConfiguredMemory.from_config
        <tact_memory.runtime.stores.ConfiguredMemory.from_config>` makes it.

        Args:
            approve_writes: Whether a root run's puts and deletes need a person's approval.
        """
        return cls(store_for(config, store=store, workspace=workspace), role=role, approve_writes=approve_writes)

    @classmethod
    def from_spec(  # type: ignore[override]
        cls, config: str | None = None, role: str | None = None, workspace: str | None = None, approve_writes: bool = False
    ) -> MemoryCapability:
        """The capability an agent spec describes: ``TactMemory`` or ``{"TactMemory": {"config": PATH, "role": "child"}}``.

        Args:
            config: A path to ``config.toml``, or ``None`` for the usual search.
            role: ``"root"`` or ``"child"``, or ``None`` to derive it for each run.
            workspace: The agent's workspace folder, or ``None`` for the current folder.
            approve_writes: Whether a root run's puts and deletes need a person's approval.

        Raises:
            ValueError: ``role`` is not a role.
        """
        chosen = Role(role) if role is not None else None
        return cls.from_config(config, role=chosen, workspace=workspace, approve_writes=approve_writes)

    async def for_run(self, ctx: RunContext[Any]) -> MemoryCapability:
        bound = copy.copy(self)
        bound._dispatcher = decide_role(self.role).dispatcher(self.store) if self.enabled else None
        if bound._dispatcher is not None and _continues_calls(ctx.messages) and _scanned_in(ctx.messages):
            # Resumed with deferred tool results: the approved put follows the scans the history shows.
            bound._dispatcher.tool.note_scan()
        bound._turn = _Turn.starting(ctx.messages, ctx.prompt)
        return bound

    async def wrap_run(self, ctx: RunContext[Any], *, handler: WrapRunHandler) -> AgentRunResult[Any]:
        if not self.enabled:
            return await handler()
        # The whole run, not only its tool calls: output and instructions functions start agents too.
        with running("pydantic-ai run"):
            return await handler()

    def get_toolset(self) -> AbstractToolset[Any] | None:
        if not self.enabled:
            return None
        toolset = MemoryToolset(self._dispatcher)
        dispatcher = self._dispatcher
        if self.approve_writes and dispatcher is not None and dispatcher.role is Role.ROOT:
            # Every put and delete the run may make (a call pydantic-ai resumes as approved is not
            # asked about again); a malformed one is refused at once.
            return toolset.approval_required(lambda ctx, tool_def, arguments: dispatcher.would_write(arguments))
        return toolset

    def get_instructions(self) -> str | None:
        return MEMORY_INSTRUCTIONS if self.enabled else None

    async def after_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: Any, result: Any
    ) -> Any:
        # A tool's ToolReturn(content=...) reaches the model as a UserPromptPart holding that very
        # object: the tool's output, neither a user message nor a steer.
        if self._turn is not None and isinstance(result, ToolReturn) and result.content:
            self._turn.tool_content.append(result.content)
        return result

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        if self.enabled and self.bound_role is Role.ROOT and self._turn is not None:
            unmarked, self._turn.unmarked = self._turn.unmarked, []
            for old in unmarked:
                # A copy, in the run's history and in this request: the app's own message objects
                # stay as they were given.
                marked = dataclasses.replace(old, parts=[*old.parts, checkpoint_part()])
                _replace(ctx.messages, old, marked)
                _replace(request_context.messages, old, marked)
            for message in self._turn.needing_checkpoint(ctx):
                # In place, as pydantic-ai records its own additions: the message is shared by this
                # request and the run's history, so the model sees the part now and later.
                message.parts = [*message.parts, checkpoint_part()]
        return request_context


def _has_prompt(message: object) -> bool:
    return isinstance(message, ModelRequest) and any(isinstance(p, UserPromptPart) for p in message.parts)


def _answers_calls(message: ModelRequest) -> bool:
    """Whether a request answers tool calls: its user prompt parts are what tools returned as content."""
    return any(isinstance(p, (ToolReturnPart, RetryPromptPart)) for p in message.parts)


def _unmarked(history: Sequence[ModelMessage]) -> list[ModelRequest]:
    """The requests of a starting history that the rule gives the checkpoint and that do not hold it.

    Past runs appended it to every user message after the first turn and to every steer, but a
    history may come back without it: a UI adapter strips system parts from what its client sends
    (``manage_system_prompt='server'``), a streaming client was never sent them, and an app may drop
    them before it stores or shows a conversation (:func:`without_checkpoints`). The history cannot
    tell a later turn's message from a steer, and the rule marks both, so every request holding a
    user prompt is marked but the one that opened the conversation (the first, when nothing but
    system parts comes before it; a history that starts later has none) and those that answer tool
    calls (their prompt parts are tools' output).
    """
    unmarked: list[ModelRequest] = []
    opening = True
    for message in history:
        if isinstance(message, ModelResponse):
            opening = False
        if not isinstance(message, ModelRequest) or not _has_prompt(message):
            continue
        if _answers_calls(message):
            opening = False
            continue
        if not opening and not _holds_checkpoint(message):
            unmarked.append(message)
        opening = False
    return unmarked


def _replace(messages: list[ModelMessage], old: ModelMessage, new: ModelMessage) -> None:
    for i, message in enumerate(messages):
        if message is old:
            messages[i] = new


def _same_prompt(part: object, prompt: UserPromptPart) -> bool:
    """Whether ``part`` is ``prompt`` or a copy of it (a history processor may copy messages)."""
    return part is prompt or (
        isinstance(part, UserPromptPart) and part.timestamp == prompt.timestamp and part.content == prompt.content
    )


@dataclass
class _Turn:
    """What one run knows about its turn, fixed from the history it started with.

    The rule is decided when the run starts, not from ``ctx.messages`` at each request: a history
    processor (``ProcessHistory``) may already have cut the earlier turns out of that list, for the
    request and for the history the run keeps, and a run may be given a history that holds no user
    prompt (a summary, the last response) or that ends with the request it sends again.
    """

    past_first_turn: bool
    """Whether the history before this run's user message holds a response or a user prompt."""
    resumed: list[UserPromptPart]
    """The prompts of the history's last request, when the run was given no prompt: pydantic-ai sends a
    copy of that request again (the parts are the same objects), and it is the turn's user message."""
    carried: list[UserPromptPart] = field(default_factory=list)
    """Steers an earlier run of the turn recorded after its last model request (pydantic-ai writes what
    was enqueued into the history when a run stops for deferred tools), when this run continues
    that run's calls: they reach the model first in this run."""
    started: bool = False
    classified: list[UserPromptPart] = field(default_factory=list)
    """The user prompt parts already given their kind, by identity (a processor may copy or drop their requests)."""
    tool_content: list[object] = field(default_factory=list)
    """What tools of the run returned as ``ToolReturn.content``, by identity: pydantic-ai puts it in a
    ``UserPromptPart`` of its own (``_tool_execution.py``), which is no submission."""
    unmarked: list[ModelRequest] = field(default_factory=list)
    """The requests of the history before the turn that should hold the checkpoint and do not
    (:func:`_unmarked`); the run's first model request puts it back on copies of them."""

    @classmethod
    def starting(cls, history: Sequence[ModelMessage], prompt: object) -> _Turn:
        earlier = list(history)
        if prompt is None and _continues_calls(earlier):
            return cls._continuing(earlier)
        resumed = earlier.pop() if prompt is None and earlier and _has_prompt(earlier[-1]) else None
        past_first_turn = any(isinstance(m, ModelResponse) or _has_prompt(m) for m in earlier)
        prompts = [p for p in resumed.parts if isinstance(p, UserPromptPart)] if isinstance(resumed, ModelRequest) else []
        return cls(past_first_turn=past_first_turn, resumed=prompts, unmarked=_unmarked(earlier))

    @classmethod
    def _continuing(cls, history: list[ModelMessage]) -> _Turn:
        """A run that continues the calls of the history's last response (resumed with deferred tool
        results): the turn's user message came earlier and was marked by the run that sent it.

        What follows that response was written when the earlier run stopped, and no model has seen it
        yet: the request that answers its calls, whose user prompt parts are what tools returned as
        ``ToolReturn.content`` (no submission), then the requests pydantic-ai recorded from what was
        enqueued meanwhile, each a steer.
        """
        last = max(i for i, m in enumerate(history) if isinstance(m, ModelResponse))
        requests = [m for m in history[last + 1 :] if isinstance(m, ModelRequest)]
        answered = bool(requests) and any(isinstance(p, (ToolReturnPart, RetryPromptPart)) for p in requests[0].parts)
        prompts = [[p for p in m.parts if isinstance(p, UserPromptPart)] for m in requests]
        tool_content = prompts[0] if answered else []
        carried = [p for found in prompts[int(answered) :] for p in found]
        return cls(
            past_first_turn=True, resumed=[], carried=carried, classified=list(tool_content), unmarked=_unmarked(history[:last])
        )

    def _is_resumed(self, message: ModelRequest) -> bool:
        return any(_same_prompt(part, prompt) for part in message.parts for prompt in [*self.resumed, *self.carried])

    def needing_checkpoint(self, ctx: RunContext[Any]) -> Iterator[ModelRequest]:
        """This run's user message and steers that should carry the checkpoint and do not yet.

        A run is one turn: its user message is the request made from its prompt (or the request it
        was resumed with), and every other user prompt that reaches the run is a steer.
        """
        first_request = not self.started
        self.started = True
        user_found = False
        for message in list(ctx.messages):
            if not isinstance(message, ModelRequest):
                continue
            resumed = self._is_resumed(message)
            if message.run_id != ctx.run_id and not resumed:
                continue
            fresh = [
                p for p in message.parts
                if isinstance(p, UserPromptPart) and not any(_same_prompt(p, seen) for seen in self.classified)
            ]
            self.classified.extend(fresh)
            fresh = [p for p in fresh if not any(p.content is content for content in self.tool_content)]
            if not fresh:
                continue
            is_user = first_request and not user_found and (resumed or (not self.resumed and ctx.prompt is not None))
            user_found = user_found or is_user
            kind: SubmissionKind = "user" if is_user else "steer"
            if checkpoint_due(kind, earlier_turns=1 if self.past_first_turn else 0) and not _holds_checkpoint(message):
                yield message

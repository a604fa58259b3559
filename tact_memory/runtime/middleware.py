"""Middleware: hooks around a submission, a model request, a model call and a tool call.

A session runs every submission, model request, model call and tool call of its agents through a
stack of middleware. Each hook receives the agent it runs for and either returns its input changed
or calls ``call_next`` (the rest of the stack) and may change what comes back, the shape of
pydantic-ai's wrapper toolsets and LangChain's agent middleware. :class:`Middleware` has
pass-through defaults, so a subclass overrides only what it needs; sync and async hooks are both
first-class.

One order, for every hook (:class:`MiddlewareStack` is the only code that runs them): the stack
is the application's middleware as given to the runtime, outermost first, then
:class:`MemoryMiddleware`, always innermost, nearest the model and the tools.

- ``on_submission`` and ``on_request`` transform their input outermost first, so memory's runs
  last: the checkpoint is the message's last part, and memory sees the final request (it
  reconciles the system prompt and owns the ``memory`` tool name, see below).
- ``wrap_model_call`` and ``wrap_tool_call`` (and their async forms) are entered outermost first
  and left innermost first: an application middleware sees a call before memory does and its
  result after memory did. Memory answers a ``memory`` tool call itself; other calls go on to the
  application's executor.

The tool name ``memory`` is reserved. When memory is enabled, the request offers memory's own
definition once, whatever tools the application or its middleware added under that name; when it
is disabled, no tool of that name is offered (rule I1), so a saved tool list never brings it back.

:class:`MemoryMiddleware` is the memory feature in one place: the turn hook (the review
checkpoint, as :func:`~tact_memory.runtime.checkpoint_rule.checkpoint_due` decides), the prompt
(the tool definition and one paragraph) and the tool hook (the agent's role-checked dispatcher).
It reads the session's settings snapshot, never the live config, so a config reload does not
change a running session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..screening.checkpoint import CHECKPOINT_TEXT
from ..tool.guard import Role
from ..tool.schemas import TOOL_NAME
from .checkpoint_rule import SubmissionKind, checkpoint_due
from .messages import Message, ModelRequest, ModelResponse, Part, ToolCall
from .prompt import assemble_system

if TYPE_CHECKING:
    from .session import Agent

__all__ = [
    "AsyncModelCallNext",
    "AsyncToolCallNext",
    "MemoryMiddleware",
    "Middleware",
    "MiddlewareStack",
    "ModelCallNext",
    "Submission",
    "ToolCallNext",
    "ToolOutput",
]

ToolOutput = dict[str, Any] | str
"""What a tool returns: a JSON object, or text."""
ModelCallNext = Callable[[ModelRequest], ModelResponse]
AsyncModelCallNext = Callable[[ModelRequest], Awaitable[ModelResponse]]
ToolCallNext = Callable[[ToolCall], ToolOutput]
AsyncToolCallNext = Callable[[ToolCall], Awaitable[ToolOutput]]


@dataclass(frozen=True)
class Submission:
    """An accepted submission, as the turn hook sees it."""

    kind: SubmissionKind
    """A user message, or a steer."""
    turn: int
    """The turn it belongs to, counting from 1 over the whole conversation (restores included)."""
    in_flight: bool
    """For a steer: True when it arrived while a turn was running, False when it started a new turn."""


class Middleware:
    """Pass-through hooks; subclass and override the ones you need."""

    def on_submission(self, agent: Agent, message: Message, submission: Submission) -> Message:
        """Change an accepted user message or steer before it enters the model-visible history."""
        return message

    def on_request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        """Change a model request (system prompt, tools, messages) before the call."""
        return request

    def wrap_model_call(self, agent: Agent, request: ModelRequest, call_next: ModelCallNext) -> ModelResponse:
        """Run around a model call."""
        return call_next(request)

    async def awrap_model_call(
        self, agent: Agent, request: ModelRequest, call_next: AsyncModelCallNext
    ) -> ModelResponse:
        """Run around an async model call."""
        return await call_next(request)

    def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
        """Run around a tool call; return a result to handle it, or delegate to ``call_next``."""
        return call_next(call)

    async def awrap_tool_call(self, agent: Agent, call: ToolCall, call_next: AsyncToolCallNext) -> ToolOutput:
        """Run around an async tool call."""
        return await call_next(call)


class MemoryMiddleware(Middleware):
    """The review checkpoint, the memory prompt and the role-checked memory tool.

    Whether it acts is decided by the session's settings snapshot (``agent.session.settings``);
    with memory disabled it adds nothing and handles nothing.
    """

    def on_submission(self, agent: Agent, message: Message, submission: Submission) -> Message:
        if not agent.session.settings.enabled or agent.dispatcher is None or agent.dispatcher.role is not Role.ROOT:
            # The checkpoint asks for conclusions to be stored: an agent whose memory role is a
            # child (a session started inside another agent's work) could store none of them.
            return message
        due = checkpoint_due(
            submission.kind, earlier_turns=submission.turn - 1, continued=agent.session.kind != "new"
        )
        if not due:
            return message
        return replace(message, parts=(*message.parts, Part(CHECKPOINT_TEXT, control=True)))

    def on_request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        enabled = agent.session.settings.enabled
        tools = tuple(t for t in request.tools if t.get("name") != TOOL_NAME)
        if enabled and agent.dispatcher is not None:
            tools = (*tools, agent.dispatcher.definition())
        messages = request.messages
        if not enabled and any(part.control for message in messages for part in message.parts):
            # A session saved with memory on and restored with it off: the model is not shown
            # checkpoints about a tool it does not have. They stay in the history, so a session
            # restored with memory on again sees them as before.
            messages = tuple(_without_control(message) for message in messages)
        return replace(request, system=assemble_system(request.system, enabled=enabled), tools=tools, messages=messages)

    def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
        if call.name != TOOL_NAME or agent.dispatcher is None:
            return call_next(call)
        return agent.dispatcher.call(call.arguments)

    async def awrap_tool_call(self, agent: Agent, call: ToolCall, call_next: AsyncToolCallNext) -> ToolOutput:
        if call.name != TOOL_NAME or agent.dispatcher is None:
            return await call_next(call)
        return await agent.dispatcher.acall(call.arguments)


def _without_control(message: Message) -> Message:
    if not any(part.control for part in message.parts):
        return message
    return replace(message, parts=tuple(part for part in message.parts if not part.control))


class MiddlewareStack:
    """The session's middleware in its one order: the application's, outermost first, then memory's.

    Every hook of every agent runs through here, so the order is the same for all of them (see the
    module docstring).

    Args:
        middleware: The application's middleware, outermost first; :class:`MemoryMiddleware` is
            added innermost.
    """

    def __init__(self, middleware: Sequence[Middleware] = ()) -> None:
        self.layers: tuple[Middleware, ...] = (*middleware, MemoryMiddleware())
        """Every middleware, outermost first; the last is always a :class:`MemoryMiddleware`."""

    def submission(self, agent: Agent, message: Message, submission: Submission) -> Message:
        """Pass an accepted submission through ``on_submission``, outermost first."""
        for layer in self.layers:
            message = layer.on_submission(agent, message, submission)
        return message

    def request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        """Pass a model request through ``on_request``, outermost first (memory sees the final one)."""
        for layer in self.layers:
            request = layer.on_request(agent, request)
        return request

    def model_call(self, agent: Agent, request: ModelRequest, model: ModelCallNext) -> ModelResponse:
        """Call ``model`` inside every ``wrap_model_call``, the outermost entered first."""
        handler = model
        for layer in reversed(self.layers):
            handler = _model_step(layer, agent, handler)
        return handler(request)

    async def amodel_call(self, agent: Agent, request: ModelRequest, model: AsyncModelCallNext) -> ModelResponse:
        """Async :meth:`model_call`, through every ``awrap_model_call``."""
        handler = model
        for layer in reversed(self.layers):
            handler = _amodel_step(layer, agent, handler)
        return await handler(request)

    def tool_call(self, agent: Agent, call: ToolCall, executor: ToolCallNext) -> ToolOutput:
        """Run ``call`` inside every ``wrap_tool_call``, the outermost entered first."""
        handler = executor
        for layer in reversed(self.layers):
            handler = _tool_step(layer, agent, handler)
        return handler(call)

    async def atool_call(self, agent: Agent, call: ToolCall, executor: AsyncToolCallNext) -> ToolOutput:
        """Async :meth:`tool_call`, through every ``awrap_tool_call``."""
        handler = executor
        for layer in reversed(self.layers):
            handler = _atool_step(layer, agent, handler)
        return await handler(call)


def _model_step(layer: Middleware, agent: Agent, nxt: ModelCallNext) -> ModelCallNext:
    return lambda request: layer.wrap_model_call(agent, request, nxt)


def _amodel_step(layer: Middleware, agent: Agent, nxt: AsyncModelCallNext) -> AsyncModelCallNext:
    return lambda request: layer.awrap_model_call(agent, request, nxt)


def _tool_step(layer: Middleware, agent: Agent, nxt: ToolCallNext) -> ToolCallNext:
    return lambda call: layer.wrap_tool_call(agent, call, nxt)


def _atool_step(layer: Middleware, agent: Agent, nxt: AsyncToolCallNext) -> AsyncToolCallNext:
    return lambda call: layer.awrap_tool_call(agent, call, nxt)

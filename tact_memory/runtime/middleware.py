"""Middleware: hooks around a submission, a model call and a tool call.

A session runs every model call and tool call of its agents through a stack of middleware, the
first one outermost. Each hook receives the agent it runs for and either returns its input changed
or calls ``call_next`` (the rest of the stack) and may change what comes back, the shape of
pydantic-ai's wrapper toolsets and LangChain's agent middleware. :class:`Middleware` has
pass-through defaults, so a subclass overrides only what it needs; sync and async hooks are both
first-class.

:class:`MemoryMiddleware` is the memory feature in one place: the turn hook (the review
checkpoint), the prompt (the tool definition and one paragraph) and the tool hook (the agent's
role-checked dispatcher). It reads the session's settings snapshot, never the live config, so a
config reload does not change a running session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from ..screening.checkpoint import CHECKPOINT_TEXT
from ..tool.schemas import TOOL_NAME
from .messages import Message, ModelRequest, ModelResponse, Part, ToolCall
from .prompt import assemble_system

if TYPE_CHECKING:
    from .session import Agent

__all__ = [
    "AsyncModelCallNext",
    "AsyncToolCallNext",
    "MemoryMiddleware",
    "Middleware",
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

    kind: Literal["user", "steer"]
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
        if not agent.session.settings.enabled:
            return message
        if submission.kind == "user" and submission.turn <= 1:
            return message  # the first turn's user message carries no checkpoint
        return replace(message, parts=(*message.parts, Part(CHECKPOINT_TEXT, control=True)))

    def on_request(self, agent: Agent, request: ModelRequest) -> ModelRequest:
        enabled = agent.session.settings.enabled
        tools = tuple(t for t in request.tools if t.get("name") != TOOL_NAME)
        if enabled and agent.dispatcher is not None:
            tools = (*tools, agent.dispatcher.definition())
        return replace(request, system=assemble_system(request.system, enabled=enabled), tools=tools)

    def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
        if call.name != TOOL_NAME or agent.dispatcher is None:
            return call_next(call)
        return agent.dispatcher.call(call.arguments)

    async def awrap_tool_call(self, agent: Agent, call: ToolCall, call_next: AsyncToolCallNext) -> ToolOutput:
        if call.name != TOOL_NAME or agent.dispatcher is None:
            return await call_next(call)
        return await agent.dispatcher.acall(call.arguments)

"""A reference agent loop: request, model, tools, repeat until the model answers.

Most applications have their own loop; this one shows the few calls that wire memory into any
loop, and it is what :mod:`tact_memory.testing` and the demo run. A turn is: accept the user's
message, then build a request, call the model, run the tool calls it asked for, and repeat until a
response has no tool calls. Steers accepted while the turn runs are delivered before the next model
call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .messages import ModelResponse, ToolCall
from .pipeline import ToolOutput
from .runtime import Agent, AsyncModel, Model, ToolExecutor

__all__ = ["MaxStepsExceeded", "arun_agent", "run_agent"]


class MaxStepsExceeded(RuntimeError):
    """The model kept calling tools for more steps than allowed."""


def run_agent(
    agent: Agent,
    model: Model,
    *,
    tools: Sequence[dict[str, Any]] = (),
    executor: ToolExecutor | None = None,
    max_steps: int = 32,
) -> ModelResponse:
    """Run ``agent`` until the model answers without tool calls; returns that answer.

    For the root agent, the caller accepts the user's message first (``session.submit``) and the
    turn is ended here.
    """
    try:
        for _ in range(max_steps):
            response = agent.call_model(model, agent.request(tools))
            if not response.tool_calls:
                return response
            for call in response.tool_calls:
                agent.run_tool(call, executor)
        raise MaxStepsExceeded(f"no final answer after {max_steps} model calls")
    finally:
        if agent is agent.session.root:
            agent.session.end_turn()


async def arun_agent(
    agent: Agent,
    model: AsyncModel,
    *,
    tools: Sequence[dict[str, Any]] = (),
    executor: Callable[[ToolCall], Awaitable[ToolOutput]] | None = None,
    max_steps: int = 32,
) -> ModelResponse:
    """Async :func:`run_agent`: the model is awaited and memory calls run in a worker thread."""
    try:
        for _ in range(max_steps):
            response = await agent.acall_model(model, agent.request(tools))
            if not response.tool_calls:
                return response
            for call in response.tool_calls:
                await agent.arun_tool(call, executor)
        raise MaxStepsExceeded(f"no final answer after {max_steps} model calls")
    finally:
        if agent is agent.session.root:
            agent.session.end_turn()

"""A reference agent loop: request, model, tools, repeat until the model answers.

Most applications have their own loop; this one shows the few calls that wire memory into any
loop, and it is what :mod:`tact_memory.testing` and the demo run. A turn is: accept the user's
message, then build a request, call the model, run the tool calls it asked for, and repeat until a
response has no tool calls. Steers accepted while the turn runs are delivered with the next model
call; one accepted while the final answer was being made gets another model call in the same turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..errors import MaxStepsExceeded
from .messages import ModelResponse, ToolCall
from .middleware import ToolOutput
from .session import Agent, AsyncModel, Model, ToolExecutor

__all__ = ["MaxStepsExceeded", "arun_agent", "run_agent"]


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
    ended = False
    try:
        for _ in range(max_steps):
            response = agent.call_model(model, agent.request(tools))
            if not response.tool_calls:
                ended = _end_turn(agent)
                if ended:
                    return response
                continue  # a steer arrived during this call: answer it in the same turn
            for call in response.tool_calls:
                agent.run_tool(call, executor)
        raise MaxStepsExceeded(f"no final answer after {max_steps} model calls")
    finally:
        if agent is agent.session.root and not ended:
            agent.session.abandon_turn()


async def arun_agent(
    agent: Agent,
    model: AsyncModel,
    *,
    tools: Sequence[dict[str, Any]] = (),
    executor: Callable[[ToolCall], Awaitable[ToolOutput]] | None = None,
    max_steps: int = 32,
) -> ModelResponse:
    """Async :func:`run_agent`: the model is awaited and memory calls run in a worker thread."""
    ended = False
    try:
        for _ in range(max_steps):
            response = await agent.acall_model(model, agent.request(tools))
            if not response.tool_calls:
                ended = _end_turn(agent)
                if ended:
                    return response
                continue  # a steer arrived during this call: answer it in the same turn
            for call in response.tool_calls:
                await agent.arun_tool(call, executor)
        raise MaxStepsExceeded(f"no final answer after {max_steps} model calls")
    finally:
        if agent is agent.session.root and not ended:
            agent.session.abandon_turn()


def _end_turn(agent: Agent) -> bool:
    """Whether the final answer ends the run: a child's always does, the root's unless a steer waits."""
    return agent is not agent.session.root or agent.session.end_turn()

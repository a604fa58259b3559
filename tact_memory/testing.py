"""Offline test helpers: a scripted model that records what it was shown.

:class:`ScriptedModel` plays a list of steps. A step is a :class:`~tact_memory.runtime.messages.ModelResponse`
or a function of the request that returns one, so a script can react to what the model was given
(for example, read the id a scan returned). Every request is kept in :attr:`ScriptedModel.requests`
for assertions and snapshots. Use it with :func:`tact_memory.run_agent` or with your own loop.

``run_agent`` and ``arun_agent`` are importable from here too, for tests written that way: they are
the very functions :mod:`tact_memory.runtime.loop` defines and ``tact_memory`` exports, not copies.

Example::

    model = ScriptedModel([
        call("memory", {"operation": "scan", "query": "release tags"}),
        ModelResponse(text="Tags look like vX.Y.Z."),
    ])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from .runtime.loop import arun_agent, run_agent  # re-exported, the one definition
from .runtime.messages import ModelRequest, ModelResponse, ToolCall

__all__ = ["ScriptExhausted", "ScriptedModel", "answer", "arun_agent", "call", "run_agent"]

Step = ModelResponse | Callable[[ModelRequest], ModelResponse]

_ids = itertools.count(1)


def call(name: str, arguments: dict[str, Any] | str, *, text: str | None = None, id: str | None = None) -> ModelResponse:
    """A response that calls one tool."""
    return ModelResponse(text=text, tool_calls=(ToolCall(id or f"call_{next(_ids)}", name, arguments),))


def answer(text: str) -> ModelResponse:
    """A final answer with no tool calls."""
    return ModelResponse(text=text)


class ScriptExhausted(AssertionError):
    """The model was called more times than its script has steps."""


class ScriptedModel:
    """A deterministic model for tests: plays ``steps`` in order and records every request."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.requests: list[ModelRequest] = []

    def __call__(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        if not self.steps:
            raise ScriptExhausted(f"model called {len(self.requests)} times, script is empty")
        step = self.steps.pop(0)
        return step(request) if callable(step) else step

    async def acall(self, request: ModelRequest) -> ModelResponse:
        """The same script as an async model."""
        return self(request)

    @property
    def done(self) -> bool:
        """Whether every step was played."""
        return not self.steps

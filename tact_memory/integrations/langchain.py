"""Memory for LangChain agents, as one agent middleware (``tact-memory[langchain]``).

``create_agent(model, tools, middleware=[MemoryMiddleware.from_config()])`` gives the agent the
``memory`` tool, the instruction paragraph and the review checkpoint:

- Tool: the middleware registers a ``memory`` tool (so the model is given its definition) and its
  ``wrap_tool_call`` hook answers every call of it through a
  :class:`~tact_memory.dispatch.Dispatcher` made for the caller's role, so the role check and the
  result are the library's. The ``ToolMessage`` content is the result's JSON, exactly what
  ``tact-memory tool`` prints; a refused call has ``status="error"``, and ``artifact`` holds the
  result as a dict. One dispatcher serves each agent of each thread (``thread_id``), so
  scan-before-put holds across the turns of a conversation.
- Instructions: :data:`~tact_memory.prompt.MEMORY_INSTRUCTIONS` joins the system message of every
  model request (:func:`~tact_memory.prompt.assemble_system`), for root and child agents.
- Checkpoint (rule I5): in ``wrap_model_call``, every human message of the thread except the first
  gets :data:`~tact_memory.checkpoint.CHECKPOINT_TEXT` appended as its own last text block, in the
  request sent to the model only. The graph state is the app's transcript (what ``invoke`` returns
  and ``stream`` shows) and also the conversation a checkpointer saves, so it is left as the user
  typed it. The rule reads only the state, so every model call, including the first after a resume
  or a fork from a saved checkpoint, sees the checkpoint on the same messages: it is kept in the
  model-visible history without being stored in the transcript. A human message that arrives
  while a turn runs (a steer) is past the first message, so it gets the checkpoint too, also in the
  first turn. Only root agents get it.
- Role: an agent run started while a tool of another memory-enabled agent is executing (a
  sub-agent invoked from inside a tool) is a child, found through a context variable this
  middleware sets around its agent's tool calls; any other run is the root. Pass ``role=`` to fix it
  instead, as you must when the delegating agent does not use this middleware.

With memory disabled the middleware registers no tool and changes no request.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse, ToolCallRequest
from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.types import Command

from .. import errors
from ..checkpoint import CHECKPOINT_TEXT
from ..config import Config
from ..dispatch import Dispatcher, Role
from ..prompt import MEMORY_INSTRUCTIONS, assemble_system
from ..records import MemoryBackend
from . import close_store, store_for
from ..tool import TOOL_NAME, ToolResult, error_result, store_limits

__all__ = ["MemoryMiddleware", "with_checkpoints"]

_DELEGATING: ContextVar[str | None] = ContextVar("tact_memory_delegating_call", default=None)
"""Set while a tool of a memory-enabled agent runs: an agent run started inside it is a child."""

_MAX_DISPATCHERS = 256
"""How many (thread, agent) dispatchers to keep; an evicted one only forgets its last scan."""


def _unbound_tool(**arguments: Any) -> str:
    refusal = errors.StoreUnavailable("the memory tool runs only through MemoryMiddleware", path="", reason="unbound")
    result = error_result(None, refusal)
    return json.dumps(result, ensure_ascii=False)


def _memory_tool(store: MemoryBackend) -> BaseTool:
    from ..tool_models import tool_definition

    definition = tool_definition(store_limits(store))
    return StructuredTool.from_function(
        func=_unbound_tool, name=TOOL_NAME, description=definition["description"], args_schema=definition["input_schema"]
    )


def _text_block(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _carries_checkpoint(message: AnyMessage) -> bool:
    content = message.content
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("text") == CHECKPOINT_TEXT for block in content
    )


def with_checkpoints(messages: Sequence[AnyMessage], thread: Sequence[AnyMessage]) -> list[AnyMessage]:
    """``messages`` with the checkpoint appended to every human message but the thread's first.

    Args:
        messages: The messages of a model request.
        thread: The whole conversation (the agent state's ``messages``), which decides which human
            message is the first.
    """
    first = next((m for m in thread if isinstance(m, HumanMessage)), None)
    out: list[AnyMessage] = []
    for message in messages:
        is_first = first is not None and (message is first or (message.id is not None and message.id == first.id))
        if isinstance(message, HumanMessage) and not is_first and not _carries_checkpoint(message):
            content = message.content
            blocks: list[str | dict[Any, Any]] = [_text_block(content)] if isinstance(content, str) else list(content)
            message = message.model_copy(update={"content": [*blocks, _text_block(CHECKPOINT_TEXT)]})
        out.append(message)
    return out


def _with_instructions(system: SystemMessage | None) -> SystemMessage:
    if system is None:
        return SystemMessage(MEMORY_INSTRUCTIONS)
    if isinstance(system.content, str):
        return system.model_copy(update={"content": assemble_system(system.content, enabled=True)})
    if any(isinstance(b, dict) and b.get("text") == MEMORY_INSTRUCTIONS for b in system.content):
        return system
    return system.model_copy(update={"content": [*system.content, _text_block(MEMORY_INSTRUCTIONS)]})


class MemoryMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """The memory tool, instructions and review checkpoint for a LangChain agent.

    Args:
        store: The corpus, or ``None`` when memory is disabled (the middleware then does nothing).
        role: The agent's role; ``None`` derives it for each run (a run started inside another
            memory-enabled agent's tool call is a child, any other run is the root).
    """

    def __init__(self, store: MemoryBackend | None, *, role: Role | None = None) -> None:
        super().__init__()
        self.store = store
        self.role = role
        self.tools: list[BaseTool] = [_memory_tool(store)] if store is not None else []
        self._dispatchers: OrderedDict[tuple[Any, ...], Dispatcher] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def from_config(
        cls,
        config: Config | str | os.PathLike[str] | None = None,
        *,
        role: Role | None = None,
        store: MemoryBackend | None = None,
    ) -> MemoryMiddleware:
        """A middleware for the configuration in force (a path to ``config.toml``, or a loaded one).

        Args:
            config: A loaded config, a path to ``config.toml``, or ``None`` for the usual search.
            role: A fixed role, or ``None`` to derive it for each run.
            store: A backend to use instead of the SQLite store beside ``config.toml``.
        """
        return cls(store_for(config, store=store), role=role)

    @property
    def enabled(self) -> bool:
        """Whether memory is enabled for agents using this middleware."""
        return self.store is not None

    def close(self) -> None:
        """Close the store's database connection, if it has one; the next call opens it again."""
        close_store(self.store)

    def current_role(self) -> Role:
        """The role of the agent running now: the fixed one, or the derived one."""
        if self.role is not None:
            return self.role
        return Role.CHILD if _DELEGATING.get() is not None else Role.ROOT

    # -- model calls ------------------------------------------------------------------------------

    def _prepare(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        if not self.enabled:
            return request
        messages = request.messages
        if self.current_role() is Role.ROOT:
            thread = cast("Sequence[AnyMessage]", request.state.get("messages", messages))
            messages = with_checkpoints(messages, thread)
        return request.override(system_message=_with_instructions(request.system_message), messages=messages)

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], ModelResponse[Any]]
    ) -> ModelResponse[Any]:
        return handler(self._prepare(request))

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]
    ) -> ModelResponse[Any]:
        return await handler(self._prepare(request))

    # -- tool calls -------------------------------------------------------------------------------

    def _dispatcher(self, request: ToolCallRequest) -> Dispatcher:
        config = request.runtime.config if request.runtime is not None else {}
        thread = (config.get("configurable") or {}).get("thread_id")
        role = self.current_role()
        key = (thread, _DELEGATING.get(), role)
        with self._lock:
            dispatcher = self._dispatchers.get(key)
            if dispatcher is None:
                dispatcher = self._dispatchers[key] = Dispatcher(self.store, role=role)
                while len(self._dispatchers) > _MAX_DISPATCHERS:
                    self._dispatchers.popitem(last=False)
            self._dispatchers.move_to_end(key)
        return dispatcher

    @staticmethod
    def _message(request: ToolCallRequest, result: ToolResult) -> ToolMessage:
        return ToolMessage(
            content=json.dumps(result, ensure_ascii=False),
            tool_call_id=request.tool_call["id"],
            name=TOOL_NAME,
            status="error" if "error" in result else "success",
            artifact=result,
        )

    @contextmanager
    def _delegating(self, request: ToolCallRequest) -> Iterator[None]:
        token = _DELEGATING.set(request.tool_call.get("id") or request.tool_call["name"])
        try:
            yield
        finally:
            _DELEGATING.reset(token)

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]]
    ) -> ToolMessage | Command[Any]:
        if self.enabled and request.tool_call["name"] == TOOL_NAME:
            return self._message(request, self._dispatcher(request).call(request.tool_call["args"]))
        with self._delegating(request):
            return handler(request)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        if self.enabled and request.tool_call["name"] == TOOL_NAME:
            return self._message(request, await self._dispatcher(request).acall(request.tool_call["args"]))
        with self._delegating(request):
            return await handler(request)

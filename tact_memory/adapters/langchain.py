"""Memory for LangChain agents, as one agent middleware (``tact-memory[langchain]``).

``create_agent(model, tools, middleware=[MemoryAgentMiddleware.from_config()])`` gives the agent the
``memory`` tool, the instruction paragraph and the review checkpoint:

- Tool: the middleware registers a ``memory`` tool (so the model is given its definition) and its
  ``wrap_tool_call`` hook answers every call of it through a
  :class:`~tact_memory.tool.guard.Dispatcher` made for the caller's role, so the role check and the
  result are the library's. The ``ToolMessage`` content is the result's JSON, exactly what
  ``tact-memory tool`` prints; a refused call has ``status="error"``, and ``artifact`` holds the
  result as a dict. One dispatcher serves each agent of each thread (``thread_id``), so
  scan-before-put holds across the turns of a conversation; a thread this object has not served
  (resumed from a durable checkpointer in another process, say) starts with the scans its memory
  tool messages show since the last put, so a write a person approved there
  (``HumanInTheLoopMiddleware``) is not refused for want of one.
- Instructions: :data:`~tact_memory.runtime.prompt.MEMORY_INSTRUCTIONS` joins the system message of every
  model request (:func:`~tact_memory.runtime.prompt.assemble_system`), for root and child agents.
- Checkpoint (rule I5, as :func:`~tact_memory.runtime.checkpoint_rule.checkpoint_due` decides): in
  ``wrap_model_call``, every human message of the thread except the one that opened it gets
  :data:`~tact_memory.screening.checkpoint.CHECKPOINT_TEXT` appended as its own last text block, in
  the request sent to the model only. The graph state is the app's transcript (what ``invoke`` returns
  and ``stream`` shows) and also the conversation a checkpointer saves, so it is left as the user
  typed it. The rule reads only the state, so every model call, including the first after a resume
  or a fork from a saved checkpoint, sees the checkpoint on the same messages: it is kept in the
  model-visible history without being stored in the transcript. A human message that arrives
  while a turn runs (a steer) is past the first message, so it gets the checkpoint too, also in the
  first turn. The opening message is recorded in the state (``before_agent``, on the thread's
  first invocation) before a ``before_model`` hook can trim or summarise it away; a thread that
  starts with anything but system messages before its first human message was given in part and
  has none. ``SummarizationMiddleware``'s summary is not a user message and gets none. Only root
  agents get it.
- Role (rule I17, :mod:`tact_memory.runtime.roles`): fixed once per ``invoke`` in ``before_agent`` and
  kept in the graph state under a private key (not part of the agent's input or output), never
  read from tool arguments. The middleware marks its agent's model calls and tool calls while they
  run; an agent invoked inside that mark (from a tool, or from a middleware listed after this one)
  is a child, even with ``role=Role.ROOT``. An agent whose role was not stated and that is invoked
  inside a step of another graph (any middleware hook or tool of another agent, a node of a
  workflow graph: :func:`enclosed`) is a child too. A thread resumed after an interrupt keeps the
  role saved with it, lowered where it resumes nested (:meth:`MemoryAgentMiddleware._decision`). An agent invoked where the context cannot show it (a
  thread, ``run_in_executor``, a fresh ``contextvars.Context``) is a child when its role was not
  stated and any memory-enabled agent of the process is at work, or when it starts on a thread
  other than the main one; it is the root only on the main thread with nothing else at work.
  State ``role=Role.ROOT`` for top-level agents that run beside others or on threads of their own, and
  ``role=Role.CHILD`` for sub-agents whose parent does not use memory.

With memory disabled the middleware registers no tool and changes no request.

``MemoryAgentMiddleware`` was called ``MemoryMiddleware`` in earlier releases, the name of the
runtime's own middleware (:class:`tact_memory.runtime.middleware.MemoryMiddleware`); the old name
still works here and warns with ``DeprecationWarning``.
"""

from __future__ import annotations

import json
import threading
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Annotated, Any, cast

from langchain.agents.middleware import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
    ToolCallRequest,
)
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AnyMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.runtime import Runtime
from langgraph.types import Command
from typing_extensions import NotRequired

from .. import errors
from ..backend import MemoryBackend
from ..runtime.checkpoint_rule import CHECKPOINT_TEXT, checkpoint_due
from ..runtime.prompt import MEMORY_INSTRUCTIONS, assemble_system
from ..runtime.roles import RoleDecision, decide_role, inside, running
from ..runtime.stores import ConfiguredMemory
from ..tool.guard import Dispatcher, Role
from ..tool.memory_tool import scanned_since_put, store_limits
from ..tool.results import ToolResult, error_result
from ..tool.schemas import TOOL_NAME, tool_definition

__all__ = ["MemoryAgentMiddleware", "enclosed", "with_checkpoints"]

_ROLE_KEY = "tact_memory_role"
"""The state key that holds the role decided when the agent was invoked."""

_OPENING_KEY = "tact_memory_opening"
"""The state key that holds the id of the thread's opening human message, recorded once per thread."""


def enclosed() -> bool:
    """Whether the current LangGraph step belongs to a graph that runs inside a step of another
    graph: its checkpoint namespace has more than one part (``"parent_node:task|node:task"``; a
    top-level graph's steps have one). LangGraph carries the namespace into a graph invoked from a
    node (a tool, a middleware hook) through the run configuration, also across the threads its
    executor starts. Outside any graph step, no."""
    from langgraph.config import get_config

    try:
        namespace = (get_config().get("configurable") or {}).get("checkpoint_ns")
    except RuntimeError:  # not inside a runnable
        return False
    return isinstance(namespace, str) and "|" in namespace


class MemoryState(AgentState[Any]):
    """The agent state with the role of the current invocation, private to the middleware."""

    tact_memory_role: NotRequired[Annotated[dict[str, str], PrivateStateAttr]]
    """``{"role": ..., "reason": ...}`` as :func:`tact_memory.runtime.roles.decide_role` gave it."""
    tact_memory_opening: NotRequired[Annotated[dict[str, str | None], PrivateStateAttr]]
    """``{"id": ...}``: the id of the human message that opened the thread, or ``None`` when the
    thread was first seen past its first turn. Kept with the thread, so a message trimmed or
    summarised out of the state later leaves no other human message to take its place."""

_MAX_DISPATCHERS = 256
"""How many (thread, agent) dispatchers to keep; an evicted one only forgets its last scan."""


def _unbound_tool(**arguments: Any) -> str:
    refusal = errors.StoreUnavailable("the memory tool runs only through MemoryAgentMiddleware", path="", reason="unbound")
    result = error_result(None, refusal)
    return json.dumps(result, ensure_ascii=False)


def _memory_tool(store: MemoryBackend) -> BaseTool:
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


def _is_summary(message: AnyMessage) -> bool:
    """Whether a human message is LangChain's summary of earlier turns (``SummarizationMiddleware``), not the user's."""
    return isinstance(message, HumanMessage) and message.additional_kwargs.get("lc_source") == "summarization"


def opening_message(thread: Sequence[AnyMessage]) -> AnyMessage | None:
    """The human message that opened the conversation ``thread`` holds, or ``None`` when it holds none.

    A conversation whose first human message comes after anything but a system message (an earlier
    answer, a tool result, ``SummarizationMiddleware``'s summary: a history that was trimmed,
    summarised or given in part) is past its first turn, and none of its human messages opened it.
    """
    for message in thread:
        if isinstance(message, HumanMessage) and not _is_summary(message):
            return message
        if not isinstance(message, SystemMessage | RemoveMessage):
            return None
    return None


_FROM_THREAD: Any = object()


def with_checkpoints(
    messages: Sequence[AnyMessage], thread: Sequence[AnyMessage], *, opening_id: str | None = _FROM_THREAD
) -> list[AnyMessage]:
    """``messages`` with the checkpoint appended to every human message but the one that opened the thread.

    Args:
        messages: The messages of a model request.
        thread: The whole conversation (the agent state's ``messages``); without ``opening_id``, it
            decides which human message opened it (:func:`opening_message`).
        opening_id: The id of the opening human message as recorded when the thread started, or
            ``None`` when the thread was past its first turn then: every human message is marked.
    """
    if opening_id is _FROM_THREAD:
        first = opening_message(thread)
    else:
        first = next((m for m in thread if isinstance(m, HumanMessage) and opening_id is not None and m.id == opening_id), None)
    out: list[AnyMessage] = []
    first_seen = False
    for message in messages:
        is_first = first is not None and (message is first or (message.id is not None and message.id == first.id))
        if first is not None and not first_seen and message.id is None and isinstance(message, HumanMessage):
            # A copy made without its id (a wrap_model_call hook that rebuilds the request's messages):
            # the request's first id-less human message with the opening message's content is it.
            is_first = message.content == first.content
        first_seen = first_seen or is_first or isinstance(message, HumanMessage)
        # The state cannot tell a later turn's user message from a steer, and the rule gives both
        # the checkpoint: every human message after the thread's first counts as a later turn's.
        due = checkpoint_due("user", earlier_turns=0 if is_first else 1)
        if isinstance(message, HumanMessage) and due and not _is_summary(message) and not _carries_checkpoint(message):
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


def _saved_decision(state: Any) -> RoleDecision | None:
    """The role decision saved in a thread's state when it was invoked, if there is a sound one."""
    saved = state.get(_ROLE_KEY) if isinstance(state, dict) else None
    if isinstance(saved, dict):
        try:
            return RoleDecision(Role(saved["role"]), saved["reason"])
        except (KeyError, ValueError):
            pass
    return None


def _scanned_in(state: Any) -> bool:
    """Whether the ``memory`` tool's messages in a thread's state, oldest first, show a scan since
    the last put (:func:`~tact_memory.tool.memory_tool.scanned_since_put`): the result each holds
    as its artifact, or else as its JSON text."""
    messages = state.get("messages", []) if isinstance(state, dict) else []
    return scanned_since_put(
        m.artifact if isinstance(m.artifact, dict) else m.content
        for m in messages
        if isinstance(m, ToolMessage) and m.name == TOOL_NAME
    )


class MemoryAgentMiddleware(AgentMiddleware[MemoryState, Any, Any], ConfiguredMemory):
    """The memory tool, instructions and review checkpoint for a LangChain agent.

    Args:
        store: The corpus, or ``None`` when memory is disabled (the middleware then does nothing).
        role: The agent's role; ``None`` derives it for each run (a child when invoked inside
            another memory-enabled agent's call or while one is running, else the root). A stated
            role is lowered to child inside another memory-enabled agent's call, never raised.
    """

    state_schema = MemoryState

    def __init__(self, store: MemoryBackend | None, *, role: Role | None = None) -> None:
        super().__init__()
        self.store = store
        self.role = role
        self.tools: list[BaseTool] = [_memory_tool(store)] if store is not None else []
        self._dispatchers: OrderedDict[tuple[Any, ...], Dispatcher] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The graph node prefix: ``MemoryMiddleware``, as in earlier releases, so saved threads resume."""
        return "MemoryMiddleware"

    def current_role(self, state: Any = None) -> Role:
        """The role of the invocation whose graph state is ``state`` (see :meth:`before_agent`)."""
        return self._decision(state).role

    def writes_need_approval(self, request: ToolCallRequest) -> bool:
        """A ``when`` predicate for ``HumanInTheLoopMiddleware``: a person approves every put and
        delete of the memory tool that the thread's role allows.

        ``interrupt_on={"memory": {"allowed_decisions": ["approve", "reject"], "when":
        memory.writes_need_approval}}`` (on LangChain releases whose ``InterruptOnConfig`` has
        ``when``). Scans and reads run at once, and so do a child's writes and malformed calls,
        which the tool refuses whatever the answer. The predicate runs again when the thread
        resumes and gives the same answer: it reads the role saved when the thread was invoked.
        """
        if not self.enabled:
            return False
        saved = _saved_decision(request.state)
        role = saved.role if saved is not None else decide_role(self.role, enclosed=enclosed()).role
        return Dispatcher(self.store, role=role).would_write(request.tool_call.get("args", {}))

    def _decision(self, state: Any) -> RoleDecision:
        """The role decided when the agent was invoked, lowered if it now runs nested.

        An interrupted thread resumed with ``invoke(None, ...)`` runs no ``before_agent``: it keeps
        the role saved in its state, which was decided where it was first invoked. Resumed inside
        another memory-enabled agent's work (its tool), or, with a role that was not stated,
        inside a step of another graph, it is a child there, as a new invocation would be.
        """
        decision = _saved_decision(state)
        if decision is None:  # no decision in the state: decide now (it can only be lower)
            return decide_role(self.role, enclosed=enclosed())
        if decision.role is Role.ROOT:
            if inside():
                return RoleDecision(Role.CHILD, "nested")
            if decision.reason != "stated" and enclosed():
                return RoleDecision(Role.CHILD, "enclosed")
        return decision

    # -- invocations ------------------------------------------------------------------------------

    def before_agent(self, state: MemoryState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Decide the role of this invocation, where the caller's context is still visible.

        The first invocation of a thread also records which human message opened it, before any
        ``before_model`` hook (a trim, a summary) can take it out of the state.
        """
        decision = decide_role(self.role, enclosed=enclosed())
        update: dict[str, Any] = {_ROLE_KEY: {"role": decision.role.value, "reason": decision.reason}}
        if not isinstance(state.get(_OPENING_KEY), dict):
            thread = cast("Sequence[AnyMessage]", state.get("messages", []))
            opening = opening_message(thread)
            if opening is not None and opening.id is None:
                pass  # no id to find it by later: decided from the state on each request
            elif opening is not None or any(not isinstance(m, SystemMessage) for m in thread):
                update[_OPENING_KEY] = {"id": opening.id if opening is not None else None}
        return update

    async def abefore_agent(self, state: MemoryState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        return self.before_agent(state, runtime)

    # -- model calls ------------------------------------------------------------------------------

    def _prepare(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        if not self.enabled:
            return request
        messages = request.messages
        if self.current_role(request.state) is Role.ROOT:
            thread = cast("Sequence[AnyMessage]", request.state.get("messages", messages))
            recorded = request.state.get(_OPENING_KEY)
            if isinstance(recorded, dict) and "id" in recorded:
                messages = with_checkpoints(messages, thread, opening_id=recorded["id"])
            else:
                messages = with_checkpoints(messages, thread)
        return request.override(system_message=_with_instructions(request.system_message), messages=messages)

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], ModelResponse[Any]]
    ) -> ModelResponse[Any]:
        prepared = self._prepare(request)
        with self._running("LangChain model call"):
            return handler(prepared)

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]
    ) -> ModelResponse[Any]:
        prepared = self._prepare(request)
        with self._running("LangChain model call"):
            return await handler(prepared)

    # -- tool calls -------------------------------------------------------------------------------

    def _dispatcher(self, request: ToolCallRequest) -> Dispatcher:
        config = request.runtime.config if request.runtime is not None else {}
        thread = (config.get("configurable") or {}).get("thread_id")
        decision = self._decision(request.state)
        key = (thread, decision.role, decision.reason)
        with self._lock:
            dispatcher = self._dispatchers.get(key)
            if dispatcher is None:
                dispatcher = self._dispatchers[key] = decision.dispatcher(self.store)
                if _scanned_in(request.state):
                    # A thread this object has not served (resumed in another process, from a
                    # durable checkpointer): its messages show a scan since the last put.
                    dispatcher.tool.note_scan()
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

    def _running(self, label: str) -> AbstractContextManager[None]:
        return running(label) if self.enabled else nullcontext()

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]]
    ) -> ToolMessage | Command[Any]:
        if self.enabled and request.tool_call["name"] == TOOL_NAME:
            return self._message(request, self._dispatcher(request).call(request.tool_call["args"]))
        with self._running("LangChain tool call"):
            return handler(request)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        if self.enabled and request.tool_call["name"] == TOOL_NAME:
            return self._message(request, await self._dispatcher(request).acall(request.tool_call["args"]))
        with self._running("LangChain tool call"):
            return await handler(request)


def __getattr__(name: str) -> Any:
    """The deprecated name ``MemoryMiddleware``: the same class as :class:`MemoryAgentMiddleware`."""
    if name == "MemoryMiddleware":
        warnings.warn(
            "tact_memory.adapters.langchain.MemoryMiddleware is deprecated; use MemoryAgentMiddleware",
            DeprecationWarning,
            stacklevel=2,
        )
        return MemoryAgentMiddleware
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Memory for OpenAI Agents SDK agents (``tact-memory[openai-agents]``).

``memory = MemoryForAgents.from_config()`` gives a ``memory`` tool for your agents
(``Agent(..., tools=[*memory.tools])``) and a runner: ``await memory.run(agent, input, ...)`` and
``memory.run_sync(...)`` take what ``Runner.run`` and ``Runner.run_sync`` take. A run started through
them gets the instruction paragraph, the review checkpoint and a role; the SDK's own ``Runner`` knows
nothing of memory, so the tool of an agent run without them refuses every call with
``unavailable`` instead of guessing a role. The SDK's pieces used here:

- Tool: a ``FunctionTool`` with the published JSON schema, not strict (the input is one object whose
  fields depend on ``operation``, which strict mode cannot say). Its calls go to a
  :class:`~tact_memory.tool.guard.Dispatcher` made for the run, so the role check and the result,
  the JSON ``tact-memory tool`` prints, are the library's. One dispatcher serves a run, so
  scan-before-put holds within it.
- Instructions and checkpoint: the run's ``RunConfig.call_model_input_filter`` (any filter of your
  own runs first). Before each model call of an agent that carries the tool, it adds
  :data:`~tact_memory.runtime.prompt.MEMORY_INSTRUCTIONS` to the instructions (once, with
  :func:`~tact_memory.runtime.prompt.assemble_system`), and, for the root run's own agents, appends
  :data:`~tact_memory.screening.checkpoint.CHECKPOINT_TEXT` as its own last ``input_text`` part to
  every user message of the model input except the conversation's first (when your filter cut
  that one away, every user message it kept) (rule I5, as
  :func:`~tact_memory.runtime.checkpoint_rule.checkpoint_due` decides; a restored session's history
  holds its first message, so it is past the first turn; a run whose input lacks the first turn,
  because the provider keeps it (``previous_response_id``, a ``conversation_id`` run before) or
  the session sends only its latest items, marks every user message). The filter changes only what the model is
  sent: a ``Session`` stores, and ``result.to_input_list()`` returns, what the user typed, and
  every later model call, also after a restore, shows the model the same checkpoints. The SDK's one
  way to give a run user input while it is under way is to stage it on a stopped run's state
  (``RunState.add_input``) before resuming it: that steer is a user message after the
  conversation's first, so it gets the checkpoint, in the first turn too.
- Role (rule I17, :mod:`tact_memory.runtime.roles`): decided when :meth:`MemoryForAgents.run`
  starts, never read from tool arguments, and tied to that run; the run is marked for its whole
  length. The run's own agents are the one it starts with and those its handoffs reach, and a
  tool call is the run's own only when one of the run's own model calls asked for it: the run
  gets lifecycle hooks of memory's (wrapping yours, ``hooks=``, which see every event as before)
  that note the call ids of its model responses and each memory call the run starts (with its
  agent), and a run nested in a tool never reaches them: a nested call whose model reuses one of
  the run's ids (models that number calls from zero do) is still not the run's own.
  Any other call of the tool during the run comes from an agent started inside it (an agent run
  as another agent's tool with ``Agent.as_tool``, also one the handoffs reach, or by a tool of
  yours): it gets :func:`~tact_memory.runtime.roles.decide_role` there, inside the mark, so it is
  a child. It scans and reads, its puts and deletes are ``forbidden``, and it gets no checkpoint
  (a model call made while the run's own tools are under way is a nested one). A run
  started with :meth:`MemoryForAgents.run` inside another is a child too. State
  ``role=Role.ROOT`` for top-level runs that run beside others in one process, and
  ``role=Role.CHILD`` for sub-agents whose parent does not use memory.
- Approvals: with :func:`writes_need_approval` as the tool's ``needs_approval``, a put or a delete
  stops the run for a person. A run resumed from its state (``result.to_state()``, also through
  ``to_string()`` and ``RunState.from_string``) is the same run again: this object remembers which
  of its runs' own model calls asked for each pending call, so the approved put is the root's and
  follows the scans made before the stop. A state this object did not stop (saved in another
  process) is read for the same facts (:func:`_own_history`): the call ids its own model
  responses hold (a nested run's are kept apart, with its tool's call), and whether its memory
  tool had answered a scan since its last put. It cannot show that the run it saved was itself
  started inside another memory run; only the role decided at resumption lowers it.

With memory disabled there is no tool (``tools`` is empty), no instructions and no checkpoint, and
:meth:`MemoryForAgents.run` is ``Runner.run``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import warnings
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from agents import Agent, FunctionTool, RunConfig, RunHooks, Runner, RunResult, RunState, UserError
from agents.run import CallModelData, ModelInputData
from agents.tool_context import ToolContext

from .. import errors
from ..backend import MemoryBackend
from ..runtime.checkpoint_rule import CHECKPOINT_TEXT, checkpoint_due
from ..runtime.prompt import MEMORY_INSTRUCTIONS, assemble_system
from ..runtime.roles import RoleDecision, decide_role, running
from ..runtime.stores import ConfiguredMemory
from ..tool.guard import Dispatcher, Role
from ..tool.memory_tool import scanned_since_put, store_limits
from ..tool.results import ToolResult, error_result
from ..tool.schemas import TOOL_NAME, tool_definition

__all__ = ["MemoryForAgents", "is_checkpoint", "with_checkpoints", "writes_need_approval"]

_CHECKPOINT_PART = {"type": "input_text", "text": CHECKPOINT_TEXT}


class _Run:
    """One run started by :meth:`MemoryForAgents.run`: its role, its dispatcher and its own agents."""

    def __init__(
        self, owner: MemoryForAgents, decision: RoleDecision, agents: Sequence[object], *, continued: bool = False
    ) -> None:
        self.owner = owner
        self.decision = decision
        self.continued = continued
        """Whether the model input lacks the conversation's first turn (see :func:`with_checkpoints`)."""
        self.sent = False
        """Whether one of the run's own agents has called the model."""
        self.dispatcher = decision.dispatcher(owner.store)
        self.agents = list(agents)
        self.started_inside: dict[int, tuple[object, Dispatcher]] = {}
        self.calls: set[str] = set()
        """Ids of the tool calls the run's own model calls asked for (:class:`_Hooks`)."""
        self.started: set[tuple[int, object]] = set()
        """(agent, call id) of each memory call the run itself started (:class:`_Hooks`): a nested
        run's model may give its call an id the run's own model used (models that number their
        calls from zero do), and its agent may be one of the run's own (a handoff target run as a
        tool), but the run's hooks never see that call start."""
        self.tools_running = 0
        """Tool calls of the run's own agents under way: while any is, the run's own loop waits
        for them, so a model call then comes from a run nested in one of them."""

    def owns(self, agent: object) -> bool:
        """Whether a model call of ``agent`` now is one of the run's own agents' (see :attr:`tools_running`)."""
        return self.tools_running == 0 and any(agent is own for own in self.agents)

    def dispatcher_for(self, agent: object, call_id: object) -> Dispatcher:
        """The run's dispatcher for a tool call its own agents' model calls asked for; a child's
        for any other (an agent started inside the run, with ``Agent.as_tool`` or by a tool of
        yours, even one its handoffs reach: a nested run's model responses never reach the run's
        hooks, so their call ids are not the run's)."""
        if call_id in self.calls and (id(agent), call_id) in self.started and any(agent is own for own in self.agents):
            return self.dispatcher
        known = self.started_inside.get(id(agent))
        if known is None or known[0] is not agent:
            known = self.started_inside[id(agent)] = (agent, decide_role(self.owner.role).dispatcher(self.owner.store))
        return known[1]


_RUN: ContextVar[_Run | None] = ContextVar("tact_memory_openai_agents_run", default=None)
"""The memory run the current code belongs to (inherited by the SDK's tasks and nested runs)."""

class _Hooks(RunHooks[Any]):
    """The run's lifecycle hooks: yours, as given, and memory's note of its own tool calls.

    The SDK calls a run's hooks for that run's own model and tool calls only; a run nested in a
    tool (``Agent.as_tool``) gets the hooks it is given, never these. Every hook method is yours
    (those a later SDK adds too), except the three that also take notes for :class:`_Run`.
    """

    _NOTING = frozenset(("on_llm_end", "on_tool_start", "on_tool_end"))

    def __init__(self, run: _Run, yours: Any) -> None:
        self._run = run
        self._yours = yours if yours is not None else RunHooks()

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("on_") and name not in _Hooks._NOTING:
            return getattr(object.__getattribute__(self, "_yours"), name)
        return object.__getattribute__(self, name)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        for item in getattr(response, "output", None) or []:
            call_id = getattr(item, "call_id", None)
            if isinstance(call_id, str):
                self._run.calls.add(call_id)
        await self._yours.on_llm_end(context, agent, response)

    async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
        self._run.tools_running += 1
        if tool is self._run.owner.tool:
            self._run.started.add((id(agent), getattr(context, "tool_call_id", None)))
        await self._yours.on_tool_start(context, agent, tool)

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: Any) -> None:
        self._run.tools_running = max(0, self._run.tools_running - 1)
        await self._yours.on_tool_end(context, agent, tool, result)


def _own_agents(start: object) -> list[object]:
    """``start`` and every agent its handoffs reach (``Agent`` entries, and ``handoff(agent)`` ones)."""
    found: list[object] = []
    pending = [start]
    while pending:
        agent = pending.pop()
        if agent is None or any(agent is seen for seen in found):
            continue
        found.append(agent)
        for entry in getattr(agent, "handoffs", None) or []:
            ref = getattr(entry, "_agent_ref", None)  # set by ``handoff(agent)``
            pending.append(entry if isinstance(entry, Agent) else (ref() if callable(ref) else None))
    return found


def _field(item: object, name: str) -> Any:
    """``item``'s field ``name``, whether the SDK holds it as a model or as a mapping."""
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def _call_id(item: object) -> str | None:
    """The call id of an approval item (``ToolApprovalItem``) of a run's result or state."""
    call_id = _field(getattr(item, "raw_item", None), "call_id")
    return call_id if isinstance(call_id, str) else None


def _own_history(state: RunState[Any]) -> tuple[set[str], bool]:
    """What a run's state shows of the run's own model calls: the ids of the tool calls they asked
    for, and whether the memory tool had scanned since its last put
    (:func:`~tact_memory.tool.memory_tool.scanned_since_put`) when the run stopped.

    A state keeps the responses of the run's own model calls; those of a run nested in a tool
    (``Agent.as_tool``) it keeps apart, with that tool's call, so their ids are not among these.
    The SDK offers no accessor for them: they are read from the state's fields, or, should a
    release name those otherwise, from its ``to_json()`` (the versioned form it saves and reads
    back); a state that shows neither shows nothing, and its pending calls are a child's.
    """
    responses, items = getattr(state, "_model_responses", None), getattr(state, "_generated_items", None)
    if not isinstance(responses, list) or not isinstance(items, list):
        try:
            saved = state.to_json()
        except (UserError, TypeError, ValueError):  # the SDK cannot save some states (same-name agents, no context)
            return set(), False
        responses, items = saved.get("model_responses") or [], saved.get("generated_items") or []
    asked = [
        item
        for response in responses
        for item in _field(response, "output") or []
        if isinstance(_field(item, "call_id"), str)
    ]
    answers = {
        _field(_field(item, "raw_item"), "call_id"): _field(_field(item, "raw_item"), "output")
        for item in items
        if _field(item, "type") == "tool_call_output_item"
    }
    scanned = scanned_since_put(answers.get(_field(item, "call_id")) for item in asked if _field(item, "name") == TOOL_NAME)
    return {_field(item, "call_id") for item in asked}, scanned


async def writes_need_approval(context: Any, arguments: Mapping[str, Any], call_id: str) -> bool:
    """A ``needs_approval`` policy for the memory tool: a person approves every put and delete the
    tool would carry out.

    Set it on the tool in place, ``memory.tool.needs_approval = writes_need_approval`` (the tool
    must stay the object the adapter made: runs recognise the agents that carry memory by it). A
    run then stops at a put or a delete with the call among ``result.interruptions``; approve it
    on ``result.to_state()`` and pass that state to :meth:`MemoryForAgents.run`, which resumes
    the same run, with its role and its scans. A write the tool refuses whatever the answer (a
    child's, a malformed call, one outside a memory run) is not asked about: it is refused at once
    (:meth:`~tact_memory.tool.guard.Dispatcher.would_write`).
    """
    run = _RUN.get()
    if run is None or call_id not in run.calls:  # refused at once: unbound, or a child's call
        return False
    return run.dispatcher.would_write(arguments)


def is_checkpoint(part: object) -> bool:
    """Whether a content part of a model input item is the review checkpoint."""
    return isinstance(part, Mapping) and part.get("type") == "input_text" and part.get("text") == CHECKPOINT_TEXT


def _is_user_message(item: object) -> bool:
    return isinstance(item, Mapping) and item.get("role") == "user" and item.get("type", "message") == "message"


def with_checkpoints(items: Iterable[Any], *, continued: bool = False) -> list[Any]:
    """Model input items with the checkpoint appended to every user message but the conversation's first.

    New items replace the changed ones; the items given, which a session may hold, are not changed.

    Args:
        items: The model input (``ModelInputData.input``): the conversation so far and this run's items.
        continued: The input does not start at the conversation's first turn (the provider keeps the
            earlier turns, or a session sends only its latest items), so every user message in it
            gets the checkpoint.
    """
    out: list[Any] = []
    seen_first = continued
    for item in items:
        if _is_user_message(item):
            # Each user message after the conversation's first started a later turn, or is a steer
            # staged on a stopped run's state: either way it is due.
            due = checkpoint_due("user", earlier_turns=1 if seen_first else 0)
            seen_first = True
            content = item.get("content")
            parts = [{"type": "input_text", "text": content}] if isinstance(content, str) else list(content or [])
            if due and not any(is_checkpoint(p) for p in parts):
                item = {**item, "content": [*parts, dict(_CHECKPOINT_PART)]}
        out.append(item)
    return out


_CONVERSATIONS_KEPT = 4096
"""Conversation ids a :class:`MemoryForAgents` remembers having run (the oldest forgotten first)."""


async def _session_trimmed(session: object, run_config: RunConfig | None) -> bool:
    """Whether the SDK will send only the latest items of ``session``: it has a ``limit`` (the
    session's ``session_settings``, overridden by the run's) and holds more items than that, so
    the conversation's first message is not among them."""
    if session is None:
        return False
    settings = getattr(session, "session_settings", None)
    override = getattr(run_config, "session_settings", None)
    if override is not None:
        settings = settings.resolve(override) if settings is not None else override
    limit = getattr(settings, "limit", None)
    if not isinstance(limit, int) or isinstance(limit, bool):
        return False
    get_items = getattr(session, "get_items", None)
    if get_items is None:
        return False
    return len(await get_items(limit=limit + 1)) > limit


def _on_default_loop(awaitable: Coroutine[Any, Any, bool]) -> bool:
    """Run ``awaitable`` on the loop ``Runner.run_sync`` is about to use: the thread's default
    loop, which a session may have bound its own primitives to. Inside a running loop
    ``run_sync`` refuses to start; this answers ``False`` and lets it say so."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        awaitable.close()
        return False
    policy = asyncio.get_event_loop_policy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            loop = policy.get_event_loop()
        except RuntimeError:
            loop = policy.new_event_loop()
            policy.set_event_loop(loop)
    if loop.is_closed():
        loop = policy.new_event_loop()
        policy.set_event_loop(loop)
    return loop.run_until_complete(awaitable)


class MemoryForAgents(ConfiguredMemory):
    """The memory tool, instructions, review checkpoint and role for OpenAI Agents SDK runs.

    Args:
        store: The corpus, or ``None`` when memory is disabled (nothing is then added).
        role: The role of runs started with :meth:`run`; ``None`` derives it for each run (a child
            when started inside another memory-enabled run or while one is running, else the root).
            A stated role is lowered to child inside another memory-enabled run, never raised.
    """

    def __init__(self, store: MemoryBackend | None, *, role: Role | None = None) -> None:
        self.store = store
        self.role = role
        self._conversations: dict[str, None] = {}  # conversation ids run before, oldest first
        self._paused: dict[str, _Run | None] = {}
        """A call awaiting approval -> the run whose model asked for it (``None``: two runs' models
        gave a call that id, as a model whose ids count from zero does), oldest first."""
        self.tool: FunctionTool | None = self._make_tool(store) if store is not None else None
        """The ``memory`` tool, or ``None`` when memory is disabled."""

    @property
    def tools(self) -> list[FunctionTool]:
        """The tools to give an agent: ``[tool]``, or none when memory is disabled."""
        return [self.tool] if self.tool is not None else []

    @property
    def instructions(self) -> str | None:
        """The paragraph runs add to the instructions of agents that carry the tool; ``None`` when disabled."""
        return MEMORY_INSTRUCTIONS if self.enabled else None

    # -- the tool ---------------------------------------------------------------------------------

    def _make_tool(self, store: MemoryBackend) -> FunctionTool:
        definition = tool_definition(store_limits(store))
        return FunctionTool(
            name=TOOL_NAME,
            description=definition["description"],
            params_json_schema=definition["input_schema"],
            on_invoke_tool=self._invoke,
            strict_json_schema=False,
        )

    async def _invoke(self, ctx: ToolContext[Any], arguments: str) -> str:
        run = _RUN.get()
        result: ToolResult
        if run is None or run.owner is not self:
            refusal = errors.StoreUnavailable(
                "the memory tool runs only in a run started with MemoryForAgents.run", path="", reason="unbound"
            )
            result = error_result(None, refusal)
        else:
            result = await run.dispatcher_for(getattr(ctx, "agent", None), getattr(ctx, "tool_call_id", None)).acall(arguments)
        return json.dumps(result, ensure_ascii=False)

    # -- model calls ------------------------------------------------------------------------------

    def _carries_tool(self, agent: object) -> bool:
        return any(tool is self.tool for tool in getattr(agent, "tools", None) or [])

    def prepare(self, agent: object, model_data: ModelInputData) -> ModelInputData:
        """What the model is sent instead of ``model_data``: instructions, and the checkpoint for the root.

        Args:
            agent: The agent about to call the model.
            model_data: The instructions and input the SDK would send.
        """
        return self._prepare(agent, model_data, model_data.input)

    def _prepare(self, agent: object, model_data: ModelInputData, unfiltered: list[Any]) -> ModelInputData:
        """:meth:`prepare`, where ``unfiltered`` is the model input before your own filter, if any,
        changed it (it may have cut the conversation's first message away)."""
        if not self.enabled or not self._carries_tool(agent):
            return model_data
        items = model_data.input
        run = _RUN.get()
        if run is not None and run.owner is self and run.owns(agent):
            run.sent = True
            if run.decision.role is Role.ROOT:
                first = next((item for item in unfiltered if _is_user_message(item)), None)
                cut = items is not unfiltered and first is not None and not any(item == first for item in items)
                items = with_checkpoints(items, continued=run.continued or cut)
        return ModelInputData(input=items, instructions=assemble_system(model_data.instructions or "", enabled=True))

    def run_config(self, base: RunConfig | None = None) -> RunConfig:
        """``base`` (or a default ``RunConfig``) whose model input filter adds memory's part after its own."""
        config = base if base is not None else RunConfig()
        if not self.enabled:
            return config
        inner = config.call_model_input_filter

        async def memory_filter(data: CallModelData[Any]) -> ModelInputData:
            unfiltered = list(data.model_data.input)
            if inner is not None:
                updated = inner(data)
                data = dataclasses.replace(data, model_data=await updated if inspect.isawaitable(updated) else updated)
            return self._prepare(data.agent, data.model_data, unfiltered)

        return dataclasses.replace(config, call_model_input_filter=memory_filter)

    # -- runs -------------------------------------------------------------------------------------

    def _start(self, starting_agent: object, input: object, *, continued: bool = False) -> _Run:
        """Decide a run's role where its caller's context is visible, before the run is marked.

        A run resumed from the state of one that stopped for approvals is that run again, with its
        dispatcher (its role and its scans) and the call ids its model asked for, unless it is now
        started inside another memory run while it was the root: a role is lowered, never raised.
        """
        decision = decide_role(self.role)
        # The runs of this object that stopped with the state's pending calls (``None``: an id two
        # of its runs gave); a state they name is theirs, or, named by more than one, no one's.
        pending = [c for c in map(_call_id, input.get_interruptions()) if c is not None] if isinstance(input, RunState) else []
        claims = [self._paused[call_id] for call_id in pending if call_id in self._paused]
        runs = {id(run): run for run in claims if run is not None}
        earlier = next(iter(runs.values())) if len(runs) == 1 and None not in claims else None
        if earlier is not None and not (decision.role is Role.CHILD and earlier.decision.role is Role.ROOT):
            earlier.agents.extend(a for a in _own_agents(starting_agent) if not any(a is own for own in earlier.agents))
            earlier.tools_running = 0
            return earlier
        run = _Run(self, decision, _own_agents(starting_agent), continued=continued)
        if isinstance(input, RunState) and not claims:
            # A state this object did not stop (saved in another process): its own model calls say
            # which pending calls are the run's, and whether it had scanned before it stopped. One
            # whose calls this object has seen paused, but cannot tell by whose run, shows nothing.
            calls, scanned = _own_history(input)
            run.calls |= calls
            if scanned:
                run.dispatcher.tool.note_scan()
        return run

    def _pause(self, run: _Run, result: object) -> None:
        """Remember the run whose own model asked for the calls ``result`` stopped to have approved;
        an id another run's model gave too is remembered as claimed by no one."""
        for call_id in map(_call_id, getattr(result, "interruptions", None) or []):
            if call_id is not None and call_id in run.calls:
                before = self._paused.pop(call_id, run)
                self._paused[call_id] = run if before is run else None
        while len(self._paused) > _CONVERSATIONS_KEPT:
            del self._paused[next(iter(self._paused))]

    def _conversation_seen(self, kwargs: Mapping[str, Any]) -> bool | None:
        """Whether the run continues a conversation the provider keeps; ``None`` when it names none.

        With ``previous_response_id`` or ``conversation_id`` the provider holds the earlier turns
        and the SDK sends only the new one. A previous response means an earlier turn. A
        conversation id does only if a run of this object used it before: a conversation just
        created has none, and one carried over from another process cannot be told apart (state
        ``continues=True`` for it).
        """
        if kwargs.get("previous_response_id"):
            return True
        conversation = kwargs.get("conversation_id")
        if not isinstance(conversation, str) or not conversation:
            return None
        return conversation in self._conversations

    def _ran(self, run: _Run, kwargs: Mapping[str, Any]) -> None:
        """Remember the run's conversation id once the run has sent the model its first turn."""
        conversation = kwargs.get("conversation_id")
        if run.sent and isinstance(conversation, str) and conversation:
            self._conversations.pop(conversation, None)
            self._conversations[conversation] = None
            while len(self._conversations) > _CONVERSATIONS_KEPT:
                del self._conversations[next(iter(self._conversations))]

    async def _continues(self, kwargs: Mapping[str, Any], run_config: RunConfig | None) -> bool:
        """Whether this run's model input lacks the conversation's first turn."""
        seen = self._conversation_seen(kwargs)
        if seen is not None:
            return seen
        return await _session_trimmed(kwargs.get("session"), run_config)

    async def run(
        self,
        starting_agent: Agent[Any],
        input: Any,
        *,
        run_config: RunConfig | None = None,
        continues: bool | None = None,
        **kwargs: Any,
    ) -> RunResult:
        """``Runner.run`` with memory: the same arguments, and the same result.

        Args:
            starting_agent: The agent the run starts with.
            input: The run's input (a string or input items).
            run_config: Your run configuration, if any; memory's filter is added to a copy of it.
            continues: Whether the run continues a conversation whose earlier turns are not in the
                model input; ``None`` (the default) tells from ``previous_response_id``, a
                ``conversation_id`` this object ran before, or a ``session`` whose history the SDK
                cuts to its ``limit``. Otherwise the input's first user message is the conversation's
                first, which gets no checkpoint.
            **kwargs: Anything else ``Runner.run`` takes (``session``, ``context``, ``max_turns``...).
        """
        if not self.enabled:
            return await Runner.run(starting_agent, input, run_config=run_config, **kwargs)
        continued = await self._continues(kwargs, run_config) if continues is None else continues
        run = self._start(starting_agent, input, continued=continued)
        token = _RUN.set(run)
        try:
            with running("openai-agents run"):
                hooks = _Hooks(run, kwargs.pop("hooks", None))
                result = await Runner.run(starting_agent, input, run_config=self.run_config(run_config), hooks=hooks, **kwargs)
                self._pause(run, result)
                return result
        finally:
            _RUN.reset(token)
            self._ran(run, kwargs)

    def run_sync(
        self,
        starting_agent: Agent[Any],
        input: Any,
        *,
        run_config: RunConfig | None = None,
        continues: bool | None = None,
        **kwargs: Any,
    ) -> RunResult:
        """``Runner.run_sync`` with memory (see :meth:`run`)."""
        if not self.enabled:
            return Runner.run_sync(starting_agent, input, run_config=run_config, **kwargs)
        if continues is None:
            continues = _on_default_loop(self._continues(kwargs, run_config))
        run = self._start(starting_agent, input, continued=continues)
        token = _RUN.set(run)
        try:
            with running("openai-agents run"):
                hooks = _Hooks(run, kwargs.pop("hooks", None))
                result = Runner.run_sync(starting_agent, input, run_config=self.run_config(run_config), hooks=hooks, **kwargs)
                self._pause(run, result)
                return result
        finally:
            _RUN.reset(token)
            self._ran(run, kwargs)

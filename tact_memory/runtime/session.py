"""Runtimes, sessions and agents: where memory meets an agent loop.

A :class:`Runtime` is made from a config. It creates sessions (new, restored from a saved state, or
forked from one) and owns the one lazily opened store. Each :class:`Session` takes a snapshot of
the memory settings when it is created; :meth:`Runtime.reload` changes what later sessions get and
never what a running session has (I14).

A session has one root :class:`Agent`; :meth:`Session.spawn_child` (or :meth:`Agent.spawn_child`)
makes child agents, which the dispatcher lets scan and read but never put or delete. Every
submission, model request, model call and tool call of an agent runs through the session's
:class:`~tact_memory.runtime.middleware.MiddlewareStack`, with
:class:`~tact_memory.runtime.middleware.MemoryMiddleware` innermost for every hook.

Submissions: :meth:`Session.submit` accepts a user message and starts a turn; :meth:`Session.steer`
accepts a steer, which joins the running turn (in flight, delivered with the next model call) or,
when no turn is running, is promoted into a new turn. A steer is never left unanswered:
:meth:`Session.end_turn` does not end a turn while a steer waits (one accepted during the model
call that gave the final answer) and says so, and the loop calls the model again in the same turn. A rejected submission (empty text, or vetoed
by a middleware raising :class:`SubmissionRejected`) changes nothing. Restored and forked sessions
continue the turn count, so their next user message is past the first turn.

Why this module is longer than ~300 lines: Runtime, Session and Agent share the session state
(turns, steers, roles) and are easier to check together; middleware, the loop and the checkpoint
rule are their own modules.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from ..backend import MemoryBackend
from ..config.loading import Config, MemorySettings, load_config
from ..errors import ConfigError, TactMemoryError
from ..tool.guard import Dispatcher, Role
from .messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Part,
    ToolCall,
    TranscriptEntry,
)
from .middleware import Middleware, MiddlewareStack, Submission, ToolOutput
from .roles import decide_role, running
from .stores import close_store, config_store

if TYPE_CHECKING:
    from ..config.reload import ReloadEvent
    from ..config.watcher import ConfigWatcher

__all__ = [
    "Agent",
    "AsyncModel",
    "Model",
    "Runtime",
    "Session",
    "SessionKind",
    "SessionState",
    "SubmissionRejected",
    "ToolExecutor",
]

SessionKind = Literal["new", "restored", "forked"]
Model = Callable[[ModelRequest], ModelResponse]
"""The loop boundary: one model call, from system text, tools and messages to text and/or tool calls."""
AsyncModel = Callable[[ModelRequest], Awaitable[ModelResponse]]
"""The same boundary for async model clients."""
ToolExecutor = Callable[[ToolCall], ToolOutput]
"""Runs the application's own tools; the memory tool never reaches it."""


_MAX_OFFERS = 8
"""How many requests built with waiting steers an agent remembers until one is given to a model."""


class SubmissionRejected(TactMemoryError):
    """A submission was not accepted; nothing changed."""

    code = "submission_rejected"


@dataclass
class SessionState:
    """What is saved to restore or fork a session: the model-visible history and the display."""

    system: str = ""
    """The application's own system prompt (the memory paragraph is reconciled on every request)."""
    history: list[Message] = field(default_factory=list)
    """The root agent's model-visible messages, checkpoints included."""
    transcript: list[TranscriptEntry] = field(default_factory=list)
    """What a person saw, without control text."""
    turns: int = 0
    """How many turns have started."""

    def to_json(self) -> str:
        """Serialise for storage beside the application's own session data."""
        return json.dumps(
            {
                "system": self.system,
                "history": [m.to_json() for m in self.history],
                "transcript": [{"role": e.role, "text": e.text, "kind": e.kind} for e in self.transcript],
                "turns": self.turns,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> SessionState:
        """Load a state saved by :meth:`to_json`."""
        data = json.loads(text)
        return cls(
            system=data["system"],
            history=[Message.from_json(m) for m in data["history"]],
            transcript=[TranscriptEntry(e["role"], e["text"], e.get("kind", "user")) for e in data["transcript"]],
            turns=int(data["turns"]),
        )


class Agent:
    """One agent of a session: its role, its model-visible history and its memory dispatcher."""

    def __init__(
        self, session: Session, *, role: Role, system: str, history: list[Message], name: str, stated: Role | None
    ) -> None:
        self.session = session
        self.role = role
        """The agent's place in its session: the root (which takes the user's turns and steers) or a child."""
        self.system = system
        self.history = history
        self.name = name
        self.dispatcher: Dispatcher | None = (
            decide_role(stated).dispatcher(session.store) if session.settings.enabled else None
        )
        """The memory tool, authorized for the memory role ``stated`` by the application, or, when
        none was stated, the one the runtime can tell (rule I17: a child when it is created inside
        another memory-enabled agent's work, or while one is at work anywhere in the process);
        ``None`` when memory is disabled."""
        self._offers: dict[int, tuple[ModelRequest, tuple[Message, ...]]] = {}
        """Requests built with waiting steers, by id, until a model call is given one."""

    def spawn_child(self, *, system: str = "", name: str | None = None) -> Agent:
        """A child agent of this session: it may scan and read memory, never put or delete."""
        return self.session.spawn_child(system=system, name=name)

    # -- requests -------------------------------------------------------------------------------

    def request(self, tools: Sequence[dict[str, Any]] = ()) -> ModelRequest:
        """The next model request: the history, waiting steers (root only), middleware applied.

        Building a request changes nothing: calling this twice gives equal requests, and the
        history stays as it was. The steers it carries join the history when :meth:`call_model`
        (or :meth:`acall_model`) is given this request.
        """
        steers = self.session.waiting_steers() if self.role is Role.ROOT else ()
        built = ModelRequest(system=self.system, tools=tuple(tools), messages=(*self.history, *steers))
        request = self.session.stack.request(self, built)
        if steers:
            self._offers[id(request)] = (request, steers)
            while len(self._offers) > _MAX_OFFERS:
                del self._offers[next(iter(self._offers))]
        return request

    def call_model(self, model: Model, request: ModelRequest) -> ModelResponse:
        """Call ``model`` through the middleware and record its response in the history."""
        self._deliver(request)
        with self._running():  # the whole stack: an agent your middleware starts here is nested too
            response = self.session.stack.model_call(self, request, model)
        self.record(response)
        return response

    async def acall_model(self, model: AsyncModel, request: ModelRequest) -> ModelResponse:
        """Async :meth:`call_model`."""
        self._deliver(request)
        with self._running():
            response = await self.session.stack.amodel_call(self, request, model)
        self.record(response)
        return response

    def _deliver(self, request: ModelRequest) -> None:
        """The steers ``request`` carries are given to a model now: they join the history.

        A request this agent built is known by identity. One the loop made from it (its tools
        changed with ``dataclasses.replace``, or copied by a framework) is not, so the waiting
        steers it carries are found among its messages instead: the same objects, or equal ones
        at its end, where :meth:`request` puts them.
        """
        offer = self._offers.pop(id(request), None)
        if offer is not None and offer[0] is request:
            self.session.deliver_steers(offer[1])
            return
        if self.role is not Role.ROOT:
            return
        waiting = self.session.waiting_steers()
        if not waiting:
            return
        carried = {id(message) for message in request.messages}
        given = [steer for steer in waiting if id(steer) in carried]
        if not given:  # copies: the oldest steers that were waiting when it was built, at its end
            count = next((k for k in range(len(waiting), 0, -1) if request.messages[-k:] == waiting[:k]), 0)
            given = list(waiting[:count])
        self.session.deliver_steers(given)

    def record(self, response: ModelResponse) -> None:
        """Append a model response (text and tool calls) to the history."""
        if response.text:
            self.history.append(Message("assistant", "assistant", (Part(response.text),)))
            if self.role is Role.ROOT and not response.tool_calls:
                self.session.transcript.append(TranscriptEntry("assistant", response.text, "assistant"))
        for call in response.tool_calls:
            self.history.append(Message("assistant", "tool_call", (Part(_call_text(call)),), tool_call=call))

    # -- tools ------------------------------------------------------------------------------------

    def run_tool(self, call: ToolCall, executor: ToolExecutor | None = None) -> ToolOutput:
        """Run one tool call through the middleware; record and return its result."""
        with self._running():
            output = self.session.stack.tool_call(self, call, executor or _unknown_tool)
        self._record_result(call, output)
        return output

    async def arun_tool(
        self, call: ToolCall, executor: Callable[[ToolCall], Awaitable[ToolOutput]] | None = None
    ) -> ToolOutput:
        """Async :meth:`run_tool`; the memory tool's store work runs in a worker thread."""

        async def unknown(c: ToolCall) -> ToolOutput:
            return _unknown_tool(c)

        with self._running():
            output = await self.session.stack.atool_call(self, call, executor or unknown)
        self._record_result(call, output)
        return output

    def _running(self) -> AbstractContextManager[None]:
        """While a model call or a tool call of a memory-enabled agent runs (through all of the
        middleware), an agent started inside it is a child."""
        return running(f"runtime call of {self.name}") if self.dispatcher is not None else nullcontext()

    def _record_result(self, call: ToolCall, output: ToolOutput) -> None:
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        self.history.append(Message("tool", "tool_result", (Part(text),), tool_call_id=call.id))


def _call_text(call: ToolCall) -> str:
    args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments, ensure_ascii=False)
    return f"{call.name}({args})"


def _unknown_tool(call: ToolCall) -> ToolOutput:
    return {"error": {"code": "unknown_tool", "message": f"no tool named {call.name!r}"}}


def _continued(state: SessionState) -> SessionState:
    """A copy of a saved state to continue from: past its first turn, sharing no lists with it."""
    return replace(state, turns=max(state.turns, 1), history=list(state.history), transcript=list(state.transcript))


class Session:
    """One conversation: a settings snapshot, a root agent, a turn count and a display transcript."""

    def __init__(
        self,
        runtime: Runtime,
        *,
        kind: SessionKind,
        settings: MemorySettings,
        state: SessionState,
        middleware: Sequence[Middleware],
        role: Role | None = None,
    ) -> None:
        self.runtime = runtime
        self.kind: SessionKind = kind
        self.settings = settings
        """The memory settings this session was created with; a reload does not change them."""
        self.stack = MiddlewareStack(middleware)
        """The middleware every hook of every agent runs through, in its one order."""
        self.middleware: tuple[Middleware, ...] = self.stack.layers
        """Every middleware, outermost first, memory's last (innermost)."""
        self.turns = state.turns
        self.transcript = state.transcript
        self.turn_running = False
        self._pending_steers: list[Message] = []
        self._turn_lock = threading.RLock()  # a steer from another thread vs. the end of the turn
        self._names = itertools.count(1)
        self._store = runtime.store if settings.enabled else None  # constructing a store opens nothing
        self.root = self._new_agent(Role.ROOT, system=state.system, history=state.history, name="root", stated=role)

    @property
    def store(self) -> MemoryBackend | None:
        """The corpus when memory is enabled for this session, else ``None``; a reload does not change it."""
        return self._store

    def _new_agent(
        self, role: Role, *, system: str, history: list[Message], name: str | None, stated: Role | None
    ) -> Agent:
        return Agent(
            self, role=role, system=system, history=history, name=name or f"child-{next(self._names)}", stated=stated
        )

    def spawn_child(self, *, system: str = "", name: str | None = None) -> Agent:
        """A new child agent: it may scan and read memory, never put or delete.

        Args:
            system: The child's own system prompt (the memory paragraph is added when enabled).
            name: A name for debugging; ``child-N`` when not given.
        """
        return self._new_agent(Role.CHILD, system=system, history=[], name=name, stated=Role.CHILD)

    def state(self) -> SessionState:
        """A copy of what is needed to restore or fork this session."""
        return SessionState(
            system=self.root.system,
            history=list(self.root.history),
            transcript=list(self.transcript),
            turns=self.turns,
        )

    def _accept(self, text: str, submission: Submission) -> Message:
        if not isinstance(text, str) or not text.strip():
            raise SubmissionRejected("an empty submission is not accepted")
        return self.stack.submission(self.root, Message("user", submission.kind, (Part(text),)), submission)

    def submit(self, text: str) -> Message:
        """Accept a user message: it starts a new turn. Returns the model-visible message.

        Raises:
            SubmissionRejected: empty text, or a middleware refused it; nothing changed.
        """
        message = self._accept(text, Submission("user", self.turns + 1, in_flight=False))
        self._start_turn(message, text, "user")
        return message

    def steer(self, text: str) -> Message:
        """Accept a steer: into the running turn, or promoted into a new turn when none is running.

        Raises:
            SubmissionRejected: empty text, or a middleware refused it; nothing changed.
        """
        with self._turn_lock:
            if self.turn_running:
                message = self._accept(text, Submission("steer", self.turns, in_flight=True))
                self._pending_steers.append(message)
                self.transcript.append(TranscriptEntry("user", text, "steer"))
                return message
            message = self._accept(text, Submission("steer", self.turns + 1, in_flight=False))
            self._start_turn(message, text, "steer")
            return message

    def _start_turn(self, message: Message, text: str, kind: Literal["user", "steer"]) -> None:
        self._deliver_steers()  # left waiting by a loop that ended its turn anyway: they come first
        self.turns += 1
        self.turn_running = True
        self.root.history.append(message)
        self.transcript.append(TranscriptEntry("user", text, kind))

    def _deliver_steers(self) -> None:
        self.root.history.extend(self._pending_steers)
        self._pending_steers.clear()

    def waiting_steers(self) -> tuple[Message, ...]:
        """The accepted steers that no model call has been given yet, oldest first."""
        with self._turn_lock:
            return tuple(self._pending_steers)

    def deliver_steers(self, steers: Sequence[Message]) -> None:
        """Move ``steers`` into the root history, as a model call is given them.

        Only steers still waiting move, in the order given; one already delivered (by an earlier
        call, or by the start or end of a turn) is skipped, so no steer joins the history twice.
        """
        with self._turn_lock:
            for steer in steers:
                index = next((i for i, waiting in enumerate(self._pending_steers) if waiting is steer), None)
                if index is not None:
                    self.root.history.append(self._pending_steers.pop(index))

    @property
    def steers_waiting(self) -> bool:
        """Whether steers were accepted that no model call has been given yet."""
        return bool(self._pending_steers)

    def end_turn(self) -> bool:
        """End the running turn after the model's final answer, unless a steer is waiting.

        A steer accepted while the final model call ran has not been answered: the turn then goes
        on, and the loop calls the model again (the next model call is given the steer with its
        checkpoint). Once ended, later steers are promoted into new turns.

        Returns:
            ``True`` when the turn ended; ``False`` when a steer is waiting for a model call.
        """
        with self._turn_lock:
            if self._pending_steers:
                return False
            self.turn_running = False
            return True

    def abandon_turn(self) -> None:
        """End the running turn after a failure: waiting steers join the history unanswered."""
        with self._turn_lock:
            self._deliver_steers()
            self.turn_running = False


class Runtime:
    """Creates sessions from a config and owns the lazily opened store.

    Args:
        config: The configuration in force for new sessions.
        middleware: Application middleware, outermost first; memory's own runs innermost.
        store: A backend to use instead of the store the config gives.
        workspace: The folder the sessions work in (default: the current folder when the store is
            made), as ``tact-memory --workspace DIR``: inside a ``[memory.team]`` workspace root
            the store is the team service's, and only it (an outage answers ``unavailable``);
            elsewhere it is the local SQLite store at ``config.database_path``.
    """

    def __init__(
        self,
        config: Config,
        *,
        middleware: Sequence[Middleware] = (),
        store: MemoryBackend | None = None,
        workspace: str | os.PathLike[str] | None = None,
    ) -> None:
        self.config = config
        self.middleware = tuple(middleware)
        self.workspace = workspace
        """The workspace folder given, or ``None`` for the current folder."""
        self._store = store
        self._store_given = store is not None

    @classmethod
    def from_config(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        middleware: Sequence[Middleware] = (),
        workspace: str | os.PathLike[str] | None = None,
    ) -> Runtime:
        """A runtime for the selected ``config.toml`` (see :func:`tact_memory.config.loading.load_config`)
        and ``workspace`` (default: the current folder)."""
        return cls(load_config(path), middleware=middleware, workspace=workspace)

    @property
    def store(self) -> MemoryBackend:
        """The corpus of the workspace; constructing it opens nothing, its first operation does."""
        if self._store is None:
            self._store = config_store(self.config, workspace=self.workspace)
        return self._store

    def close(self) -> None:
        """Close the store's connections, if it has opened any; nothing is lost, and its next
        operation (a session's tool call) opens them again. A runtime is also a context manager that
        closes on exit. (Python 3.13 and later warn about a SQLite connection that is left to the
        garbage collector instead.)"""
        close_store(self._store)

    def __enter__(self) -> Runtime:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def reload(self, config: Config) -> str:
        """Make ``config`` the one new and restored sessions get; running sessions keep theirs.

        Returns:
            The one-line notice to show a person (see :class:`tact_memory.config.reload.ReloadEvent`).

        Raises:
            ConfigError: ``config`` selects another database (a ``config.toml`` in another folder);
                the corpus path stays stable across reloads, so nothing changes. Start a new
                ``Runtime`` for another corpus.
        """
        from ..config.reload import ReloadEvent

        if config.database_path != self.config.database_path:
            raise ConfigError(
                f"a reload keeps the memory database ({self.config.database_path}); this configuration selects "
                f"{config.database_path}, so nothing changed. Start a new Runtime for another corpus",
                path=str(config.path),
            )
        event = ReloadEvent(config=config, previous=self.config)
        self._apply(config)
        return event.notice

    def _apply(self, config: Config) -> None:
        """Make ``config`` the one in force; when its ``[memory.team]`` differs, later sessions get the store it gives.

        The store of the old configuration is not closed: running sessions keep using it.
        """
        if not self._store_given and config.memory.team != self.config.memory.team:
            self._store = None
        self.config = config

    def watch(self, *, on_notice: Callable[[str], None] | None = None, debounce_ms: int = 200) -> ConfigWatcher:
        """Follow the config file on a background thread; each valid edit reaches new sessions.

        A broken edit keeps the configuration in force. Running sessions are never changed. The
        file is followed as it was selected (:attr:`Config.origin
        <tact_memory.config.loading.Config.origin>`): if one named by ``--config``, ``TACT_CONFIG``
        or the program disappears, the last good configuration stays (an error, reported once);
        if one found through ``TACT_HOME`` or the default folder does, the defaults (memory off)
        are in force, as in the browser and in a process started then.
        Stop the returned watcher (or use it as a context manager) when the runtime is done.

        Args:
            on_notice: Called with the one-line notice of every reload, on the watcher's thread.
            debounce_ms: Quiet time after the last change before the file is re-read.
        """
        from ..config.watcher import ConfigWatcher

        def apply(event: ReloadEvent) -> None:
            self._apply(event.config)
            if on_notice is not None:
                on_notice(event.notice)

        watcher = ConfigWatcher(self.config.source, on_reload=apply, initial=self.config, debounce_ms=debounce_ms)
        watcher.start()
        return watcher

    def _session(self, kind: SessionKind, state: SessionState, role: Role | None) -> Session:
        return Session(
            self, kind=kind, settings=self.config.memory, state=state, middleware=self.middleware, role=role
        )

    def new_session(self, *, system: str = "", role: Role | None = None) -> Session:
        """A fresh session; its first user message carries no checkpoint.

        Args:
            system: The root agent's system prompt (the memory paragraph is added when enabled).
            role: The root agent's memory role. Unstated (``None``), it is the root only on the
                main thread while no memory-enabled agent is at work anywhere in the process: a
                session started from a tool call, or on any other thread, is a sub-agent's and may
                only scan and read (rule I17). A top-level agent that runs beside others (two users
                served at once) or on a thread of its own states ``Role.ROOT``; one started inside
                another agent's work is a child even so.
        """
        return self._session("new", SessionState(system=system), role)

    def restore_session(self, state: SessionState, *, role: Role | None = None) -> Session:
        """Continue a saved session with the current settings; it starts past its first turn.
        ``role`` as for :meth:`new_session`."""
        return self._session("restored", _continued(state), role)

    def fork_session(self, state: SessionState, *, role: Role | None = None) -> Session:
        """Branch a saved session into a new one that shares its past; it starts past the first turn.
        ``role`` as for :meth:`new_session`."""
        return self._session("forked", _continued(state), role)

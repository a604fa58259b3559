"""Which role an agent gets: stated, or lowered by what the runtime can see (rule I17).

Every adapter and the runtime mark the work of a memory-enabled agent while it runs (a whole
pydantic-ai run, a LangChain model or tool call, a runtime tool call) with :func:`running`. The
mark is kept in two places:

- a context variable, which everything started inside the work inherits: a tool, an output or
  instructions function, an asyncio task, ``asyncio.to_thread`` and LangChain's own thread pool, all
  of which copy the context. An agent that starts under it is nested, whatever role it was given.
- a process-wide count of marks in flight, which every thread sees, also the threads and fresh
  ``contextvars.Context`` objects that inherit nothing (``loop.run_in_executor``, a bare
  ``ThreadPoolExecutor``, ``threading.Thread``, ``Context().run``).

:func:`decide_role` combines them. Detection only ever lowers a role: inside a mark, an agent is a
child even when it was stated root; a stated role is otherwise kept; an agent whose role was not
stated is the root only when it starts on the main thread and no memory-enabled agent is at work
anywhere in the process, since it cannot then be nested; otherwise it is a child (a thread that a
tool started inherits no mark and may start its agent after the tool returned, so any other thread
is a place the runtime cannot see into). Two independent top-level agents running at the same
time in one process (two threads, or two tasks of a server), and a top-level agent on a thread
of its own, therefore state ``role=ROOT``.
A child can still scan and read, and its refused put says how to state the role.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from ..backend import MemoryBackend
from ..tool.guard import Dispatcher, Role

__all__ = ["RoleDecision", "busy", "decide_role", "inside", "running"]

Reason = Literal["stated", "nested", "enclosed", "busy", "thread", "alone"]

_INSIDE: ContextVar[str | None] = ContextVar("tact_memory_inside", default=None)
"""The label of the innermost memory-enabled agent work this code runs inside, if any."""

_lock = threading.Lock()
_in_flight = 0
"""How many marks are open in the whole process, on any thread."""

_NOTES: dict[Reason, str] = {
    "stated": "",
    "nested": (
        " This agent was started inside another memory-enabled agent's run (a tool, an output or "
        "instructions function), so it is a child whatever role it was given."
    ),
    "enclosed": (
        " Its role was not stated and it was started inside a step of another agent's graph (a "
        "middleware hook or a tool of a LangGraph agent), so it runs as a child. An agent that is a "
        "step of your own workflow graph states its role (role=Role.ROOT)."
    ),
    "busy": (
        " Its role was not stated and another memory-enabled agent was running in this process when "
        "it started, so it runs as a child. A top-level agent that runs beside others states its role "
        "(role=Role.ROOT)."
    ),
    "thread": (
        " Its role was not stated and it started on a thread other than the main one, where the "
        "runtime cannot tell whether another agent's tool started it, so it runs as a child. A "
        "top-level agent that runs on a thread of its own states its role (role=Role.ROOT)."
    ),
    "alone": "",
}


@contextmanager
def running(label: str) -> Iterator[None]:
    """Mark the code inside as a memory-enabled agent's work: an agent started inside is a child.

    Args:
        label: What is running (for example ``"pydantic-ai run"``); kept for debugging only.
    """
    global _in_flight
    token = _INSIDE.set(label)
    with _lock:
        _in_flight += 1
    try:
        yield
    finally:
        with _lock:
            _in_flight -= 1
        _INSIDE.reset(token)


def inside() -> bool:
    """Whether this code runs, by its context, inside a memory-enabled agent's work."""
    return _INSIDE.get() is not None


def busy() -> bool:
    """Whether any memory-enabled agent's work is in flight anywhere in the process."""
    with _lock:
        return _in_flight > 0


@dataclass(frozen=True)
class RoleDecision:
    """An agent's role and how it was decided."""

    role: Role
    """The role the agent runs with."""
    reason: Reason
    """``stated`` (kept as given), ``nested`` (lowered by the context), ``enclosed`` (not stated,
    and the framework shows it runs inside a step of another agent's graph), ``busy`` (not stated, and
    another agent was at work), ``thread`` (not stated, on a thread other than the main one) or
    ``alone`` (not stated, on the main thread, and nothing else was at work)."""

    @property
    def note(self) -> str:
        """What a refused put adds to its message: why the agent is a child, and the remedy."""
        return _NOTES[self.reason] if self.role is Role.CHILD else ""

    def dispatcher(self, store: MemoryBackend | None) -> Dispatcher:
        """A dispatcher with this role, whose refusals carry :attr:`note`."""
        return Dispatcher(store, role=self.role, refusal_note=self.note)


def decide_role(stated: Role | None, *, enclosed: bool = False) -> RoleDecision:
    """The role of an agent starting now; detection may lower ``stated``, never raise it.

    Args:
        stated: The role the application gave, or ``None`` when it gave none.
        enclosed: The framework shows that the agent runs inside a step of another agent or graph
            (a LangGraph node), whether or not that one uses memory: an agent whose role was not
            stated is then a child.
    """
    if inside():
        return RoleDecision(Role.CHILD, "nested" if stated is not Role.CHILD else "stated")
    if stated is not None:
        return RoleDecision(Role(stated), "stated")
    if enclosed:
        return RoleDecision(Role.CHILD, "enclosed")
    if busy():
        return RoleDecision(Role.CHILD, "busy")
    if threading.current_thread() is not threading.main_thread():
        # A thread a tool started inherits no mark, and may create its agent after the tool has
        # returned: from here, a nested agent and a top-level one cannot be told apart.
        return RoleDecision(Role.CHILD, "thread")
    return RoleDecision(Role.ROOT, "alone")

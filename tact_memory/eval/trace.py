"""What one evaluation run recorded: plain data, no behaviour.

The runner fills these while it drives the real runtime; :mod:`tact_memory.eval.summary` turns them
into metrics. Keeping the record separate from both means every metric is a pure function of
what happened, and a test can build a trace by hand and know the right value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .scenarios import Fact, Scenario

__all__ = ["DAY_MS", "START_MS", "ArmTrace", "CallTrace", "PairTrace", "RecordState", "SessionTrace", "TaskTrace"]

Arm = Literal["on", "off"]

DAY_MS = 86_400_000
START_MS = 1_800_000_000_000
"""The simulated clock every arm runs on: day 0 starts here, and each session starts on its
scenario day (one second passes per step), so a seven-day probation means what it does in use."""


@dataclass(frozen=True)
class CallTrace:
    """One memory tool call as the runtime ran it."""

    session: int
    """0-based session index."""
    turn: int
    """0-based turn index within the session."""
    task: str | None
    """The task the turn belongs to, if any."""
    role: Literal["root", "child"]
    """Who called."""
    operation: str | None
    """``scan``, ``read``, ``put``, ``delete``, or ``None`` for an unparseable call."""
    arguments: dict[str, Any]
    """The call's arguments (an unparseable call is kept under ``raw``)."""
    result: dict[str, Any]
    """The JSON result the model received."""
    latency_ms: float
    """Wall time of the call through the middleware, in milliseconds."""
    corpus: tuple[tuple[int, str], ...] = ()
    """For scans: every live record ``(id, content)`` just before the scan ran."""
    at_ms: int = 0
    """The simulated time the call ran at (see :data:`START_MS`)."""

    @property
    def error(self) -> str | None:
        """The error code, when the call was refused."""
        error = self.result.get("error")
        return str(error.get("code")) if isinstance(error, dict) else None


@dataclass(frozen=True)
class TaskTrace:
    """The answer to one task."""

    task: str
    """Task id."""
    session: int
    """0-based session index."""
    turn: int
    """0-based turn index."""
    answer: str
    """The final answer text ("" when the agent gave none)."""
    user_text: str
    """Everything the user typed in that turn (message and steers)."""


@dataclass(frozen=True)
class SessionTrace:
    """Context cost of one session."""

    index: int
    """0-based session index."""
    kind: str
    """``new``, ``restored`` or ``forked``."""
    memory_calls: int
    """Memory tool calls made in this session (any agent)."""
    memory_tokens: int
    """Estimated tokens of stored memory that entered model context during this session."""
    leaks: int
    """Stored texts found in runtime-added request text other than this session's own results."""
    requests: int
    """Model requests made in this session."""
    sent_tokens: int = 0
    """Estimated tokens of all the session's requests together: what the session cost to send."""
    agent_context_tokens: dict[str, int] = field(default_factory=dict)
    """Estimated tokens of each agent's largest request in the session (``root``, ``child-1``, …),
    with everything the arm adds (tool definitions, the prompt paragraph, checkpoints, memory
    results): what memory adds to an agent's context is this minus the same agent's in the other arm."""

    @property
    def context_tokens(self) -> int:
        """The largest request of the session, any agent's: the most context a model held."""
        return max(self.agent_context_tokens.values(), default=0)


@dataclass(frozen=True)
class RecordState:
    """A live record when the arm finished."""

    id: int
    version: int
    content: str
    scan_count: int
    read_count: int
    on_probation: bool
    """True when the current version has not been read yet."""
    seeded: bool
    """True for records stored before the first session."""


@dataclass
class ArmTrace:
    """One scenario run with memory on or off."""

    scenario: str
    arm: Arm
    position: int
    """0 when this arm ran first for its scenario, 1 when second."""
    calls: list[CallTrace] = field(default_factory=list)
    tasks: list[TaskTrace] = field(default_factory=list)
    sessions: list[SessionTrace] = field(default_factory=list)
    seeds: list[tuple[int, str]] = field(default_factory=list)
    final: list[RecordState] = field(default_factory=list)
    main_bytes: int = 0
    """Size of the main database file at the end."""
    sidecar_bytes: int = 0
    """Size of ``-journal``/``-wal``/``-shm`` files at the end."""
    untouched: bool = True
    """For the off arm: the database folder was neither created nor changed."""
    failures: list[str] = field(default_factory=list)
    """Turns that ended without an answer (too many steps, a request the provider refused), by description."""
    error: str | None = None
    """The provider's refusal that stopped the arm (``ModelHTTPError: status_code: 400, …``), or
    ``None``; the tasks it did not reach are recorded with an empty answer, so they fail."""
    seconds: float = 0.0


@dataclass
class PairTrace:
    """Both arms of one scenario."""

    scenario: Scenario
    on: ArmTrace
    off: ArmTrace
    background: tuple[Fact, ...] = ()
    """The shared corpus both arms started with (see
    :func:`~tact_memory.eval.scenarios.load_background`): records no task needs."""

    @property
    def first(self) -> Arm:
        """The arm that ran first."""
        return "on" if self.on.position == 0 else "off"

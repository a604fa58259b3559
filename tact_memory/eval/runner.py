"""Paired runs: every scenario once with memory on and once with memory off.

Both arms go through the real product: a ``config.toml`` with ``[memory] enabled = true`` or
``false`` in a fresh temporary folder, :class:`~tact_memory.runtime.session.Runtime` sessions (new,
restored, forked), :func:`~tact_memory.runtime.loop.run_agent`, and the real SQLite store at
``<config-dir>/memory/v1.sqlite3``. Both arms start from the same state (the scenario's seed
records, written through the store before the first session), use the same policy, and run the
same turns. Which arm runs first alternates with the scenario's index, so any order effect is
spread evenly.

The runner observes through one ordinary application middleware, outermost in the stack: it
times every memory call, snapshots the live corpus (telemetry untouched) before each scan, keeps
each model request for the context audit, and delivers a turn's in-flight steers right after the
agent's first model call. Two application tools make turns realistic: ``workspace`` shows what the
scenario says the repository shows this turn, and ``delegate`` runs a child agent.

The store's clock is simulated: each session runs on its scenario day and every memory call
advances one second, so probation deadlines mean what they would in use.

Why this module is longer than ~300 lines: a paired run drives sessions, the scripted model and the
trace in one loop; metrics and the verdict are their own modules.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from ..config.loading import load_config
from ..retrieval.lexer import preview
from ..runtime.loop import MaxStepsExceeded, run_agent
from ..runtime.messages import Message, ModelRequest, ModelResponse, Part, ToolCall
from ..runtime.middleware import Middleware, ModelCallNext, ToolCallNext, ToolOutput
from ..runtime.session import Agent, Model, Runtime, Session, SessionState
from ..store.sqlite import MemoryStore
from ..tool.guard import Role
from ..tool.schemas import TOOL_NAME
from .metrics import estimate_tokens
from .policies import Policy, refused
from .scenarios import Fact, Scenario, SessionSpec, Turn
from .trace import DAY_MS, START_MS, ArmTrace, CallTrace, PairTrace, RecordState, SessionTrace, TaskTrace

__all__ = ["DELEGATE_TOOL", "WORKSPACE_TOOL", "request_tokens", "run_arm", "run_pair", "run_pairs", "system_prompt"]

MAX_STEPS = 64

WORKSPACE_TOOL: dict[str, Any] = {
    "name": "workspace",
    "description": "Show the current state of the repository for this request: relevant files and the "
    "output of the last commands. Call it once before acting.",
    "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
}
DELEGATE_TOOL: dict[str, Any] = {
    "name": "delegate",
    "description": "Hand a self-contained request to a child agent and get its answer back.",
    "input_schema": {
        "type": "object",
        "properties": {"request": {"type": "string", "description": "What the child agent should do."}},
        "required": ["request"],
        "additionalProperties": False,
    },
}
_QUIET = "Nothing notable: the working tree is clean and the last command succeeded."


def system_prompt(repository: str) -> str:
    """The application's own system prompt for a session in ``repository``."""
    return (
        f"You are a coding agent working in the `{repository}` repository. Follow the user's requests; "
        "use the workspace tool to look at the repository. When you finish, answer with what you did "
        "or what you would do, including any commands, names or values you relied on."
    )


class _Clock:
    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        return self.now

    def day(self, day: int) -> None:
        self.now = max(self.now, START_MS + day * DAY_MS)

    def tick(self) -> None:
        self.now += 1000


@dataclass
class _Where:
    session: int = 0
    turn: int = 0
    task: str | None = None
    steers: list[str] = field(default_factory=list)


class _Recorder(Middleware):
    """Observes one arm: memory calls, requests, and in-flight steers."""

    def __init__(self, store: MemoryStore | None, clock: _Clock) -> None:
        self.store = store
        self.clock = clock
        self.where = _Where()
        self.calls: list[CallTrace] = []
        self.requests: list[tuple[int, int, ModelRequest, str]] = []
        """``(session, agent's starting history length, request, agent's name)``; the session names
        its agents ``root``, ``child-1``, ``child-2``… in the order it makes them, so that both arms'
        agents pair up."""
        self.starts: dict[int, int] = {}

    def wrap_model_call(self, agent: Agent, request: ModelRequest, call_next: ModelCallNext) -> ModelResponse:
        self.requests.append((self.where.session, self.starts.get(id(agent), 0), request, agent.name))
        response = call_next(request)
        if agent.role is Role.ROOT and response.tool_calls and self.where.steers:
            for text in self.where.steers:
                agent.session.steer(text)
            self.where.steers = []
        return response

    def wrap_tool_call(self, agent: Agent, call: ToolCall, call_next: ToolCallNext) -> ToolOutput:
        if call.name != TOOL_NAME:
            return call_next(call)
        arguments = _arguments(call.arguments)
        operation = arguments.get("operation") if isinstance(arguments.get("operation"), str) else None
        corpus: tuple[tuple[int, str], ...] = ()
        if operation == "scan" and self.store is not None:
            corpus = tuple((r.key.id, r.content) for r in self.store.list_records(order="id"))
        at = self.clock()
        begin = time.perf_counter()
        output = call_next(call)
        elapsed = (time.perf_counter() - begin) * 1000
        self.clock.tick()
        result = output if isinstance(output, dict) else {"raw": output}
        role: Literal["root", "child"] = "root" if agent.role is Role.ROOT else "child"
        w = self.where
        self.calls.append(CallTrace(w.session, w.turn, w.task, role, operation, arguments, result, elapsed, corpus, at))
        return output


def _arguments(raw: dict[str, Any] | str) -> dict[str, Any]:
    """A call's arguments as an object; text that is not a JSON object is kept under ``raw``."""
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        parsed = None
    return parsed if isinstance(parsed, dict) else {"raw": raw}


@dataclass(frozen=True)
class _Start:
    """A database file holding the background corpus, copied into every arm."""

    path: Path | None
    records: tuple[tuple[int, str], ...]


def run_pairs(
    scenarios: Iterable[Scenario],
    policy: Policy,
    *,
    background: Sequence[Fact] = (),
    progress: Callable[[Scenario], None] | None = None,
    dropped: list[tuple[str, str]] | None = None,
) -> list[PairTrace]:
    """Run every scenario in both arms; ``progress`` is told after each scenario.

    Args:
        scenarios: The scenarios, in the order that decides which arm runs first.
        policy: Plays the model in both arms.
        background: Records stored before every scenario, in both arms (a shared corpus).
        progress: Called after each scenario.
        dropped: When given, a scenario whose run raises (a provider that keeps failing, or that
            refused a request in both arms) is left out, both arms, and ``(scenario id, error)`` is
            added here; otherwise the error is raised. A refusal in one arm only is that arm's
            failure, not a reason to leave the scenario out (see :func:`run_pair`).
    """
    pairs = []
    with tempfile.TemporaryDirectory(prefix="tact-eval-start-") as folder:
        start = _start(Path(folder), background)
        for index, scenario in enumerate(scenarios):
            try:
                pairs.append(replace(run_pair(scenario, policy, index=index, start=start), background=tuple(background)))
            except Exception as exc:
                if dropped is None:
                    raise
                dropped.append((scenario.id, f"{type(exc).__name__}: {exc}"))
            if progress is not None:
                progress(scenario)
    return pairs


def _start(folder: Path, background: Sequence[Fact]) -> _Start:
    if not background:
        return _Start(None, ())
    path = folder / "start.sqlite3"
    with MemoryStore(path, clock=_Clock()) as store:
        records = tuple((store.put(f.content).memory.key.id, f.content) for f in background)
    return _Start(path, records)


def run_pair(scenario: Scenario, policy: Policy, *, index: int, start: _Start | None = None) -> PairTrace:
    """Both arms of one scenario; memory on runs first when ``index`` is even.

    When the provider refuses a request of one arm for what it holds (see
    :func:`~tact_memory.eval.policies.refused`: memory on can fill a context window the other arm
    never reaches), that arm fails and the pair is kept, so the comparison sees it. When it refuses
    both, nothing is compared: the first refusal is raised.
    """
    order = (True, False) if index % 2 == 0 else (False, True)
    arms: dict[bool, ArmTrace] = {}
    refusals: list[Exception] = []
    for i, enabled in enumerate(order):
        arms[enabled], refusal = _arm(scenario, policy, enabled=enabled, position=i, start=start)
        refusals += [refusal] if refusal is not None else []
    if len(refusals) == len(order):
        raise refusals[0]
    return PairTrace(scenario, arms[True], arms[False])


def run_arm(
    scenario: Scenario, policy: Policy, *, enabled: bool, position: int = 0, start: _Start | None = None
) -> ArmTrace:
    """One arm of one scenario in a fresh temporary config folder, from the same starting corpus.

    A request the provider refuses stops the arm without raising: its trace names the refusal
    (:attr:`~tact_memory.eval.trace.ArmTrace.error`) and the tasks it did not reach fail.
    """
    return _arm(scenario, policy, enabled=enabled, position=position, start=start)[0]


def _arm(
    scenario: Scenario, policy: Policy, *, enabled: bool, position: int, start: _Start | None
) -> tuple[ArmTrace, Exception | None]:
    """:func:`run_arm`, and the refusal that stopped the arm, if any."""
    begin = time.perf_counter()
    refusal: Exception | None = None
    trace = ArmTrace(scenario.id, "on" if enabled else "off", position)
    with tempfile.TemporaryDirectory(prefix="tact-eval-") as folder:
        path = Path(folder) / "config.toml"
        path.write_text(f"[memory]\nenabled = {'true' if enabled else 'false'}\n", encoding="utf-8")
        config = load_config(path)
        clock = _Clock()
        if start is not None and start.path is not None:
            config.database_path.parent.mkdir(mode=0o700)
            shutil.copyfile(start.path, config.database_path)
            os.chmod(config.database_path, 0o600)
            trace.seeds = list(start.records)
        trace.seeds += _seed(config.database_path, scenario, clock)
        before = _fingerprint(config.database_path)
        store = MemoryStore(config.database_path, clock=clock) if enabled else None
        try:
            recorder = _Recorder(store, clock)
            runtime = Runtime(config, middleware=[recorder], store=store)
            run = _Run(scenario, runtime, recorder, policy.model(scenario.brief()), clock, trace)
            try:
                run.sessions()
            except Exception as exc:
                if not refused(exc):
                    raise
                refusal = exc
                run.stopped(f"{type(exc).__name__}: {exc}")
            trace.calls = recorder.calls
            if store is not None:
                seeded = {id_ for id_, _ in trace.seeds}
                trace.final = [
                    RecordState(r.key.id, r.key.version, r.content, r.scan_count, r.read_count,
                                r.probation_until_ms is not None, r.key.id in seeded)
                    for r in store.list_records(order="id")
                ]  # fmt: skip
                status = store.status()
                trace.main_bytes, trace.sidecar_bytes = status.file_bytes, status.sidecar_bytes
        finally:
            if store is not None:
                store.close()
        if not enabled:
            trace.untouched = _fingerprint(config.database_path) == before
    trace.seconds = time.perf_counter() - begin
    return trace, refusal


def _seed(path: Path, scenario: Scenario, clock: _Clock) -> list[tuple[int, str]]:
    if not scenario.seeds:
        return []
    with MemoryStore(path, clock=clock) as store:
        return [(store.put(scenario.fact(seed).content).memory.key.id, scenario.fact(seed).content) for seed in scenario.seeds]


def _fingerprint(path: Path) -> tuple[bool, str]:
    folder = path.parent
    if not folder.exists():
        return (False, "")
    digest = hashlib.sha256()
    for item in sorted(folder.iterdir()):
        digest.update(item.name.encode())
        digest.update(item.read_bytes() if item.is_file() else b"")
    return (True, digest.hexdigest())


class _Run:
    """The sessions of one arm."""

    def __init__(
        self, scenario: Scenario, runtime: Runtime, recorder: _Recorder, model: Model, clock: _Clock, trace: ArmTrace
    ) -> None:
        self.scenario = scenario
        self.runtime = runtime
        self.recorder = recorder
        self.model = model
        self.clock = clock
        self.trace = trace
        self.typed: set[str] = set()

    def sessions(self) -> None:
        states: list[SessionState] = []
        for index, spec in enumerate(self.scenario.sessions):
            self.clock.day(spec.day)
            session = self._open(spec, states, index)
            self.recorder.where = _Where(session=index)
            self.recorder.starts = {id(session.root): len(session.root.history)}
            calls_before = len(self.recorder.calls)
            try:
                for number, turn in enumerate(spec.turns):
                    self._turn(session, spec, index, number, turn)
            finally:  # a session a refusal stopped is measured too: its largest request may be why
                self.trace.sessions.append(self._audit(index, spec.kind, self.recorder.calls[calls_before:]))
            states.append(session.state())

    def stopped(self, error: str) -> None:
        """Record the refusal that stopped the arm where it happened; the tasks the arm did not
        reach have no answer, which fails them (:func:`~tact_memory.eval.summary.arm_outcomes`)."""
        w = self.recorder.where
        self.trace.error = error
        self.trace.failures.append(f"session {w.session + 1} turn {w.turn + 1}: {error}")

    def _open(self, spec: SessionSpec, states: list[SessionState], index: int) -> Session:
        if spec.kind == "new":
            return self.runtime.new_session(system=system_prompt(spec.repository))
        state = states[(spec.source or index) - 1]
        return self.runtime.restore_session(state) if spec.kind == "restored" else self.runtime.fork_session(state)

    def _turn(self, session: Session, spec: SessionSpec, index: int, number: int, turn: Turn) -> None:
        task = turn.task.id if turn.task else None
        self.recorder.where = _Where(index, number, task, list(turn.steers))
        self.typed.update([turn.user, *turn.steers])
        if turn.via == "steer":
            session.steer(turn.user)
        else:
            session.submit(turn.user)
        reply = self._run(session.root, spec, turn, f"session {index + 1} turn {number + 1}")
        while self.recorder.where.steers:  # the agent answered at once: the steer starts a new turn
            session.steer(self.recorder.where.steers.pop(0))
            reply = self._run(session.root, spec, turn, f"session {index + 1} turn {number + 1} (promoted steer)")
        if task is not None:
            self.trace.tasks.append(TaskTrace(task, index, number, reply, turn.typed))

    def _run(self, agent: Agent, spec: SessionSpec, turn: Turn, where: str) -> str:
        tools = [WORKSPACE_TOOL] + ([DELEGATE_TOOL] if agent.role is Role.ROOT else [])
        try:
            response = run_agent(agent, self.model, tools=tools, executor=self._executor(agent, spec, turn), max_steps=MAX_STEPS)
        except MaxStepsExceeded:
            self.trace.failures.append(f"{where}: no answer after {MAX_STEPS} model calls")
            return ""
        return response.text or ""

    def _executor(self, agent: Agent, spec: SessionSpec, turn: Turn) -> Callable[[ToolCall], ToolOutput]:
        def execute(call: ToolCall) -> ToolOutput:
            if call.name == "workspace":
                return {"output": turn.shows or _QUIET}
            if call.name == "delegate" and agent.role is Role.ROOT:
                arguments = call.arguments if isinstance(call.arguments, dict) else {}
                request = str(arguments.get("request") or turn.user)
                child = agent.spawn_child(system=system_prompt(spec.repository))
                child.history.append(Message("user", "user", (Part(request),)))
                self.typed.add(request)
                return {"answer": self._run(child, spec, turn, "child agent")}
            return {"error": {"code": "unknown_tool", "message": f"no tool named {call.name!r}"}}

        return execute

    def _audit(self, index: int, kind: str, calls: list[CallTrace]) -> SessionTrace:
        """Tokens of stored memory that entered context in one session, and any that came without a call."""
        stored = [preview(text, 64) for _, text in self.trace.seeds]
        stored += [str(c.arguments.get("content")) for c in self.recorder.calls if c.operation == "put" and c.error is None]
        stored = [text for text in dict.fromkeys(stored) if text.strip()]
        results = {json.dumps(c.result, ensure_ascii=False) for c in calls}
        tokens = sum(estimate_tokens(json.dumps(c.result, ensure_ascii=False)) for c in calls)
        leaks = 0
        requests = [(start, r, agent) for s, start, r, agent in self.recorder.requests if s == index]
        sent, peaks = 0, dict[str, int]()
        for _, request, agent in requests:
            size = request_tokens(request)
            sent += size
            peaks[agent] = max(peaks.get(agent, 0), size)
        for start, request, _ in requests:
            for text in _runtime_added(request, start, self.typed):
                if text in results:
                    continue  # this session's own memory results, already counted
                found = [s for s in stored if preview(s, 64) in text]
                leaks += len(found)
                tokens += sum(estimate_tokens(s) for s in found)
        return SessionTrace(index, kind, len(calls), tokens, leaks, len(requests), sent, peaks)


def request_tokens(request: ModelRequest) -> int:
    """Estimated tokens of everything one request gives the model: system prompt, tool definitions,
    and every message (text, and a tool call's name and arguments)."""
    total = estimate_tokens(request.system) + estimate_tokens(json.dumps(list(request.tools), ensure_ascii=False))
    for message in request.messages:
        total += estimate_tokens(message.text)
        if message.tool_call is not None:
            call = message.tool_call
            arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments, ensure_ascii=False)
            total += estimate_tokens(call.name) + estimate_tokens(arguments)
    return total


def _runtime_added(request: ModelRequest, start: int, typed: set[str]) -> list[str]:
    """Request text that neither the user typed nor the model wrote, nor an application tool returned."""
    texts = [request.system, json.dumps(list(request.tools), ensure_ascii=False)]
    calls = {m.tool_call.id: m.tool_call.name for m in request.messages if m.tool_call is not None}
    for message in request.messages[start:]:
        if message.role == "user":
            texts += [part.text for part in message.parts if part.text not in typed]
        elif message.kind == "tool_result" and calls.get(message.tool_call_id or "") == TOOL_NAME:
            texts.append(message.text)
    return texts

"""``tact-memory demo``: the whole feature in one scripted, offline run.

A scripted model plays a root agent through two sessions against a real SQLite store in a
temporary config directory (your own memory is never touched):

1. Session 1, new. Turn 1: a first message, no checkpoint. Turn 2: the user corrects the agent;
   the message carries the review checkpoint. While the agent works, the user steers; the steer
   carries the checkpoint too. The root agent scans, then puts two atomic conclusions. A child
   agent scans and reads them, and its put is refused by the dispatcher.
2. Session 2, new, later: the agent scans, reads, and uses the stored conclusions.

The scripted model reads the ids it uses from the tool results it received, as a real model would.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config.loading import load_config
from ..runtime.loop import run_agent
from ..runtime.messages import Message, ModelRequest, ModelResponse, Part, ToolCall
from ..runtime.middleware import ToolOutput
from ..runtime.session import Agent, Runtime, Session
from ..screening.checkpoint import CHECKPOINT_TEXT
from ..store.sqlite import MemoryStore
from ..testing import ScriptedModel, answer, call

__all__ = ["DemoRun", "render_text", "run_demo"]

NAMING = (
    "In the `commonware` repository, release tags are named `commonware-vX.Y.Z`, never bare "
    "`vX.Y.Z` (user correction, 2026-11)."
)
SIGNING = "In the `commonware` repository, release tags must be signed with `git tag -s` (user steer, 2026-11)."


@dataclass
class DemoSession:
    """One session of the demo: what every model call received, and the display transcript."""

    kind: str
    requests: list[tuple[str, ModelRequest]] = field(default_factory=list)
    transcript: list[dict[str, str]] = field(default_factory=list)
    histories: dict[str, list[Message]] = field(default_factory=dict)


@dataclass
class DemoRun:
    """Everything the demo did, for printing or JSON."""

    sessions: list[DemoSession]
    database: Path
    records: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "checkpoint": CHECKPOINT_TEXT,
            "sessions": [
                {
                    "kind": s.kind,
                    "model_requests": [
                        {
                            "agent": agent,
                            "system": r.system,
                            "tool_names": r.tool_names,
                            "messages": [
                                {"role": m.role, "kind": m.kind, "parts": [p.text for p in m.parts]} for m in r.messages
                            ],
                        }
                        for agent, r in s.requests
                    ],
                    "transcript": s.transcript,
                }
                for s in self.sessions
            ],
            "records": self.records,
        }


def _last_result(request: ModelRequest) -> dict[str, Any]:
    return dict(json.loads(request.messages[-1].text))


def _ids(request: ModelRequest) -> list[int]:
    return [c["key"]["id"] for c in _last_result(request).get("candidates", [])]


SHELL_TOOL = {
    "name": "shell",
    "description": "Run a shell command in the repository.",
    "input_schema": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
}


def _shell(call: ToolCall) -> ToolOutput:
    return {"exit_code": 0, "stdout": ""}  # the demo's application tool: pretend every command works


def _run(agent: Agent, steps: list[Any], log: DemoSession) -> None:
    model = ScriptedModel(steps)

    def recording(request: ModelRequest) -> ModelResponse:
        log.requests.append((agent.name, request))
        return model(request)

    run_agent(agent, recording, tools=[SHELL_TOOL], executor=_shell)
    log.histories[agent.name] = agent.history


def _session_one(runtime: Runtime) -> DemoSession:
    session = runtime.new_session(system="You are a coding agent working in the user's repositories.")
    log = DemoSession(session.kind)
    session.submit("Add a release workflow to the `commonware` repository.")
    _run(session.root, [
        call("memory", {"operation": "scan", "query": "commonware release workflow tags"}),
        answer("Added `.github/workflows/release.yml`; it tags releases as `v1.4.0`."),
    ], log)  # fmt: skip

    session.submit("No: in commonware we tag releases as `commonware-vX.Y.Z`, never a bare `vX.Y.Z`.")

    def steer_while_working(request: ModelRequest) -> ModelResponse:
        session.steer("Also, release tags there must be signed.")
        return call("shell", {"cmd": "sed -i 's/v$VERSION/commonware-v$VERSION/' .github/workflows/release.yml"})

    _run(session.root, [
        steer_while_working,
        call("memory", {"operation": "scan", "query": "commonware release tag naming"}),
        call("memory", {"operation": "put", "content": NAMING}),
        call("memory", {"operation": "scan", "query": "commonware release tag signing"}),
        call("memory", {"operation": "put", "content": SIGNING}),
        answer("Tags are now `commonware-vX.Y.Z` and signed; I saved both conclusions to memory."),
    ], log)  # fmt: skip

    child = session.root.spawn_child(system="You review one workflow file and report back.")
    child.history.append(Message("user", "user", (Part("Check release.yml against what we know about commonware."),)))
    _run(child, [
        call("memory", {"operation": "scan", "query": "commonware release tags"}),
        lambda request: call("memory", {"operation": "read", "ids": _ids(request)}),
        call("memory", {"operation": "put", "content": "The commonware release workflow was reviewed (child)."}),
        answer("release.yml matches both stored conclusions. I may not write memory; reporting instead."),
    ], log)  # fmt: skip
    log.transcript = [{"role": e.role, "text": e.text} for e in session.transcript]
    return log


def _session_two(runtime: Runtime) -> DemoSession:
    session: Session = runtime.new_session(system="You are a coding agent working in the user's repositories.")
    log = DemoSession(session.kind)
    session.submit("Cut the 2.0.0 release of commonware.")
    _run(session.root, [
        call("memory", {"operation": "scan", "query": "commonware release tags"}),
        lambda request: call("memory", {"operation": "read", "ids": _ids(request)}),
        answer("Tagged `commonware-v2.0.0` with `git tag -s`, as you asked in an earlier session."),
    ], log)  # fmt: skip
    log.transcript = [{"role": e.role, "text": e.text} for e in session.transcript]
    return log


def run_demo(directory: str | Path | None = None, *, clock: Callable[[], int] | None = None) -> DemoRun:
    """Run the scripted story in ``directory`` (a fresh temporary folder by default).

    Args:
        directory: Where to write the demo's ``config.toml`` and database.
        clock: Milliseconds for the store; tests pass a fixed clock for stable output.
    """
    if directory is None:
        with tempfile.TemporaryDirectory(prefix="tact-memory-demo-") as tmp:
            return run_demo(tmp, clock=clock)
    folder = Path(directory)
    config_path = folder / "config.toml"
    config_path.write_text("[memory]\nenabled = true\n", encoding="utf-8")
    config = load_config(config_path)
    store = MemoryStore(config.database_path, clock=clock) if clock else MemoryStore(config.database_path)
    runtime = Runtime(config, store=store)
    sessions = [_session_one(runtime), _session_two(runtime)]
    from ..tool.results import record_json

    records = [record_json(record) for record in store.list_records(order="id")]
    store.close()
    return DemoRun(sessions=sessions, database=config.database_path, records=records)


def render_text(run: DemoRun, *, width: int = 100) -> str:
    """A readable account: what the user typed, what the model saw, each tool call and result."""
    out: list[str] = []
    emit: Callable[[str], None] = out.append
    emit("tact-memory demo: a scripted model, a real SQLite store in a temporary folder.")
    emit("The review checkpoint the runtime appends (model-only) after the first turn and to every steer:")
    emit("")
    emit("  " + CHECKPOINT_TEXT.replace("\n", "\n  "))
    for number, session in enumerate(run.sessions, start=1):
        emit("")
        emit(f"== Session {number} ({session.kind}) " + "=" * max(0, width - 20))
        for agent, history in session.histories.items():
            if agent != "root":
                emit(f"  -- child agent {agent} (may scan and read, never put or delete)")
            for message in history:
                emit(_line(message, indent="  " if agent == "root" else "    "))
        emit("  transcript (what the user sees): " + " | ".join(f"{e['role']}: {e['text']}" for e in session.transcript))
    emit("")
    emit(f"Stored at the end ({len(run.records)} records):")
    for record in run.records:
        emit(f"  #{record['key']['id']} v{record['key']['version']} reads={record['read_count']} scans={record['scan_count']}: {record['content']}")
    return "\n".join(out)


def _line(message: Message, *, indent: str) -> str:
    if message.kind in ("user", "steer"):
        marker = " [+ review checkpoint, model-only]" if any(p.control for p in message.parts) else ""
        label = "user" if message.kind == "user" else "steer"
        return f"{indent}{label}> {message.display_text}{marker}"
    if message.kind == "tool_call":
        return f"{indent}  -> {message.text}"
    if message.kind == "tool_result":
        return f"{indent}  <- {message.text}"
    return f"{indent}assistant> {message.text}"

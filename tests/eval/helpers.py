"""Small scenarios and traces built by hand, where the right metric values are known."""

from __future__ import annotations

from typing import Any

from tact_memory.eval.scenarios import Fact, Scenario
from tact_memory.eval.trace import (
    ArmTrace,
    CallTrace,
    PairTrace,
    RecordState,
    SessionTrace,
    TaskTrace,
)

PORT = "In the `billing-api` repository, the local Postgres listens on port 5433, not 5432 (user correction)."


def scenario(**overrides: Any) -> Scenario:
    """A two-session scenario: a correction in session 1, a task that needs it in session 2."""
    data: dict[str, Any] = {
        "id": "tiny",
        "category": "durable_correction",
        "split": "held_out",
        "title": "tiny",
        "summary": "A correction crosses a session boundary.",
        "facts": [{"id": "port", "content": PORT, "evidence": "it's 5433", "match": ["5433"], "query": "billing-api postgres port"}],
        "sessions": [
            {"repository": "billing-api", "turns": [{"user": "Run the migrations."}, {"user": "No, it's 5433 locally."}]},
            {
                "repository": "billing-api",
                "day": 3,
                "turns": [
                    {
                        "user": "Seed the local database.",
                        "task": {"id": "seed", "query": "billing-api postgres port", "relevant": ["port"], "expect": ["5433"]},
                    }
                ],
            },
        ],
    }
    data.update(overrides)
    return Scenario.model_validate(data)


def scan(session: int, turn: int, returned: list[int], corpus: list[tuple[int, str]], *, task: str | None = "seed") -> CallTrace:
    cards = [{"key": {"id": i, "version": 1}, "score": 1.0, "preview": ""} for i in returned]
    return CallTrace(session, turn, task, "root", "scan", {"operation": "scan", "query": "q"},
                     {"operation": "scan", "abstained": not cards, "candidates": cards}, 1.0, tuple(corpus))  # fmt: skip


def read(session: int, turn: int, ids: list[int], *, task: str | None = "seed", at: int | None = None, version: int = 1) -> CallTrace:
    """A read of ``ids``; with ``at``, its records come back read at that time (at ``version``)."""
    memories = [] if at is None else [{"key": {"id": i, "version": version}, "last_read_at_ms": at} for i in ids]
    return CallTrace(session, turn, task, "root", "read", {"operation": "read", "ids": ids}, {"operation": "read", "memories": memories}, 2.0)


def put(
    session: int, turn: int, id_: int, content: str, *, version: int = 1, error: str | None = None, until: int | None = None
) -> CallTrace:
    """A put; ``until`` is the probation deadline its result shows (``None``: not on probation)."""
    if error is not None:
        result: dict[str, Any] = {"operation": "put", "error": {"code": error, "message": "refused"}}
    else:
        memory = {"key": {"id": id_, "version": version}, "content": content, "probation_until_ms": until}
        result = {"operation": "put", "replaced": version > 1, "memory": memory}
    return CallTrace(session, turn, None, "root", "put", {"operation": "put", "content": content}, result, 3.0)


def arm(name: str, *, calls: list[CallTrace] = (), answer: str = "", final: list[RecordState] = (),  # type: ignore[assignment]
        sessions: list[SessionTrace] = (), seeds: list[tuple[int, str]] = ()) -> ArmTrace:  # type: ignore[assignment]
    trace = ArmTrace("tiny", name, 0 if name == "on" else 1)  # type: ignore[arg-type]
    trace.calls = list(calls)
    trace.tasks = [TaskTrace("seed", 1, 0, answer, "Seed the local database.")]
    trace.final = list(final)
    trace.sessions = list(sessions)
    trace.seeds = list(seeds)
    return trace


def pair(on: ArmTrace, off: ArmTrace, sc: Scenario | None = None, background: tuple[Fact, ...] = ()) -> PairTrace:
    return PairTrace(sc or scenario(), on, off, background)

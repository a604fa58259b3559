"""Evaluation scenarios: loading and validating the TOML files shipped in ``tact_memory/eval/data/scenarios/``.

A scenario is a short story in sessions. Each session works in one repository, on one simulated
day, and is new, restored from an earlier session or forked from one. Its turns are user messages
(or steers promoted into a turn), optional in-flight steers, optional text the repository shows
during the turn (command output, a README), and optionally a *task*: a request whose answer is
checked, usually in a later session, after the relevant conclusion has crossed a session boundary.

Two kinds of knowledge live in a scenario, and they are kept apart on purpose:

* what a policy may use: the candidate conclusions (``facts``: content, the sentence of the
  conversation that states each one, which earlier fact it replaces) and each task's scan query.
  :class:`Brief` carries exactly this to the scripted policy;
* the ground truth the metrics use: ``match`` markers that identify a stored record as holding a
  fact, ``store = false`` for conclusions that must never be written (credentials, planted
  instructions), and each task's relevant facts and ``expect``/``reject`` markers.

A marker is a case-insensitive substring; in ``expect`` and ``reject`` a list of strings, such as
``["pnpm", "pnpm9"]``, accepts any one of them.
Validation is strict (unknown keys are errors) and checks the story is consistent: every fact is
stated somewhere in the conversation, every reference names an existing fact or session, every
marker occurs in the content it identifies. A file's name is its scenario id.

Why this module is longer than ~300 lines: the scenario schema and its consistency checks are one
validated model; splitting the models from their checks would let them drift.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import TactMemoryError
from .metrics import contains_all, contains_marker

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised by the 3.10 type check
    import tomli as tomllib

__all__ = [
    "CATEGORIES",
    "Brief",
    "BriefFact",
    "Category",
    "EvalError",
    "Fact",
    "Scenario",
    "SessionSpec",
    "Split",
    "Task",
    "Turn",
    "default_scenario_dir",
    "load_background",
    "load_scenario",
    "load_scenarios",
    "record_scope",
    "turn_text",
]

Category = Literal[
    "durable_correction",
    "rebuttal",
    "steer",
    "scope_refinement",
    "preference",
    "workspace_gotcha",
    "stale_replacement",
    "contradiction",
    "name_collision",
    "irrelevant_query",
    "secret",
    "adversarial_text",
]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
"""Every scenario category, in the order reports list them."""

Split = Literal["tuning", "held_out"]
"""Constants are tuned on ``tuning`` scenarios only; the verdict is computed on ``held_out`` ones."""


class EvalError(TactMemoryError):
    """A scenario, threshold file or policy name that cannot be used."""

    code = "eval_error"


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_SCOPE = re.compile(r"^\s*(?:in\s+(?:the\s+)?)?`([^`\s]+)`", re.IGNORECASE)


def record_scope(text: str) -> str | None:
    """The repository a record names first (``In the `x` repository, …`` or ```x` uses …``): the
    scope the specification asks a workspace-specific conclusion to name; ``None`` for one that
    names none (a global preference)."""
    match = _SCOPE.match(text)
    return match.group(1) if match else None


class Fact(_Closed):
    """A candidate conclusion: something a reviewing agent could store."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    """Name used by ``replaces``, ``seeds`` and tasks."""
    content: str = Field(min_length=1)
    """The self-contained record a careful agent writes."""
    evidence: str | None = None
    """A verbatim piece of the conversation that states the fact; ``None`` only for seeds."""
    match: list[str] = Field(min_length=1)
    """Ground truth: a record holds this fact when it contains every marker (case-insensitive)."""
    replaces: str | None = None
    """The earlier fact this one supersedes (a correction, refinement or newer state)."""
    retracts: str | None = None
    """The earlier fact this statement withdraws with nothing in its place (a record to delete);
    a retraction is never stored itself (``store = false``)."""
    store: bool = True
    """Ground truth: ``false`` for content that must never be stored."""
    query: str | None = None
    """What to scan for before storing it; defaults to the content."""
    scope: str | None = None
    """Ground truth: the repository the conclusion is about, when its content does not name it
    first (see :meth:`repository`)."""

    @property
    def supersedes(self) -> str | None:
        """The earlier fact this one replaces or withdraws, if any."""
        return self.replaces or self.retracts

    def repository(self) -> str | None:
        """The repository the conclusion is about: ``scope``, else the one its content names first
        (:func:`record_scope`); ``None`` for a conclusion that holds everywhere."""
        return self.scope or record_scope(self.content)


class Task(_Closed):
    """A request whose answer is checked."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    """Unique within the scenario."""
    query: str = Field(min_length=1)
    """The scan query the scripted policy uses for this request."""
    relevant: list[str] = []
    """Facts whose records answer the request; empty when memory holds nothing for it."""
    expect: list[str | list[str]] = []
    """Markers the answer must contain; a list inside accepts any one of its strings."""
    reject: list[str | list[str]] = []
    """Markers the answer must not contain (stale values, another repository's meaning, injections)."""
    allowed: list[str] = []
    """Facts an answer may apply without being wrong though none is needed (a global preference):
    applying one is neither a false retrieval nor a failed abstention."""
    delegate: bool = False
    """The request asks for a child agent to do the lookup."""


class Turn(_Closed):
    """One user submission and what happens while it runs."""

    user: str = Field(min_length=1)
    """What the user types."""
    via: Literal["message", "steer"] = "message"
    """``steer``: typed while no turn runs, so the steer is promoted into a new turn."""
    steers: list[str] = []
    """Steers typed while this turn runs; they arrive after the agent's first model call."""
    shows: str | None = None
    """What the ``workspace`` tool shows during this turn (command output, files)."""
    task: Task | None = None
    """The request to check, if this turn is one."""

    @property
    def typed(self) -> str:
        """Everything the user types in this turn: the message, then its steers, a line each."""
        return "\n".join([self.user, *self.steers])


class SessionSpec(_Closed):
    """One session of a scenario."""

    kind: Literal["new", "restored", "forked"] = "new"
    """How the session starts."""
    source: int | None = Field(default=None, ge=1)
    """For restored and forked sessions: the 1-based number of the session whose state continues."""
    day: int = Field(default=0, ge=0)
    """Simulated day the session runs on (probation is seven days)."""
    repository: str = Field(min_length=1)
    """The repository the session works in; named in the system prompt."""
    turns: list[Turn] = Field(min_length=1)
    """The submissions, in order."""


class Scenario(_Closed):
    """A validated scenario."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    """Equal to the file name without ``.toml``."""
    category: Category
    """What the scenario exercises."""
    split: Split
    """Tuning or held-out."""
    title: str
    """One line."""
    summary: str
    """What happens, and why memory should or should not help."""
    seeds: list[str] = []
    """Facts stored before the first session, identically for both arms."""
    facts: list[Fact] = []
    """Candidate conclusions."""
    sessions: list[SessionSpec] = Field(min_length=2)
    """The sessions, in order."""

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        for problem in _problems(self):
            raise ValueError(problem)
        return self

    def fact(self, fact_id: str) -> Fact:
        """The fact named ``fact_id``."""
        return next(f for f in self.facts if f.id == fact_id)

    def tasks(self) -> Iterator[tuple[int, int, Task]]:
        """Every task with its 0-based session and turn index."""
        for s, session in enumerate(self.sessions):
            for t, turn in enumerate(session.turns):
                if turn.task is not None:
                    yield s, t, turn.task

    def stated_at(self, fact_id: str) -> tuple[int, int] | None:
        """The first ``(session, turn)`` whose text states the fact; ``None`` if no turn does."""
        evidence = self.fact(fact_id).evidence
        if evidence is None:
            return None
        for s, session in enumerate(self.sessions):
            for t, turn in enumerate(session.turns):
                if any(evidence in text for text in (turn.user, *turn.steers, turn.shows or "")):
                    return (s, t)
        return None

    def superseded(self) -> frozenset[str]:
        """Ids of facts that a later fact replaces."""
        return frozenset(f.replaces for f in self.facts if f.replaces)

    def brief(self) -> Brief:
        """What a policy may know about this scenario (no ground truth)."""
        return Brief(
            facts=tuple(
                BriefFact(f.id, f.content, f.evidence, f.replaces, f.query or f.content, f.retracts) for f in self.facts
            ),
            tasks={turn_text(turn): (turn.task.id, turn.task.query, turn.task.delegate) for turn in _turns(self) if turn.task},
        )


def _turns(scenario: Scenario) -> Iterator[Turn]:
    for session in scenario.sessions:
        yield from session.turns


def turn_text(turn: Turn) -> str:
    """The text that starts ``turn``: the user's message or the promoted steer."""
    return turn.user


def _conversation(scenario: Scenario) -> list[str]:
    texts: list[str] = []
    for turn in _turns(scenario):
        texts += [turn.user, *turn.steers, *([turn.shows] if turn.shows else [])]
    return texts


def _problems(s: Scenario) -> Iterator[str]:
    ids = [f.id for f in s.facts]
    if len(set(ids)) != len(ids):
        yield "fact ids must be unique"
    known = set(ids)
    texts = _conversation(s)
    for f in s.facts:
        if f.replaces is not None and (f.replaces not in known or f.replaces == f.id):
            yield f"fact {f.id!r} replaces unknown fact {f.replaces!r}"
        if f.retracts is not None and (f.retracts not in known or f.retracts == f.id):
            yield f"fact {f.id!r} retracts unknown fact {f.retracts!r}"
        if f.retracts is not None and (f.store or f.replaces is not None):
            yield f"fact {f.id!r} retracts {f.retracts!r}: a retraction is not stored (store = false) and replaces nothing"
        if f.evidence is None and f.id not in s.seeds:
            yield f"fact {f.id!r} has no evidence and is not a seed"
        if f.evidence is not None and not any(f.evidence in text for text in texts):
            yield f"the evidence of fact {f.id!r} ({f.evidence!r}) appears verbatim in no turn, steer or workspace output"
        for marker in f.match:
            if marker.casefold() not in f.content.casefold():
                yield f"marker {marker!r} of fact {f.id!r} is not in its content"
        if f.store and len(f.content.encode("utf-8")) > 1024:
            yield f"fact {f.id!r} is over the 1,024-byte record limit"
        earlier = f.supersedes
        if earlier in known and contains_all(f.content, s.fact(earlier).match):
            yield f"fact {f.id!r} holds every marker of {earlier!r}, which it supersedes: its own wording would read as the stale one"
    for seed in s.seeds:
        if seed not in known:
            yield f"seed {seed!r} is not a fact"
    tasks = [task for _, _, task in s.tasks()]
    if not tasks:
        yield "a scenario needs at least one task"
    if len({t.id for t in tasks}) != len(tasks):
        yield "task ids must be unique"
    starts = [turn_text(turn) for turn in _turns(s) if turn.task]
    if len(set(starts)) != len(starts):
        yield "two tasks start with the same text"
    for turn in _turns(s):
        task = turn.task
        if task is None:
            continue
        for ref in (*task.relevant, *task.allowed):
            if ref not in known:
                yield f"task {task.id!r} names unknown fact {ref!r}"
        seen = (turn.user, *turn.steers, turn.shows or "")
        right = [s.fact(ref).content for ref in (*task.relevant, *task.allowed) if ref in known]
        right += [f.content for f in s.facts if f.retracts]
        for unwanted in task.reject:
            if any(contains_marker(text, unwanted) for text in right):
                yield f"rejected marker {unwanted!r} of task {task.id!r} is in a conclusion a right answer may state"
        for wanted in task.expect:
            if any(contains_marker(text, wanted) for text in seen):
                yield f"expected marker {wanted!r} of task {task.id!r} is in its own turn (request, steers or workspace output)"
    if s.sessions[0].kind != "new":
        yield "the first session must be new"
    for number, session in enumerate(s.sessions, start=1):
        if session.kind == "new" and session.source is not None:
            yield f"session {number} is new and cannot have a source"
        if session.source is not None and session.source >= number:
            yield f"session {number} continues session {session.source}, which is not earlier"
    days = [session.day for session in s.sessions]
    if days != sorted(days):
        yield "session days must not go backwards"
    if s.category in ("secret", "adversarial_text") and all(f.store for f in s.facts):
        yield f"a {s.category} scenario needs a fact with store = false"


@dataclass(frozen=True)
class BriefFact:
    """A candidate conclusion as a policy sees it: no markers, no ground truth."""

    id: str
    """Fact id."""
    content: str
    """What to store."""
    evidence: str | None
    """The words in the conversation that state it; ``None`` for a conclusion stored before the story."""
    replaces: str | None
    """The earlier fact it supersedes."""
    query: str
    """What to scan for before storing it."""
    retracts: str | None = None
    """The earlier fact it withdraws (its record is to be deleted); it is not stored itself."""

    @property
    def supersedes(self) -> str | None:
        """The earlier fact it replaces or withdraws, if any."""
        return self.replaces or self.retracts


@dataclass(frozen=True)
class Brief:
    """What a policy may know about a scenario: candidate conclusions and task queries."""

    facts: tuple[BriefFact, ...]
    """Conclusions a reviewing agent would consider."""
    tasks: dict[str, tuple[str, str, bool]]
    """Turn text to ``(task id, scan query, delegate)``."""

    def fact(self, fact_id: str) -> BriefFact | None:
        """The fact named ``fact_id``, if the brief has it."""
        return next((f for f in self.facts if f.id == fact_id), None)


ModelT = TypeVar("ModelT", bound=BaseModel)


def load_toml_model(path: Traversable, model: type[ModelT]) -> ModelT:
    """Read a TOML file into a pydantic model; every failure is an :class:`EvalError` naming it."""
    try:
        return model.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise EvalError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise EvalError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise EvalError(f"{path}: invalid TOML: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or model.__name__
        raise EvalError(f"{path}: {where}: {first['msg']}") from None


def data_dir() -> Traversable:
    """The evaluation data shipped inside the package (``tact_memory/eval/data``)."""
    return resources.files("tact_memory.eval").joinpath("data")


def default_scenario_dir() -> Traversable:
    """The scenarios shipped with the package, so an installed wheel can run ``eval``."""
    return data_dir().joinpath("scenarios")


def load_scenario(path: Traversable) -> Scenario:
    """Read and validate one scenario file.

    Raises:
        EvalError: unreadable file, text that is not UTF-8, invalid TOML, a schema or consistency problem, or a file name
            that differs from the scenario id.
    """
    scenario = load_toml_model(path, Scenario)
    if scenario.id != path.name.removesuffix(".toml"):
        raise EvalError(f"{path}: id {scenario.id!r} differs from the file name")
    return scenario


class _BackgroundRecord(_Closed):
    content: str = Field(min_length=1)
    match: list[str] = Field(min_length=1)
    scope: str | None = None


class _Background(_Closed):
    memory: list[_BackgroundRecord] = Field(min_length=1)


def load_background(directory: Traversable | None = None) -> tuple[Fact, ...]:
    """The shared background corpus (``background/corpus.toml`` beside the scenarios), or nothing.

    Each record comes back as a stored :class:`Fact` named ``background_<n>`` (1-based, in file
    order) that no scenario's task needs: an answer stating one applied an unrelated record, unless
    it holds everywhere (:meth:`Fact.repository` is ``None``, a general preference).

    Raises:
        EvalError: the file exists but cannot be read, is not UTF-8 or is invalid, or a marker is
            not in its record.
    """
    path = (directory or default_scenario_dir()).joinpath("background").joinpath("corpus.toml")
    if not path.is_file():
        return ()
    data = load_toml_model(path, _Background)
    for number, item in enumerate(data.memory, start=1):
        for marker in item.match:
            if marker.casefold() not in item.content.casefold():
                raise EvalError(f"{path}: marker {marker!r} of record {number} is not in its content")
    return tuple(
        Fact(id=f"background_{n}", content=item.content, match=item.match, scope=item.scope)
        for n, item in enumerate(data.memory, start=1)
    )


def load_scenarios(directory: Traversable | None = None) -> list[Scenario]:
    """Every ``*.toml`` scenario in ``directory`` (default: :func:`default_scenario_dir`), by id.

    Raises:
        EvalError: the folder is missing, unreadable or empty, or a file is invalid.
    """
    folder = directory or default_scenario_dir()
    if not folder.is_dir():
        raise EvalError(f"{folder}: no scenario folder (pass --scenarios DIR)")
    try:
        paths = sorted((p for p in folder.iterdir() if p.name.endswith(".toml") and p.is_file()), key=lambda p: p.name)
    except OSError as exc:
        raise EvalError(f"{folder}: cannot be read: {exc.strerror or exc}") from exc
    if not paths:
        raise EvalError(f"{folder}: no scenario files")
    return [load_scenario(path) for path in paths]

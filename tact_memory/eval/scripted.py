"""The scripted policy: a deterministic agent that follows the memory instructions mechanically.

It stands in for a model so that CI can run every scenario offline. It is stateless: every
response is computed from the request alone (system prompt, offered tools, visible messages), so
restored and forked sessions behave exactly as the history they carry implies. Its tool-call ids
name the step they belong to, which is how it finds its own earlier steps in the history.

What it knows: the scenario's :class:`~tact_memory.eval.scenarios.Brief`, that is the candidate
conclusions (with the words of the conversation that state each one and which earlier conclusion
it replaces) and each task's scan query. That is its stand-in for language understanding. It never
sees markers, relevance labels or expected answers: what it answers comes only from the tool
results it received, so a memory-off run fails wherever memory was needed.

Its rules, in the order it applies them in a turn:

1. *Inspect*: call the ``workspace`` tool once per turn when it is offered.
2. *Delegate*: a task that asks for a child agent goes to the ``delegate`` tool; the child's answer
   is the answer.
3. *Look up*: for a task, ``scan`` with the task's query; ``read`` the cards whose score is at least
   ``read_ratio`` times the best and whose preview does not name another repository.
4. *Review*, only when the turn carries the checkpoint: every candidate conclusion whose evidence
   appears in the visible conversation (user text and tool output, never memory results) is
   stored unless it was already handled in this history, a later conclusion in the same
   conversation supersedes or withdraws it, or it came only from tool output and reads as an
   instruction to an AI agent. For each: ``scan`` (its query), ``read`` the cards whose preview is
   this conclusion or the one it replaces, then ``put`` (replacing the old record by id and
   version) or stop when the same content is already stored. A withdrawal (a conclusion that
   retracts another, with nothing in its place) is not stored: ``scan`` for the withdrawn
   conclusion, ``read`` the cards whose preview is it, and ``delete`` each such record at the
   version read. It does not screen for credentials: the store does.
5. *Answer*: for a task, apply each record it read whose scope is this repository (or none) and that
   shares at least ``min_overlap`` query terms beyond the repository name, unless the visible
   conversation has corrected or withdrawn what it says (a correction made earlier in this session
   wins over a record the review has not replaced yet); sentences that read as instructions to an
   AI agent are dropped, because stored text is data. It also applies, by the
   same test, each candidate conclusion that the visible conversation itself states (a restored or
   forked session carries its history), unless a later one in the conversation or a record it
   applied supersedes it: what a model already has in context needs no memory, so a memory-off run
   is not failed for lacking what its own history says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..retrieval.lexer import document_terms, fold_for_duplicate, preview, query_terms
from ..runtime.messages import Message, ModelRequest, ModelResponse, ToolCall
from ..runtime.session import Model
from ..screening.checkpoint import CHECKPOINT_MARKER
from ..testing import answer, call
from .scenarios import Brief, BriefFact, record_scope

__all__ = ["ScriptedPolicy", "looks_like_instruction", "record_scope"]

_REPOSITORY = re.compile(r"`([^`\s]+)`")
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,60}\b(?:instructions?|previous|above|user'?s?|rules|policy)\b"
    r"|\b(?:ai|llm|coding)[ -](?:agents?|assistants?|models?)\b"
    r"|\bsystem prompt\b"
    r"|^\s*(?:system|assistant)\s*:"
    r"|\b(?:save|store|remember|add|write)\b[^.\n]{0,40}\b(?:in|to|into)\s+(?:your\s+)?(?:long[- ]term\s+)?memory\b",
    re.IGNORECASE | re.MULTILINE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\[])")


def looks_like_instruction(text: str) -> bool:
    """Whether ``text`` addresses an AI agent with orders (the policy's stand-in for judgment)."""
    return _INSTRUCTION.search(text) is not None


@dataclass(frozen=True)
class _Step:
    call: ToolCall
    result: Any


@dataclass(frozen=True)
class _View:
    """One request, pre-digested."""

    messages: tuple[Message, ...]
    tools: frozenset[str]
    repository: str | None
    start: int
    steps: dict[str, _Step]

    @classmethod
    def of(cls, request: ModelRequest) -> _View:
        messages = request.messages
        start = 0
        for index, message in enumerate(messages):
            following = messages[index + 1] if index + 1 < len(messages) else None
            if message.kind == "assistant" and (following is None or following.kind != "tool_call"):
                start = index + 1
        results = {m.tool_call_id: m.text for m in messages if m.kind == "tool_result"}
        steps: dict[str, _Step] = {}
        for message in messages:
            if message.kind == "tool_call" and message.tool_call is not None:
                raw = results.get(message.tool_call.id)
                steps[message.tool_call.id] = _Step(message.tool_call, _decode(raw))
        found = _REPOSITORY.search(request.system)
        return cls(messages, frozenset(request.tool_names), found.group(1) if found else None, start, steps)

    @property
    def opening(self) -> str:
        """The user's own text that started this turn."""
        for message in self.messages[self.start :]:
            if message.role == "user":
                return message.parts[0].text if message.parts else ""
        return ""

    @property
    def checkpoint(self) -> bool:
        return any(
            message.role == "user" and (any(p.control for p in message.parts) or CHECKPOINT_MARKER in message.text)
            for message in self.messages[self.start :]
        )

    def step(self, name: str) -> _Step | None:
        """A step of this turn by name."""
        return self.steps.get(f"{self.start}:{name}")

    def ever(self, pattern: str) -> Iterator[_Step]:
        """Steps of any turn whose name matches ``pattern``."""
        regex = re.compile(rf"^\d+:{pattern}$")
        return (step for key, step in self.steps.items() if regex.match(key))

    def heard(self) -> tuple[list[str], list[str]]:
        """Texts the user wrote, and texts non-memory tools returned, in the whole history."""
        user: list[str] = []
        tools: list[str] = []
        for message in self.messages:
            if message.role == "user":
                user += [part.text for part in message.parts if not part.control]
            elif message.kind == "tool_result":
                step = self.steps.get(message.tool_call_id or "")
                if step is not None and step.call.name != "memory":
                    tools.append(message.text)
        return user, tools


def _decode(raw: str | None) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _cards(step: _Step | None) -> list[dict[str, Any]]:
    result = step.result if step is not None else None
    return list(result.get("candidates", [])) if isinstance(result, dict) else []


def _memories(step: _Step | None) -> list[dict[str, Any]]:
    result = step.result if step is not None else None
    return list(result.get("memories", [])) if isinstance(result, dict) else []


class ScriptedPolicy:
    """The deterministic policy. Its two rule constants are pre-registered in ``thresholds.toml``.

    Args:
        read_ratio: Read a card when its score is at least this share of the best card's score.
        min_overlap: Apply a record that shares at least this many query terms (beyond the
            repository's own name) with the task's query.
    """

    name = "scripted"

    def __init__(self, *, read_ratio: float = 0.5, min_overlap: int = 2) -> None:
        self.read_ratio = read_ratio
        self.min_overlap = min_overlap

    def model(self, brief: Brief) -> Model:
        """A stateless model following the rules in the module docstring."""
        return _ScriptedAgent(brief, self.read_ratio, self.min_overlap)


class _ScriptedAgent:
    def __init__(self, brief: Brief, read_ratio: float, min_overlap: int) -> None:
        self.brief = brief
        self.read_ratio = read_ratio
        self.min_overlap = min_overlap

    def __call__(self, request: ModelRequest) -> ModelResponse:
        view = _View.of(request)
        task = self.brief.tasks.get(view.opening)
        if "workspace" in view.tools and view.step("ws") is None:
            return call("workspace", {}, id=f"{view.start}:ws")
        if task is not None and task[2] and "delegate" in view.tools:
            delegated = view.step("delegate")
            if delegated is None:
                return call("delegate", {"request": view.opening}, id=f"{view.start}:delegate")
            reply = delegated.result.get("answer") if isinstance(delegated.result, dict) else delegated.result
            return answer(f"A child agent looked this up.\n{reply}")
        if task is not None and "memory" in view.tools:
            response = self._look_up(view, task[0], task[1])
            if response is not None:
                return response
        if view.checkpoint and "memory" in view.tools:
            response = self._review(view)
            if response is not None:
                return response
        return answer(self._compose(view, task))

    # -- rule 3: look up --------------------------------------------------------------------

    def _look_up(self, view: _View, task_id: str, query: str) -> ModelResponse | None:
        scan = view.step(f"tk:{task_id}:scan")
        if scan is None:
            return call("memory", {"operation": "scan", "query": _clip(query)}, id=f"{view.start}:tk:{task_id}:scan")
        cards = _cards(scan)
        if not cards or view.step(f"tk:{task_id}:read") is not None:
            return None
        best = float(cards[0]["score"])
        ids = [
            int(card["key"]["id"])
            for card in cards
            if float(card["score"]) >= self.read_ratio * best and not self._foreign(str(card["preview"]), view)
        ]
        if not ids:
            return None
        return call("memory", {"operation": "read", "ids": ids}, id=f"{view.start}:tk:{task_id}:read")

    def _foreign(self, text: str, view: _View) -> bool:
        scope = record_scope(text)
        return scope is not None and scope != view.repository and scope.casefold() not in view.opening.casefold()

    # -- rule 4: review ---------------------------------------------------------------------

    def _review(self, view: _View) -> ModelResponse | None:
        learned = self._learned(view)
        superseded = {f.supersedes for f in learned if f.supersedes}
        for fact in learned:
            if fact.id in superseded or self._handled(fact, view):
                continue
            response = self._withdraw(fact, view) if fact.retracts else self._store(fact, view)
            if response is not None:
                return response
        return None

    def _withdraw(self, fact: BriefFact, view: _View) -> ModelResponse | None:
        """Delete the records of the conclusion ``fact`` retracts: scan, read the cards that preview
        it, delete each at the version read (one call a step)."""
        old = self.brief.fact(fact.retracts or "")
        if old is None:
            return None
        name = f"rv:{fact.id}"
        scan = view.step(f"{name}:scan")
        if scan is None:
            return call("memory", {"operation": "scan", "query": _clip(old.query)}, id=f"{view.start}:{name}:scan")
        targets = [int(c["key"]["id"]) for c in _cards(scan) if str(c["preview"]) == preview(old.content, 64)]
        if not targets:
            return None
        read = view.step(f"{name}:read")
        if read is None:
            return call("memory", {"operation": "read", "ids": targets}, id=f"{view.start}:{name}:read")
        wanted = fold_for_duplicate(old.content)
        for memory in _memories(read):
            key = memory["key"]
            if fold_for_duplicate(str(memory["content"])) == wanted and view.step(f"{name}:delete:{key['id']}") is None:
                arguments = {"operation": "delete", "id": key["id"], "version": key["version"]}
                return call("memory", arguments, id=f"{view.start}:{name}:delete:{key['id']}")
        return None

    def _learned(self, view: _View) -> list[BriefFact]:
        user, tools = view.heard()
        learned = []
        for fact in self.brief.facts:
            if fact.evidence is None:
                continue
            said = any(fact.evidence in text for text in user)
            shown = any(fact.evidence in text for text in tools)
            if said or (shown and not looks_like_instruction(fact.content) and not looks_like_instruction(fact.evidence)):
                learned.append(fact)
        return learned

    def _handled(self, fact: BriefFact, view: _View) -> bool:
        if any(view.ever(rf"rv:{fact.id}:(?:put|delete:\d+)")):
            return True
        if fact.retracts:
            return False  # done once its deletes are (above); it has no content of its own to find
        return any(self._same_as_stored(fact, step) for step in view.ever(rf"rv:{fact.id}:(?:scan|read)"))

    @staticmethod
    def _same_as_stored(fact: BriefFact, step: _Step) -> bool:
        wanted = fold_for_duplicate(fact.content)
        shown = [str(c["preview"]) for c in _cards(step) if str(c["preview"]) == fact.content]
        shown += [str(m["content"]) for m in _memories(step)]
        return any(fold_for_duplicate(text) == wanted for text in shown)

    def _store(self, fact: BriefFact, view: _View) -> ModelResponse | None:
        name = f"rv:{fact.id}"
        scan = view.step(f"{name}:scan")
        if scan is None:
            return call("memory", {"operation": "scan", "query": _clip(fact.query)}, id=f"{view.start}:{name}:scan")
        if self._same_as_stored(fact, scan):
            return None
        old = self.brief.fact(fact.replaces) if fact.replaces else None
        prefixes = {preview(fact.content, 64)} | ({preview(old.content, 64)} if old else set())
        targets = [int(c["key"]["id"]) for c in _cards(scan) if str(c["preview"]) in prefixes]
        read = view.step(f"{name}:read")
        if targets and read is None:
            return call("memory", {"operation": "read", "ids": targets}, id=f"{view.start}:{name}:read")
        if read is not None and self._same_as_stored(fact, read):
            return None
        arguments: dict[str, Any] = {"operation": "put", "content": fact.content}
        for memory in _memories(read):
            if old is not None and fold_for_duplicate(str(memory["content"])) == fold_for_duplicate(old.content):
                arguments["replace"] = {"id": memory["key"]["id"], "version": memory["key"]["version"]}
                break
        return call("memory", arguments, id=f"{view.start}:{name}:put")

    # -- rule 5: answer ---------------------------------------------------------------------

    def _compose(self, view: _View, task: tuple[str, str, bool] | None) -> str:
        if task is None:
            return "Done."
        applied, recalled = [], []
        used: set[str] = set()
        learned = self._learned(view)
        withdrawn = {f.supersedes for f in learned if f.supersedes}
        stale = {fold_for_duplicate(f.content) for f in self.brief.facts if f.id in withdrawn}
        for memory in _memories(view.step(f"tk:{task[0]}:read")):
            content = str(memory["content"])
            if fold_for_duplicate(content) in stale or not self._applies(task[1], content, view):
                continue
            usable = " ".join(s for s in _SENTENCE.split(content) if not looks_like_instruction(s))
            if usable:
                applied.append(f"- memory {memory['key']['id']}: {usable}")
                used.add(fold_for_duplicate(content))
        for fact in self._in_context(view, learned, used):
            if self._applies(task[1], fact.content, view):
                recalled.append(f"- as said in this conversation: {fact.content}")
        if not applied and not recalled:
            return "Plan: no stored conclusion applies; I follow the request and the repository as they are."
        head = "Plan, using what memory holds:" if applied else "Plan, using what this conversation says:"
        return head + "\n" + "\n".join([*applied, *recalled])

    def _applies(self, query: str, content: str, view: _View) -> bool:
        shared, possible = self._overlap(query, content, view)
        return not self._foreign(content, view) and shared >= min(self.min_overlap, max(possible, 1))

    def _in_context(self, view: _View, learned: list[BriefFact], used: set[str]) -> list[BriefFact]:
        """Conclusions the visible conversation states (``learned``), less those superseded in it or
        by a record applied (``used``: their duplicate keys) and those already applied from memory."""
        applied = [f for f in self.brief.facts if fold_for_duplicate(f.content) in used]
        superseded = {f.supersedes for f in (*learned, *applied) if f.supersedes}
        return [f for f in learned if f.id not in superseded and not f.retracts and fold_for_duplicate(f.content) not in used]

    @staticmethod
    def _overlap(query: str, content: str, view: _View) -> tuple[int, int]:
        """Query terms (beyond the repository's name) the content shares, and how many there are."""
        scope = set(document_terms(view.repository or ""))
        terms = query_terms(query) - scope
        return len(terms & set(document_terms(content))), len(terms)


def _clip(text: str, limit: int = 512) -> str:
    return preview(text, limit)

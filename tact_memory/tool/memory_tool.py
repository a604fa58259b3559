"""The one ``memory`` tool as one agent sees it.

A :class:`MemoryTool` belongs to one agent. It remembers whether that agent has scanned since its
last put, because the specification asks agents to scan before they put; a put without that scan
is refused with ``scan_required``. Every failure is returned as ``{"operation": …, "error":
{"code": …, "message": …}}`` rather than raised: an agent loop never sees an exception from this
tool. A call is decoded once (:func:`~.wire.decode`), run, and its result built by
:mod:`.results`. Role checks are not here: they wrap the tool, see :mod:`tact_memory.tool.guard`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from .. import errors
from ..limits import DEFAULT_LIMITS, Limits
from .results import error_result, result
from .schemas import TOOL_NAME, tool_definition
from .wire import DeleteCall, InvalidCall, PutCall, ReadCall, ScanCall, decode

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any

    from ..backend import MemoryBackend
    from .results import ToolResult
    from .wire import Call

__all__ = ["MemoryTool", "scanned_since_put", "store_limits"]


def store_limits(store: object) -> Limits:
    """The bounds of ``store`` (its ``limits`` attribute), or the default ones when it has none."""
    limits = getattr(store, "limits", None)
    return limits if isinstance(limits, Limits) else DEFAULT_LIMITS


def scanned_since_put(results: Iterable[object]) -> bool:
    """Whether one agent's results of this tool, oldest first, leave it scanned since its last put,
    as :class:`MemoryTool` counts: a scan or a put answered without an error.

    A result is the tool's JSON object, as a mapping or as its text; anything else (a refusal, a
    framework's message for a call a person denied, a missing output) changes nothing.
    """
    scanned = False
    for answer in results:
        if isinstance(answer, str | bytes):
            try:
                answer = json.loads(answer)
            except ValueError:
                continue
        if isinstance(answer, Mapping) and "error" not in answer and answer.get("operation") in ("scan", "put"):
            scanned = answer["operation"] == "scan"
    return scanned


class MemoryTool:
    """The memory tool as one agent sees it.

    Args:
        store: The corpus, or ``None`` when memory is disabled (every call then returns ``disabled``).
    """

    name = TOOL_NAME

    def __init__(self, store: MemoryBackend | None) -> None:
        self.store = store
        self.limits = store_limits(store)
        """The bounds the schema publishes and validation enforces: the store's."""
        self._scanned_since_put = False

    def note_scan(self) -> None:
        """Count a scan this agent made before this tool served it (a run resumed from a saved
        state, in another process): its next put needs no scan of its own."""
        self._scanned_since_put = True

    def definition(self) -> dict[str, Any]:
        """The tool definition to give a model."""
        return tool_definition(self.limits)

    def decode(self, arguments: str | bytes | Mapping[str, Any]) -> Call:
        """Decode and validate one call against this store's bounds.

        Raises:
            InvalidCall: the call is malformed; see :func:`~.wire.decode`.
        """
        return decode(arguments, self.limits)

    def call(self, arguments: str | bytes | Mapping[str, Any]) -> ToolResult:
        """Decode, run and answer one call; never raises for bad input or refusals."""
        try:
            call = self.decode(arguments)
        except InvalidCall as exc:
            return error_result(exc.operation, exc)
        return self.answer(call)

    async def acall(self, arguments: str | bytes | Mapping[str, Any]) -> ToolResult:
        """:meth:`call` in a worker thread, so a locked database never blocks the event loop."""
        import asyncio

        return await asyncio.to_thread(self.call, arguments)

    def answer(self, call: Call) -> ToolResult:
        """Run a decoded call and return its result, a refusal included; never raises for one."""
        try:
            return self.run(call)
        except errors.TactMemoryError as exc:
            return error_result(call.operation, exc)

    def run(self, call: Call) -> ToolResult:
        """Execute a decoded call.

        Raises:
            MemoryOperationError: the store refused it, memory is disabled, or a put came without a scan.
        """
        if self.store is None:
            raise errors.MemoryDisabled(
                "memory is disabled for this session; set `[memory] enabled = true` in config.toml "
                "and start a new session"
            )
        if isinstance(call, ScanCall):
            limit = call.limit if call.limit is not None else self.limits.scan_results
            cards = self.store.scan(call.query, limit=limit)
            self._scanned_since_put = True
            return result(call.operation, abstained=not cards, candidates=cards)
        if isinstance(call, ReadCall):
            return result(call.operation, memories=self.store.read(call.ids))
        if isinstance(call, PutCall):
            if not self._scanned_since_put:
                raise errors.ScanRequired(
                    "scan for related memories before putting, so you replace a record instead of duplicating it"
                )
            stored = self.store.put(call.content, replace=call.replace)
            self._scanned_since_put = False
            return result(call.operation, memory=stored.memory, replaced=stored.replaced)
        if isinstance(call, DeleteCall):
            self.store.delete(call.key)
            return result(call.operation, id=call.key.id)
        raise AssertionError(f"unhandled call {call!r}")  # pragma: no cover
